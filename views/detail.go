package views

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"referee/cells"
	"referee/mathtext"
	"referee/model"
	"referee/model/similar"
	"referee/themes"
)

// Link is a reference shown in the detail pane that can be followed.
type Link struct {
	Line int
	ID   string
}

// Doc is a rendered detail pane: its lines and where the interactive parts are.
type Doc struct {
	Lines      []string
	Links      []Link
	ProofStart int   // line of the first proof line; -1 without a proof
	IssueLines []int // line of each issue thread, by thread index

	proof *proofMarks // the sentence marks, drawn by Line
	// reads are the objects the doc was laid out from, when it knows them all
	// (ProblemDetail): Current then tells whether a new snapshot would lay it out the same.
	reads     []read
	brokenKey string // the broken-file notes of reads[0]
}

// brokenKey is what brokenNote shows for id.
func brokenKey(broken []model.BrokenFile, id string) string {
	var k strings.Builder
	for _, bf := range broken {
		if bf.ID == id {
			k.WriteString(bf.Path + "\x00" + bf.Reason + "\x00")
		}
	}
	return k.String()
}

// read is one object a doc showed: the object as loaded and what the graph derived for it.
type read struct {
	id          string
	exists      bool
	st          *model.Statement
	p           *model.Problem
	phase       model.Phase
	fullyProved bool
	stale       bool
	next        string
}

func readOf(snap *model.Snapshot, g *model.Graph, id string) read {
	r := read{id: id, exists: snap.Exists(id), st: snap.Statements.Get(id), p: snap.Problems[id]}
	if g != nil {
		r.phase, r.fullyProved, r.next = g.Phase.Get(id), g.FullyProved.Get(id), g.Next.Get(id)
		_, r.stale = g.Stale.Lookup(id)
	}
	return r
}

// Current says the doc would be laid out the same from snap and g (with the same state
// and width): every object it showed is the same as loaded, and derived the same. A
// reload keeps an unchanged object's pointer, so this costs a few lookups per line
// shown, not a layout; false when the doc does not know what it read.
func (d Doc) Current(snap *model.Snapshot, g *model.Graph, broken []model.BrokenFile) bool {
	if d.reads == nil || snap == nil {
		return false
	}
	for _, r := range d.reads {
		if readOf(snap, g, r.id) != r {
			return false
		}
	}
	return brokenKey(broken, d.reads[0].id) == d.brokenKey
}

// proofMarks is what Line draws over the proof's lines.
type proofMarks struct {
	rp    *RenderedProof
	marks SentenceMarks
	bang  string
}

// Line is line i as shown. The proof's lines get their sentence marks here, when they
// are shown: the pane draws only its visible lines, so moving the sentence cursor
// costs a few lines' work whatever the proof's length.
func (d Doc) Line(i int) string {
	l := d.Lines[i]
	if p := d.proof; p != nil && i >= d.ProofStart && i < d.ProofStart+p.rp.Lines() {
		return p.rp.Paint(l, i-d.ProofStart, p.marks, p.bang)
	}
	return l
}

// DetailState is the UI state the detail pane shows.
type DetailState struct {
	Sentence int // sentence cursor, 0-based; -1 none
	Issue    int // issue cursor (thread index); -1 none
	Link     int // link cursor; -1 none
	Proof    *RenderedProof
	// ProofText is the statement's proof text (Proof is its rendering), or ProofErr why
	// it could not be read: a snapshot leaves long proofs in their files until shown.
	ProofText string
	ProofErr  error
	Broken    []model.BrokenFile
	// Similar is the statements whose claims are most like this one's, best first;
	// Retreads the older decided ones it repeats. Both from the snapshot's similarity
	// index, built off the UI goroutine (nil until it is).
	Similar  []similar.Match
	Retreads []similar.Retread
	// Why is the text the agents wrote before the skill calls behind this statement's
	// issues, responses and verdicts, from their session transcripts (sanitised);
	// folded to a line each unless WhyOpen.
	Why     WhyNotes
	WhyOpen bool
	// Math is how the claim, the premises and the issue threads show their math, as
	// the proof does: readable (the zero value) or as written.
	Math mathtext.Mode
}

