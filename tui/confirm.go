package tui

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
	"referee/views"
)

// The confirmation of a change: what will be written, worked out by the store's own
// dry run (store.Plan, store.PlanUndo) in a command — the same checks and effects as
// the write, on the files as they are now — shown whole: a line diff (by sentence) for
// a text, the full text of every field, scrollable. A plan that cannot be written
// offers no y and says why in full. y writes in a command; Update never touches disk.

// ConfirmKeyMap is the confirmation's keys.
type ConfirmKeyMap struct {
	Yes, Edit, Down, Up, PageDown, PageUp, Cancel key.Binding
}

// DefaultConfirmKeyMap returns the confirmation's keys.
func DefaultConfirmKeyMap() ConfirmKeyMap {
	return ConfirmKeyMap{
		Yes:      key.NewBinding(key.WithKeys("y"), key.WithHelp("y", "write the change (only once every check passed)")),
		Edit:     key.NewBinding(key.WithKeys("e"), key.WithHelp("e", "back to the form, keeping what was typed")),
		Down:     key.NewBinding(key.WithKeys("j", "down"), key.WithHelp("j/↓", "scroll down")),
		Up:       key.NewBinding(key.WithKeys("k", "up"), key.WithHelp("k/↑", "scroll up")),
		PageDown: key.NewBinding(key.WithKeys("pgdown", "space", "ctrl+d"), key.WithHelp("pgdn/space", "page down")),
		PageUp:   key.NewBinding(key.WithKeys("pgup", "ctrl+u"), key.WithHelp("pgup", "page up")),
		Cancel:   key.NewBinding(key.WithKeys("esc", "n", "q", "enter"), key.WithHelp("esc/n", "cancel: nothing is written")),
	}
}

// Confirm is the confirmation dialog of one change.
type Confirm struct {
	ch       *change
	checking bool   // the dry run is running
	problem  string // why the plan cannot be written ("" when it can)
	plan     *store.Planned
	// effects is what the change does to the run (store/consequence), worked out with
	// the plan; nil while checking or when it could not be.
	effects *consequence.Report
	offset  int
	keys    ConfirmKeyMap
}

// planMsg carries a change's dry run.
type planMsg struct {
	ch      *change
	plan    *store.Planned
	effects *consequence.Report
	err     error
}

// openConfirm shows the confirmation of a change and starts its dry run.
func (m *Model) openConfirm(ch *change) tea.Cmd {
	m.confirm = &Confirm{ch: ch, checking: true, keys: DefaultConfirmKeyMap()}
	m.form = nil
	if ch.rewind != nil {
		// A rewind's plan and consequences were worked out before the dialog opened
		// (rewind.go).
		m.confirm.checking, m.confirm.effects = false, ch.rewind.Consequences
		return nil
	}
	dir, actor := m.dir, m.actor
	now := m.present()
	return func() tea.Msg {
		var plan *store.Planned
		var err error
		if ch.undo != nil {
			plan, err = store.PlanUndo(dir, ch.undo.Change, store.Options{Actor: actor})
		} else {
			plan, err = store.Plan(dir, ch.skill, ch.args, store.Options{Actor: actor, ExpectVersion: ch.version})
		}
		msg := planMsg{ch: ch, plan: plan, err: err}
		if err == nil && now.snap != nil {
			msg.effects = consequence.Of(now.snap, now.g, plan.Writes(), plan.Discarded)
		}
		return msg
	}
}

// present is the folder as it is now (not the change time travel shows), which a
// change's consequences start from.
func (m *Model) present() shownState {
	if m.travel != nil {
		return m.travel.live
	}
	return shownState{snap: m.snap, g: m.g}
}

// The confirmation's answers to the Model.
type (
	// confirmedMsg: y on a plan that can be written; the Model writes the change.
	confirmedMsg struct{ ch *change }
	// confirmEditMsg: e; back to the change's form, nothing written.
	confirmEditMsg struct{ ch *change }
	// confirmClosedMsg: cancelled; say is for the status line.
	confirmClosedMsg struct{ say string }
	// confirmConflictMsg: the dry run found the target changed since it was read; with a
	// form, the form reopens with the draft; either way the new version is read.
	confirmConflictMsg struct {
		ch     *change
		object string
		reopen bool
	}
)

// Update takes the change's dry run (planMsg) or a key.
func (c *Confirm) Update(com common, msg tea.Msg) (tea.Cmd, tea.Msg) {
	switch msg := msg.(type) {
	case planMsg:
		return nil, c.onPlan(msg)
	case tea.KeyPressMsg:
		return nil, c.key(com, msg)
	}
	return nil, nil
}

