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
//     starts (model.SplitSentences), and the last rune of each sentence's text becomes a
//     placeholder too, so that after rendering we know exactly where each sentence's text
//     lies, line and column: the sentence cursor and the flagged sentence are drawn over
//     those spans when the visible lines are shown, without rendering again.
//
// Math is shown readable by default (mathtext.Unicode): inline math rendered in place,
// its delimiters dropped, and each display block on rows of its own, indented. The
// rendered text is protected the same way (one placeholder per cell), the rows of a
// display are joined by a row-break placeholder that no renderer wraps at, and the
// lines are split there after rendering. Sentences, their numbers and offsets are the
// source's whatever the mode: quoting and locating use the raw text.

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"charm.land/glamour/v2"
	"github.com/charmbracelet/x/ansi"

	"referee/cells"
	"referee/mathtext"
	"referee/model"
	"referee/themes"
)

const puaBase = 0xF0000 // Supplementary Private Use Area-A; 65534 runes

// placeholder is what one private-use rune stands for.
type placeholder struct {
	text     string
	sentence int // > 0: first rune of sentence N's marker
	marker   bool
	end      int  // > 0: last rune of sentence N's text
	rowBreak bool // the end of a display row: the line is split here after rendering
	// The blank cell reserved before every sentence marker, where a flagged sentence's
	// "!" is drawn: reserved whether flagged or not, so an issue opening or closing
	// never reflows the proof, and the "!" never takes the only blank between the
	// previous sentence and the marker ("positive.![5]"). Dropped where the renderer
	// wrapped just before it (the line then starts with the marker and the "!" goes in
	// the gutter).
	reserve bool
}

// preparedProof is a proof ready for a markdown renderer.
type preparedProof struct {
	md        string
	table     []placeholder
	sentences []model.Sentence
}

var listStart = regexp.MustCompile(`^[ \t]*(?:#{1,6}[ \t]+|[-*+•][ \t]+|\d{1,3}[.)][ \t]+|>[ \t]?)`)

// proofWriter builds the markdown handed to the renderer and the placeholder table.
type proofWriter struct {
	b     strings.Builder
	table []placeholder
	// The rune at byte offset endAt of the segment being written ends sentence endN.
	endAt, endN int

	math   mathtext.Mode
	width  int                  // the rendering's width (display rows are aligned when they fit)
	blocks []model.DisplayBlock // the display blocks of the segment being written
	at     int                  // the byte offset in the segment where its sentence's text starts
}

func (w *proofWriter) full() bool { return len(w.table) >= 0xFFFD }

func (w *proofWriter) put(ph placeholder) {
	w.b.WriteRune(rune(puaBase + len(w.table)))
	w.table = append(w.table, ph)
}

// protect writes s, found at byte offset off of the segment (-1: not from it), as
// placeholders: one per rune, spaces left as they are.
func (w *proofWriter) protect(s string, off, sentence int, marker bool) {
	first := true
	for i, r := range s {
		// A newline stays one (in a display's source): as a placeholder it would put a
		// line break inside a rendered line.
		if w.full() || r == ' ' || r == '\n' {
			w.b.WriteRune(r)
			continue
		}
		ph := placeholder{text: string(r), marker: marker}
		if first && sentence > 0 {
			ph.sentence = sentence
		}
		if cellWidth(ph.text) == 2 { // two cells: see shown
			w.put(placeholder{marker: marker})
			if w.full() {
				w.b.WriteRune(r)
				continue
			}
		}
		if off >= 0 && off+i == w.endAt {
			ph.end = w.endN
		}
		first = false
		w.put(ph)
	}
}

// textEnd is the byte offset of the last rune of a segment's text at or after from:
// trailing blanks and emphasis or code delimiters (which the renderer drops) do not
// count. -1 when there is none.
func textEnd(seg string, from int) int {
	i := len(strings.TrimRight(seg, " \t\r\n*_~`"))
	if i <= from {
		return -1
	}
	_, size := utf8.DecodeLastRuneInString(seg[:i])
	return i - size
}

