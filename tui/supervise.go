package tui

import (
	"slices"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"

	"referee/live"
	"referee/model"
	"referee/model/similar"
	"referee/tui/common"
	"referee/views"
)

// Supervising a live run (issue 6): the activity list, the agents' runs and the stall
// alarm, time travel, the graveyard and the re-treads. Everything here that reads files
// or compares many objects runs in a command, off the UI goroutine; Update only takes
// the results, and View only draws them. The parts are components of their own
// (changes.go, runs.go, sessions.go, similar.go, travel.go); here are the side panes and
// the extras of the shown snapshot.

// side is what the right-hand pane shows in place of the detail.
type side uint8

const (
	sideDetail    side = iota
	sideActivity       // a: every change, newest first
	sideRuns           // r: the agents' state files and the stall verdict
	sideGraveyard      // x: false and abandoned statements
	sideDiff           // d (time travel): one object between two changes
)

// extras is what the supervising views know of one snapshot beyond its graph.
type extras struct {
	snap     *model.Snapshot
	sim      *similarity
	claims   uint64                       // sim's count of claim changes when made: similar statements hold while it stays
	retreads map[string][]similar.Retread // by the statement that repeats an older one
	graves   []model.Grave
	review   []string
}

// similarK is how many similar statements the detail pane lists.
const similarK = 5

// similarity is one similarity index and its re-treads, the graveyard and the review
// queue, kept across the snapshots of a run and brought up to date by what changed
// (similar.Index.Update, model.Graves, model.ReviewQueue): a status change
// re-checks the re-treads of that statement and of those that repeat it, a new claim is
// parsed once, a grave is made again when what it was made from changed; each is built
// whole once, in the background. It is used only from commands; the mutex lets one at
// a time at it. Time travel has one of its own, so that scrubbing leaves the present's
// alone.
type similarity struct {
	mu       sync.Mutex
	ix       *similar.Index
	retreads map[string][]similar.Retread
	claims   uint64

	graves model.Graves
	queue  model.ReviewQueue
	// The version the graves and the queue are at: what changed since is worked out
	// once per build, for both.
	at      *model.Snapshot
	atPhase model.Objects[model.Phase]
}

// extras brings the index to snap and returns the extras of snap (off the UI goroutine).
func (s *similarity) extras(snap *model.Snapshot, g *model.Graph) *extras {
	s.mu.Lock()
	if s.ix == nil {
		s.ix = similar.NewIndex(snap)
		s.retreads, s.claims = s.ix.RetreadsByID(), s.claims+1
	} else {
		changed, claims, rebuilt := s.ix.Update(snap)
		if rebuilt {
			s.retreads = s.ix.RetreadsByID()
		} else {
			s.retreads = s.ix.UpdateRetreads(s.retreads, changed)
		}
		if claims {
			s.claims++
		}
	}
	ex := &extras{snap: snap, sim: s, claims: s.claims, retreads: s.retreads}
	var t model.Touched
	if s.at != nil {
		t = model.TouchedBetween(s.at, snap, s.atPhase, g.Phase)
	}
	ex.graves, ex.review = s.graves.Update(snap, g, t), s.queue.Update(snap, g, t)
	s.at, s.atPhase = snap, g.Phase
	s.mu.Unlock()
	return ex
}

// similar is the top similarK statements like id, and the count of claim changes they
// hold for (off the UI goroutine: a pass over every claim).
func (s *similarity) similar(id string) ([]similar.Match, uint64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.ix.Similar(id, similarK), s.claims
}

type extrasMsg struct {
	ex   *extras
	took time.Duration
}

// extrasTickMsg says the extras may be built again (extrasEvery).
type extrasTickMsg struct{}

// extrasEvery is the least time between two starts of an extras build; a build that
// took long waits extrasShare times as long before the next, so that under a run's
// writes the extras take at most a ninth of a core (at 10k a build takes ~80 ms of
// CPU, and at 40 changes a second one every 250 ms was a fifth of the workbench's CPU),
// but never more than extrasAtMost (the first build, the whole index, takes longest).
// extrasAfterFrame is how long the first build waits after the tree came: a few of
// the renderer's frames, so that the build's CPU and garbage are not in the first frame.
const extrasAfterFrame = 50 * time.Millisecond

