package tui

import (
	"fmt"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"

	"referee/model"
	"referee/store"
	"referee/views"
)

// Time travel shows the folder as it was right after one change of the log, rebuilt
// from the backups (store.History.At) in a command. While it is on, every change key is
// disabled, live snapshots wait (as when paused) and t returns to the present.

type diffMode uint8

const (
	diffOff  diffMode = iota
	diffPrev          // the object after the previous change → after the shown one
	diffNow           // after the shown change → now
)

type travel struct {
	at     int    // index in the History's changes of the change shown; -1 before the first arrives
	id     string // its ID
	want   int    // the change asked for (scrubbing runs ahead of the rebuilds)
	wantID string
	busy   bool
	live   shownState  // the present, shown again on return
	sim    *similarity // the index of the changes shown, brought from one to the next
	diff   diffMode
	// summary says what the shown change did, for the status line (made in Update).
	summary string
}

// shownState is what the tree and detail show.
type shownState struct {
	snap *model.Snapshot
	g    *model.Graph
	f    *forest
	ex   *extras
}

type travelMsg struct {
	index int
	id    string
	snap  *model.Snapshot
	g     *model.Graph
	f     *forest
	ex    *extras
	err   error
}

// toggleTravel enters time travel (at the change selected in the activity pane when it
// has the focus, else at the last change) or returns to now.
func (m *Model) toggleTravel() tea.Cmd {
	if m.travel != nil {
		return m.exitTravel()
	}
	return m.withHistory(m.enterTravel)
}

// enterTravel enters time travel through h, the newest log's History.
func (m *Model) enterTravel(h *store.History) tea.Cmd {
	if m.travel != nil {
		return nil // entered meanwhile (a key pressed twice)
	}
	n := len(h.Changes())
	if n == 0 {
		m.flashError("nothing to travel through: " + store.LogFile + " has no change")
		return nil
	}
	idx := n - 1
	if m.side == sideActivity && m.focus == focusDetail {
		if c, ok := m.activity.Selected(); ok {
			if i, err := h.Index(c.ID); err == nil {
				idx = i
			}
		}
	}
	m.travel = &travel{at: -1, want: idx, wantID: h.Changes()[idx].ID, sim: &similarity{},
		live: shownState{snap: m.snap, g: m.g, f: m.forest, ex: m.ex}}
	m.actWanted = true // the activity names who did what, for the status line
	return m.travelStep()
}

// scrub moves time travel d changes later (or earlier).
func (m *Model) scrub(d int) tea.Cmd {
	t := m.travel
	if t == nil {
		m.flashError(needTravel(m))
		return nil
	}
	return m.withHistory(func(h *store.History) tea.Cmd { return m.scrubIn(h, d) })
}

// scrubIn is scrub once h, the newest log's History, is made.
func (m *Model) scrubIn(h *store.History, d int) tea.Cmd {
	t := m.travel
	if t == nil {
		return nil // returned to now meanwhile
	}
	changes := h.Changes()
	if i, err := h.Index(t.wantID); err == nil {
		t.want = i // the History may hold more (or fewer) older changes than when it was asked
	}
	want := min(max(t.want+d, 0), len(changes)-1)
	if want == t.want {
		if d < 0 {
			m.flashInfo(firstChangeNote(h))
		} else {
			m.flashInfo("already at the last change, " + changes[len(changes)-1].ID)
		}
		return nil
	}
	t.want, t.wantID = want, changes[want].ID
	return m.travelStep()
}

// travelStep rebuilds the state after the wanted change, unless a rebuild is running
// (its result asks for the next).
func (m *Model) travelStep() tea.Cmd {
	t := m.travel
	if t.busy {
		return nil
	}
	t.busy = true
	h, idx, id, sim := m.logHistory(), t.want, t.wantID, t.sim
	return func() tea.Msg {
		snap, err := h.At(id)
		if err != nil {
			return travelMsg{index: idx, id: id, err: err}
		}
		g, f := derive(snap)
		return travelMsg{index: idx, id: id, snap: snap, g: g, f: f, ex: sim.extras(snap, g)}
	}
}