// onPlan takes the dry run of the change shown.
func (c *Confirm) onPlan(msg planMsg) tea.Msg {
	if c.ch != msg.ch {
		return nil
	}
	c.checking, c.plan, c.effects = false, msg.plan, msg.effects
	var ce *store.ConflictError
	if errors.As(msg.err, &ce) && msg.ch.form != nil {
		// The target changed since the form opened: back to the form, draft kept.
		return confirmConflictMsg{ch: msg.ch, object: ce.Object, reopen: true}
	}
	if msg.err != nil {
		c.problem = reason(msg.err)
	}
	if ce != nil {
		// No form to go back to (C): the new version is read, and C again checks it.
		c.problem += "; the new version is being read: esc, read it, then start again"
		return confirmConflictMsg{ch: msg.ch, object: ce.Object}
	}
	return nil
}

// key handles a key while the confirmation is open.
func (c *Confirm) key(com common, msg tea.KeyPressMsg) tea.Msg {
	switch {
	case key.Matches(msg, c.keys.Yes):
		if c.checking {
			return statusMsg{text: "still checking the change: y is offered once every check has passed", ok: true}
		}
		if c.problem != "" {
			return statusMsg{text: "this change cannot be written: " + c.problem}
		}
		return confirmedMsg{ch: c.ch}
	case key.Matches(msg, c.keys.Edit) && c.ch.form != nil:
		return confirmEditMsg{ch: c.ch}
	case key.Matches(msg, c.keys.Down):
		c.offset++
	case key.Matches(msg, c.keys.Up):
		c.offset--
	case key.Matches(msg, c.keys.PageDown):
		c.offset += max(com.height-4, 1)
	case key.Matches(msg, c.keys.PageUp):
		c.offset -= max(com.height-4, 1)
	case key.Matches(msg, c.keys.Cancel):
		return confirmClosedMsg{say: "cancelled: nothing was written"}
	}
	return nil
}

// onConfirm does what the confirmation answered.
func (m *Model) onConfirm(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case confirmedMsg:
		m.confirm = nil
		return m.writes.Apply(msg.ch)
	case confirmEditMsg:
		m.confirm = nil
		m.flashInfo("back to the form: nothing was written")
		return m.openForm(msg.ch.form)
	case confirmClosedMsg:
		m.confirm = nil
		m.flashInfo(msg.say)
	case confirmConflictMsg:
		if !msg.reopen {
			return m.reloadAll()
		}
		m.confirm = nil
		return tea.Batch(m.reopenAfterConflict(msg.ch, msg.object), m.reloadAll())
	}
	return nil
}

// Title is the dialog's title.
func (c *Confirm) Title() string {
	if c.ch.redo {
		return "confirm · redo: take back " + c.ch.undo.Change
	}
	if c.ch.undo != nil {
		return "confirm · undo " + c.ch.undo.Change
	}
	if c.ch.rewind != nil {
		return "confirm · rewind to " + c.ch.rewind.To
	}
	return "confirm · " + c.ch.skill.Name
}

// View renders the body: a window of the plan and a fixed footer with the keys.
func (c *Confirm) View(com common) []string {
	st := com.st
	body := c.body(st, com.actor, com.width)
	foot := c.footer(st)
	win := max(com.height-len(foot)-1, 1)
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
	if c.ch.form != nil {
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
	if ch.redo {
		lines = append(lines, st.Bold.Render("Redo what the last undo of this session took back?"))
		add(st.Muted.Render, "  ", fmt.Sprintf("take back %s (the undo by %s), which writes back what it reverted", ch.undo.Change, ch.undo.Actor))
	} else if ch.undo != nil {
		lines = append(lines, st.Bold.Render("Undo the last change of this session?"))
		add(st.Muted.Render, "  ", fmt.Sprintf("revert %s (%s by %s)", ch.undo.Change, ch.undo.Skill, ch.undo.Actor))
		for _, id := range ch.undo.Created {
			add(st.Muted.Render, "  ", fmt.Sprintf("remove %s (created by %s; backed up first)", id, ch.undo.Change))
		}
	} else if ch.rewind != nil {
		lines = append(lines, st.Bold.Render("Set the folder back to right after "+ch.rewind.To+"?"))
	} else {
		v := ch.version
		if v == "" {
			v = "?"
		}
		lines = append(lines, st.Bold.Render(fmt.Sprintf("%s on %s", ch.skill.Name, ch.target))+
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
		if ch.rewind != nil {
			for _, l := range ch.preview {
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
