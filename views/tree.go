// Package views renders referee's state as strings: pure functions of the snapshot, the
// graph and the UI state, with no Bubble Tea in them. Every string that comes from a
// file passes through model.Sanitize or model.SanitizeLine here, and widths are measured
// in terminal cells (ansi.StringWidth), never in bytes.
package views

import (
	"fmt"
	"referee/mathtext"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"

	"referee/cells"
	"referee/live"
	"referee/model"
	"referee/themes"
)

// RowInfo is what a row shows about its object, read from the snapshot and graph.
type RowInfo struct {
	Phase       model.Phase
	Status      string
	Text        string // claim or objectives, one line, sanitised
	IssuesOpen  int
	IssuesTotal int
	FullyProved bool
	Stale       bool
	Next        string // the agent the orchestrator would run
	Broken      bool   // the file is broken; this is its last good version
	Flash       bool   // changed a moment ago
	Retread     bool   // the claim repeats an older true, false or abandoned one (≈)
}

// InfoFor reads a row's info, its text's math shown as math says. It tolerates
// anything: a missing object gives zero info.
func InfoFor(snap *model.Snapshot, g *model.Graph, id string, broken map[string]bool, math mathtext.Mode) RowInfo {
	var ri RowInfo
	if st := snap.Statements.Get(id); st != nil {
		ri.Status = st.Status
		ri.Text = ReadableLine(st.Claim(), math)
		ri.IssuesTotal = len(st.Issues)
		ri.IssuesOpen = len(model.Unanswered(st.Issues, st.Responses))
	} else if p := snap.Problems[id]; p != nil {
		ri.Status = p.Status
		ri.Text = ReadableLine(p.Title(), math)
	}
	if g != nil {
		ri.Phase = g.Phase.Get(id)
		ri.FullyProved = g.FullyProved.Get(id)
		_, ri.Stale = g.Stale.Lookup(id)
		ri.Next = g.Next.Get(id)
	}
	ri.Broken = broken[id]
	return ri
}

// ReadableLine is the first line of a claim, title or proof as a row shows it: clipped,
// its math readable in mode math (see mathtext.Line), sanitised.
func ReadableLine(s string, math mathtext.Mode) string {
	s, _ = Clip(strings.TrimLeft(s, " \t\r\n"), rowTextBytes)
	s = strings.TrimSpace(s)
	more := ""
	if i := strings.Index(s, "\n\n"); i >= 0 {
		s, more = s[:i], " …" // the first paragraph: a display block in it stays with it
	}
	if math == mathtext.Unicode && mathtext.HasMath(s) {
		s, _ = Clip(s, rowMathBytes)
		s = readableRows.get(s)
	} else if i := strings.IndexByte(s, '\n'); i >= 0 {
		s, more = s[:i], " …"
	}
	return model.SanitizeLine(s + more)
}

// readableRows keeps the rows' readable texts: every visible row is laid out on every
// frame, and its math is rendered once, not on each.
var readableRows = &lineCache{m: map[string]string{}}

type lineCache struct {
	mu sync.Mutex
	m  map[string]string
}

// rowCacheSize bounds the rows' readable texts kept: far more than a screen shows.
const rowCacheSize = 4096

func (c *lineCache) get(s string) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	if r, ok := c.m[s]; ok {
		return r
	}
	if len(c.m) >= rowCacheSize {
		clear(c.m)
	}
	r := mathtext.Line(s, mathtext.Unicode)
	c.m[s] = r
	return r
}

// rowMathBytes is the most of a text whose math a row renders: more than a row shows.
const rowMathBytes = 1024

// rowTextBytes is the most of a text a tree row looks at: far more than a row can show,
// and a 5 MB claim is not sanitised and measured again on every frame.
const rowTextBytes = 4096

// Clip cuts s to at most n bytes, at a character boundary, and says how many bytes it
// cut. Texts are cut before layout: wrapping and measuring cost what they are given.
func Clip(s string, n int) (string, int) {
	if len(s) <= n {
		return s, 0
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut], len(s) - cut
}

// NextWord is the short form of an agent for the "next" mark.
func NextWord(agent string) string {
	switch agent {
	case model.AgentCheck:
		return "check"
	case model.AgentProve:
		return "prove"
	case model.AgentFix:
		return "fix"
	case model.AgentSolve:
		return "solve"
	case model.AgentHuman:
		return "decide"
	}
	return strings.TrimPrefix(agent, "agent-")
}

// CompactTree is the pane width below which rows show a status's glyph, not its word.
const CompactTree = 44

// MaxIndent is the deepest indentation a row gets, in levels: deeper rows are drawn at
// it, with a "›" that says the depth goes on (the breadcrumb says where the row is).
const MaxIndent = 12

// rowRoom is what a row keeps beside its indentation in a narrow pane: the fold, the
// glyph, an ID, and a few words of the claim.
const rowRoom = 22

