package tui

import (
	"fmt"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"referee/cells"
	"referee/mathtext"
	"referee/model"
	"referee/skill"
	"referee/views"
)

// A statement with a proposed modification waits for a decision no agent's skill takes:
// the agents' orchestrator (MRA-v1 CLAUDE.md, "When agent reports FALSE or
// MODIFICATION") reports it and waits for a human. H shows the whole proposal and takes
// the decision as one change of its own (the decide-modification skill): accepting
// writes the new statement where the old one stood, for agent-prove, and settles the
// old one as abandoned, as the orchestrator has the fixer do with an applied
// modification; rejecting marks it false or abandoned. The old statement is then
// settled and its note says how, so the same proposal cannot be decided twice: H on it
// says who decided it, when.

// needDecision is H's disabled reason: no proposal here, or one already decided (by
// whom, when).
func needDecision(m *Model) string {
	if why := m.travel.ReadOnly(); why != "" {
		return why
	}
	st := m.selectedStatement()
	if st == nil {
		return "nothing to decide here: select a statement with a proposed modification (~ modify)"
	}
	if _, ok := model.ProposalOf(st); !ok {
		return "nothing to decide here: " + st.ID + " has no proposed modification (a MODIFICATION note)"
	}
	if !model.ProposalOpen(st) {
		return m.decidedBy(st)
	}
	return ""
}

// decidedBy says who settled a statement's proposal, when, and how: the last change
// of the log that wrote the statement, and its last note.
func (m *Model) decidedBy(st *model.Statement) string {
	out := "already decided"
	if snap := m.present().snap; snap != nil {
		for i := len(snap.Log) - 1; i >= 0; i-- {
			e := snap.Log[i]
			if slices.Contains(e.Modification, st.ID) {
				out += fmt.Sprintf(" by %s at %s (%s %s)", model.SanitizeLine(e.By), e.At, e.ID, e.Skill)
				break
			}
		}
	}
	out += ": " + st.ID + " is " + model.StatementPhase(m.snap, st).String()
	if n := len(st.Progresses); n > 0 {
		out += " · " + model.SanitizeLine(st.Progresses[n-1])
	}
	return out
}

// DecideKeyMap is the decision's keys: one letter per outcome, none shared.
type DecideKeyMap struct {
	Accept, False, Abandon, Down, Up, PageDown, PageUp, Close key.Binding
}

// DefaultDecideKeyMap returns the decision's keys.
func DefaultDecideKeyMap() DecideKeyMap {
	return DecideKeyMap{
		Accept:   key.NewBinding(key.WithKeys("a"), key.WithHelp("a", "accept")),
		False:    key.NewBinding(key.WithKeys("f"), key.WithHelp("f", "reject: false as stated")),
		Abandon:  key.NewBinding(key.WithKeys("x"), key.WithHelp("x", "reject: no longer needed")),
		Down:     key.NewBinding(key.WithKeys("j", "down"), key.WithHelp("j/↓", "scroll down")),
		Up:       key.NewBinding(key.WithKeys("k", "up"), key.WithHelp("k/↑", "scroll up")),
		PageDown: key.NewBinding(key.WithKeys("pgdown", "space", "ctrl+d"), key.WithHelp("pgdn", "page down")),
		PageUp:   key.NewBinding(key.WithKeys("pgup", "ctrl+u"), key.WithHelp("pgup", "page up")),
		Close:    key.NewBinding(key.WithKeys("esc", "q", "n"), key.WithHelp("esc", "close: nothing is decided")),
	}
}

// Decide is the dialog of one proposed modification: the proposal whole, and the
// outcomes, each on its own key.
type Decide struct {
	old    *model.Statement
	p      model.Proposal
	parent string // where the old statement stands (a problem or statement), or ""
	math   mathtext.Mode
	offset int
	keys   DecideKeyMap
}

// decideMsg is the outcome chosen; the Model starts the change.
type decideMsg struct {
	d        *Decide
	decision string
}

// decideClosedMsg says the dialog was closed without a decision.
type decideClosedMsg struct{}

// openDecision shows the selected statement's proposal and its outcomes.
func (m *Model) openDecision() tea.Cmd {
	st := m.selectedStatement()
	p, _ := model.ProposalOf(st)
	r, _ := m.tree.Selected()
	parent := ""
	up := m.idPath(r.Path)
	for i := len(up) - 2; i >= 0 && parent == ""; i-- {
		if !strings.HasPrefix(up[i], "#") { // a group (premises) is no parent
			parent = up[i]
		}
	}
	m.decide = &Decide{old: st, p: p, parent: parent, math: m.math, keys: DefaultDecideKeyMap()}
	return nil
}

// Title is the dialog's title.
func (d *Decide) Title() string {
	return "decide " + d.old.ID + "'s proposed modification"
}

// Update takes a key.
func (d *Decide) Update(com common, msg tea.Msg) (tea.Cmd, tea.Msg) {
	km, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil, nil
	}
	switch {
	case key.Matches(km, d.keys.Accept):
		if d.p.Claim == "" {
			return nil, statusMsg{text: "the proposal gives no new wording: accept it by hand (W or S with the claim you want), or reject it"}
		}
		return nil, decideMsg{d: d, decision: skill.DecisionAccept}
	case key.Matches(km, d.keys.False):
		return nil, decideMsg{d: d, decision: skill.DecisionFalse}
	case key.Matches(km, d.keys.Abandon):
		return nil, decideMsg{d: d, decision: skill.DecisionAbandon}
	case key.Matches(km, d.keys.Down):
		d.offset++
	case key.Matches(km, d.keys.Up):
		d.offset--
	case key.Matches(km, d.keys.PageDown):
		d.offset += max(com.height-4, 1)
	case key.Matches(km, d.keys.PageUp):
		d.offset -= max(com.height-4, 1)
	case key.Matches(km, d.keys.Close):
		return nil, decideClosedMsg{}
	}
	return nil, nil
}

