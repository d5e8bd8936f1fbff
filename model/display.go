package model

// Display math found in a proof: the blocks the sentence splitter keeps whole and the
// math renderer sets on lines of their own.

import (
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// displayEnvs are the LaTeX environments that make a display block on their own (and,
// nested in $$…$$ or \[…\], are part of the block around them).
var displayEnvs = map[string]bool{
	"equation": true, "equation*": true, "align": true, "align*": true, "aligned": true,
	"alignat": true, "alignat*": true, "alignedat": true, "flalign": true, "flalign*": true,
	"gather": true, "gather*": true, "gathered": true, "multline": true, "multline*": true,
	"split": true, "cases": true, "dcases": true, "array": true, "eqnarray": true, "eqnarray*": true,
	"displaymath": true, "matrix": true, "pmatrix": true, "bmatrix": true, "Bmatrix": true,
	"vmatrix": true, "Vmatrix": true, "smallmatrix": true, "subequations": true,
	// Tables and figure code: one unit each, whatever they hold.
	"tabular": true, "tabular*": true, "tikzpicture": true, "picture": true, "tikzcd": true,
}

// Asymptote figure code, as competition solutions write it: [asy] … [/asy], one block
// (it holds semicolons, periods and "$" of its labels that are no sentence ends).
const (
	AsyOpen  = "[asy]"
	AsyClose = "[/asy]"
)

// DisplayBlock is a display block of a proof: proof[Start:End] runs from its opening
// delimiter to the end of its closing one.
type DisplayBlock struct{ Start, End int }

// DisplayBlocks finds the display blocks of a proof, left to right, without overlap:
// $$…$$, \[…\] and \begin{E}…\end{E} for a display environment E (nested ones of the
// same name counted), and [asy]…[/asy] figure code. Inline math ($…$ within a paragraph) and backslash escapes are
// skipped on the way, so "\$$" is not an opener. An opener without a closer is taken
// literally, and so are later openers of its kind (which keeps the search linear).
func DisplayBlocks(s string) []DisplayBlock {
	var out []DisplayBlock
	var noDollar, noBracket, noAsy bool
	var noEnv map[string]bool
	for i := 0; i < len(s); {
		switch c := s[i]; {
		case c == '[' && !noAsy && strings.HasPrefix(s[i:], AsyOpen):
			if k := strings.Index(s[i+len(AsyOpen):], AsyClose); k >= 0 {
				j := i + len(AsyOpen) + k + len(AsyClose)
				out = append(out, DisplayBlock{i, j})
				i = j
				continue
			}
			noAsy = true
			i++
		case c == '\\' && i+1 < len(s) && s[i+1] == '[':
			if !noBracket {
				if j := closeAt(s, i+2, `\]`); j >= 0 {
					out = append(out, DisplayBlock{i, j})
					i = j
					continue
				}
				noBracket = true
			}
			i += 2
		case c == '\\' && strings.HasPrefix(s[i:], `\begin{`):
			name, n := envOpen(s[i:])
			if n > 0 && displayEnvs[name] && !noEnv[name] {
				if j := envClose(s, i+n, name); j >= 0 {
					out = append(out, DisplayBlock{i, j})
					i = j
					continue
				}
				if noEnv == nil {
					noEnv = map[string]bool{}
				}
				noEnv[name] = true
			}
			i += 2
		case c == '\\':
			i += 2
		case c == '$' && i+1 < len(s) && s[i+1] == '$':
			if !noDollar {
				if j := closeAt(s, i+2, "$$"); j >= 0 {
					out = append(out, DisplayBlock{i, j})
					i = j
					continue
				}
				noDollar = true
			}
			i += 2
		case c == '$':
			if j := InlineMathEnd(s, i+1); j > 0 {
				i = j
			} else {
				i++
			}
		default:
			i++
		}
	}
	return out
}

// closeAt returns the index after the first closer at or after from, backslash escapes
// skipped ("\\]" is not a closer of \[), or -1.
func closeAt(s string, from int, closer string) int {
	for j := from; j < len(s); {
		if strings.HasPrefix(s[j:], closer) {
			return j + len(closer)
		}
		if s[j] == '\\' {
			j += 2
		} else {
			j++
		}
	}
	return -1
}

// envOpen reads "\begin{name}" at the start of s: the name and the length, 0 if none.
func envOpen(s string) (string, int) {
	const open = `\begin{`
	if !strings.HasPrefix(s, open) {
		return "", 0
	}
	rest := s[len(open):min(len(s), len(open)+24)]
	k := strings.IndexByte(rest, '}')
	if k <= 0 {
		return "", 0
	}
	return rest[:k], len(open) + k + 1
}

// envClose returns the index after the \end{name} that closes an environment opened
// before from, nested \begin{name} counted, or -1.
func envClose(s string, from int, name string) int {
	begin, end := `\begin{`+name+`}`, `\end{`+name+`}`
	depth := 1
	for j := from; j < len(s); {
		if s[j] != '\\' {
			j++
			continue
		}
		switch {
		case strings.HasPrefix(s[j:], end):
			depth--
			j += len(end)
			if depth == 0 {
				return j
			}
		case strings.HasPrefix(s[j:], begin):
			depth++
			j += len(begin)
		default:
			j += 2
		}
	}
	return -1
}

// InlineMathEnd finds the closing "$" of inline math opened just before from (not
// across a blank line, escapes skipped); it returns the index after it, or -1. The
// splitter, the renderer and the readable math share it, so they agree on what is math.
func InlineMathEnd(s string, from int) int {
	for j := from; j < len(s); j++ {
		switch s[j] {
		case '\\':
			j++
		case '$':
			return j + 1
		case '\n':
			if k := skipBlanks(s, j+1); k < len(s) && s[k] == '\n' {
				return -1
			}
		}
	}
	return -1
}

func skipBlanks(s string, i int) int {
	for i < len(s) && (s[i] == ' ' || s[i] == '\t' || s[i] == '\r') {
		i++
	}
	return i
}

// blockAt returns the index of the block that contains offset i (start included), or -1.
func blockAt(blocks []DisplayBlock, i int) int {
	k := sort.Search(len(blocks), func(k int) bool { return blocks[k].End > i })
	if k < len(blocks) && blocks[k].Start <= i {
		return k
	}
	return -1
}

// blockEndingAt returns the index of the block that ends exactly at offset i, or -1.
func blockEndingAt(blocks []DisplayBlock, i int) int {
	k := sort.Search(len(blocks), func(k int) bool { return blocks[k].End >= i })
	if k < len(blocks) && blocks[k].End == i {
		return k
	}
	return -1
}

// endsSentence reports whether s[from:to] ends like a sentence: with ".", "!" or "?"
// once trailing white space, closers, math delimiters, \end{…} markers and "\\" row
// ends are set aside ("x = 1.$$" and "$n$." both end; "we have" does not). Only the
// last endWindow bytes are looked at, so that a long run of markers costs no more.
func endsSentence(s string, from, to int) bool {
	from = max(from, to-endWindow)
	j := to
	for j > from {
		r, size := utf8.DecodeLastRuneInString(s[from:j])
		switch {
		case unicode.IsSpace(r):
			j -= size
			continue
		case strings.HasSuffix(s[from:j], `\\`), strings.HasSuffix(s[from:j], `\]`), strings.HasSuffix(s[from:j], `\)`):
			j -= 2
			continue
		case r == '}':
			w := s[max(from, j-32):j]
			if k := strings.LastIndex(w, `\end{`); k >= 0 && !strings.ContainsAny(w[k+5:len(w)-1], `{}\`) {
				j -= len(w) - k
				continue
			}
		case r == '$':
			j -= size
			continue
		}
		if n := closerSuffix(s[from:j]); n > 0 {
			j -= n
			continue
		}
		return r == '.' || r == '!' || r == '?'
	}
	return false
}

// endWindow bounds how far back endsSentence looks.
const endWindow = 128

func closerSuffix(s string) int {
	for _, c := range closers {
		if strings.HasSuffix(s, c) {
			return len(c)
		}
	}
	return 0
}

// markerOnly reports whether t holds nothing but white space, math delimiters ($, $$,
// \[, \], \(, \)), environment markers (\begin{…} with its arguments, \end{…}), "&"
// and "\\": text that cannot be a sentence on its own.
func markerOnly(t string) bool {
	for i := 0; i < len(t); {
		r, size := utf8.DecodeRuneInString(t[i:])
		switch {
		case unicode.IsSpace(r), r == '$', r == '&':
			i += size
		case strings.HasPrefix(t[i:], `\\`), strings.HasPrefix(t[i:], `\[`), strings.HasPrefix(t[i:], `\]`),
			strings.HasPrefix(t[i:], `\(`), strings.HasPrefix(t[i:], `\)`):
			i += 2
		case strings.HasPrefix(t[i:], `\begin{`), strings.HasPrefix(t[i:], `\end{`):
			begin := t[i+1] == 'b'
			i += strings.IndexByte(t[i:], '{') + 1
			k := strings.IndexFunc(t[i:], func(r rune) bool { return !isEnvNameRune(r) })
			if k < 0 || t[i+k] != '}' {
				return false
			}
			i += k + 1
			if begin {
				i = skipEnvArgs(t, i)
			}
		default:
			return false
		}
	}
	return true
}

// isEnvNameRune reports whether r may be part of an environment's name.
func isEnvNameRune(r rune) bool {
	return r < utf8.RuneSelf && (isASCIILetter(byte(r)) || r == '*' || '0' <= r && r <= '9')
}

// skipEnvArgs skips the {…} and […] arguments right after \begin{name}, each on one
// line (so that a marker never reaches into another sentence).
func skipEnvArgs(t string, i int) int {
	for i < len(t) && (t[i] == '{' || t[i] == '[') {
		closer := byte('}')
		if t[i] == '[' {
			closer = ']'
		}
		k := strings.IndexByte(t[i:], closer)
		if k < 0 || strings.IndexByte(t[i:i+k], '\n') >= 0 {
			return i
		}
		i += k + 1
	}
	return i
}

// IsMarkerOnly reports whether a sentence's text is nothing but math delimiters,
// environment markers, "&" and "\\" (see markerOnly); SplitSentences never returns one
// unless the whole proof is such text.
func IsMarkerOnly(text string) bool { return markerOnly(text) }