func prepareProof(proof string, math mathtext.Mode, width int) preparedProof {
	sents := model.SplitSentences(proof)
	p := preparedProof{sentences: sents}
	w := &proofWriter{endAt: -1, math: math, width: width}
	w.b.Grow(len(proof) + 8*len(sents))
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
		w.endAt, w.endN = textEnd(seg, at), s.N
		w.blocks, w.at = nil, at
		if math == mathtext.Unicode {
			w.blocks = model.DisplayBlocks(seg)
		}
		writeProtected(w, seg[:at], 0)
		if !w.full() {
			w.put(placeholder{text: " ", reserve: true})
		}
		w.protect(fmt.Sprintf("[%d]", s.N), -1, s.N, true)
		// A placeholder space: it reads as a space but does not break, so the marker
		// stays with the sentence's first word.
		if !w.full() {
			w.put(placeholder{text: " "})
		}
		writeProtected(w, seg[at:], at)
	}
	p.md, p.table = w.b.String(), w.table
	return p
}

// writeProtected writes text found at byte offset off of the segment, swapping math
// spans and backslash escapes for placeholders, and the rune that ends the sentence.
func writeProtected(w *proofWriter, s string, off int) {
	readable := w.math == mathtext.Unicode
	nextBlock := 0
	// Object IDs are written as placeholders: no renderer breaks one at its hyphen.
	ids, nextID := objectID.FindAllStringIndex(s, -1), 0
	for i := 0; i < len(s); {
		for nextID < len(ids) && ids[nextID][0] < i {
			nextID++
		}
		for nextBlock < len(w.blocks) && w.blocks[nextBlock].Start < off+i {
			nextBlock++
		}
		if nextBlock < len(w.blocks) && w.blocks[nextBlock].Start == off+i && w.blocks[nextBlock].End <= off+len(s) {
			b := w.blocks[nextBlock]
			w.display(s[i:b.End-off], b.Start, b.End, b.Start == w.at)
			i = b.End - off
			continue
		}
		switch {
		case readable && s[i] == '\\' && i+1 < len(s) && (s[i+1] == '(' || s[i+1] == '['):
			closer := `\)`
			if s[i+1] == '[' {
				closer = `\]`
			}
			if j := strings.Index(s[i+2:], closer); j >= 0 {
				end := i + 2 + j + 2
				w.shown(mathtext.Inline(s[i+2:end-2]), off+i, off+end, false)
				i = end
				continue
			}
			w.protect(s[i:i+2], off+i, 0, false)
			i += 2
		case readable && strings.HasPrefix(s[i:], "$$"):
			if j := strings.Index(s[i+2:], "$$"); j >= 0 {
				end := i + 2 + j + 2
				w.shown(mathtext.Inline(s[i+2:end-2]), off+i, off+end, false)
				i = end
				continue
			}
			w.protect("$$", off+i, 0, false)
			i += 2
		case readable && s[i] == '$':
			if j := model.InlineMathEnd(s, i+1); j > 0 {
				w.shown(mathtext.Inline(s[i+1:j-1]), off+i, off+j, false)
				i = j
				continue
			}
			w.protect("$", off+i, 0, false)
			i++
		case readable && s[i] == '\\' && i+1 < len(s):
			shown, n := mathtext.TextCommand(s[i:])
			if shown != s[i:i+n] {
				w.shown(shown, off+i, off+i+n, false)
				i += n
				continue
			}
			_, size := utf8.DecodeRuneInString(s[i+1:])
			w.protect(s[i:i+1+size], off+i, 0, false)
			i += 1 + size
		case s[i] == '\\' && i+1 < len(s) && (s[i+1] == '(' || s[i+1] == '['):
			closer := `\)`
			if s[i+1] == '[' {
				closer = `\]`
			}
			if j := strings.Index(s[i+2:], closer); j >= 0 {
				end := i + 2 + j + 2
				w.protect(s[i:end], off+i, 0, false)
				i = end
				continue
			}
			w.protect(s[i:i+2], off+i, 0, false)
			i += 2
		case s[i] == '\\' && i+1 < len(s):
			_, size := utf8.DecodeRuneInString(s[i+1:])
			w.protect(s[i:i+1+size], off+i, 0, false)
			i += 1 + size
		case strings.HasPrefix(s[i:], "$$"):
			if j := strings.Index(s[i+2:], "$$"); j >= 0 {
				end := i + 2 + j + 2
				w.protect(s[i:end], off+i, 0, false)
				i = end
				continue
			}
			w.protect("$$", off+i, 0, false)
			i += 2
		case s[i] == '$':
			if j := model.InlineMathEnd(s, i+1); j > 0 {
				w.protect(s[i:j], off+i, 0, false)
				i = j
				continue
			}
			w.protect("$", off+i, 0, false)
			i++
		case nextID < len(ids) && ids[nextID][0] == i:
			w.protect(s[i:ids[nextID][1]], off+i, 0, false)
			i = ids[nextID][1]
		default:
			r, size := utf8.DecodeRuneInString(s[i:])
			// The sentence's last rune becomes a placeholder, unless it is wider than
			// one (a placeholder is one cell: the wrapping would change).
			if off+i == w.endAt && !w.full() && cellWidth(string(r)) == 1 {
				w.put(placeholder{text: string(r), end: w.endN})
			} else {
				w.b.WriteString(s[i : i+size])
			}
			i += size
		}
	}
}