const (
	extrasEvery  = 250 * time.Millisecond
	extrasShare  = 8
	extrasAtMost = 2 * time.Second
)

// supervise starts what the shown state needs and is not built yet: the activity of
// the newest log, and the extras of the shown snapshot (not while travelling: time
// travel has its own). One of each runs at a time; a newer snapshot waits for the
// running one.
func (m supervisor) supervise() tea.Cmd {
	cmd := m.bg.changes.List()
	// Not while the first frame's tree waits for the rest of it: that is built first.
	if m.travel == nil && m.shown.snap != nil && !m.feed.head.Partial() {
		cmd = tea.Batch(cmd, m.bg.extras.Build(m.shown.snap, m.shown.g))
	}
	return cmd
}

// Extras is the component that keeps the extras of the shown snapshot: it starts their
// builds, one at a time and paced, and answers extrasBuiltMsg when one arrives.
type Extras struct {
	shown *extras       // the last built, for the shown snapshot or one a little older
	busy  bool          // a build runs
	at    time.Time     // when the last build started
	took  time.Duration // how long the last build took
	wait  bool          // a tick will start the next
	sim   *similarity   // the present's; time travel has its own
	// shared, when set, builds the extras once for every screen on the folder (serve).
	shared *Shared
	// afterFrame holds the first build back (extrasAfterFrame) while the frame with
	// the first tree is drawn.
	afterFrame bool
	// limit: the first build collects and lowers the collector's percentage
	// (Options.LimitMemory, memlimit.go); limited: it did.
	limit, limited bool
	// queue is the review queue worked out on the UI goroutine for a snapshot whose
	// extras are not built yet (Model.reviewOrder), kept for the next n.
	queue struct {
		snap  *model.Snapshot
		order []string
	}
}

// extrasBuiltMsg answers a build of the extras.
type extrasBuiltMsg struct{ ex *extras }

// Build starts a build of snap's extras unless they are built or one runs. At most one
// starts per extrasEvery (and extrasShare times the last build's time): under a run's
// writes the newest snapshot is taken a little later, for one build instead of one per
// change.
func (e *Extras) Build(snap *model.Snapshot, g *model.Graph) tea.Cmd {
	if e.busy || e.shown != nil && e.shown.snap == snap {
		return nil
	}
	if e.afterFrame { // the first tree was just shown: its frame is drawn first
		e.afterFrame, e.wait = false, true
		return tea.Tick(extrasAfterFrame, func(time.Time) tea.Msg { return extrasTickMsg{} })
	}
	if wait := min(max(extrasEvery, extrasShare*e.took), extrasAtMost) - time.Since(e.at); e.shown != nil && wait > 0 {
		if e.wait {
			return nil
		}
		e.wait = true
		return tea.Tick(wait, func(time.Time) tea.Msg { return extrasTickMsg{} })
	}
	e.busy, e.at = true, time.Now()
	if e.shared != nil {
		return e.buildShared(snap, g)
	}
	if e.sim == nil {
		e.sim = &similarity{}
	}
	sim := e.sim
	return func() tea.Msg {
		start := time.Now()
		ex := inBackground(func() *extras { return sim.extras(snap, g) })
		return extrasMsg{ex, time.Since(start)}
	}
}

// Update takes a build (extrasMsg) or the tick that lets the next start.
func (e *Extras) Update(_ common.Common, msg tea.Msg) (tea.Cmd, tea.Msg) {
	switch msg := msg.(type) {
	case extrasTickMsg:
		e.wait = false // Update's supervise starts the build
	case extrasMsg:
		e.busy, e.took = false, msg.took
		var cmd tea.Cmd
		if e.limit && !e.limited {
			cmd = limitMemory()
			e.limited = true
		}
		return cmd, extrasBuiltMsg{msg.ex}
	}
	return nil, nil
}