// WhyNote is what an agent wrote before the skill call that made a change.
type WhyNote struct {
	Change string // the change, l-…
	Agent  string // "agent-check a3f1a17"
	Text   string
}

// WhyNotes are a statement's notes: issues and responses by number, verdicts in order.
type WhyNotes struct {
	Issues    map[int]WhyNote
	Responses map[int]WhyNote
	Verdicts  []WhyNote
}

// why writes one note, folded to its first line unless the state unfolds them.
func (b *docBuilder) why(n WhyNote, indent int) {
	st := b.st
	pad := strings.Repeat(" ", indent)
	lines := strings.Split(strings.TrimSpace(n.Text), "\n")
	who := model.SanitizeLine(n.Agent) + " (" + model.SanitizeLine(n.Change) + ")"
	if !b.state.WhyOpen {
		// Folded, the last line shows: the conclusion right before the call.
		first := ""
		for i := len(lines) - 1; i >= 0; i-- {
			if strings.TrimSpace(lines[i]) != "" {
				first = strings.TrimSpace(lines[i])
				break
			}
		}
		more := ""
		if len(lines) > 1 {
			more = fmt.Sprintf(" (+%d lines, w unfolds)", len(lines)-1)
		}
		b.line(pad + st.Faint.Render("▸ "+who+": "+model.SanitizeLine(first)+more))
		return
	}
	b.line(pad + st.Faint.Render("▾ "+who+" wrote before the call:"))
	for _, l := range lines {
		b.para(model.Sanitize(l), indent+2, st.Faint.Render)
	}
}

type docBuilder struct {
	st    *themes.Styles
	width int
	doc   Doc
	state DetailState
	// track records the objects shown (doc.reads).
	track bool
}

// readable is text as the pane shows it: its math readable unless the state asks for
// the source.
func (b *docBuilder) readable(s string) string {
	if b.state.Math != mathtext.Unicode || !mathtext.HasMath(s) {
		return s
	}
	return mathtext.Text(s, b.width-4)
}

func (b *docBuilder) line(s string) {
	if cells.Width(s) > b.width {
		s = cells.Truncate(s, b.width, "…")
	}
	b.doc.Lines = append(b.doc.Lines, s)
}

func (b *docBuilder) blank() {
	if n := len(b.doc.Lines); n > 0 && b.doc.Lines[n-1] != "" {
		b.doc.Lines = append(b.doc.Lines, "")
	}
}

func (b *docBuilder) heading(s string) {
	b.blank()
	b.line(b.st.Heading.Render(s))
}

// para writes sanitised text wrapped at the width with an indent.
func (b *docBuilder) para(text string, indent int, style func(...string) string) {
	text = model.Sanitize(text)
	w := max(b.width-indent, 8)
	pad := strings.Repeat(" ", indent)
	for l := range strings.SplitSeq(text, "\n") {
		l = strings.ReplaceAll(l, "\t", "    ")
		for wl := range strings.SplitSeq(WrapText(l, w), "\n") {
			b.line(pad + style(wl))
		}
	}
}

// labelled writes "Label: text" with the text wrapped under itself.
func (b *docBuilder) labelled(indent int, label, text string) {
	if strings.TrimSpace(text) == "" {
		return
	}
	text = model.Sanitize(text)
	pad := strings.Repeat(" ", indent)
	lw := cells.Width(label) + 2
	w := max(b.width-indent-lw, 8)
	if lw > (b.width-indent)/4 {
		// Narrow: the label on its own line, the text under it.
		b.line(pad + b.st.Muted.Render(label+":"))
		b.para(text, indent+2, b.st.Base.Render)
		return
	}
	first := true
	for l := range strings.SplitSeq(text, "\n") {
		for wl := range strings.SplitSeq(WrapText(l, w), "\n") {
			if first {
				b.line(pad + b.st.Muted.Render(label+": ") + b.st.Base.Render(wl))
				first = false
			} else {
				b.line(pad + strings.Repeat(" ", lw) + b.st.Base.Render(wl))
			}
		}
	}
}