// shown writes the readable form of the source s[from:to] of the segment as
// placeholders, one per cell: a wide character takes an empty one before it, a combining
// mark goes with the character before it. Spaces stay spaces (the renderer may wrap
// there) unless keepSpaces. If the sentence's last rune lies in the source, the last
// placeholder ends the sentence.
func (w *proofWriter) shown(s string, from, to int, keepSpaces bool) {
	mark := len(w.table)
	for _, r := range s {
		switch {
		case w.full():
			w.b.WriteRune(r)
		case r == ' ' && !keepSpaces:
			w.b.WriteByte(' ')
		case r == '\n':
			w.b.WriteByte(' ')
		case unicode.In(r, unicode.Mn, unicode.Me) && len(w.table) > mark && w.table[len(w.table)-1].text != "":
			w.table[len(w.table)-1].text += string(r)
		default:
			// A wide character takes two cells: an empty placeholder goes first, so
			// that a line broken between the two is short rather than too long.
			if cellWidth(string(r)) == 2 {
				w.put(placeholder{})
				if w.full() {
					w.b.WriteRune(r)
					continue
				}
			}
			w.put(placeholder{text: string(r)})
		}
	}
	if w.endAt >= from && w.endAt < to && len(w.table) > mark {
		w.table[len(w.table)-1].end = w.endN
	}
}

// display writes a display block (the source s[from:to] of the segment) as rows of
// their own: a paragraph of its own, or, when the block starts its sentence, rows
// after the sentence's marker. Rows that fit the width keep their alignment (their
// spaces are placeholders); longer ones may be wrapped.
func (w *proofWriter) display(src string, from, to int, first bool) {
	indent := mathtext.DisplayIndent
	rows := mathtext.Display(src, w.width-len(indent))
	if first {
		w.rowBreak()
	} else {
		w.b.WriteString("\n\n")
	}
	for k, row := range rows {
		if k > 0 {
			w.rowBreak()
		}
		fits := cellWidth(indent+row) <= w.width
		w.shown(indent, -1, -1, true)
		w.shown(row, -1, -1, fits)
	}
	if w.endAt >= from && w.endAt < to && len(w.table) > 0 && !w.full() {
		w.table[len(w.table)-1].end = w.endN
	}
	w.b.WriteString("\n\n")
}

