package dialog

import (
	"errors"
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"referee/cells"
	"referee/model"
	"referee/model/pyjson"
	"referee/store"
	"referee/store/consequence"
	"referee/themes"
	"referee/tui/common"
	"referee/views"
)

// The confirmation of a change: what will be written, worked out by the store's own
// dry run (store.Plan, store.PlanUndo) in a command — the same checks and effects as
// the write, on the files as they are now — shown whole: a line diff (by sentence) for
// a text, the full text of every field, scrollable. A plan that cannot be written
// offers no y and says why in full. y writes in a command; Update never touches disk.

// ConfirmKeyMap is the confirmation's keys.
type ConfirmKeyMap struct {
	Yes, Edit, Cancel key.Binding
}

// DefaultConfirmKeyMap returns the confirmation's keys.
func DefaultConfirmKeyMap() ConfirmKeyMap {
	return ConfirmKeyMap{
		Yes:    key.NewBinding(key.WithKeys("y"), key.WithHelp("y", "write the change (only once every check passed)")),
		Edit:   key.NewBinding(key.WithKeys("e"), key.WithHelp("e", "back to the form, keeping what was typed")),
		Cancel: key.NewBinding(key.WithKeys("esc", "n", "q", "enter"), key.WithHelp("esc/n", "cancel: nothing is written")),
	}
}

// Confirm is the confirmation dialog of one change.
type Confirm struct {
	ch       *Change
	checking bool   // the dry run is running
	problem  string // why the plan cannot be written ("" when it can)
	plan     *store.Planned
	// effects is what the change does to the run (store/consequence), worked out with
	// the plan; nil while checking or when it could not be.
	effects *consequence.Report
	offset  int
	keys    ConfirmKeyMap
	size
}

// PlanMsg carries a change's dry run.
type PlanMsg struct {
	Change  *Change
	Plan    *store.Planned
	Effects *consequence.Report
	Err     error
}

// The confirmation's answers to the Model.
type (
	// ConfirmedMsg: y on a plan that can be written; the Model writes the change.
	ConfirmedMsg struct{ Change *Change }
	// ConfirmEditMsg: e; back to the change's form, nothing written.
	ConfirmEditMsg struct{ Change *Change }
	// ConfirmClosedMsg: cancelled; Say is for the status line.
	ConfirmClosedMsg struct{ Say string }
	// ConfirmConflictMsg: the dry run found the target changed since it was read; with a
	// form, the form reopens with the draft; either way the new version is read.
	ConfirmConflictMsg struct {
		Change *Change
		Object string
		Reopen bool
	}
)

// Update takes the change's dry run (PlanMsg) or a key.
func (c *Confirm) Update(com common.Common, msg tea.Msg) (tea.Cmd, tea.Msg) {
	switch msg := msg.(type) {
	case PlanMsg:
		return nil, c.onPlan(msg)
	case tea.KeyPressMsg:
		return nil, c.key(com, msg)
	}
	return nil, nil
}

// onPlan takes the dry run of the change shown.
func (c *Confirm) onPlan(msg PlanMsg) tea.Msg {
	if c.ch != msg.Change {
		return nil
	}
	c.checking, c.plan, c.effects = false, msg.Plan, msg.Effects
	var ce *store.ConflictError
	if errors.As(msg.Err, &ce) && msg.Change.Form != nil {
		// The target changed since the form opened: back to the form, draft kept.
		return ConfirmConflictMsg{Change: msg.Change, Object: ce.Object, Reopen: true}
	}
	if msg.Err != nil {
		c.problem = Reason(msg.Err)
	}
	if ce != nil {
		// No form to go back to (C): the new version is read, and C again checks it.
		c.problem += "; the new version is being read: esc, read it, then start again"
		return ConfirmConflictMsg{Change: msg.Change, Object: ce.Object}
	}
	return nil
}

// key handles a key while the confirmation is open.
func (c *Confirm) key(com common.Common, msg tea.KeyPressMsg) tea.Msg {
	switch {
	case key.Matches(msg, c.keys.Yes):
		if c.checking {
			return common.StatusMsg{Text: "still checking the change: y is offered once every check has passed", OK: true}
		}
		if c.problem != "" {
			return common.StatusMsg{Text: "this change cannot be written: " + c.problem}
		}
		return ConfirmedMsg{Change: c.ch}
	case key.Matches(msg, c.keys.Edit) && c.ch.Form != nil:
		return ConfirmEditMsg{Change: c.ch}
	case key.Matches(msg, c.keys.Cancel):
		return ConfirmClosedMsg{Say: "cancelled: nothing was written"}
	default:
		c.offset = scroll(msg, c.offset, max(c.height-4, 1))
	}
	return nil
}

