package tui

import (
	"fmt"
	"referee/cells"
	"referee/model"
	"referee/skill"
	"referee/store"
	"referee/store/consequence"
	"referee/tui/dialog"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"
)

// The workbench's side of its dialogs (package dialog): opening them, and doing what they answer.

// onFormEdited puts the text $EDITOR returned into its field, if the form is still open.
func (m changer) onFormEdited(msg dialog.FormEditedMsg) tea.Cmd {
	if msg.Err != nil {
		m.showError("the editor failed; the field is unchanged", msg.Err.Error())
		return nil
	}
	if m.dlg.form != msg.Form {
		return nil
	}
	m.dlg.form.Edited(msg.Field, msg.Text)
	return nil
}

// openConfirm shows the confirmation of a change and starts its dry run.
func (m changer) openConfirm(ch *dialog.Change) tea.Cmd {
	m.dlg.confirm = dialog.NewConfirm(ch)
	m.dlg.form = nil
	m.sizeDialog()
	if ch.Rewind != nil {
		// A rewind's plan and consequences were worked out before the dialog opened
		// (rewind.go).
		return nil
	}
	dir, actor := m.env.dir, m.env.actor
	now := m.changer().present()
	return func() tea.Msg {
		var plan *store.Planned
		var err error
		if ch.Undo != nil {
			plan, err = store.PlanUndo(dir, ch.Undo.Change, store.Options{Actor: actor})
		} else {
			plan, err = store.Plan(dir, ch.Skill, ch.Args, store.Options{Actor: actor, ExpectVersion: ch.Version})
		}
		msg := dialog.PlanMsg{Change: ch, Plan: plan, Err: err}
		if err == nil && now.snap != nil {
			msg.Effects = consequence.Of(now.snap, now.g, plan.Writes(), plan.Discarded)
		}
		return msg
	}
}

// present is the folder as it is now (not the change time travel shows), which a
// change's consequences start from.
func (m changer) present() shownState {
	if m.travel != nil {
		return m.travel.live
	}
	return shownState{snap: m.shown.snap, g: m.shown.g}
}

// onConfirm does what the confirmation answered.
func (m changer) onConfirm(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case dialog.ConfirmedMsg:
		m.dlg.confirm = nil
		return m.writes.Apply(msg.Change)
	case dialog.ConfirmEditMsg:
		m.dlg.confirm = nil
		m.status.info("back to the form: nothing was written")
		return m.changer().openForm(msg.Change.Form)
	case dialog.ConfirmClosedMsg:
		m.dlg.confirm = nil
		m.status.info(msg.Say)
	case dialog.ConfirmConflictMsg:
		if !msg.Reopen {
			return m.loader().reloadAll()
		}
		m.dlg.confirm = nil
		return tea.Batch(m.changer().reopenAfterConflict(msg.Change, msg.Object), m.loader().reloadAll())
	}
	return nil
}

// needDecision is H's disabled reason: no proposal here, or one already decided (by
// whom, when).
func needDecision(m *Model) string {
	if why := m.travel.ReadOnly(); why != "" {
		return why
	}
	st := m.reader().selectedStatement()
	if st == nil {
		return "nothing to decide here: select a statement with a proposed modification (~ modify)"
	}
	if _, ok := model.ProposalOf(st); !ok {
		return "nothing to decide here: " + st.ID + " has no proposed modification (a MODIFICATION note)"
	}
	if !model.ProposalOpen(st) {
		return m.changer().decidedBy(st)
	}
	return ""
}

// decidedBy says who settled a statement's proposal, when, and how: the last change
// of the log that wrote the statement, and its last note.
func (m changer) decidedBy(st *model.Statement) string {
	out := "already decided"
	if snap := m.changer().present().snap; snap != nil {
		for i := len(snap.Log) - 1; i >= 0; i-- {
			e := snap.Log[i]
			if slices.Contains(e.Modification, st.ID) {
				out += fmt.Sprintf(" by %s at %s (%s %s)", model.SanitizeLine(e.By), e.At, e.ID, e.Skill)
				break
			}
		}
	}
	out += ": " + st.ID + " is " + model.StatementPhase(m.shown.snap, st).String()
	if n := len(st.Progresses); n > 0 {
		out += " · " + model.SanitizeLine(st.Progresses[n-1])
	}
	return out
}

// openDecision shows the selected statement's proposal and its outcomes.
func (m changer) openDecision() tea.Cmd {
	st := m.reader().selectedStatement()
	p, _ := model.ProposalOf(st)
	r, _ := m.tree.Selected()
	parent := ""
	up := m.reader().idPath(r.Path)
	for i := len(up) - 2; i >= 0 && parent == ""; i-- {
		if !strings.HasPrefix(up[i], "#") { // a group (premises) is no parent
			parent = up[i]
		}
	}
	m.dlg.decide = dialog.NewDecide(st, p, parent, m.look.math)
	m.sizeDialog()
	return nil
}