// rowBreak ends a display row (or the marker's line before a display). The space
// before it is where the renderer wraps a paragraph of rows too long for one line
// (else it would break a row in the middle); the lines are split at the placeholder
// whether it wrapped there or not.
func (w *proofWriter) rowBreak() {
	if w.full() {
		w.b.WriteString("\n\n")
		return
	}
	w.b.WriteByte(' ')
	w.put(placeholder{rowBreak: true})
}

// splitRows splits rendered lines at the row-break placeholders, carrying the line's
// graphic rendition over to the new line; blank pieces (a margin before a break the
// renderer wrapped at) are dropped.
func splitRows(lines []string, table []placeholder) []string {
	out := lines[:0:0]
	for _, l := range lines {
		if !strings.ContainsFunc(l, func(r rune) bool { k := int(r) - puaBase; return k >= 0 && k < len(table) && table[k].rowBreak }) {
			out = append(out, l)
			continue
		}
		var cur strings.Builder
		var sgrs sgrState
		var state byte
		// The renderer's margin, repeated before each row split off.
		margin := strings.Repeat(" ", len(ansi.Strip(l))-len(strings.TrimLeft(ansi.Strip(l), " ")))
		flush := func() {
			piece := cur.String()
			if sgrs.on != "" {
				piece += ansi.ResetStyle
			}
			if strings.TrimSpace(ansi.Strip(piece)) != "" {
				out = append(out, trimRightANSI(piece))
			}
			cur.Reset()
			cur.WriteString(margin + sgrs.on)
		}
		for len(l) > 0 {
			seq, _, size, ns := ansi.DecodeSequence(l, state, nil)
			state, l = ns, l[size:]
			if isSGR(seq) {
				sgrs.add(seq)
			}
			if rn, n := utf8.DecodeRuneInString(seq); n == len(seq) {
				if k := int(rn) - puaBase; k >= 0 && k < len(table) && table[k].rowBreak {
					flush()
					continue
				}
			}
			cur.WriteString(seq)
		}
		flush()
	}
	return out
}

// RenderedProof is a proof rendered for one width and style: lines still holding the
// placeholder runes, and where each sentence's text lies on them. It is computed once
// per rendering (in a tea.Cmd or in Update) and only read afterwards, except for the
// restored lines it caches per theme in Update.
type RenderedProof struct {
	Key       string
	lines     []string
	table     []placeholder
	Sentences []model.Sentence
	Start     []int // line index where sentence i (0-based) starts
	Markdown  bool  // rendered by glamour (false: the plain fallback)

	spans  [][]sentenceSpan // per line: the pieces of sentences' text on it
	extent [][2]int         // per sentence: its first and last line; -1 when not rendered
	bang   []cellPos        // per sentence: the blank cell before its marker, drawn "!" when flagged

	shownFor *themes.Styles // the styles shown was restored with
	shown    []string
}

// sentenceSpan is the text of a sentence on one line: cells [from, to) of the restored
// line (gutter excluded), blanks at either end left out.
type sentenceSpan struct{ sentence, from, to int }

// cellPos is a cell of the proof: a line and a column (of the restored line in layout,
// of the displayed line, gutter included, in bang); line -1 for none.
type cellPos struct{ line, col int }

// Lines is the number of lines of the rendered proof.
func (r *RenderedProof) Lines() int { return len(r.lines) }

// ProofKey is the cache key of a rendering: content hash, width, markdown style and
// math mode.
func ProofKey(proof string, width int, style string, math mathtext.Mode) string {
	sum := sha256.Sum256([]byte(proof))
	return fmt.Sprintf("%s/%d/%s/%s", hex.EncodeToString(sum[:8]), width, style, math)
}