// ref writes a reference item: a followable link when it names an object.
// detailListMax is the most references a list of the detail shows: a statement with
// 20,000 sub-statements lists the first ones and says how many more the tree has.
const detailListMax = 200

// refs writes a list of references, the first detailListMax of them.
func (b *docBuilder) refs(snap *model.Snapshot, g *model.Graph, items []string, indent int) {
	for _, it := range items[:min(len(items), detailListMax)] {
		b.ref(snap, g, it, indent)
	}
	if more := len(items) - detailListMax; more > 0 {
		b.para(fmt.Sprintf("… and %d more (the tree lists them all)", more), indent, b.st.Faint.Render)
	}
}

func (b *docBuilder) ref(snap *model.Snapshot, g *model.Graph, item string, indent int) {
	pad := strings.Repeat(" ", indent)
	id, ok := model.RefID(item)
	if !ok {
		b.para("• "+b.readable(item), indent, b.st.Base.Render)
		return
	}
	text := strings.TrimSpace(strings.TrimPrefix(item, "("+id+")"))
	if text == id {
		text = ""
	}
	var info RowInfo
	exists := snap.Exists(id)
	if b.track {
		b.doc.reads = append(b.doc.reads, readOf(snap, g, id))
	}
	if exists {
		info = InfoFor(snap, g, id, nil, b.state.Math)
		if text == "" {
			text = info.Text
		}
	}
	cur := len(b.doc.Links) == b.state.Link
	arrow := "→ "
	if cur {
		arrow = b.st.Cursor.Render("→") + " "
	}
	idStyle := b.st.Link
	badge := ""
	if exists {
		badge = b.st.Badge(info.Phase, info.Status, 0) + " "
	} else {
		badge = b.st.Error.Render("⚠ missing") + " "
	}
	b.doc.Links = append(b.doc.Links, Link{Line: len(b.doc.Lines), ID: id})
	b.line(pad + arrow + idStyle.Render(id) + " " + badge + b.st.Base.Render(model.SanitizeLine(b.readable(text))))
}

func header(st *themes.Styles, id string, info RowInfo, extra ...string) string {
	parts := []string{st.Title.Render(id), st.Badge(info.Phase, info.Status, 0)}
	if info.Status != "" && themes.BadgeFor(info.Phase, info.Status).Word != info.Status {
		parts = append(parts, st.Faint.Render("("+model.SanitizeLine(info.Status)+")"))
	}
	parts = append(parts, extra...)
	return strings.Join(parts, "  ")
}

