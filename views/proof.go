package views

// Proofs are markdown-ish text with inline math. They are rendered with glamour (in a
// tea.Cmd, never in View), with two protections:
//
//   - math ($…$, $$…$$, \(…\), \[…\]) and every backslash escape are swapped for runes
//     of Unicode plane 15's private use area before glamour sees them, one placeholder
//     rune per original rune, and swapped back after: glamour would otherwise eat the
//     `*` of $a*b$ as emphasis and the backslash of `\{`; one rune per rune keeps the
//     width glamour wrapped with;
//   - a sentence marker "[N]" is inserted, also as placeholder runes, where each sentence
//     starts (model.SplitSentences), so that after rendering we know on which line each
//     sentence begins: the sentence cursor is drawn from that, without rendering again.

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"regexp"
	"strings"
	"unicode/utf8"

	"charm.land/glamour/v2"
	"github.com/charmbracelet/x/ansi"

	"referee/model"
	"referee/themes"
)

const puaBase = 0xF0000 // Supplementary Private Use Area-A; 65534 runes

// placeholder is what one private-use rune stands for.
type placeholder struct {
	text     string
	sentence int // > 0: first rune of sentence N's marker
	marker   bool
}

// preparedProof is a proof ready for a markdown renderer.
type preparedProof struct {
	md        string
	table     []placeholder
	sentences []model.Sentence
}

var listStart = regexp.MustCompile(`^[ \t]*(?:#{1,6}[ \t]+|[-*+•][ \t]+|\d{1,3}[.)][ \t]+|>[ \t]?)`)

func prepareProof(proof string) preparedProof {
	sents := model.SplitSentences(proof)
	p := preparedProof{sentences: sents}
	var b strings.Builder
	b.Grow(len(proof) + 8*len(sents))
	protect := func(s string, sentence int, marker bool) {
		first := true
		for _, r := range s {
			if len(p.table) >= 0xFFFD || r == ' ' {
				b.WriteRune(r)
				continue
			}
			ph := placeholder{text: string(r), marker: marker}
			if first && sentence > 0 {
				ph.sentence = sentence
			}
			first = false
			b.WriteRune(rune(puaBase + len(p.table)))
			p.table = append(p.table, ph)
		}
	}
	for _, s := range sents {
		seg := model.Sanitize(proof[s.Start:s.End])
		// Put the marker after leading space and after a list or heading marker at a
		// line start, so the markdown structure survives.
		lead := len(seg) - len(strings.TrimLeft(seg, " \t\n"))
		at := lead
		atLineStart := s.Start == 0 || strings.Contains(seg[:lead], "\n") || (s.Start > 0 && proof[s.Start-1] == '\n')
		if atLineStart {
			if m := listStart.FindString(seg[lead:]); m != "" {
				at = lead + len(m)
			}
		}
		writeProtected(&b, seg[:at], protect)
		protect(fmt.Sprintf("[%d]", s.N), s.N, true)
		// A placeholder space: it reads as a space but does not break, so the marker
		// stays with the sentence's first word.
		if len(p.table) < 0xFFFD {
			b.WriteRune(rune(puaBase + len(p.table)))
			p.table = append(p.table, placeholder{text: " "})
		}
		writeProtected(&b, seg[at:], protect)
	}
	p.md = b.String()
	return p
}

// writeProtected writes text, swapping math spans and backslash escapes for placeholders.
func writeProtected(b *strings.Builder, s string, protect func(string, int, bool)) {
	for i := 0; i < len(s); {
		switch {
		case s[i] == '\\' && i+1 < len(s) && (s[i+1] == '(' || s[i+1] == '['):
			closer := `\)`
			if s[i+1] == '[' {
				closer = `\]`
			}
			if j := strings.Index(s[i+2:], closer); j >= 0 {
				end := i + 2 + j + 2
				protect(s[i:end], 0, false)
				i = end
				continue
			}
			protect(s[i:i+2], 0, false)
			i += 2
		case s[i] == '\\' && i+1 < len(s):
			_, size := utf8.DecodeRuneInString(s[i+1:])
			protect(s[i:i+1+size], 0, false)
			i += 1 + size
		case strings.HasPrefix(s[i:], "$$"):
			if j := strings.Index(s[i+2:], "$$"); j >= 0 {
				end := i + 2 + j + 2
				protect(s[i:end], 0, false)
				i = end
				continue
			}
			protect("$$", 0, false)
			i += 2
		case s[i] == '$':
			if j := mathEnd(s, i+1); j > 0 {
				protect(s[i:j], 0, false)
				i = j
				continue
			}
			protect("$", 0, false)
			i++
		default:
			_, size := utf8.DecodeRuneInString(s[i:])
			b.WriteString(s[i : i+size])
			i += size
		}
	}
}