// RenderProofMarkdown renders a proof with glamour at a width in a standard style. It
// takes about a millisecond per page: call it from a tea.Cmd, never from View.
func RenderProofMarkdown(proof string, width int, style string, math mathtext.Mode) (*RenderedProof, error) {
	width = max(width, 10)
	p := prepareProof(proof, math, width)
	r, err := glamour.NewTermRenderer(glamour.WithStandardStyle(style), glamour.WithWordWrap(width+2))
	if err != nil {
		return nil, err
	}
	out, err := r.Render(p.md)
	if err != nil {
		return nil, err
	}
	lines := splitRows(strings.Split(out, "\n"), p.table)
	for i, l := range lines {
		l = trimRightANSI(l)
		if style != "notty" && style != "ascii" {
			l = dropMargin(l, 2)
		}
		lines[i] = l
	}
	lines = trimBlankLines(lines)
	return finish(ProofKey(proof, width, style, math), lines, p, width, true), nil
}

// RenderProofPlain is the fallback shown until the markdown rendering arrives (and when
// it fails): paragraphs wrapped as they are, with the same sentence markers.
func RenderProofPlain(proof string, width int, math mathtext.Mode) *RenderedProof {
	width = max(width, 10)
	p := prepareProof(proof, math, width)
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
			for _, row := range splitRows([]string{l}, p.table) {
				lines = append(lines, strings.Split(cells.Wrap(row, width, ""), "\n")...)
			}
		}
	}
	return finish(ProofKey(proof, width, "plain", math), lines, p, width, false)
}

func finish(key string, lines []string, p preparedProof, width int, md bool) *RenderedProof {
	// A long unbreakable run (a math span) may exceed the width: break it.
	var fitted []string
	for _, l := range lines {
		l = dropLeadingReserve(l, p.table)
		if cellWidth(l) > width {
			fitted = append(fitted, strings.Split(cells.Method().Hardwrap(l, width, true), "\n")...)
		} else {
			fitted = append(fitted, l)
		}
	}
	rp := &RenderedProof{Key: key, lines: fitted, table: p.table, Sentences: p.sentences, Markdown: md}
	rp.layout()
	return rp
}

// dropLeadingReserve removes the cell reserved before a sentence marker when nothing
// but blanks precede it on the line: the renderer wrapped just before it, and kept it
// would indent the line by one.
func dropLeadingReserve(l string, table []placeholder) string {
	var state byte
	for at := 0; at < len(l); {
		seq, w, size, ns := ansi.DecodeSequence(l[at:], state, nil)
		state = ns
		if w == 0 || seq == " " {
			at += size
			continue
		}
		if rn, n := utf8.DecodeRuneInString(seq); n == len(seq) {
			if k := int(rn) - puaBase; k >= 0 && k < len(table) && table[k].reserve {
				return l[:at] + l[at+size:]
			}
		}
		return l
	}
	return l
}