// Title is the dialog's title.
func (c *Confirm) Title() string {
	if c.ch.Redo {
		return "confirm · redo: take back " + c.ch.Undo.Change
	}
	if c.ch.Undo != nil {
		return "confirm · undo " + c.ch.Undo.Change
	}
	if c.ch.Rewind != nil {
		return "confirm · rewind to " + c.ch.Rewind.To
	}
	return "confirm · " + c.ch.Skill.Name
}

// View renders the body: a window of the plan and a fixed footer with the keys.
func (c *Confirm) View(com common.Common) []string {
	st := com.Styles
	body := c.body(st, com.Actor, c.width)
	foot := c.footer(st)
	win := max(c.height-len(foot)-1, 1)
	c.offset = min(max(c.offset, 0), max(len(body)-win, 0))
	end := min(c.offset+win, len(body))
	out := append([]string{}, body[c.offset:end]...)
	var more []string
	if c.offset > 0 {
		more = append(more, fmt.Sprintf("↑ %d more", c.offset))
	}
	if below := len(body) - end; below > 0 {
		more = append(more, fmt.Sprintf("↓ %d more (j/k, space)", below))
	}
	out = append(out, st.Accent.Render(strings.Join(more, " · ")))
	return append(out, foot...)
}

func (c *Confirm) footer(st *themes.Styles) []string {
	edit := ""
	if c.ch.Form != nil {
		edit = st.Muted.Render(" · e edit")
	}
	switch {
	case c.checking:
		return []string{st.Muted.Render("checking every precondition on the files as they are now…") + st.Muted.Render("   esc cancels") + edit}
	case c.problem != "":
		return []string{st.Error.Render("nothing can be written; no y") + st.Muted.Render("   esc closes") + edit}
	}
	return []string{st.Danger.Render("y") + st.Base.Render(" write it") + st.Muted.Render("   ·   esc/n cancels") + edit}
}

// body is every line the confirmation shows, wrapped to its width.
func (c *Confirm) body(st *themes.Styles, actor string, w int) []string {
	ch := c.ch
	var lines []string
	add := func(style func(...string) string, indent, text string) {
		for _, l := range strings.Split(views.WrapText(model.Sanitize(text), max(w-len(indent), 8)), "\n") {
			lines = append(lines, indent+style(l))
		}
	}
	if ch.Redo {
		lines = append(lines, st.Bold.Render("Redo what the last undo of this session took back?"))
		add(st.Muted.Render, "  ", fmt.Sprintf("take back %s (the undo by %s), which writes back what it reverted", ch.Undo.Change, ch.Undo.Actor))
	} else if ch.Undo != nil {
		lines = append(lines, st.Bold.Render("Undo the last change of this session?"))
		add(st.Muted.Render, "  ", fmt.Sprintf("revert %s (%s by %s)", ch.Undo.Change, ch.Undo.Skill, ch.Undo.Actor))
		for _, id := range ch.Undo.Created {
			add(st.Muted.Render, "  ", fmt.Sprintf("remove %s (created by %s; backed up first)", id, ch.Undo.Change))
		}
	} else if ch.Rewind != nil {
		lines = append(lines, st.Bold.Render("Set the folder back to right after "+ch.Rewind.To+"?"))
	} else {
		v := ch.Version
		if v == "" {
			v = "?"
		}
		lines = append(lines, st.Bold.Render(fmt.Sprintf("%s on %s", ch.Skill.Name, ch.Target))+
			st.Muted.Render(fmt.Sprintf("  (the version you saw: %s) as %s", v, actor)))
	}
	lines = append(lines, "")
	switch {
	case c.checking:
		lines = append(lines, st.Muted.Render("checking…"))
	case c.problem != "":
		lines = append(lines, st.Error.Render("⚠ this change cannot be written:"))
		add(st.Error.Render, "  ", c.problem)
	default:
		lines = append(lines, st.Muted.Render("will write:"))
		if ch.Rewind != nil {
			for _, l := range ch.Preview {
				add(st.Base.Render, "  ", l)
			}
		} else {
			lines = append(lines, planLines(st, c.plan, w)...)
		}
		if c.effects != nil {
			lines = append(lines, "", st.Muted.Render("what it does to the run:"))
			for _, l := range c.effects.Lines(effectLines) {
				style := st.Base.Render
				if !strings.HasPrefix(l, "  ") {
					style = st.Bold.Render
				}
				// An item's continuation lines hang under its text.
				text := strings.TrimLeft(l, " ")
				indent := "  " + l[:len(l)-len(text)]
				for i, part := range strings.Split(views.WrapText(model.SanitizeLine(text), max(w-len(indent)-2, 8)), "\n") {
					if i == 1 {
						indent += "  "
					}
					lines = append(lines, indent+style(part))
				}
			}
		}
	}
	if args := argLines(ch); len(args) > 0 {
		lines = append(lines, "", st.Muted.Render("arguments:"))
		for _, a := range args {
			add(st.Faint.Render, "  ", a)
		}
	}
	return lines
}

