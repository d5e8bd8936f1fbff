package model

// The checker reports gaps by sentence number and quotes the sentence, so referee needs
// a sentence splitter that is deterministic and good enough on the agents' markdown-ish
// proofs: a first sentence, "Step N: …" paragraphs, inline and display math, "QED.".
//
// First, display blocks are found, left to right: $$…$$, \[…\] and
// \begin{E}…\end{E} for a display environment E (see displayEnvs: equation, align,
// aligned, gather, multline, cases, array, the matrices, tabular, tikzpicture, …; nested
// ones of the same name are counted), and [asy]…[/asy] figure code. A block is one unit whatever it holds, blank lines included: nothing
// inside it ever starts a sentence. An opener without a closer is taken literally (and so
// are the later openers of its kind). Inline math $…$ and \(…\) is skipped on the way.
//
// Then, in order of strength:
//   - a blank line outside display blocks ends a paragraph, and a paragraph ends a
//     sentence, except around a display block: a block that starts a paragraph joins the
//     paragraph before it when that one has not ended (its last text is not ".", "!" or
//     "?", with any closers), and a paragraph that starts like a continuation (not like
//     a sentence, see below: lower case, a comma, "so that", "where") joins the block
//     that ends the paragraph before it;
//   - a line that starts with a "Step N:" label or a list-item marker ("1." "2)" "(a)"
//     "a." "-" "*" "+" "•") starts a sentence, and the label or marker is part of it;
//   - nothing splits inside math: display blocks, $…$, \(…\) (an inline opener without
//     a closer in the same paragraph is taken literally, so a stray "$" cannot swallow
//     the rest);
//   - otherwise a sentence ends after ".", "!" or "?" and any closing quotes, brackets
//     or emphasis marks, when white space follows and then an upper-case letter, a
//     digit, "$", "(", a quote, "\[", "\(" or a display block — so `statement "Same
//     role." Since` ends at the closing quote;
//   - but not after an ellipsis, nor after an abbreviation (e.g., i.e., cf., etc., Thm.,
//     …; see abbreviations), nor inside a decimal (no white space follows the point);
//   - a sentence also ends after a display block when what follows begins like a
//     sentence, or is another block and the first one's content ends with ".", "!" or
//     "?"; otherwise the text after a block goes on with it;
//   - last, a sentence that would consist only of delimiters and environment markers
//     ($, $$, \[, \], \(, \), \begin{…} and \end{…} with their arguments, "&", "\\") joins
//     the sentence before it, or the next one when it comes first: "\begin{proof}"
//     on a line of its own is never a sentence.
//
// Sentences tile the proof: the first starts at 0, each ends where the next starts, the
// last ends at len(proof). White space between two sentences belongs to the first.
// Paragraph numbers count the paragraphs that begin a sentence, from 0, without gaps.