// layout finds, once per rendering, where each sentence lies: the cell its marker
// starts at, the cell after its last rune, and from those the spans of its text on each
// line. A sentence whose end did not survive rendering runs up to the next sentence's
// marker (or the end of the proof).
func (r *RenderedProof) layout() {
	n := len(r.Sentences)
	start, end := make([]cellPos, n), make([]cellPos, n)
	for i := range n {
		start[i], end[i] = cellPos{-1, 0}, cellPos{-1, 0}
	}
	plain := make([]string, len(r.lines))
	for li, l := range r.lines {
		var b strings.Builder
		var state byte
		for len(l) > 0 {
			seq, _, size, ns := ansi.DecodeSequence(l, state, nil)
			state, l = ns, l[size:]
			if seq == "" || seq[0] == ansi.ESC {
				continue
			}
			for _, rn := range seq {
				k := int(rn) - puaBase
				if k < 0 || k >= len(r.table) {
					b.WriteRune(rn)
					continue
				}
				ph := r.table[k]
				if s := ph.sentence - 1; s >= 0 && s < n && start[s].line < 0 {
					start[s] = cellPos{li, cellWidth(b.String())}
				}
				b.WriteString(ph.text)
				if e := ph.end - 1; e >= 0 && e < n && end[e].line < 0 {
					end[e] = cellPos{li, cellWidth(b.String())}
				}
			}
		}
		plain[li] = b.String()
	}

	r.Start = make([]int, n)
	r.extent = make([][2]int, n)
	r.bang = make([]cellPos, n)
	r.spans = make([][]sentenceSpan, len(r.lines))
	for i := range n {
		r.extent[i], r.bang[i] = [2]int{-1, -1}, cellPos{-1, 0}
		if start[i].line < 0 {
			if i > 0 {
				r.Start[i] = r.Start[i-1]
			}
			continue
		}
		s := start[i]
		r.Start[i] = s.line
		// "!" goes on the blank before the marker, else in the gutter's second cell.
		r.bang[i] = cellPos{s.line, 1}
		if s.col > 0 && cells.Cut(plain[s.line], s.col-1, s.col) == " " {
			r.bang[i] = cellPos{s.line, gutterWidth + s.col - 1}
		}
		e := end[i]
		if e.line < 0 || e.line < s.line || (e.line == s.line && e.col <= s.col) {
			e = cellPos{len(plain) - 1, cellWidth(plain[len(plain)-1])}
			for j := i + 1; j < n; j++ {
				if start[j].line >= 0 {
					e = start[j]
					break
				}
			}
		}
		for li := s.line; li <= e.line; li++ {
			from, to := 0, cellWidth(plain[li])
			if li == s.line {
				from = s.col
			}
			if li == e.line {
				to = min(to, e.col)
			}
			text := cells.Cut(plain[li], from, to)
			from += len(text) - len(strings.TrimLeft(text, " "))
			to -= len(text) - len(strings.TrimRight(text, " "))
			if from >= to {
				continue
			}
			r.spans[li] = append(r.spans[li], sentenceSpan{i, from, to})
			if r.extent[i][0] < 0 {
				r.extent[i][0] = li
			}
			r.extent[i][1] = li
		}
	}
}

// SentenceLines returns the first and last line of sentence i's text, or -1, -1.
func (r *RenderedProof) SentenceLines(i int) (first, last int) {
	if i < 0 || i >= len(r.extent) {
		return -1, -1
	}
	return r.extent[i][0], r.extent[i][1]
}

// trimRightANSI drops trailing blanks (glamour pads every line to the wrap width),
// keeping the line's escapes balanced with a final reset.
func trimRightANSI(l string) string {
	if end := trailingBlanks(l); end < len(l) {
		l = l[:end]
		if strings.Contains(l, "\x1b[") {
			l += "\x1b[m"
		}
	}
	return l
}

// trailingBlanks returns where the run of blanks and SGR codes that ends l starts
// (len(l) when there is none). Scanning back is linear; a regular expression anchored
// at the end tried every start and cost a seventh of a long proof's rendering.
func trailingBlanks(l string) int {
	end := len(l)
	for end > 0 {
		switch {
		case l[end-1] == ' ':
			end--
		case l[end-1] == 'm':
			k := strings.LastIndexByte(l[:end], '\x1b')
			if k < 0 || end-k < 3 || l[k+1] != '[' || strings.Trim(l[k+2:end-1], "0123456789;:") != "" {
				return end
			}
			end = k
		default:
			return end
		}
	}
	return end
}