// effectLines is how many items of each list of the consequences the dialog shows (a
// rewind deep into a big run changes thousands; the CLI's dry run lists them all).
const effectLines = 60

// planLines says what a plan writes, field by field, in the words the agents' files
// use: every value whole, a text that spans lines (a proof) as a diff by sentence.
func planLines(st *themes.Styles, plan *store.Planned, w int) []string {
	var out []string
	wrap := func(style func(...string) string, indent, text string) {
		for i, l := range strings.Split(views.WrapText(model.SanitizeLine(text), max(w-cells.Width(indent), 8)), "\n") {
			if i == 1 { // continuation lines line up under the text, without the mark
				indent = strings.Repeat(" ", cells.Width(indent))
			}
			out = append(out, indent+style(l))
		}
	}
	for _, o := range plan.Objects {
		if o.New {
			wrap(st.Base.Render, "  ", "new "+describeNew(o.ID, o.After))
			continue
		}
		q := func(v *pyjson.Value) string { return string(pyjson.EncodeLine(*v)) }
		for _, c := range model.DiffFields(o.Before, o.After) {
			head := o.ID + " " + c.Field
			switch {
			case c.Appended != nil:
				for i := range c.Appended {
					wrap(st.Base.Render, "  ", head+" += "+q(&c.Appended[i]))
				}
			case c.New == nil:
				wrap(st.Base.Render, "  ", head+" removed")
			case longText(c.Old) || longText(c.New):
				var from, to string
				if c.Old != nil {
					from = c.Old.Str
				}
				to = c.New.Str
				out = append(out, "  "+st.Bold.Render(head)+st.Muted.Render(" (by sentence: - removed, + added)"))
				for _, l := range model.DiffLines(bySentence(from), bySentence(to)) {
					style := st.Faint.Render
					switch l.Op {
					case "-":
						style = st.Error.Render
					case "+":
						style = st.Status(model.PhaseProved).Render
					}
					wrap(style, "    "+l.Op+" ", l.Text)
				}
			case c.Old == nil:
				wrap(st.Base.Render, "  ", head+": "+q(c.New))
			default:
				wrap(st.Base.Render, "  ", head+": "+q(c.Old)+" → "+q(c.New))
			}
		}
	}
	if len(plan.Modified) > 0 {
		wrap(st.Base.Render, "  ", fmt.Sprintf("backup %s in history/%s/", strings.Join(plan.Modified, ", "), plan.Change))
	}
	wrap(st.Base.Render, "  ", fmt.Sprintf("log %s %s by %s", plan.Change, plan.Skill, plan.Actor))
	for _, n := range plan.Notes {
		wrap(st.Warn.Render, "  ", "note: "+n)
	}
	return out
}

// longText is a text too long to read as "from → to" on a line.
func longText(v *pyjson.Value) bool {
	return v != nil && v.Kind == pyjson.String && (len(v.Str) > 72 || strings.Contains(v.Str, "\n"))
}

// bySentence is a text one sentence a line: a proof reads and changes by sentence,
// and a paragraph a line would diff as one block.
func bySentence(text string) string {
	var out []string
	for _, s := range model.SplitSentences(text) {
		out = append(out, model.NormalizeSpace(s.Text))
	}
	return strings.Join(out, "\n")
}

// NewConfirm is the confirmation of a change, checking until its dry run (PlanMsg)
// arrives; a rewind's plan and consequences were worked out before it opens.
func NewConfirm(ch *Change) *Confirm {
	c := &Confirm{ch: ch, checking: true, keys: DefaultConfirmKeyMap()}
	if ch.Rewind != nil {
		c.checking, c.effects = false, ch.Rewind.Consequences
	}
	return c
}

// Change is the change confirmed.
func (c *Confirm) Change() *Change { return c.ch }

// Checking says the dry run is running.
func (c *Confirm) Checking() bool { return c.checking }

// Problem is why the change cannot be written ("" when it can, or still checking).
func (c *Confirm) Problem() string { return c.problem }

// KeyMap is the confirmation's keys as help lists them: its own and how it scrolls (the
// navigation keys).
func (c *Confirm) KeyMap() []key.Binding {
	k := DefaultConfirmKeyMap()
	return []key.Binding{k.Yes, k.Edit, common.NavHelp(nav.Down, "j/↓", "scroll down"), common.NavHelp(nav.Up, "k/↑", "scroll up"),
		common.NavHelp(nav.PageDown, "pgdn/space", "page down", "pgdown", "space", "ctrl+d"), common.NavHelp(nav.PageUp, "pgup", "page up"), k.Cancel}
}
