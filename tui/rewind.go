package tui

import (
	"fmt"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"

	"referee/store"
	"referee/store/consequence"
	"referee/tui/dialog"
)

// Rewinding from time travel: b works out, in a command, what a rewind to the change
// shown would remove and restore (store.PlanRewind), and shows it in the same
// confirmation as every change; y writes it (one change batch), u takes it back.

// planIDs is how many IDs of each list the confirmation names (a rewind of a big run can
// remove thousands; the dialog is drawn after every message).
const planIDs = 24

type rewindPlanMsg struct {
	plan *store.Restore
	err  error
}

// planRewind asks the store for the plan of a rewind to the change shown.
func (m changer) planRewind() tea.Cmd {
	t := m.travel
	if t == nil {
		return nil
	}
	id := t.Shown()
	dir := m.env.dir
	now := m.changer().present()
	return func() tea.Msg {
		plan, err := store.PlanRewind(dir, id)
		if err == nil && now.snap != nil {
			plan.Consequences = consequence.Of(now.snap, now.g, plan.Writes(), plan.Discarded)
		}
		return rewindPlanMsg{plan: plan, err: err}
	}
}

// onRewindPlan opens the confirmation with the plan.
func (m changer) onRewindPlan(msg rewindPlanMsg) tea.Cmd {
	if msg.err != nil {
		m.status.error("cannot rewind: " + reason(msg.err))
		return nil
	}
	if m.travel == nil || m.dlg.form != nil || m.dlg.picker != nil || m.dlg.confirm != nil || m.dlg.decide != nil {
		return nil // the reviewer moved on while it was worked out
	}
	p := msg.plan
	ch := &dialog.Change{Rewind: p}
	list := func(verb string, ids []string) {
		if len(ids) > 0 {
			shown := ids[:min(len(ids), planIDs)]
			more := ""
			if len(ids) > len(shown) {
				more = fmt.Sprintf(", … %d more", len(ids)-len(shown))
			}
			ch.Preview = append(ch.Preview, fmt.Sprintf("%s %d: %s%s", verb, len(ids), strings.Join(shown, ", "), more))
		}
	}
	list("remove (created later; backed up first)", p.Removed)
	list("restore (removed later)", p.Created)
	list("set back", p.Modified)
	if !slices.Equal(p.CountersBefore, p.CountersAfter) {
		ch.Preview = append(ch.Preview, fmt.Sprintf("counters %s → %s (new objects take the IDs after them again)",
			strings.Join(p.CountersBefore, " "), strings.Join(p.CountersAfter, " ")))
	}
	ch.Preview = append(ch.Preview, fmt.Sprintf("recorded as change %s (skill rewind) by %s; u takes it back", p.Change, m.env.actor))
	return m.changer().openConfirm(ch)
}

// applyRewind writes the rewind confirmed (off the UI goroutine) and reports it as a
// change of the session, so that u undoes it.
func applyRewind(dir, actor string, ch *dialog.Change) tea.Msg {
	r, err := store.Rewind(dir, ch.Rewind.To, false, store.Options{Actor: actor})
	if err != nil {
		return skillDoneMsg{ch: ch, err: err}
	}
	res := &store.Result{Change: r.Change, Skill: r.Skill, Actor: r.Actor, At: r.At, Created: r.Created,
		Modified: append(slices.Clone(r.Modified), r.Removed...)}
	if len(r.Removed) > 0 {
		res.Deleted = r.Removed
	}
	return skillDoneMsg{ch: ch, res: res}
}