// StatementDetail renders a statement: claim, premises, sub-statements, proof with
// numbered sentences, issue threads, progress notes, proposals and file problems.
func StatementDetail(st *themes.Styles, snap *model.Snapshot, g *model.Graph, id string, state DetailState, width int) Doc {
	b := &docBuilder{st: st, width: max(width, 10), state: state, doc: Doc{ProofStart: -1}}
	s := snap.Statements.Get(id)
	if s == nil {
		b.line(st.Error.Render("⚠ " + id + " does not exist"))
		return b.doc
	}
	info := InfoFor(snap, g, id, nil, b.state.Math)
	var marks []string
	if s.Type != "" {
		marks = append(marks, st.Muted.Render(model.SanitizeLine(s.Type)))
	}
	if info.FullyProved {
		marks = append(marks, st.Status(model.PhaseProved).Render("★ fully proved"))
	}
	if info.Next != "" {
		marks = append(marks, st.Accent.Render("next: "+model.SanitizeLine(info.Next)))
	}
	b.line(header(st, id, info, marks...))
	if s.Reliability != 0 || s.CountUsage != 0 {
		b.line(st.Faint.Render(fmt.Sprintf("reliability %s · used %d×", reliability(s.Reliability), s.CountUsage)))
	}
	if why, ok := g.Stale.Lookup(id); ok {
		b.line(st.Warn.Render("stale: " + model.SanitizeLine(why)))
	}
	for _, r := range state.Retreads {
		b.para(fmt.Sprintf("≈ this claim repeats %s, which is %s (similarity %.2f)", r.Of, r.OfStatus, r.Score), 0, st.Warn.Render)
	}
	b.brokenNote(id)

	b.heading("Claim")
	claim, more := Clip(s.Claim(), detailTextBytes)
	b.para(b.readable(claim), 2, st.Bold.Render)
	if more > 0 {
		b.para(fmt.Sprintf("… and %d bytes more (referee show %s prints it whole)", more, id), 2, st.Faint.Render)
	}
	if len(s.Hypothesis) > 0 {
		b.heading(fmt.Sprintf("Premises (%d)", len(s.Hypothesis)))
		b.refs(snap, g, s.Hypothesis, 2)
	}
	if len(s.Preliminaries) > 0 {
		b.heading(fmt.Sprintf("Sub-statements (%d)", len(s.Preliminaries)))
		b.refs(snap, g, s.Preliminaries, 2)
	}

	threads, stray := model.Threads(s.Issues, s.Responses)
	flagged := map[int]bool{}
	located := make([]int, len(threads))
	var rule []model.LocateRule
	var sents []model.Sentence
	if state.Proof != nil {
		sents = state.Proof.Sentences
	} else {
		sents = model.SplitSentences(state.ProofText)
	}
	open := model.Unanswered(s.Issues, s.Responses)
	for i, t := range threads {
		idx, r := model.LocateSentence(sents, t.Issue.Sentence, t.Issue.SentenceText)
		located[i] = idx
		rule = append(rule, r)
		if idx >= 0 && slices.Contains(open, t.Issue.Number) {
			flagged[idx] = true
		}
	}

	if !s.Proof.Blank() {
		title := fmt.Sprintf("Proof (%d sentences", len(sents))
		if state.Sentence >= 0 && state.Sentence < len(sents) {
			title += fmt.Sprintf(" · cursor on %d", state.Sentence+1)
		}
		title += ")"
		if state.ProofErr != nil {
			title = "Proof"
		}
		b.heading(title)
		if len(s.Proof.Ref) > 0 {
			var refs []string
			for _, r := range s.Proof.Ref {
				refs = append(refs, model.SanitizeLine(r))
			}
			b.para("cites "+strings.Join(refs, ", "), 2, st.Faint.Render)
		}
		b.doc.ProofStart = len(b.doc.Lines)
		if state.ProofErr != nil {
			b.para("cannot show the proof: "+state.ProofErr.Error(), 2, st.Error.Render)
		} else if state.Proof != nil {
			marks := SentenceMarks{Cursor: state.Sentence, Issue: -1, Open: flagged}
			if state.Issue >= 0 && state.Issue < len(located) {
				marks.Issue = located[state.Issue]
			}
			// Cached per rendering and theme, and wrapped to the width: no measuring here
			// (the pane cuts a line that a wide character made longer when it draws it).
			b.doc.Lines = append(b.doc.Lines, state.Proof.Display(st)...)
			b.doc.proof = &proofMarks{rp: state.Proof, marks: marks, bang: st.Error.Render("!")}
		} else {
			b.para(state.ProofText, 2, st.Base.Render)
		}
		if len(s.Proof.Cot) > 0 {
			b.blank()
			b.line(st.Muted.Render("  reasoning"))
			for _, c := range s.Proof.Cot {
				b.para("· "+c, 4, st.Faint.Render)
			}
		}
	}

	if len(threads) > 0 || len(stray) > 0 {
		b.heading(fmt.Sprintf("Issues (%d open of %d)", len(open), len(threads)))
		for i, t := range threads {
			b.blank()
			b.doc.IssueLines = append(b.doc.IssueLines, len(b.doc.Lines))
			b.thread(t, i, located[i], rule[i], sents, slices.Contains(open, t.Issue.Number))
		}
		for _, r := range stray {
			b.blank()
			b.line(st.Warn.Render("  response to no listed issue:"))
			b.response(r, 4)
		}
	}
	if len(state.Why.Verdicts) > 0 {
		b.heading("Verdicts")
		for _, n := range state.Why.Verdicts {
			b.why(n, 2)
		}
	}

	if len(s.Progresses) > 0 {
		b.heading("Progress")
		for _, raw := range s.Progresses {
			pr := model.ParseProgress(raw)
			if pr.Tag == "" {
				b.para("· "+b.readable(pr.Body), 2, st.Base.Render)
				continue
			}
			b.labelled(2, pr.Tag, b.readable(pr.Body))
		}
	}
	b.proposals(s)
	if len(state.Similar) > 0 {
		b.heading(fmt.Sprintf("Similar statements (top %d)", len(state.Similar)))
		for _, m := range state.Similar {
			b.similar(snap, g, m)
		}
	}
	b.fieldProblems(s.Problems)
	return b.doc
}