// TreeLine renders one row at exactly width cells (or less, never more). What gives
// way when space is short, in order: the claim's text, the marks on the right, the
// status word (its glyph stays), the indentation. The ID is never cut.
func TreeLine(st *themes.Styles, r live.TreeRow, info RowInfo, width int, selected, focused bool) string {
	if width <= 0 {
		return ""
	}
	// A narrow pane caps the indentation lower, so that a deep row keeps room for its
	// claim: the fold, the glyph, an ID and a few words of text.
	levels := min(MaxIndent, max((width-rowRoom)/2, 1))
	depth := min(r.Depth, levels)
	indent := strings.Repeat("  ", depth)
	if r.Depth > levels {
		indent = indent[:len(indent)-1] + "›"
	}
	fold := "  "
	if r.HasKids {
		fold = "▸ "
		if r.Open {
			fold = "▾ "
		}
	}
	var line string
	switch r.Kind {
	case live.RowGroup:
		line = fitRow(indent+fold, st.Muted.Render(model.SanitizeLine(r.Label)), width)
	case live.RowCycle:
		line = fitRow(indent+fold, st.Warn.Render("↺ "+r.ID+" (cycle: already above)"), width)
	case live.RowMissing:
		line = fitRow(indent+fold, st.Error.Render("⚠ "+r.ID+" (missing)"), width)
	case live.RowBroken:
		line = fitRow(indent+fold, st.Error.Render("⚠ "+model.SanitizeLine(r.Label)+" (does not parse)"), width)
	default:
		line = objectLine(st, r, info, indent, fold, width)
	}
	if pad := width - cellWidth(line); pad > 0 {
		line += strings.Repeat(" ", pad)
	}
	switch {
	case selected && focused:
		line = st.Selected.Render(ansi.Strip(line))
	case selected:
		line = st.SelectedBlur.Render(ansi.Strip(line))
	case info.Flash:
		line = st.Flash.Render(ansi.Strip(line))
	}
	return line
}

// fitRow is a prefix and a text cut to width.
func fitRow(prefix, text string, width int) string {
	l := prefix + text
	if cellWidth(l) > width {
		l = cells.Truncate(l, width, "…")
	}
	return l
}

// objectLine lays out a problem's or statement's row: indent, fold, status, ID (never
// cut), the edge, the text, and the marks on the right.
func objectLine(st *themes.Styles, r live.TreeRow, info RowInfo, indent, fold string, width int) string {
	id := st.ID.Render(r.ID)
	if r.Shared {
		id += st.Faint.Render("⇉")
	}
	b := themes.BadgeFor(info.Phase, info.Status)
	badge := st.Badge(info.Phase, info.Status, themes.BadgeWidth)
	glyph := st.Status(info.Phase).Render(b.Symbol)
	var right []string
	if info.IssuesTotal > 0 {
		s := fmt.Sprintf("⚑%d/%d", info.IssuesOpen, info.IssuesTotal)
		if info.IssuesOpen > 0 {
			right = append(right, st.Status(model.PhaseHasGap).Render(s))
		} else {
			right = append(right, st.Faint.Render(s))
		}
	}
	if info.Retread {
		right = append(right, st.Warn.Render("≈"))
	}
	if info.FullyProved && r.Kind == live.RowStatement {
		right = append(right, st.Status(model.PhaseProved).Render("★"))
	}
	if info.Stale {
		right = append(right, st.Warn.Render("stale"))
	}
	if info.Next != "" {
		right = append(right, st.Accent.Render("→"+NextWord(info.Next)))
	}
	if info.Broken {
		right = append(right, st.Error.Render("⚠broken"))
	}
	rt := strings.Join(right, " ")
	edge := ""
	if r.Edge != "" {
		edge = " " + st.Faint.Render("("+r.Edge+")")
	}
	// The fixed part: what must show whole. Shrink it until it leaves room: the status
	// word goes first (its glyph stays), then the marks, then the indentation.
	head := indent + fold + badge + " " + id
	const minText = 8        // a claim narrower than this says nothing
	if width < CompactTree { // a narrow pane: every row shows the glyph, so they align
		head = indent + fold + glyph + " " + id
	}
	if marks := cellWidth(rt); marks > 0 && cellWidth(head)+1+minText+1+marks > width { // as the test below
		head = indent + fold + glyph + " " + id
	}
	if cellWidth(head) > width {
		head = glyph + " " + id
	}
	if cellWidth(head) > width {
		head = id
	}
	hw := cellWidth(head)
	rw := cellWidth(rt)
	if rw > 0 && hw+1+minText+1+rw > width { // no room for the marks: the text first
		rt, rw = "", 0
	}
	avail := width - hw
	if rw > 0 {
		avail -= rw + 1
	}
	text := edge + " " + st.Base.Render(info.Text)
	if cellWidth(text) > avail {
		if avail >= 3 {
			text = cells.Truncate(text, avail, "…")
		} else {
			text = ""
		}
	}
	line := head + text
	if rw > 0 {
		line += strings.Repeat(" ", max(1, width-rw-cellWidth(line))) + rt
	}
	if cellWidth(line) > width { // an ID wider than the pane: nothing else to give
		line = cells.Truncate(line, width, "")
	}
	return line
}

// cellWidth is ansi.StringWidth with a fast path for printable ASCII, one cell a byte:
// most of a proof and of a tree line, measured again on every frame.
func cellWidth(s string) int {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f {
			return cells.Width(s)
		}
	}
	return len(s)
}