// onDecide starts the change the decision asked for (its form, then the confirmation).
func (m changer) onDecide(msg tea.Msg) tea.Cmd {
	m.dlg.decide = nil
	dm, ok := msg.(dialog.DecidedMsg)
	if !ok {
		m.status.info("closed: nothing was decided")
		return nil
	}
	old, p := dm.Old, dm.Proposal
	sk, _ := skill.Lookup("decide-modification")
	values := map[string]string{"decision": dm.Decision}
	about := ""
	switch dm.Decision {
	case skill.DecisionAccept:
		values["claim"] = p.Claim
		values["premises"] = strings.Join(p.Premises, "\n")
		values["parent_id"] = dm.Parent
		about = "Accept " + old.ID + "'s proposed modification: the claim below becomes a new statement, and " + old.ID + " is settled as replaced. Edit the claim if you want; ctrl+s shows what it will do."
	case skill.DecisionFalse:
		values["reason"] = p.Rationale
		about = "Reject " + old.ID + "'s proposed modification: the claim is false as stated. The reason is the counterexample."
	case skill.DecisionAbandon:
		values["reason"] = p.Rationale
		about = "Reject " + old.ID + "'s proposed modification: " + old.ID + " is no longer needed, and is abandoned."
	}
	return m.changer().startSkillOn(sk, old.ID, values, about)
}

// showError says what failed: on the status line when it fits, else in a Notice.
func (m *Model) showError(what, why string) {
	line := what + ": " + model.SanitizeLine(why)
	if cells.Width(line)+4 <= m.lay.width && !strings.Contains(why, "\n") {
		m.status.error(line)
		return
	}
	m.status.error(what + " (the whole error is shown; esc closes it)")
	m.dlg.notice = dialog.NewNotice(what, why)
	m.sizeDialog()
}

// reopenAfterConflict reopens the form of a change the store refused because its
// target changed since the reviewer read it: the draft is kept, and the new version is
// described beside it once the reload arrives (conflictNote).
func (m changer) reopenAfterConflict(ch *dialog.Change, object string) tea.Cmd {
	if ch.Form == nil {
		m.showError(object+" changed since you read it (someone else wrote it); nothing was written",
			"Showing the new version: read it, then start the change again.")
		return nil
	}
	ch.Conflict = object
	f := ch.Form
	f.Note = []string{object + " changed since you read it (someone else wrote it): nothing was written.",
		"Your draft is kept. Reading the new version…"}
	m.status.error(object + " changed since you read it: nothing was written; your draft is kept")
	return m.changer().openForm(f)
}

// conflictNote describes, beside a reopened form, how the target changed, and takes
// the new version as the one the change is checked against.
func (m changer) conflictNote() {
	f := m.dlg.form
	if f == nil || f.Change == nil || f.Change.Conflict == "" || m.shown.snap == nil {
		return
	}
	ch := f.Change
	now := m.shown.snap.Statements.Get(ch.Target)
	note := []string{ch.Conflict + " changed since you read it (someone else wrote it): nothing was written. Your draft is kept; the new version:"}
	was := ch.Seen
	switch {
	case now == nil:
		note = append(note, "  "+ch.Target+" is gone")
	case was == nil:
		note = append(note, "  status "+now.Status)
	default:
		if was.Status != now.Status {
			note = append(note, fmt.Sprintf("  status %s (was %s)", now.Status, was.Status))
		} else {
			note = append(note, "  status "+now.Status+" (unchanged)")
		}
		if was.Claim() != now.Claim() {
			note = append(note, "  claim now: "+model.SanitizeLine(now.Claim()))
		}
		if a, b := len(model.SplitSentences(proofText(was))), len(model.SplitSentences(proofText(now))); a != b || proofText(was) != proofText(now) {
			note = append(note, fmt.Sprintf("  proof changed: %d sentences (was %d)", b, a))
		}
		if len(was.Issues) != len(now.Issues) || len(was.Responses) != len(now.Responses) {
			note = append(note, fmt.Sprintf("  issues %d, responses %d (were %d, %d)", len(now.Issues), len(now.Responses), len(was.Issues), len(was.Responses)))
		}
	}
	note = append(note, "ctrl+s checks the draft again against this version; esc drops it.")
	f.Note = note
	ch.Seen, ch.Version, ch.Conflict = now, m.shown.snap.Versions.Get(ch.Target), ""
}