// mathEnd finds the closing "$" of inline math opened before from (not across a blank
// line, not escaped); it returns the index after it, or -1.
func mathEnd(s string, from int) int {
	for j := from; j < len(s); j++ {
		switch s[j] {
		case '\\':
			j++
		case '$':
			return j + 1
		case '\n':
			if strings.HasPrefix(strings.TrimLeft(s[j+1:], " \t"), "\n") {
				return -1
			}
		}
	}
	return -1
}

// RenderedProof is a proof rendered for one width and style: lines still holding the
// placeholder runes, and where each sentence starts.
type RenderedProof struct {
	Key       string
	lines     []string
	table     []placeholder
	Sentences []model.Sentence
	Start     []int // line index where sentence i (0-based) starts
	Markdown  bool  // rendered by glamour (false: the plain fallback)
}

// Lines is the number of lines of the rendered proof.
func (r *RenderedProof) Lines() int { return len(r.lines) }

// ProofKey is the cache key of a rendering: content hash, width and markdown style.
func ProofKey(proof string, width int, style string) string {
	sum := sha256.Sum256([]byte(proof))
	return fmt.Sprintf("%s/%d/%s", hex.EncodeToString(sum[:8]), width, style)
}

// RenderProofMarkdown renders a proof with glamour at a width in a standard style. It
// takes about a millisecond per page: call it from a tea.Cmd, never from View.
func RenderProofMarkdown(proof string, width int, style string) (*RenderedProof, error) {
	width = max(width, 10)
	p := prepareProof(proof)
	r, err := glamour.NewTermRenderer(glamour.WithStandardStyle(style), glamour.WithWordWrap(width+2))
	if err != nil {
		return nil, err
	}
	out, err := r.Render(p.md)
	if err != nil {
		return nil, err
	}
	lines := strings.Split(out, "\n")
	for i, l := range lines {
		l = trimRightANSI(l)
		if style != "notty" && style != "ascii" {
			l = dropMargin(l, 2)
		}
		lines[i] = l
	}
	lines = trimBlankLines(lines)
	return finish(ProofKey(proof, width, style), lines, p, width, true), nil
}

// RenderProofPlain is the fallback shown until the markdown rendering arrives (and when
// it fails): paragraphs wrapped as they are, with the same sentence markers.
func RenderProofPlain(proof string, width int) *RenderedProof {
	width = max(width, 10)
	p := prepareProof(proof)
	var lines []string
	for para := range strings.SplitSeq(p.md, "\n\n") {
		para = strings.Trim(para, "\n")
		if strings.TrimSpace(para) == "" {
			continue
		}
		if len(lines) > 0 {
			lines = append(lines, "")
		}
		for l := range strings.SplitSeq(para, "\n") {
			lines = append(lines, strings.Split(ansi.Wrap(l, width, ""), "\n")...)
		}
	}
	return finish(ProofKey(proof, width, "plain"), lines, p, width, false)
}

func finish(key string, lines []string, p preparedProof, width int, md bool) *RenderedProof {
	// A long unbreakable run (a math span) may exceed the width: break it.
	var fitted []string
	for _, l := range lines {
		if ansi.StringWidth(l) > width {
			fitted = append(fitted, strings.Split(ansi.Hardwrap(l, width, true), "\n")...)
		} else {
			fitted = append(fitted, l)
		}
	}
	rp := &RenderedProof{Key: key, lines: fitted, table: p.table, Sentences: p.sentences, Markdown: md}
	rp.Start = make([]int, len(p.sentences))
	found := make([]bool, len(p.sentences))
	for li, l := range fitted {
		for _, r := range l {
			if k := int(r) - puaBase; k >= 0 && k < len(p.table) && p.table[k].sentence > 0 {
				n := p.table[k].sentence - 1
				if n < len(found) && !found[n] {
					rp.Start[n], found[n] = li, true
				}
			}
		}
	}
	for i := range rp.Start {
		if !found[i] && i > 0 {
			rp.Start[i] = rp.Start[i-1]
		}
	}
	return rp
}

var sgr = regexp.MustCompile(`\x1b\[[0-9;:]*m`)