import (
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Sentence is one sentence of a proof.
type Sentence struct {
	N          int    // 1-based number
	Text       string // the sentence, trimmed
	Start, End int    // byte offsets in the proof: proof[Start:End] is the sentence before trimming outer space
	Paragraph  int    // 0-based paragraph index (paragraphs are separated by blank lines)
	Step       int    // N of the "Step N:" label that starts its paragraph, line or sentence; 0 if none
}

var (
	// stepLabel matches "Step 3:", "step 3.", "**Step 3:**", "## Step 3.1:" at a line or
	// sentence start.
	stepLabel = lazyRegexp(`(?i)^(?:#{1,6}[ \t]+)?(?:\*\*|__)?step[ \t]+(\d+)(?:\.\d+)*[ \t]*(?:\*\*|__)?[ \t]*[:.)](?:\*\*|__)?`)
	// listMarker matches a list-item marker at a line start, with the blank after it.
	listMarker = lazyRegexp(`^(?:\d{1,3}[.)]|[A-Za-z][.)]|\((?:\d{1,3}|[A-Za-z]|[ivxIVX]+)\)|[-*+•])[ \t]`)
)

// labelWindow bounds how far a line-start label is looked for; labels are short, and a
// bound keeps a long line from being rescanned.
const labelWindow = 64

// abbreviations are words whose final "." does not end a sentence, lower-cased, without
// that final ".". Single letters are deliberately absent: a proof sentence often ends
// with a variable ("… divides n. Then …"); so is "no." ("the answer is no.").
var abbreviations = map[string]bool{
	"e.g": true, "i.e": true, "cf": true, "etc": true, "resp": true, "vs": true, "viz": true,
	"thm": true, "lem": true, "prop": true, "cor": true, "def": true, "defn": true,
	"eq": true, "eqs": true, "eqn": true, "fig": true, "sec": true, "ch": true, "chap": true,
	"rem": true, "ex": true, "dr": true, "mr": true, "mrs": true, "ms": true, "prof": true, "al": true,
	"approx": true, "w.r.t": true, "wrt": true, "s.t": true, "a.e": true, "i.i.d": true,
}

// SplitSentences splits a proof into sentences (see the rules above). An empty or
// white-space-only proof has none. It never panics, whatever the input.
func SplitSentences(proof string) []Sentence {
	blocks := DisplayBlocks(proof)
	sp := splitter{s: proof, blocks: blocks}
	for i, p := range paragraphs(proof, blocks) {
		sp.paragraph(p.first, p.end, i)
	}
	starts := joinMarkerOnly(proof, sp.starts)
	out := make([]Sentence, len(starts))
	para, lastPara := -1, -1
	for i, st := range starts {
		if st.para != lastPara {
			para, lastPara = para+1, st.para
		}
		s := Sentence{N: i + 1, Start: st.pos, End: len(proof), Paragraph: para, Step: st.step}
		if i == 0 {
			s.Start = 0
		}
		if i+1 < len(starts) {
			s.End = starts[i+1].pos
		}
		s.Text = strings.TrimSpace(proof[s.Start:s.End])
		out[i] = s
	}
	return out
}

// paragraphSpan is a paragraph: its first non-space byte and where it ends.
type paragraphSpan struct{ first, end int }

// paragraphs divides a proof at blank lines outside display blocks, then joins a block
// to the paragraph it continues (see the rules above).
func paragraphs(s string, blocks []DisplayBlock) []paragraphSpan {
	var out []paragraphSpan
	for start := 0; start < len(s); {
		end := paragraphEnd(s, start, blocks)
		if first := skipSpace(s, start, end); first < end {
			p := paragraphSpan{first, end}
			if n := len(out); n > 0 && joins(s, blocks, out[n-1], p) {
				out[n-1].end = end
			} else {
				out = append(out, p)
			}
		}
		start = end
	}
	return out
}

// joins reports whether paragraph q goes on with paragraph p: q starts with a display
// block and p has not ended, or p ends with a block and q starts like a continuation.
func joins(s string, blocks []DisplayBlock, p, q paragraphSpan) bool {
	last := len(strings.TrimRightFunc(s[:p.end], unicode.IsSpace))
	if k := blockAt(blocks, q.first); k >= 0 && blocks[k].Start == q.first {
		return !endsSentence(s, p.first, last)
	}
	if blockEndingAt(blocks, last) < 0 {
		return false
	}
	if startsSentence(s[q.first:q.end]) {
		return false
	}
	w := s[q.first:min(q.end, q.first+labelWindow)]
	return stepLabel().FindStringIndex(w) == nil && listMarker().FindStringIndex(w) == nil
}

// joinMarkerOnly drops the start of every sentence that would hold only delimiters and
// environment markers, so that it joins the sentence before it (the first such joins
// the next).
func joinMarkerOnly(s string, starts []sentenceStart) []sentenceStart {
	end := func(st []sentenceStart, i int) int {
		if i+1 < len(st) {
			return st[i+1].pos
		}
		return len(s)
	}
	out := starts[:0:0]
	for i, st := range starts {
		if len(out) > 0 && markerOnly(s[st.pos:end(starts, i)]) {
			continue
		}
		out = append(out, st)
	}
	for len(out) > 1 && markerOnly(s[0:out[1].pos]) {
		out[1].pos, out[1].para = out[0].pos, out[0].para
		out = out[1:]
	}
	return out
}

// paragraphEnd returns where the paragraph that starts at or after start ends: after
// the line that precedes a blank line outside display blocks, or at the end of the
// text. Leading blank lines belong to the paragraph (they are skipped as white space).
func paragraphEnd(s string, start int, blocks []DisplayBlock) int {
	seenText := false
	for i := start; i < len(s); {
		nl := strings.IndexByte(s[i:], '\n')
		lineEnd := len(s)
		if nl >= 0 {
			lineEnd = i + nl
		}
		blank := skipSpace(s, i, lineEnd) == lineEnd
		if blank && seenText && blockAt(blocks, i) < 0 {
			return i
		}
		seenText = seenText || !blank
		if nl < 0 {
			break
		}
		i = lineEnd + 1
	}
	return len(s)
}

type sentenceStart struct{ pos, para, step int }

type splitter struct {
	s      string
	blocks []DisplayBlock
	bi     int // the first block that does not end before the scan position
	starts []sentenceStart
	step   int // the step of the sentences being found
	// noCloser[d] is set once mathDelims[d] was found to have no closer in the current
	// paragraph, so later openers of it are taken literally without searching again.
	noCloser [len(mathDelims)]bool
}

// mathDelims are the math delimiters, "$$" before "$".
var mathDelims = [...]struct{ open, close string }{{"$$", "$$"}, {"$", "$"}, {`\[`, `\]`}, {`\(`, `\)`}}

// paragraph scans s[first:end], a paragraph whose first non-space byte is at first.
func (sp *splitter) paragraph(first, end, para int) {
	s := sp.s
	sp.step = 0
	sp.noCloser = [len(mathDelims)]bool{}
	pos := sp.begin(first, end, para, true)
	closer := "" // the closer of the math we are in, "" outside math
	for pos < end {
		for sp.bi < len(sp.blocks) && sp.blocks[sp.bi].End <= pos {
			sp.bi++
		}
		if sp.bi < len(sp.blocks) && sp.blocks[sp.bi].Start <= pos {
			// A display block: one unit, whatever it holds.
			closer = ""
			pos = sp.afterBlock(sp.blocks[sp.bi], end, para)
			continue
		}
		c := s[pos]
		switch {
		case c == '\n':
			pos++
			if closer == "" {
				pos = sp.lineStart(pos, end, para)
			}
		case closer != "":
			if strings.HasPrefix(s[pos:end], closer) {
				pos += len(closer)
				closer = ""
			} else {
				pos += escapeLen(s, pos, end) // \$ does not close $…$
			}
		case c == '$' || c == '\\':
			d := mathOpener(s[pos:end])
			if d < 0 { // an escape such as \$ or \\
				pos += escapeLen(s, pos, end)
				break
			}
			open := mathDelims[d].open
			if d == 0 || d == 2 { // $$ or \[ that opens no block: literal
				pos += len(open)
				break
			}
			if !sp.noCloser[d] && strings.Contains(s[pos+len(open):end], mathDelims[d].close) {
				closer = mathDelims[d].close
			} else {
				sp.noCloser[d] = true
			}
			pos += len(open)
		case c == '.' || c == '!' || c == '?':
			next, crossedLine, ok := sentenceBreak(s, pos, first, end)
			if !ok {
				pos++
				break
			}
			pos = sp.begin(next, end, para, crossedLine)
		default:
			pos++
		}
	}
}

// afterBlock scans past display block b and decides whether a sentence starts after
// it: when what follows begins like a sentence, or is another block and b's content
// ended its sentence. It returns where scanning goes on.
func (sp *splitter) afterBlock(b DisplayBlock, end, para int) int {
	pos := min(b.End, end)
	q := skipSpace(sp.s, pos, end)
	if q >= end {
		return q
	}
	var brk bool
	if k := blockAt(sp.blocks, q); k >= 0 && sp.blocks[k].Start == q {
		brk = endsSentence(sp.s, b.Start, b.End)
	} else {
		brk = q > pos && startsSentence(sp.s[q:end])
	}
	if !brk {
		return pos
	}
	return sp.begin(q, end, para, strings.IndexByte(sp.s[pos:q], '\n') >= 0)
}

// mathOpener returns the index in mathDelims of the delimiter s starts with, -1 if none.
func mathOpener(s string) int {
	for i, d := range mathDelims {
		if strings.HasPrefix(s, d.open) {
			return i
		}
	}
	return -1
}

// escapeLen is the length of what starts at s[pos]: 2 for a backslash escape, except
// before a newline, so that line starts are still seen; otherwise 1.
func escapeLen(s string, pos, end int) int {
	if s[pos] == '\\' && pos+1 < end && s[pos+1] != '\n' {
		return 2
	}
	return 1
}

// lineStart handles the start of a line inside a paragraph (outside math): a step label
// or list marker there starts a sentence. It returns where scanning goes on.
func (sp *splitter) lineStart(pos, end, para int) int {
	q := skipSpace(sp.s, pos, end)
	if step, n := sp.labelAt(q, end, true); n > 0 {
		return sp.record(q, para, step, n)
	}
	return q
}

// begin records a sentence starting at pos and returns where scanning goes on.
func (sp *splitter) begin(pos, end, para int, atLineStart bool) int {
	step, n := sp.labelAt(pos, end, atLineStart)
	return sp.record(pos, para, step, n)
}

// record records a sentence starting at pos with a label of length n (step >= 0 for a
// step label, -1 otherwise) and returns the position after the label: the label's
// punctuation must not end the sentence.
func (sp *splitter) record(pos, para, step, n int) int {
	if step >= 0 {
		sp.step = step
	}
	sp.starts = append(sp.starts, sentenceStart{pos: pos, para: para, step: sp.step})
	return pos + n
}

// labelAt finds a step label at pos or, at a line start, a list marker. It returns the
// step number (-1 for a marker or nothing; 0 for a number too large to read) and the
// label's length, 0 if there is none.
func (sp *splitter) labelAt(pos, end int, atLineStart bool) (step, length int) {
	w := sp.window(pos, end)
	if m := stepLabel().FindStringSubmatchIndex(w); m != nil {
		if step, err := strconv.Atoi(w[m[2]:m[3]]); err == nil {
			return step, m[1]
		}
		return 0, m[1]
	}
	if atLineStart {
		if l := listMarker().FindStringIndex(w); l != nil {
			return -1, l[1]
		}
	}
	return -1, 0
}

func (sp *splitter) window(pos, end int) string {
	return sp.s[pos:min(end, pos+labelWindow)]
}

// sentenceBreak decides whether the terminal punctuation at s[pos] ends a sentence
// within the paragraph s[first:end]. If so it returns where the next sentence starts
// and whether a newline lies between.
func sentenceBreak(s string, pos, first, end int) (next int, crossedLine, ok bool) {
	j := skipClosers(s, pos+1, end)
	next = skipSpace(s, j, end)
	if next == j || next == end || !startsSentence(s[next:end]) {
		return 0, false, false
	}
	if s[pos] == '.' {
		if pos > first && s[pos-1] == '.' {
			return 0, false, false // an ellipsis
		}
		if abbreviations[strings.ToLower(wordBefore(s, pos, first))] {
			return 0, false, false
		}
	}
	return next, strings.IndexByte(s[j:next], '\n') >= 0, true
}

// maxAbbreviation bounds the look-back for an abbreviation: longer words are not one.
const maxAbbreviation = 8

// wordBefore returns the letters and dots just before s[pos] ("e.g" for "e.g."),
// without leading dots; "" when that is longer than any abbreviation.
func wordBefore(s string, pos, first int) string {
	i := pos
	for i > first && (isASCIILetter(s[i-1]) || s[i-1] == '.') {
		i--
		if pos-i > maxAbbreviation {
			return ""
		}
	}
	return strings.TrimLeft(s[i:pos], ".")
}

func isASCIILetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

// closers may follow terminal punctuation and still belong to the sentence.
var closers = []string{`"`, "'", ")", "]", "}", "*", "_", "”", "’", "»"}

func skipClosers(s string, i, end int) int {
	for i < end {
		n := 0
		for _, c := range closers {
			if strings.HasPrefix(s[i:end], c) {
				n = len(c)
				break
			}
		}
		if n == 0 {
			break
		}
		i += n
	}
	return i
}

// startsSentence reports whether s (non-empty) begins like a sentence.
func startsSentence(s string) bool {
	r, _ := utf8.DecodeRuneInString(s)
	switch {
	case unicode.IsUpper(r), unicode.IsDigit(r):
		return true
	case strings.ContainsRune(`$("'“‘«`, r):
		return true
	case r == '\\':
		if name, n := envOpen(s); n > 0 {
			return displayEnvs[name]
		}
		return strings.HasPrefix(s, `\[`) || strings.HasPrefix(s, `\(`)
	}
	return false
}

// skipSpace returns the index of the first non-space rune of s[i:end], or end.
func skipSpace(s string, i, end int) int {
	for i < end {
		r, size := utf8.DecodeRuneInString(s[i:end])
		if !unicode.IsSpace(r) {
			break
		}
		i += size
	}
	return i
}

// NormalizeSpace collapses every run of white space to one space and trims the ends.
func NormalizeSpace(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// LocateRule says how LocateSentence found a sentence.
type LocateRule string

const (
	LocatedByText     LocateRule = "quoted text"
	LocatedByTextPart LocateRule = "part of quoted text"
	LocatedByNumber   LocateRule = "sentence number"
	NotLocated        LocateRule = ""
)

// minPartialQuote is the shortest quote (in bytes, normalised) matched as a part of a
// sentence or a sentence as part of it: shorter ones ("n", "Thus") are found in too many
// sentences to mean anything, and the sentence number is the better guide.
const minPartialQuote = 8

// LocateSentence finds the sentence an issue points at, given the sentence
// number (1-based) and quoted text. The text decides first, compared with white space
// normalised: a sentence equal to it; else a sentence containing it (an ellipsis at
// either end of the quote is dropped); else a sentence it contains (a quote spanning
// several sentences). When several sentences match equally, the one nearest the number
// wins. Without a text match, the number decides if it is in range. It returns the index
// into sents and the rule used, or -1 and NotLocated.
func LocateSentence(sents []Sentence, number int, quoted string) (int, LocateRule) {
	q := NormalizeSpace(quoted)
	if q != "" {
		texts := make([]string, len(sents))
		for i, s := range sents {
			texts[i] = NormalizeSpace(s.Text)
		}
		if i := nearest(texts, number, func(t string) bool { return t == q }); i >= 0 {
			return i, LocatedByText
		}
		part := trimEllipsis(q)
		if len(part) >= minPartialQuote {
			if i := nearest(texts, number, func(t string) bool { return strings.Contains(t, part) }); i >= 0 {
				return i, LocatedByTextPart
			}
			if i := nearest(texts, number, func(t string) bool { return t != "" && strings.Contains(part, t) }); i >= 0 {
				return i, LocatedByTextPart
			}
		}
	}
	if number >= 1 && number <= len(sents) {
		return number - 1, LocatedByNumber
	}
	return -1, NotLocated
}

// nearest returns the index of the text matching ok that is closest to the 1-based
// number (the earlier one on a tie), or -1.
func nearest(texts []string, number int, ok func(string) bool) int {
	number = min(max(number, 0), len(texts)+1) // no overflow below
	best, bestDist := -1, 0
	for i, t := range texts {
		if !ok(t) {
			continue
		}
		d := max(i+1-number, number-(i+1))
		if best < 0 || d < bestDist {
			best, bestDist = i, d
		}
	}
	return best
}

func trimEllipsis(s string) string {
	for _, e := range []string{"...", "…"} {
		s = strings.TrimSuffix(strings.TrimPrefix(s, e), e)
	}
	return strings.TrimSpace(s)
}

// QuoteIn reports whether a quoted sentence is in a proof, spaces normalised on both
// sides; an ellipsis ("..." or "…") in the quote stands for any text between its parts,
// in order, as checkers shorten long sentences. An empty quote is in no proof.
func QuoteIn(quote, proof string) bool {
	q := NormalizeSpace(strings.ReplaceAll(quote, "...", "…"))
	p := NormalizeSpace(proof)
	found := false
	for part := range strings.SplitSeq(q, "…") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		i := strings.Index(p, part)
		if i < 0 {
			return false
		}
		p, found = p[i+len(part):], true
	}
	return found
}