func (m *Model) onTravel(msg travelMsg) tea.Cmd {
	t := m.travel
	if t == nil {
		return nil // returned to now meanwhile
	}
	t.busy = false
	if msg.err != nil {
		m.flashError("cannot show " + msg.id + ": " + msg.err.Error())
		if t.at < 0 {
			m.travel = nil
		}
		return nil
	}
	t.at, t.id = msg.index, msg.id
	m.activity.Show(t.id)
	m.ex = msg.ex
	m.tree.SetRetreads(m.ex.retreads)
	t.summary = m.changeSummary(t.at)
	cmds := []tea.Cmd{m.setSnapshot(msg.snap, msg.g, msg.f, nil)}
	if t.want != t.at {
		cmds = append(cmds, m.travelStep())
	}
	return tea.Batch(cmds...)
}

// exitTravel shows the present again: the newest snapshot read, unless the view is
// paused (then the one shown before travelling, the newer one still waiting).
func (m *Model) exitTravel() tea.Cmd {
	t := m.travel
	m.travel = nil
	m.activity.Show("")
	if m.side == sideDiff {
		m.setSide(sideDetail)
	}
	live := t.live
	if m.pending != nil && !m.paused {
		p := m.pending
		m.pending, m.pendingCount = nil, 0
		live.snap, live.g, live.f = p.snap, p.g, p.f
	}
	m.ex = live.ex // may be a snapshot behind: supervise rebuilds it
	if m.ex != nil {
		m.tree.SetRetreads(m.ex.retreads)
	} else {
		m.tree.SetRetreads(nil)
	}
	m.flashInfo("back to now: the folder as it is")
	return m.setSnapshot(live.snap, live.g, live.f, nil)
}

// changeSummary says what a change did, for the status line while travelling.
func (m *Model) changeSummary(i int) string {
	changes := m.logHistory().Changes()
	if i < 0 || i >= len(changes) {
		return ""
	}
	e := changes[i]
	older := m.logHistory().Head().Changes // counted, not held (store.LoadTail)
	s := fmt.Sprintf("after %s (%d of %d)", e.ID, i+1+older, len(changes)+older)
	if i < len(m.changes) && m.changes[i].ID == e.ID {
		c := m.changes[i]
		if who := c.ActorOrGuess(); who != "" {
			s += " · " + who
		}
		if what := c.SkillOrGuess(); what != "" {
			s += " " + what
		}
		var objs, outside []string
		for _, oc := range c.Objects {
			switch {
			case oc.Action == model.Created:
				objs = append(objs, "+"+oc.ID)
			case oc.Action == model.Deleted:
				objs = append(objs, "−"+oc.ID)
			case oc.From != oc.To:
				objs = append(objs, oc.ID+" "+orQ(oc.From)+"→"+orQ(oc.To))
			default:
				objs = append(objs, oc.ID)
			}
			if oc.Outside != "" {
				// The version shown is not the one this change wrote: say so, rather than
				// credit an unlogged edit to it.
				outside = append(outside, "⚠ "+oc.ID+" "+oc.OutsideText())
			}
		}
		if len(objs) > 0 {
			s += ": " + strings.Join(objs, ", ")
		}
		if len(outside) > 0 {
			s += " · " + strings.Join(outside, "; ")
		}
		return s
	}
	if e.By != "" {
		s += " · " + e.By
	}
	if e.Skill != "" {
		s += " " + e.Skill
	}
	var objs []string
	for _, id := range e.Creation {
		objs = append(objs, "+"+id)
	}
	for _, id := range e.Modification {
		if !slices.Contains(e.Deleted, id) { // an undo lists what it removes under both
			objs = append(objs, id)
		}
	}
	for _, id := range e.Deleted {
		objs = append(objs, "−"+id)
	}
	if len(objs) > 0 {
		s += ": " + strings.Join(objs, ", ")
	}
	return s
}

func orQ(s string) string {
	if s == "" {
		return "?"
	}
	return s
}

// readOnly is why a change key is disabled while travelling, or "".
func (m *Model) readOnly() string {
	t := m.travel
	if t == nil {
		return ""
	}
	id := t.id
	if id == "" || t.at != t.want {
		id = t.wantID
	}
	return "read-only: showing " + id + "; press t to return to now"
}

func needTravel(m *Model) string {
	if m.travel == nil {
		return "not in time travel: press t first"
	}
	return ""
}

// travelLabel is the status bar's account of what is shown.
func (m *Model) travelLabel() string {
	t := m.travel
	n, older := 0, 0
	if m.hist != nil {
		n, older = len(m.hist.Changes()), m.hist.Head().Changes // as last made in Update: View makes nothing
	}
	if t.at < 0 || t.at != t.want {
		return fmt.Sprintf("◷ time travel: rebuilding after %s (%d of %d)…", t.wantID, t.want+1+older, n+older)
	}
	return fmt.Sprintf("◷ time travel: after %s (%d of %d) · read-only", t.id, t.at+1+older, n+older)
}

