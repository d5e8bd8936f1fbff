package dialog

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"referee/cells"
	"referee/mathtext"
	"referee/model"
	"referee/skill"
	"referee/tui/common"
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

// DecideKeyMap is the decision's keys: one letter per outcome, none shared.
type DecideKeyMap struct {
	Accept, False, Abandon, Close key.Binding
}

// DefaultDecideKeyMap returns the decision's keys.
func DefaultDecideKeyMap() DecideKeyMap {
	return DecideKeyMap{
		Accept:  key.NewBinding(key.WithKeys("a"), key.WithHelp("a", "accept")),
		False:   key.NewBinding(key.WithKeys("f"), key.WithHelp("f", "reject: false as stated")),
		Abandon: key.NewBinding(key.WithKeys("x"), key.WithHelp("x", "reject: no longer needed")),
		Close:   key.NewBinding(key.WithKeys("esc", "q", "n"), key.WithHelp("esc", "close: nothing is decided")),
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
	size
}

// DecidedMsg is the outcome chosen, with the proposal; the workbench starts the change.
type DecidedMsg struct {
	Old      *model.Statement
	Proposal model.Proposal
	Parent   string // where the old statement stands, or ""
	Decision string
}

// NewDecide is the dialog of old's proposal p; parent is where old stands ("" when
// unattached), math how its math shows.
func NewDecide(old *model.Statement, p model.Proposal, parent string, math mathtext.Mode) *Decide {
	return &Decide{old: old, p: p, parent: parent, math: math, keys: DefaultDecideKeyMap()}
}

func (d *Decide) decided(decision string) DecidedMsg {
	return DecidedMsg{Old: d.old, Proposal: d.p, Parent: d.parent, Decision: decision}
}

// DecideClosedMsg says the dialog was closed without a decision.
type DecideClosedMsg struct{}

// Title is the dialog's title.
func (d *Decide) Title() string {
	return "decide " + d.old.ID + "'s proposed modification"
}

// Update takes a key.
func (d *Decide) Update(com common.Common, msg tea.Msg) (tea.Cmd, tea.Msg) {
	km, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil, nil
	}
	switch {
	case key.Matches(km, d.keys.Accept):
		if d.p.Claim == "" {
			return nil, common.StatusMsg{Text: "the proposal gives no new wording: accept it by hand (W or S with the claim you want), or reject it"}
		}
		return nil, d.decided(skill.DecisionAccept)
	case key.Matches(km, d.keys.False):
		return nil, d.decided(skill.DecisionFalse)
	case key.Matches(km, d.keys.Abandon):
		return nil, d.decided(skill.DecisionAbandon)
	case key.Matches(km, d.keys.Close):
		return nil, DecideClosedMsg{}
	default:
		d.offset = scroll(km, d.offset, max(d.height-4, 1))
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
func (d *Decide) View(com common.Common) []string {
	st, w := com.Styles, d.width
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
	win := max(d.height-2, 1)
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

// KeyMap is the decision's keys: its own and how it scrolls (the navigation keys).
func (d *Decide) KeyMap() []key.Binding {
	k := DefaultDecideKeyMap()
	return append([]key.Binding{k.Accept, k.False, k.Abandon, k.Close}, nav.Bindings()...)
}