// onExtrasBuilt shows extras built for the present (while travelling, the present is
// built again on return).
func (m supervisor) onExtrasBuilt(msg extrasBuiltMsg) tea.Cmd {
	if m.travel != nil {
		return nil
	}
	old := m.bg.extras.shown
	m.bg.extras.shown = msg.ex
	m.tree.SetRetreads(msg.ex.retreads)
	if m.supervisor().sameForDetail(old, msg.ex) {
		return nil // serve (issue 30): every session rebuilt its detail as it was
	}
	return m.reader().rebuildDetail()
}

// sameForDetail says the detail, last built with the extras old, is the same with ex:
// it shows the detail (not a side pane, which may show the graves), and what the
// detail reads of the extras for the selected row — the similar statements (kept for
// the same index and claims), whether they know the statement, its re-treads — is the
// same. Under a run's writes each new snapshot's extras mostly are.
func (m supervisor) sameForDetail(old, ex *extras) bool {
	r, ok := m.tree.Selected()
	if old == nil || !ok || m.lay.side != sideDetail || old.sim != ex.sim || old.claims != ex.claims {
		return false
	}
	return r.Kind != live.RowStatement ||
		(old.snap.Statements.Get(r.ID) != nil) == (ex.snap.Statements.Get(r.ID) != nil) && slices.Equal(old.retreads[r.ID], ex.retreads[r.ID])
}

// setSide shows a pane in place of the detail (sideDetail: the detail again).
func (m supervisor) setSide(s side) {
	m.lay.side = s
	m.detail.sel.link = -1
	m.detail.offset = 0
	if s == sideGraveyard && m.bg.extras.shown != nil && len(m.bg.extras.shown.graves) > 0 {
		m.detail.sel.link = 0 // enter goes to the first at once
	}
	if s == sideActivity {
		m.bg.changes.Want()
	}
}

// toggleSide opens a pane in place of the detail, with the focus, or closes it.
func (m supervisor) toggleSide(s side) tea.Cmd {
	if m.lay.side == s {
		m.supervisor().setSide(sideDetail)
	} else {
		m.supervisor().setSide(s)
		m.lay.focus = focusDetail
	}
	m.layout()
	var cmd tea.Cmd
	if s == sideRuns && !m.runs.read {
		cmd = m.runs.Poll(false)
	}
	return tea.Batch(cmd, m.reader().rebuildDetail())
}

// sideDoc renders the pane shown in place of the detail, or reports false for the
// detail itself (and the activity, which is a list of its own).
func (m supervisor) sideDoc(w int) (views.Doc, tea.Cmd, bool) {
	switch m.lay.side {
	case sideRuns:
		return views.RunsDoc(m.look.st, m.supervisor().runsState(), w), nil, true
	case sideGraveyard:
		var graves []model.Grave
		if m.bg.extras.shown != nil {
			graves = m.bg.extras.shown.graves
		}
		state := views.DetailState{Link: m.detail.sel.link, Math: m.look.math}
		return views.GraveyardDoc(m.look.st, m.shown.snap, m.shown.g, graves, state, w), nil, true
	case sideDiff:
		view, cmd := m.travel.DiffView(m.tree.Selected())
		return views.DiffDoc(m.look.st, view, w), cmd, true
	}
	return views.Doc{}, nil, false
}

// sideTitle is the right pane's title for a side pane.
func (m supervisor) sideTitle() string {
	switch m.lay.side {
	case sideActivity:
		return m.activity.Title()
	case sideRuns:
		return "Agent runs"
	case sideGraveyard:
		return "Graveyard"
	case sideDiff:
		if t := m.travel; t != nil && t.view != nil && t.view.ID != "" {
			return "Diff · " + t.view.ID
		}
		return "Diff"
	}
	return ""
}

// jumpTo shows an object picked in a side pane: the tree goes to it, the detail
// replaces the pane (the pane keeps its place: its key brings it back).
func (m supervisor) jumpTo(id string) {
	if id == "" {
		return
	}
	m.reader().follow(id)
	m.supervisor().setSide(sideDetail)
	m.layout()
}
