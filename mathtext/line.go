package mathtext

import (
	"sort"
	"strings"
	"unicode/utf8"
)

// Line is text as one line shows it, in mode m: its math readable (display blocks and
// rows joined by spaces) or, in Raw mode, as written. Every place that shows a claim or
// a proof on a line (tree rows, similar statements, the graveyard, dialogs, exports, the
// status line) shows it through Line, so the m toggle reaches all of them.
func Line(s string, m Mode) string {
	if m == Raw || !HasMath(s) {
		return s
	}
	out := Text(s, 0)
	if strings.ContainsAny(out, "\n\t\r") {
		out = strings.Join(strings.Fields(out), " ")
	}
	return collapse(out)
}

// sourceOf maps what the renderer writes for a symbol to the commands written for it,
// shortest first: ≡ to \equiv, ≤ to \le and \leq.
var sourceOf = func() map[string][]string {
	out := map[string][]string{}
	for name, sym := range symbols {
		if sym == "" || strings.TrimSpace(sym) == "" || !isLetter(name[0]) || utf8.RuneCountInString(sym) != 1 || sym[0] < utf8.RuneSelf {
			continue
		}
		out[sym] = append(out[sym], `\`+name)
	}
	for name, al := range alphabets {
		for c := 'A'; c <= 'Z'; c++ {
			if r := letters(string(c), al); r != string(c) {
				out[r] = append(out[r], `\`+name+`{`+string(c)+`}`)
			}
		}
	}
	for sym, names := range out {
		sort.Slice(names, func(i, j int) bool {
			return len(names[i]) < len(names[j]) || len(names[i]) == len(names[j]) && names[i] < names[j]
		})
		out[sym] = names
	}
	return out
}()

// SourceForms are the ways LaTeX writes what word reads as, when word holds symbols the
// renderer writes (≡, ≤, α, ℝ, x²): a search for "≡" finds \equiv. It returns nil for
// a word without such symbols, and at most a few dozen forms.
func SourceForms(word string) []string {
	forms := []string{""}
	changed := false
	for _, r := range word {
		var alts []string
		switch {
		case sourceOf[string(r)] != nil:
			alts = sourceOf[string(r)]
		case superBackRune(r) != 0:
			d := string(superBackRune(r))
			alts = []string{"^" + d, "^{" + d + "}"}
		case subBackRune(r) != 0:
			d := string(subBackRune(r))
			alts = []string{"_" + d, "_{" + d + "}"}
		default:
			for i := range forms {
				forms[i] += string(r)
			}
			continue
		}
		changed = true
		var next []string
		for _, f := range forms {
			for _, a := range alts {
				if len(next) < 48 {
					next = append(next, f+a)
				}
			}
		}
		forms = next
	}
	if !changed {
		return nil
	}
	return forms
}

var superBack, subBack = invertRunes(superscripts), invertRunes(subscripts)

func invertRunes(m map[rune]rune) map[rune]rune {
	out := map[rune]rune{}
	for k, v := range m {
		if k != '−' {
			out[v] = k
		}
	}
	return out
}

func superBackRune(r rune) rune { return superBack[r] }
func subBackRune(r rune) rune   { return subBack[r] }