// trimRightANSI drops trailing blanks (glamour pads every line to the wrap width),
// keeping the line's escapes balanced with a final reset.
func trimRightANSI(l string) string {
	trail := regexp.MustCompile(`(?:\x1b\[[0-9;:]*m| )+$`)
	if loc := trail.FindStringIndex(l); loc != nil {
		l = l[:loc[0]]
		if strings.Contains(l, "\x1b[") {
			l += "\x1b[m"
		}
	}
	return l
}

// dropMargin removes up to n leading spaces that precede any text.
func dropMargin(l string, n int) string {
	for range n {
		if strings.HasPrefix(l, " ") {
			l = l[1:]
		}
	}
	return l
}

func trimBlankLines(lines []string) []string {
	for len(lines) > 0 && strings.TrimSpace(ansi.Strip(lines[0])) == "" {
		lines = lines[1:]
	}
	for len(lines) > 0 && strings.TrimSpace(ansi.Strip(lines[len(lines)-1])) == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

// Compose restores the placeholders of a rendered proof and draws the sentence cursor
// (0-based; -1 for none) and the flagged sentences (issue highlights) into a gutter:
// "▌" beside the lines of the current sentence, "!" where a flagged sentence starts.
// It is cheap (linear in the proof) and runs in Update when the cursor moves.
func (r *RenderedProof) Compose(st *themes.Styles, cursor int, flagged map[int]bool) []string {
	curStart, curEnd := -1, -1
	if cursor >= 0 && cursor < len(r.Start) {
		curStart = r.Start[cursor]
		curEnd = curStart
		if cursor+1 < len(r.Start) {
			curEnd = max(curStart, r.Start[cursor+1]-1)
			if r.Start[cursor+1] == curStart {
				curEnd = curStart
			}
		} else {
			curEnd = len(r.lines) - 1
		}
		// Do not run the highlight over the blank line between paragraphs.
		for curEnd > curStart && strings.TrimSpace(ansi.Strip(r.lines[curEnd])) == "" {
			curEnd--
		}
	}
	flagStart := map[int]bool{}
	for n := range flagged {
		if n >= 0 && n < len(r.Start) {
			flagStart[r.Start[n]] = true
		}
	}
	out := make([]string, len(r.lines))
	for i, l := range r.lines {
		gutter := "  "
		switch {
		case i >= curStart && i <= curEnd:
			gutter = st.Gutter.Render("▌") + " "
			if flagStart[i] {
				gutter = st.Gutter.Render("▌") + st.Error.Render("!")
			}
		case flagStart[i]:
			gutter = " " + st.Error.Render("!")
		}
		out[i] = gutter + r.restore(st, l, cursor)
	}
	return out
}

// restore swaps placeholders back; sentence markers are styled (the current one in
// reverse video), and the escape state glamour had is re-emitted after each marker.
func (r *RenderedProof) restore(st *themes.Styles, l string, cursor int) string {
	if !strings.ContainsFunc(l, isPUA) {
		return l
	}
	var b strings.Builder
	lastSGR := ""
	for i := 0; i < len(l); {
		if l[i] == 0x1b {
			if loc := sgr.FindStringIndex(l[i:]); loc != nil && loc[0] == 0 {
				lastSGR = l[i : i+loc[1]]
				if lastSGR == "\x1b[m" || lastSGR == "\x1b[0m" {
					lastSGR = ""
				}
				b.WriteString(l[i : i+loc[1]])
				i += loc[1]
				continue
			}
		}
		rn, size := utf8.DecodeRuneInString(l[i:])
		k := int(rn) - puaBase
		if k < 0 || k >= len(r.table) {
			b.WriteString(l[i : i+size])
			i += size
			continue
		}
		ph := r.table[k]
		if !ph.marker {
			b.WriteString(ph.text)
			i += size
			continue
		}
		// Collect the whole marker run.
		var m strings.Builder
		sentence := 0
		for i < len(l) {
			rn, size := utf8.DecodeRuneInString(l[i:])
			k := int(rn) - puaBase
			if k < 0 || k >= len(r.table) || !r.table[k].marker || (m.Len() > 0 && r.table[k].sentence > 0) {
				break
			}
			if r.table[k].sentence > 0 {
				sentence = r.table[k].sentence
			}
			m.WriteString(r.table[k].text)
			i += size
		}
		style := st.Faint
		if sentence > 0 && sentence-1 == cursor {
			style = st.Cursor
		}
		b.WriteString("\x1b[m")
		b.WriteString(style.Render(m.String()))
		b.WriteString(lastSGR)
	}
	return b.String()
}

func isPUA(r rune) bool { return r >= puaBase && r < puaBase+0xFFFE }