// detailTextBytes is the most of a claim the detail lays out: a few screens of it.
const detailTextBytes = 64 << 10

// similar writes one similar statement: a followable link with its score and badge.
func (b *docBuilder) similar(snap *model.Snapshot, g *model.Graph, m similar.Match) {
	info := InfoFor(snap, g, m.ID, nil, b.state.Math)
	arrow := "→ "
	if len(b.doc.Links) == b.state.Link {
		arrow = b.st.Cursor.Render("→") + " "
	}
	b.doc.Links = append(b.doc.Links, Link{Line: len(b.doc.Lines), ID: m.ID})
	b.line("  " + arrow + b.st.Link.Render(m.ID) + " " + b.st.Badge(info.Phase, info.Status, 0) + " " +
		b.st.Muted.Render(fmt.Sprintf("%.2f", m.Score)) + " " + b.st.Base.Render(info.Text))
}

func (b *docBuilder) thread(t model.Thread, i, located int, rule model.LocateRule, sents []model.Sentence, open bool) {
	st := b.st
	is := t.Issue
	state := st.Status(model.PhaseProved).Render("answered")
	if open {
		state = st.Status(model.PhaseHasGap).Render("● open")
	}
	cur := "  "
	if i == b.state.Issue {
		cur = st.Cursor.Render("▶") + " "
	}
	num := "issue"
	if is.Number > 0 {
		num = fmt.Sprintf("issue #%d", is.Number)
	}
	if !is.Parsed {
		b.line(cur + st.Bold.Render(num) + "  " + state + "  " + st.Warn.Render("(unparsed: "+is.Problem+")"))
		b.para(is.Raw, 4, st.Base.Render)
		for _, r := range t.Responses {
			b.response(r, 4)
		}
		return
	}
	where := fmt.Sprintf("sentence %d", is.Sentence)
	if located >= 0 && located+1 != is.Sentence {
		where += fmt.Sprintf(" (found as sentence %d by %s)", located+1, rule)
	} else if located < 0 {
		where += " (not found in the proof)"
	} else if rule == model.LocatedByNumber && strings.TrimSpace(is.SentenceText) != "" {
		where += " (by number: the quoted text is not in the proof)"
	}
	head := cur + st.Bold.Render(num) + "  " + state + "  " + st.Accent.Render(model.SanitizeLine(is.ErrorType))
	if cells.Width(head)+2+cells.Width(where) <= b.width {
		b.line(head + "  " + st.Muted.Render(where))
	} else {
		// Narrow: where the issue points goes under it rather than being cut off.
		b.line(head)
		b.para(where, 4, st.Muted.Render)
	}
	if is.SentenceText != "" {
		b.para("“"+b.readable(is.SentenceText)+"”", 4, st.Faint.Render)
	}
	b.labelled(4, "Explanation", b.readable(is.Explanation))
	b.labelled(4, "Fix", b.readable(is.Fix))
	if n, ok := b.state.Why.Issues[is.Number]; ok {
		b.why(n, 4)
	}
	for _, r := range t.Responses {
		b.response(r, 4)
	}
}