// cycleDiff opens the diff of the selected object against the previous change, then
// against now, then closes it.
func (m *Model) cycleDiff() tea.Cmd {
	t := m.travel
	if t == nil {
		m.flashError(needTravel(m))
		return nil
	}
	switch {
	case m.side != sideDiff:
		t.diff = diffPrev
	case t.diff == diffPrev:
		t.diff = diffNow
	default:
		t.diff = diffOff
	}
	if t.diff == diffOff {
		m.setSide(sideDetail)
	} else {
		m.side = sideDiff
		m.detail.offset = 0
	}
	m.layout()
	return m.rebuildDetail()
}

type diffMsg struct {
	key  string
	view views.DiffView
}

// diffView is the diff to show for the selection, and the command that makes it when
// it is not made yet (it reads backups).
func (m *Model) diffView() (views.DiffView, tea.Cmd) {
	t := m.travel
	r, ok := m.tree.Selected()
	if t == nil || !ok || (r.Kind != views.RowStatement && r.Kind != views.RowProblem) || t.at < 0 {
		return views.DiffView{}, nil
	}
	h := m.logHistory()
	changes := h.Changes()
	if t.at >= len(changes) {
		return views.DiffView{}, nil
	}
	id, at := r.ID, t.at
	shown := changes[at].ID
	var fromID, toID, from, to string
	fromAbsent := false
	if t.diff == diffNow {
		fromID, from, to = shown, "after "+shown, "now"
	} else {
		toID, to = shown, "after "+shown
		if at > 0 {
			fromID, from = changes[at-1].ID, "after "+changes[at-1].ID
		} else {
			from, fromAbsent = "before "+shown, true
		}
	}
	k := fmt.Sprintf("%s|%s|%s|%v|%p", id, fromID, toID, fromAbsent, h)
	if m.diff != nil && m.diffFor == k {
		return *m.diff, nil
	}
	outside := "" // the version after the change shown holds an unlogged edit
	if at < len(m.changes) && m.changes[at].ID == shown {
		for _, oc := range m.changes[at].Objects {
			if oc.ID == id && oc.Outside != "" {
				outside = oc.OutsideText()
			}
		}
	}
	loading := views.DiffView{ID: id, From: from, To: to, Loading: true}
	if m.diffBusy == k {
		return loading, nil
	}
	m.diffBusy = k
	return loading, func() tea.Msg {
		v := views.DiffView{ID: id, From: from, To: to, Outside: outside}
		var before, after store.Version
		var err error
		if !fromAbsent {
			if before, err = h.Object(id, fromID); err != nil {
				v.Err = err.Error()
				return diffMsg{key: k, view: v}
			}
		}
		if after, err = h.Object(id, toID); err != nil {
			v.Err = err.Error()
			return diffMsg{key: k, view: v}
		}
		for _, b := range append(before.Skipped, after.Skipped...) {
			v.Skipped = append(v.Skipped, b.Path+": "+b.Reason)
		}
		v.FromExists, v.ToExists = before.Exists, after.Exists
		v.FromStatus, v.ToStatus = docStatus(before.Doc), docStatus(after.Doc)
		v.Fields = model.DiffObject(before.Doc, after.Doc)
		return diffMsg{key: k, view: v}
	}
}

func docStatus(v model.Value) string {
	if s, ok := v.Get("status"); ok && s.Kind == model.String {
		return s.Str
	}
	return ""
}

func (m *Model) onDiff(msg diffMsg) tea.Cmd {
	if msg.key != m.diffBusy {
		return nil // the selection moved on
	}
	m.diffBusy = ""
	v := msg.view
	m.diff, m.diffFor = &v, msg.key
	if m.side == sideDiff {
		return m.rebuildDetail()
	}
	return nil
}

// pause pauses or resumes the live view. While travelling the newest snapshot waits for
// the return to now either way; resuming only says so.
func (m *Model) pause() tea.Cmd {
	if m.travel == nil {
		return m.togglePause()
	}
	m.paused = !m.paused
	if m.paused {
		m.flashInfo("live view paused: changes are counted and shown when you press p again")
	} else {
		m.flashInfo("live view resumed: the present is shown when you press t")
	}
	return nil
}
