package tui

import (
	"fmt"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"

	"referee/live"
	"referee/model"
	"referee/model/pyjson"
	"referee/store"
	"referee/tui/common"
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

// Travel is time travel's component: which change is shown, the rebuilds running
// toward the one asked for, the diff mode and the diffs made. The Model makes one when
// time travel starts and drops it on the return to now (m.travel == nil: the present);
// it reads the log through the logSource it is given.
type Travel struct {
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
	log     logSource

	// view is the diff shown (sideDiff), made for the key viewFor; viewBusy is the key
	// of the one being made.
	view     *views.DiffView
	viewFor  string
	viewBusy string
}

// logSource is what time travel reads of the log: the History at hand (made in
// commands, never by it) and the activity listed so far, oldest first.
type logSource interface {
	logHistory() *store.History
	Listed() []store.Change
}

// shownState is what the tree and detail show.
type shownState struct {
	snap *model.Snapshot
	g    *model.Graph
	f    *live.Forest
	ex   *extras
}

// travelMsg carries the folder rebuilt as it was after one change.
type travelMsg struct {
	index int
	id    string
	snap  *model.Snapshot
	g     *model.Graph
	f     *live.Forest
	ex    *extras
	err   error
}

// travelScrubMsg asks time travel to move d changes later (or earlier) in h, the
// newest log's History.
type travelScrubMsg struct {
	d int
	h *store.History
}

// travelShowMsg asks the Model to show the folder as it was after change id.
type travelShowMsg struct {
	id    string
	shown shownState
}

// travelFailedMsg says the first rebuild failed: nothing was shown, time travel ends.
type travelFailedMsg struct{ why string }

// paneChangedMsg says what a side pane shows has changed: the Model redraws it if shown.
type paneChangedMsg struct{ side side }

// newTravel starts time travel toward change want (wantID) of the log, live being the
// present to come back to; its step makes the first rebuild.
func newTravel(want int, wantID string, live shownState, log logSource) *Travel {
	return &Travel{at: -1, want: want, wantID: wantID, sim: &similarity{}, live: live, log: log}
}

// toggleTravel enters time travel (at the change selected in the activity pane when it
// has the focus, else at the last change) or returns to now.
func (m supervisor) toggleTravel() tea.Cmd {
	if m.travel != nil {
		return m.supervisor().exitTravel()
	}
	return m.supervisor().withHistory(m.enterTravel)
}

// enterTravel enters time travel through h, the newest log's History.
func (m supervisor) enterTravel(h *store.History) tea.Cmd {
	if m.travel != nil {
		return nil // entered meanwhile (a key pressed twice)
	}
	n := len(h.Changes())
	if n == 0 {
		m.status.error("nothing to travel through: " + store.LogFile + " has no change")
		return nil
	}
	idx := n - 1
	if m.lay.side == sideActivity && m.lay.focus == focusDetail {
		if c, ok := m.activity.Selected(); ok {
			if i, err := h.Index(c.ID); err == nil {
				idx = i
			}
		}
	}
	m.travel = newTravel(idx, h.Changes()[idx].ID, shownState{snap: m.shown.snap, g: m.shown.g, f: m.shown.forest, ex: m.bg.extras.shown}, m.bg.changes)
	m.bg.changes.Want() // the activity names who did what, for the status line
	return m.travel.step()
}

// scrub moves time travel d changes later (or earlier).
func (m supervisor) scrub(d int) tea.Cmd {
	if m.travel == nil {
		m.status.error(needTravel(m.Model))
		return nil
	}
	return m.supervisor().withHistory(func(h *store.History) tea.Cmd {
		if m.travel == nil {
			return nil // returned to now meanwhile
		}
		return m.route(m.travel, travelScrubMsg{d: d, h: h})
	})
}

// Update takes a move (travelScrubMsg), a rebuild (travelMsg), the next diff mode
// (travelDiffMsg) or a diff made (diffMsg).
func (t *Travel) Update(_ common.Common, msg tea.Msg) (tea.Cmd, tea.Msg) {
	switch msg := msg.(type) {
	case travelScrubMsg:
		changes := msg.h.Changes()
		if i, err := msg.h.Index(t.wantID); err == nil {
			t.want = i // the History may hold more (or fewer) older changes than when it was asked
		}
		want := min(max(t.want+msg.d, 0), len(changes)-1)
		if want == t.want {
			if msg.d < 0 {
				return nil, common.StatusMsg{Text: firstChangeNote(msg.h), OK: true}
			}
			return nil, common.StatusMsg{Text: "already at the last change, " + changes[len(changes)-1].ID, OK: true}
		}
		t.want, t.wantID = want, changes[want].ID
		return t.step(), nil
	case travelMsg:
		t.busy = false
		if msg.err != nil {
			why := "cannot show " + msg.id + ": " + msg.err.Error()
			if t.at < 0 {
				return nil, travelFailedMsg{why: why}
			}
			return nil, common.StatusMsg{Text: why}
		}
		t.at, t.id = msg.index, msg.id
		t.Summarize()
		var cmd tea.Cmd
		if t.want != t.at {
			cmd = t.step()
		}
		return cmd, travelShowMsg{id: t.id, shown: shownState{snap: msg.snap, g: msg.g, f: msg.f, ex: msg.ex}}
	case travelDiffMsg:
		switch {
		case !msg.shown:
			t.diff = diffPrev
		case t.diff == diffPrev:
			t.diff = diffNow
		default:
			t.diff = diffOff
		}
		return nil, diffShownMsg{off: t.diff == diffOff}
	case diffMsg:
		if msg.key != t.viewBusy {
			return nil, nil // the selection moved on
		}
		t.viewBusy = ""
		v := msg.view
		t.view, t.viewFor = &v, msg.key
		return nil, paneChangedMsg{side: sideDiff}
	}
	return nil, nil
}

// Status is the status line's account of what is shown.
func (t *Travel) Status(common.Common) []string {
	h := t.log.logHistory() // as last made in Update: View makes nothing
	n, older := len(h.Changes()), h.Head().Changes
	if t.at < 0 || t.at != t.want {
		return []string{fmt.Sprintf("◷ time travel: rebuilding after %s (%d of %d)…", t.wantID, t.want+1+older, n+older)}
	}
	return []string{fmt.Sprintf("◷ time travel: after %s (%d of %d) · read-only", t.id, t.at+1+older, n+older)}
}

// step rebuilds the state after the wanted change, unless a rebuild is running (its
// result asks for the next).
func (t *Travel) step() tea.Cmd {
	if t.busy {
		return nil
	}
	t.busy = true
	h, idx, id, sim := t.log.logHistory(), t.want, t.wantID, t.sim
	return func() tea.Msg {
		snap, err := h.At(id)
		if err != nil {
			return travelMsg{index: idx, id: id, err: err}
		}
		g, f := live.Derive(snap)
		return travelMsg{index: idx, id: id, snap: snap, g: g, f: f, ex: sim.extras(snap, g)}
	}
}

// onTravelShow shows a state time travel rebuilt.
func (m supervisor) onTravelShow(msg travelShowMsg) tea.Cmd {
	m.activity.Show(msg.id)
	m.bg.extras.shown = msg.shown.ex
	m.tree.SetRetreads(msg.shown.ex.retreads)
	cmd := m.loader().setSnapshot(msg.shown.snap, msg.shown.g, msg.shown.f, nil)
	m.supervisor().followChange(msg.id)
	return tea.Batch(cmd, m.reader().rebuildDetail())
}

// followChange puts the cursor on an object change id touched, so that the detail and
// d show what the change did: the selection when the change touched it, else the first
// object it touched that the folder shown holds (statements and problems), else where
// it was.
func (m supervisor) followChange(id string) {
	if m.travel == nil || m.shown.forest == nil || m.shown.snap == nil {
		return
	}
	h := m.travel.log.logHistory()
	i, err := h.Index(id)
	if err != nil {
		return
	}
	e := h.Changes()[i]
	touched := slices.Concat(e.Modification, e.Creation)
	if r, ok := m.tree.Selected(); ok && slices.Contains(touched, r.ID) {
		return
	}
	for _, obj := range touched {
		if m.shown.snap.Exists(obj) && model.KindOf(obj) != model.KindExperience && m.tree.Reveal(m.shown.forest.Canon(obj)) {
			return
		}
	}
}

// exitTravel shows the present again: the newest snapshot read, unless the view is
// paused (then the one shown before travelling, the newer one still waiting).
func (m supervisor) exitTravel() tea.Cmd {
	t := m.travel
	m.travel = nil
	m.activity.Show("")
	if m.lay.side == sideDiff {
		m.supervisor().setSide(sideDetail)
	}
	live := t.live
	if m.feed.pending != nil && !m.feed.paused {
		p := m.feed.pending
		m.feed.pending, m.feed.pendingCount = nil, 0
		live.snap, live.g, live.f = p.Snap, p.Graph, p.Forest
	}
	m.bg.extras.shown = live.ex // may be a snapshot behind: supervise rebuilds it
	if live.ex != nil {
		m.tree.SetRetreads(live.ex.retreads)
	} else {
		m.tree.SetRetreads(nil)
	}
	m.status.info("back to now: the folder as it is")
	return m.loader().setSnapshot(live.snap, live.g, live.f, nil)
}

// Summarize says again what the shown change did (the activity listed more).
func (t *Travel) Summarize() {
	t.summary = changeSummary(t.log.logHistory(), t.log.Listed(), t.at)
}

// changeSummary says what change i of the log did, for the status line while
// travelling; activity is the changes listed so far (who did what, edits outside the log).
func changeSummary(h *store.History, activity []store.Change, i int) string {
	changes := h.Changes()
	if i < 0 || i >= len(changes) {
		return ""
	}
	e := changes[i]
	older := h.Head().Changes // counted, not held (store.LoadTail)
	s := fmt.Sprintf("after %s (%d of %d)", e.ID, i+1+older, len(changes)+older)
	if i < len(activity) && activity[i].ID == e.ID {
		c := activity[i]
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

// Shown is the change shown, or asked for while it is rebuilt.
func (t *Travel) Shown() string {
	if t.id == "" || t.at != t.want {
		return t.wantID
	}
	return t.id
}

// ReadOnly is why a change key is disabled while travelling; "" in the present (t nil).
func (t *Travel) ReadOnly() string {
	if t == nil {
		return ""
	}
	return "read-only: showing " + t.Shown() + "; press t to return to now"
}

func needTravel(m *Model) string {
	if m.travel == nil {
		return "not in time travel: press t first"
	}
	return ""
}

// cycleDiff opens the diff of the selected object against the previous change, then
// against now, then closes it.
func (m supervisor) cycleDiff() tea.Cmd {
	if m.travel == nil {
		m.status.error(needTravel(m.Model))
		return nil
	}
	return m.route(m.travel, travelDiffMsg{shown: m.lay.side == sideDiff})
}

// travelDiffMsg asks for the next diff mode; shown says the diff pane is shown.
type travelDiffMsg struct{ shown bool }

// diffShownMsg asks the Model to show the diff pane, or (off) the detail again.
type diffShownMsg struct{ off bool }

// onDiffShown shows the diff pane in place of the detail, or the detail again.
func (m supervisor) onDiffShown(msg diffShownMsg) tea.Cmd {
	if msg.off {
		m.supervisor().setSide(sideDetail)
	} else {
		m.lay.side = sideDiff
		m.detail.offset = 0
	}
	m.layout()
	return m.reader().rebuildDetail()
}

type diffMsg struct {
	key  string
	view views.DiffView
}

// DiffView is the diff to show for the selected row r, and the command that makes it
// when it is not made yet (it reads backups).
func (t *Travel) DiffView(r live.TreeRow, ok bool) (views.DiffView, tea.Cmd) {
	if t == nil || !ok || (r.Kind != live.RowStatement && r.Kind != live.RowProblem) || t.at < 0 {
		return views.DiffView{}, nil
	}
	h := t.log.logHistory()
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
	if t.view != nil && t.viewFor == k {
		return *t.view, nil
	}
	outside := "" // the version after the change shown holds an unlogged edit
	if activity := t.log.Listed(); at < len(activity) && activity[at].ID == shown {
		for _, oc := range activity[at].Objects {
			if oc.ID == id && oc.Outside != "" {
				outside = oc.OutsideText()
			}
		}
	}
	loading := views.DiffView{ID: id, From: from, To: to, Loading: true}
	if t.viewBusy == k {
		return loading, nil
	}
	t.viewBusy = k
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

func docStatus(v pyjson.Value) string {
	if s, ok := v.Get("status"); ok && s.Kind == pyjson.String {
		return s.Str
	}
	return ""
}

// pause pauses or resumes the live view. While travelling the newest snapshot waits for
// the return to now either way; resuming only says so.
func (m supervisor) pause() tea.Cmd {
	if m.travel == nil {
		return m.loader().togglePause()
	}
	m.feed.paused = !m.feed.paused
	if m.feed.paused {
		m.status.info("live view paused: changes are counted and shown when you press p again")
	} else {
		m.status.info("live view resumed: the present is shown when you press t")
	}
	return nil
}