func (b *docBuilder) response(r model.Response, indent int) {
	st := b.st
	pad := strings.Repeat(" ", indent)
	head := "↳ response"
	if r.Number > 0 {
		head = fmt.Sprintf("↳ response #%d", r.Number)
	}
	if !r.Parsed {
		b.line(pad + st.Bold.Render(head) + "  " + st.Warn.Render("(unparsed: "+r.Problem+")"))
		b.para(r.Raw, indent+2, st.Base.Render)
		return
	}
	b.line(pad + st.Bold.Render(head) + "  " + st.Accent.Render(model.SanitizeLine(r.Type)))
	defer func() {
		if n, ok := b.state.Why.Responses[r.Number]; ok {
			b.why(n, indent+2)
		}
	}()
	switch r.Type {
	case "patch":
		b.labelled(indent+2, "Change", b.readable(r.Change))
	case "substatement":
		b.labelled(indent+2, "Sub-statement", r.SubID)
		b.labelled(indent+2, "Purpose", b.readable(r.Purpose))
	case "false":
		b.labelled(indent+2, "Counterexample", b.readable(r.Counterexample))
	case "modification":
		b.labelled(indent+2, "Type", r.ModType)
		b.labelled(indent+2, "Proposal", b.readable(r.Proposal))
	}
}

func (b *docBuilder) proposals(s *model.Statement) {
	for _, raw := range s.Progresses {
		pr := model.ParseProgress(raw)
		switch pr.Tag {
		case "COUNTEREXAMPLE":
			b.heading("Counterexample")
			b.para(pr.Body, 2, b.st.Status(model.PhaseRefuted).Render)
		case "MODIFICATION PROPOSED":
			b.heading("Modification proposal")
			b.labelled(2, "Type", pr.ModType)
			b.labelled(2, "Change", pr.Change)
			b.labelled(2, "Rationale", pr.Rationale)
		}
	}
}

func (b *docBuilder) fieldProblems(ps []model.FieldProblem) {
	if len(ps) == 0 {
		return
	}
	b.heading("File problems")
	for _, p := range ps {
		b.para("⚠ "+p.String(), 2, b.st.Warn.Render)
	}
}

func (b *docBuilder) brokenNote(id string) {
	for _, bf := range b.state.Broken {
		switch {
		case bf.ID != id:
		case strings.HasPrefix(bf.Path, "history/"): // time travel: a backup it could not use
			b.para(fmt.Sprintf("⚠ %s: %s; the next version stands in", bf.Path, bf.Reason), 0, b.st.Error.Render)
		default:
			b.para(fmt.Sprintf("⚠ %s does not parse (%s); showing its last good version", bf.Path, bf.Reason), 0, b.st.Error.Render)
		}
	}
}