// dropMargin removes up to n leading spaces that precede any text.
func dropMargin(l string, n int) string {
	for range n {
		l = strings.TrimPrefix(l, " ")
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

// gutterWidth is the blank margin before each proof line; a flagged sentence whose
// marker starts its line gets its "!" there.
const gutterWidth = 2

// Display returns the proof's lines as shown, without marks: placeholders swapped back,
// sentence markers faint, a gutter before each line. It is computed once per rendering
// and theme (in Update), then reused: moving the cursor does not redo it.
func (r *RenderedProof) Display(st *themes.Styles) []string {
	if r.shownFor == st && r.shown != nil {
		return r.shown
	}
	out := make([]string, len(r.lines))
	gutter := strings.Repeat(" ", gutterWidth)
	for i, l := range r.lines {
		out[i] = gutter + r.restore(st, l)
	}
	r.shownFor, r.shown = st, out
	return out
}

// restore swaps placeholders back; sentence markers are styled faint, and the escape
// state glamour had is re-emitted after each marker.
func (r *RenderedProof) restore(st *themes.Styles, l string) string {
	if !strings.ContainsFunc(l, isPUA) {
		return l
	}
	var b strings.Builder
	var sgrs sgrState
	var state byte
	for len(l) > 0 {
		seq, _, size, ns := ansi.DecodeSequence(l, state, nil)
		state = ns
		if isSGR(seq) {
			sgrs.add(seq)
		}
		rn, _ := utf8.DecodeRuneInString(seq)
		k := int(rn) - puaBase
		if seq == "" || seq[0] == ansi.ESC || k < 0 || k >= len(r.table) {
			b.WriteString(restoreRunes(r.table, seq))
			l = l[size:]
			continue
		}
		if !r.table[k].marker {
			b.WriteString(restoreRunes(r.table, seq))
			l = l[size:]
			continue
		}
		// The whole marker run: its runes are one grapheme each.
		var m strings.Builder
		for len(l) > 0 {
			rn, size := utf8.DecodeRuneInString(l)
			k := int(rn) - puaBase
			if k < 0 || k >= len(r.table) || !r.table[k].marker || (m.Len() > 0 && r.table[k].sentence > 0) {
				break
			}
			m.WriteString(r.table[k].text)
			l = l[size:]
		}
		state = ansi.NormalState
		if sgrs.on != "" {
			b.WriteString(ansi.ResetStyle)
		}
		b.WriteString(st.Faint.Render(m.String()))
		b.WriteString(sgrs.on)
	}
	return b.String()
}

// restoreRunes swaps the placeholders of a piece of text back.
func restoreRunes(table []placeholder, s string) string {
	if !strings.ContainsFunc(s, isPUA) {
		return s
	}
	var b strings.Builder
	for _, rn := range s {
		if k := int(rn) - puaBase; k >= 0 && k < len(table) {
			b.WriteString(table[k].text)
		} else {
			b.WriteRune(rn)
		}
	}
	return b.String()
}

// SentenceMarks say what a proof's rendering marks (sentences 0-based).
type SentenceMarks struct {
	Cursor int          // under the cursor: reverse video over its text; -1 none
	Issue  int          // the sentence the selected issue flags: underlined; -1 none
	Open   map[int]bool // sentences with an open issue: "!" just before their number
}

// Paint draws the marks on line i of Display(st): only the spans of the sentences
// marked and the "!" cells, by inserting SGR codes at their cells. It runs in View on
// the visible lines only; bang is the "!" as drawn.
func (r *RenderedProof) Paint(line string, i int, marks SentenceMarks, bang string) string {
	if i < 0 || i >= len(r.spans) {
		return line
	}
	var spans []attrSpan
	for _, s := range r.spans[i] {
		a := 0
		if s.sentence == marks.Cursor {
			a |= attrReverse
		}
		if s.sentence == marks.Issue {
			a |= attrUnderline
		}
		if a != 0 {
			spans = append(spans, attrSpan{gutterWidth + s.from, gutterWidth + s.to, a})
		}
	}
	var bangs []int
	for n, open := range marks.Open {
		if open && n >= 0 && n < len(r.bang) && r.bang[n].line == i {
			bangs = append(bangs, r.bang[n].col)
		}
	}
	if len(spans) == 0 && len(bangs) == 0 {
		return line
	}
	return paintCells(line, spans, bangs, bang)
}

// Compose is every line of the proof with its marks (Display then Paint): for tests
// and one-off renderings; the detail pane paints only what is visible.
func (r *RenderedProof) Compose(st *themes.Styles, marks SentenceMarks) []string {
	lines := r.Display(st)
	out := make([]string, len(lines))
	bang := st.Error.Render("!")
	for i, l := range lines {
		out[i] = r.Paint(l, i, marks, bang)
	}
	return out
}

func isPUA(r rune) bool { return r >= puaBase && r < puaBase+0xFFFE }