// text is a claim, premise or rationale as the reviewer reads it: math readable (or
// the source, as m chose), one line of the dialog's width at a time.
func (d *Decide) text(s string, w int) []string {
	s = model.Sanitize(s)
	if d.math != mathtext.Raw {
		s = mathtext.Text(s, w)
	}
	return strings.Split(views.WrapText(s, max(w, 8)), "\n")
}

// View renders the proposal whole and the outcomes, scrolling, with the keys below.
func (d *Decide) View(com common) []string {
	st, w := com.st, com.width
	var body []string
	section := func(title string) { body = append(body, "", st.Muted.Render(title)) }
	item := func(indent, text string) {
		for i, l := range d.text(text, w-cells.Width(indent)) {
			if i > 0 {
				indent = strings.Repeat(" ", cells.Width(indent))
			}
			body = append(body, indent+st.Base.Render(l))
		}
	}
	typ := d.p.ModType
	if typ == "" {
		typ = "type not given"
	}
	body = append(body, st.Bold.Render(fmt.Sprintf("%s proposes a modification (%s)", d.old.ID, typ)))
	section("the claim now")
	item("  ", d.old.Claim())
	section("the proposed claim")
	if d.p.Claim == "" {
		body = append(body, st.Warn.Render("  (no new wording given)"))
	} else {
		item("  ", d.p.Claim)
	}
	prem, from := d.p.Premises, "proposed"
	if len(prem) == 0 {
		prem, from = d.old.Hypothesis, "kept from "+d.old.ID
	}
	section(fmt.Sprintf("premises (%s)", from))
	for _, p := range prem {
		item("  • ", p)
	}
	if d.p.Rationale != "" {
		section("why")
		item("  ", d.p.Rationale)
	}
	section("decide (one change; the confirmation shows what it does to the run)")
	opt := func(k, text string, off bool) {
		style := st.Danger.Render
		if off {
			style = st.Faint.Render
		}
		lines := d.text(text, w-4)
		body = append(body, "  "+style(k)+" "+st.Base.Render(lines[0]))
		for _, l := range lines[1:] {
			body = append(body, "    "+st.Base.Render(l))
		}
	}
	where := "unattached (no parent): attach it by hand"
	switch model.KindOf(d.parent) {
	case model.KindProblem:
		where = "a statement of " + d.parent + ", as the wrap-up statement is"
	case model.KindStatement:
		where = "in " + d.old.ID + "'s place among " + d.parent + "'s sub-statements"
	}
	opt("a", "accept: a new pending statement with the proposed claim, "+where+", for agent-prove; "+d.old.ID+" is settled as abandoned (replaced)", d.p.Claim == "")
	opt("f", "reject, the claim is false as stated: "+d.old.ID+" becomes false, the proposal's rationale as the counterexample", false)
	opt("x", "reject, the claim is no longer needed: "+d.old.ID+" is abandoned", false)
	for _, l := range d.text("to keep the claim as stated and have the agents try again, tell the orchestrator (its /instruct command): no skill sends a statement back to pending", w-2) {
		body = append(body, "  "+st.Faint.Render(l))
	}

	foot := st.Danger.Render("a") + st.Muted.Render(" accept · ") + st.Danger.Render("f") + st.Muted.Render(" false · ") +
		st.Danger.Render("x") + st.Muted.Render(" abandon · j/k scroll · esc closes")
	win := max(com.height-2, 1)
	d.offset = min(max(d.offset, 0), max(len(body)-win, 0))
	end := min(d.offset+win, len(body))
	out := append([]string{}, body[d.offset:end]...)
	var more []string
	if d.offset > 0 {
		more = append(more, fmt.Sprintf("↑ %d more", d.offset))
	}
	if below := len(body) - end; below > 0 {
		more = append(more, fmt.Sprintf("↓ %d more (j/k, space)", below))
	}
	return append(out, st.Accent.Render(strings.Join(more, " · ")), foot)
}

// onDecide starts the change the decision asked for (its form, then the confirmation).
func (m *Model) onDecide(msg tea.Msg) tea.Cmd {
	m.decide = nil
	dm, ok := msg.(decideMsg)
	if !ok {
		m.flashInfo("closed: nothing was decided")
		return nil
	}
	d := dm.d
	sk, _ := skill.Lookup("decide-modification")
	values := map[string]string{"decision": dm.decision}
	about := ""
	switch dm.decision {
	case skill.DecisionAccept:
		values["claim"] = d.p.Claim
		values["premises"] = strings.Join(d.p.Premises, "\n")
		values["parent_id"] = d.parent
		about = "Accept " + d.old.ID + "'s proposed modification: the claim below becomes a new statement, and " + d.old.ID + " is settled as replaced. Edit the claim if you want; ctrl+s shows what it will do."
	case skill.DecisionFalse:
		values["reason"] = d.p.Rationale
		about = "Reject " + d.old.ID + "'s proposed modification: the claim is false as stated. The reason is the counterexample."
	case skill.DecisionAbandon:
		values["reason"] = d.p.Rationale
		about = "Reject " + d.old.ID + "'s proposed modification: " + d.old.ID + " is no longer needed, and is abandoned."
	}
	return m.startSkillOn(sk, d.old.ID, values, about)
}