// ProblemDetail renders a problem: objectives, hypotheses, subgoals, statements, solution.
func ProblemDetail(st *themes.Styles, snap *model.Snapshot, g *model.Graph, id string, state DetailState, width int) Doc {
	b := &docBuilder{st: st, width: max(width, 10), state: state, doc: Doc{ProofStart: -1}, track: true}
	b.doc.reads = append(b.doc.reads, readOf(snap, g, id))
	b.doc.brokenKey = brokenKey(state.Broken, id)
	p := snap.Problems[id]
	if p == nil {
		b.line(st.Error.Render("⚠ " + id + " does not exist"))
		return b.doc
	}
	info := InfoFor(snap, g, id, nil, b.state.Math)
	var marks []string
	if p.Priority != "" {
		marks = append(marks, st.Muted.Render("priority "+model.SanitizeLine(p.Priority)))
	}
	if info.Next != "" {
		marks = append(marks, st.Accent.Render("next: "+info.Next))
	}
	b.line(header(st, id, info, marks...))
	b.brokenNote(id)
	b.heading("Objectives")
	for _, o := range p.Objectives {
		b.para("• "+b.readable(o), 2, st.Bold.Render)
	}
	if p.Summary != "" {
		b.heading("Summary")
		b.para(b.readable(p.Summary), 2, st.Base.Render)
	}
	if len(p.Hypothesis) > 0 {
		b.heading(fmt.Sprintf("Hypotheses (%d)", len(p.Hypothesis)))
		b.refs(snap, g, p.Hypothesis, 2)
	}
	var subgoals, needs []string
	for _, it := range p.Preliminaries {
		if rid, _ := model.RefID(it); model.KindOf(rid) == model.KindProblem {
			subgoals = append(subgoals, it)
		} else {
			needs = append(needs, it)
		}
	}
	if len(subgoals) > 0 {
		b.heading(fmt.Sprintf("Subgoals (%d)", len(subgoals)))
		b.refs(snap, g, subgoals, 2)
	}
	if len(needs) > 0 {
		b.heading(fmt.Sprintf("Needs (%d)", len(needs)))
		b.refs(snap, g, needs, 2)
	}
	if len(p.Progresses) > 0 {
		b.heading(fmt.Sprintf("Statements (%d)", len(p.Progresses)))
		b.refs(snap, g, p.Progresses, 2)
	}
	if p.Solution.Full != "" || len(p.Solution.Ref) > 0 || len(p.Solution.Cot) > 0 {
		b.heading("Solution")
		if p.Solution.Full != "" {
			b.para(b.readable(p.Solution.Full), 2, st.Base.Render)
		}
		for _, r := range p.Solution.Ref {
			b.ref(snap, g, r, 2)
		}
		for _, c := range p.Solution.Cot {
			b.para("· "+b.readable(c), 4, st.Faint.Render)
		}
	}
	b.fieldProblems(p.Problems)
	return b.doc
}

// GroupDetail renders a group row: what it holds and why.
func GroupDetail(st *themes.Styles, snap *model.Snapshot, g *model.Graph, title, about string, members []string, state DetailState, width int) Doc {
	b := &docBuilder{st: st, width: max(width, 10), state: state, doc: Doc{ProofStart: -1}}
	b.line(st.Title.Render(model.SanitizeLine(title)))
	if about != "" {
		b.blank()
		b.para(about, 0, st.Muted.Render)
	}
	b.blank()
	b.refs(snap, g, members, 2)
	return b.doc
}

// BrokenDetail lists the files that do not parse.
func BrokenDetail(st *themes.Styles, broken []model.BrokenFile, width int) Doc {
	b := &docBuilder{st: st, width: max(width, 10), doc: Doc{ProofStart: -1}}
	b.line(st.Title.Render("Files that do not parse"))
	b.blank()
	b.para("A file an agent is writing can be empty or half-written for a moment; referee keeps the last good version of its object until the file parses again.", 0, st.Muted.Render)
	for _, bf := range broken {
		b.blank()
		b.line(st.Error.Render("⚠ " + model.SanitizeLine(bf.Path)))
		b.para(bf.Reason, 2, st.Base.Render)
	}
	return b.doc
}

// MissingDetail explains a dangling reference.
func MissingDetail(st *themes.Styles, g *model.Graph, id string, width int) Doc {
	b := &docBuilder{st: st, width: max(width, 10), doc: Doc{ProofStart: -1}}
	b.line(st.Error.Render("⚠ " + id + " does not exist"))
	b.blank()
	b.para("These objects reference it:", 0, st.Muted.Render)
	for _, e := range g.Dangling {
		if e.To == id {
			b.para(fmt.Sprintf("%s (%s): %s", e.From, e.Kind, e.Item), 2, st.Base.Render)
		}
	}
	return b.doc
}

// reliability prints a float the way the files hold it (1.0, 0.85).
func reliability(f float64) string {
	s := strconv.FormatFloat(f, 'f', -1, 64)
	if !strings.ContainsAny(s, ".eE") {
		s += ".0"
	}
	return s
}
