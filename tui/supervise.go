package tui

import (
	"path/filepath"
	"slices"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"

	"referee/model"
	"referee/store"
	"referee/views"
)

// Supervising a live run (issue 6): the activity list, the agents' runs and the stall
// alarm, time travel, the graveyard and the re-treads. Everything here that reads files
// or compares many objects runs in a command, off the UI goroutine; Update only takes
// the results, and View only draws them.

// side is what the right-hand pane shows in place of the detail.
type side uint8

const (
	sideDetail    side = iota
	sideActivity       // a: every change, newest first
	sideRuns           // r: the agents' state files and the stall verdict
	sideGraveyard      // x: false and abandoned statements
	sideDiff           // d (time travel): one object between two changes
)

// supervision is the Model's state for the supervising panes.
type supervision struct {
	side     side
	activity *Activity

	// hist is the History of histOf, a recent snapshot: made with the activity, off the
	// UI goroutine, or in Update when time travel needs the newest (it only indexes the
	// log; backups are read lazily, once, and shared by the successive Histories).
	hist   *store.History
	histOf *model.Snapshot
	// changes is the activity of the log, oldest first; actOf the snapshot it is of.
	// Building starts when the activity pane is first opened, then follows the log.
	changes   []store.Change
	actWanted bool
	actBusy   bool
	actOf     *model.Snapshot
	// provisional is the first of changes listed provisionally (store.Change.Provisional),
	// listed again with those after it; len(changes) when none is.
	provisional int

	// ex is the similarity index, re-treads, graveyard and review order of the shown
	// snapshot (m.snap), built off the UI goroutine; it may lag a snapshot behind.
	ex     *extras
	exBusy bool
	exAt   time.Time   // when the last build started
	exWait bool        // a tick will start the next
	sim    *similarity // the present's; time travel has its own
	// similar caches the similar statements of each statement shown, for the claims of
	// similarOf at similarClaims; similarBusy, those being found.
	similar       map[string][]model.Match
	similarOf     *similarity
	similarClaims uint64
	similarBusy   map[string]bool

	runs   runsState
	sess   sessState
	travel *travel

	diff     *views.DiffView
	diffFor  string // the key diff was made for
	diffBusy string // the key being made
}

// extras is what the supervising views know of one snapshot beyond its graph.
type extras struct {
	snap     *model.Snapshot
	sim      *similarity
	claims   uint64                     // sim's count of claim changes when made: similar statements hold while it stays
	retreads map[string][]model.Retread // by the statement that repeats an older one
	graves   []model.Grave
	review   []string
}

// similarK is how many similar statements the detail pane lists.
const similarK = 5

// similarity is one similarity index and its re-treads, kept across the snapshots of a
// run and brought up to date by what changed (model.SimilarityIndex.Update): a status
// change re-checks the re-treads of that statement and of those that repeat it, a new
// claim is parsed once; the whole index is built once, in the background. It is used
// only from commands; the mutex lets one at a time at it. Time travel has one of its own,
// so that scrubbing leaves the present's alone.
type similarity struct {
	mu       sync.Mutex
	ix       *model.SimilarityIndex
	retreads map[string][]model.Retread
	claims   uint64
}

// extras brings the index to snap and returns the extras of snap (off the UI goroutine).
func (s *similarity) extras(snap *model.Snapshot, g *model.Graph) *extras {
	s.mu.Lock()
	if s.ix == nil {
		s.ix = model.NewSimilarityIndex(snap)
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
	s.mu.Unlock()
	// Linear passes over the graph (a few ms at 10k), here rather than per frame.
	ex.graves, ex.review = model.Graveyard(snap, g), model.ReviewOrder(snap, g)
	return ex
}

// similar is the top similarK statements like id, and the count of claim changes they
// hold for (off the UI goroutine: a pass over every claim).
func (s *similarity) similar(id string) ([]model.Match, uint64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.ix.Similar(id, similarK), s.claims
}

type extrasMsg struct{ ex *extras }

// extrasTickMsg says the extras may be built again (extrasEvery).
type extrasTickMsg struct{}

// extrasEvery is the least time between two starts of an extras build.
const extrasEvery = 250 * time.Millisecond

// similarMsg carries the similar statements of one statement.
type similarMsg struct {
	sim     *similarity
	claims  uint64
	id      string
	matches []model.Match
}

// similarTo is the similar statements of id when known for the shown extras; otherwise
// it starts finding them (the detail shows them when they arrive).
func (m *Model) similarTo(id string) ([]model.Match, tea.Cmd) {
	ex := m.ex
	if ex == nil || ex.snap.Statements[id] == nil {
		return nil, nil
	}
	if m.similarOf != ex.sim || m.similarClaims != ex.claims {
		m.similarOf, m.similarClaims, m.similar = ex.sim, ex.claims, map[string][]model.Match{}
		m.similarBusy = map[string]bool{}
	}
	if s, ok := m.similar[id]; ok {
		return s, nil
	}
	if m.similarBusy[id] {
		return nil, nil
	}
	m.similarBusy[id] = true
	sim := ex.sim
	return nil, func() tea.Msg {
		matches, claims := sim.similar(id)
		return similarMsg{sim: sim, claims: claims, id: id, matches: matches}
	}
}

func (m *Model) onSimilar(msg similarMsg) tea.Cmd {
	if msg.sim != m.similarOf || msg.claims != m.similarClaims {
		delete(m.similarBusy, msg.id)
		return nil // for other claims than those shown: asked again when shown
	}
	// A statement the shown snapshot lacks (newer than it) is left out.
	matches := slices.DeleteFunc(msg.matches, func(x model.Match) bool { return m.snap.Statements[x.ID] == nil })
	m.similar[msg.id] = matches
	delete(m.similarBusy, msg.id)
	if r, ok := m.tree.Selected(); ok && r.ID == msg.id && m.side == sideDetail {
		return m.rebuildDetail()
	}
	return nil
}

// historyMsg carries the activity of the changes from index from on (from < 0: the
// whole log, which was rewritten).
type historyMsg struct {
	snap    *model.Snapshot
	h       *store.History
	from    int
	changes []store.Change
}

// logHistory is the History at hand: of the newest snapshot read, or of one a little
// older while the newest one's is made (withHistory). It never builds one: indexing
// the log is linear in it (seconds for a 500 MB log), so it is done in commands.
func (m *Model) logHistory() *store.History {
	if m.hist == nil {
		return store.NewHistory(m.dir, &model.Snapshot{}) // empty: nothing read yet
	}
	return m.hist
}

// historyMadeMsg carries a History made off the UI goroutine, and what waited for it.
type historyMadeMsg struct {
	snap *model.Snapshot
	h    *store.History
	then func(h *store.History) tea.Cmd
}

// withHistory runs then with the History of the newest snapshot: at once when it is
// made, else once a command has made it (from the last one, sharing its backups).
func (m *Model) withHistory(then func(h *store.History) tea.Cmd) tea.Cmd {
	if m.hist != nil && m.histOf == m.latest {
		return then(m.hist)
	}
	if m.latest == nil {
		m.flashError("the folder is still loading")
		return nil
	}
	prev, snap, dir := m.hist, m.latest, m.dir
	return func() tea.Msg {
		var h *store.History
		if prev == nil {
			h = store.NewHistory(dir, snap)
		} else {
			h = prev.With(snap) // keeps the backups already read
		}
		return historyMadeMsg{snap: snap, h: h, then: then}
	}
}

func (m *Model) onHistoryMade(msg historyMadeMsg) tea.Cmd {
	if m.histOf != m.latest || m.hist == nil {
		m.hist, m.histOf = msg.h, msg.snap
	}
	return msg.then(msg.h)
}

// supervise starts what the shown state needs and is not built yet: the activity of
// the newest log, and the extras of the shown snapshot. One of each runs at a time; a
// newer snapshot waits for the running one.
func (m *Model) supervise() tea.Cmd {
	var cmds []tea.Cmd
	if m.actWanted && !m.actBusy && m.latest != nil && m.actOf != m.latest {
		cmds = append(cmds, m.buildActivity())
	}
	if m.travel == nil && !m.exBusy && m.snap != nil && (m.ex == nil || m.ex.snap != m.snap) {
		// At most one build per extrasEvery: under a run's writes the newest snapshot is
		// taken a little later, for one build instead of one per change.
		if wait := extrasEvery - time.Since(m.exAt); m.ex != nil && wait > 0 {
			if !m.exWait {
				m.exWait = true
				cmds = append(cmds, tea.Tick(wait, func(time.Time) tea.Msg { return extrasTickMsg{} }))
			}
			return tea.Batch(cmds...)
		}
		m.exBusy, m.exAt = true, time.Now()
		if m.sim == nil {
			m.sim = &similarity{}
		}
		sim, snap, g := m.sim, m.snap, m.g
		cmds = append(cmds, func() tea.Msg { return extrasMsg{sim.extras(snap, g)} })
	}
	return tea.Batch(cmds...)
}

// buildActivity lists the changes the log gained since the last listing (all of them
// when it was rewritten).
func (m *Model) buildActivity() tea.Cmd {
	m.actBusy = true
	prev, snap, dir := m.hist, m.latest, m.dir
	if m.histOf == snap {
		prev = nil // already made: reuse it as is
	}
	made := m.hist
	n := min(m.provisional, len(m.changes)) // from the first listed provisionally, if any
	lastID := ""
	if n > 0 {
		lastID = m.changes[n-1].ID
	}
	return func() tea.Msg {
		h := made
		switch {
		case prev != nil:
			h = prev.With(snap)
		case h == nil:
			h = store.NewHistory(dir, snap)
		}
		log := h.Changes()
		if n <= len(log) && (n == 0 || log[n-1].ID == lastID) {
			return historyMsg{snap: snap, h: h, from: n, changes: h.ActivityFrom(n)}
		}
		return historyMsg{snap: snap, h: h, from: -1, changes: h.Activity()}
	}
}

func (m *Model) onHistory(msg historyMsg) tea.Cmd {
	m.actBusy = false
	m.actOf = msg.snap
	if m.histOf != m.latest {
		m.hist, m.histOf = msg.h, msg.snap
	}
	switch {
	case msg.from == -1:
		m.changes = msg.changes
	case msg.from <= len(m.changes): // the changes gained, and those listed provisionally again
		m.changes = append(m.changes[:msg.from:msg.from], msg.changes...)
	default: // cannot happen with one listing at a time; start over
		m.changes, m.actOf = nil, nil
	}
	// Only the changes just listed can be provisional: those before were not.
	m.provisional = len(m.changes)
	if i := slices.IndexFunc(msg.changes, func(c store.Change) bool { return c.Provisional }); i >= 0 && m.changes != nil {
		m.provisional = len(m.changes) - len(msg.changes) + i
	}
	if m.activity.agents == nil && m.sess.atts != nil {
		m.activity.agents = m.changeAgents()
	}
	m.activity.SetHead(msg.h.Head())
	m.activity.SetChanges(m.changes)
	if t := m.travel; t != nil {
		m.activity.Show(t.id)
		t.summary = m.changeSummary(t.at)
	}
	return nil
}

func (m *Model) onExtras(msg extrasMsg) tea.Cmd {
	m.exBusy = false
	if m.travel != nil {
		return nil // built for the present while travelling: the present is rebuilt on return
	}
	m.ex = msg.ex
	m.tree.SetRetreads(m.ex.retreads)
	return m.rebuildDetail()
}

// setSide shows a pane in place of the detail (sideDetail: the detail again).
func (m *Model) setSide(s side) {
	m.side = s
	m.link = -1
	m.detail.offset = 0
	if s == sideGraveyard && m.ex != nil && len(m.ex.graves) > 0 {
		m.link = 0 // enter goes to the first at once
	}
	if s == sideActivity {
		m.actWanted = true
	}
}

// toggleSide opens a pane in place of the detail, with the focus, or closes it.
func (m *Model) toggleSide(s side) tea.Cmd {
	if m.side == s {
		m.setSide(sideDetail)
	} else {
		m.setSide(s)
		m.focus = focusDetail
	}
	m.layout()
	var cmd tea.Cmd
	if s == sideRuns && !m.runs.read {
		cmd = m.pollRuns(false)
	}
	return tea.Batch(cmd, m.rebuildDetail())
}

// sideDoc renders the pane shown in place of the detail, or reports false for the
// detail itself (and the activity, which is a list of its own).
func (m *Model) sideDoc(w int) (views.Doc, tea.Cmd, bool) {
	switch m.side {
	case sideRuns:
		return views.RunsDoc(m.st, m.runsState(), w), nil, true
	case sideGraveyard:
		var graves []model.Grave
		if m.ex != nil {
			graves = m.ex.graves
		}
		state := views.DetailState{Link: m.link, Math: m.math}
		return views.GraveyardDoc(m.st, m.snap, m.g, graves, state, w), nil, true
	case sideDiff:
		view, cmd := m.diffView()
		return views.DiffDoc(m.st, view, w), cmd, true
	}
	return views.Doc{}, nil, false
}

// sideTitle is the right pane's title for a side pane.
func (m *Model) sideTitle() string {
	switch m.side {
	case sideActivity:
		return m.activity.Title()
	case sideRuns:
		return "Agent runs"
	case sideGraveyard:
		return "Graveyard"
	case sideDiff:
		if m.diff != nil && m.diff.ID != "" {
			return "Diff · " + m.diff.ID
		}
		return "Diff"
	}
	return ""
}

// jumpTo shows an object picked in a side pane: the tree goes to it, the detail
// replaces the pane (the pane keeps its place: its key brings it back).
func (m *Model) jumpTo(id string) {
	if id == "" {
		return
	}
	m.follow(id)
	m.setSide(sideDetail)
	m.layout()
}

// --- agent runs and the stall alarm ---

// runsEvery is how often the state files are read.
const runsEvery = 2 * time.Second

type runsState struct {
	list    []store.AgentRun
	handoff map[string]bool
	err     string
	read    bool
	last    time.Time
	what    string
	first   time.Time // last activity at the first reading
	armed   bool      // a run was seen: a state file, or a change since the first reading
	stall   model.Stall
}

type runsMsg struct {
	runs []store.AgentRun
	err  error
	last time.Time
	what string
	tick bool // part of the polling loop: schedule the next reading
}

type runsTickMsg struct{}

// pollRuns reads the state files and the last activity in a command.
func (m *Model) pollRuns(tick bool) tea.Cmd {
	dir, opts := m.dir, m.opts.Runs
	return func() tea.Msg {
		runs, err := store.FindRuns(dir, opts)
		last, what := store.LastActivity(dir, runs)
		return runsMsg{runs: runs, err: err, last: last, what: what, tick: tick}
	}
}

func (m *Model) onRuns(msg runsMsg) tea.Cmd {
	r := &m.runs
	prev := map[string]store.AgentRun{}
	for _, run := range r.list {
		prev[run.Path] = run
	}
	r.handoff = map[string]bool{}
	for _, run := range msg.runs {
		if p, ok := prev[run.Path]; ok && store.Handoff(p, run) {
			r.handoff[run.Path] = true
		}
	}
	r.list, r.err = msg.runs, ""
	if msg.err != nil {
		r.err = msg.err.Error()
	}
	if !r.read {
		r.first = msg.last
	}
	r.read = true
	r.last, r.what = msg.last, msg.what
	if len(msg.runs) > 0 || msg.last.After(r.first) {
		r.armed = true
	}
	m.checkStall()
	var cmds []tea.Cmd
	if m.side == sideRuns {
		cmds = append(cmds, m.rebuildDetail())
	}
	if msg.tick {
		cmds = append(cmds, tea.Tick(runsEvery, func(time.Time) tea.Msg { return runsTickMsg{} }))
	}
	return tea.Batch(cmds...)
}

// checkStall asks model.CheckStall about the present (not a past state).
func (m *Model) checkStall() {
	g := m.g
	switch {
	case m.travel != nil && m.pending != nil:
		g = m.pending.g
	case m.travel != nil:
		g = m.travel.live.g
	case m.pending != nil:
		g = m.pending.g
	}
	if g == nil || !m.runs.read {
		return
	}
	m.runs.stall = model.CheckStall(g, m.runs.last, m.runs.what, m.now(), max(m.stallAfter(), 0)).
		WithTranscripts(m.sess.rep.LastLine, m.sess.rep.LastWhat, m.now(), max(m.stallAfter(), 0))
}

// stallAfter is the alarm's threshold; negative: off.
func (m *Model) stallAfter() time.Duration {
	if m.opts.StallAfter == 0 {
		return model.DefaultStallAfter
	}
	return m.opts.StallAfter
}

// stalled says whether the status bar shows the alarm.
func (m *Model) stalled() bool {
	return m.stallAfter() > 0 && m.runs.armed && m.runs.stall.Stalled
}

func (m *Model) runsState() views.RunsState {
	where := filepath.ToSlash(store.RunsDir) + "/ next to " + m.name + "/"
	switch {
	case m.opts.Runs.Glob != "":
		where = m.opts.Runs.Glob
	case m.opts.Runs.Base != "":
		where = filepath.Join(m.opts.Runs.Base, store.RunsDir)
	}
	rs := views.RunsState{Where: where, Err: m.runs.err, Read: m.runs.read, Stall: m.runs.stall,
		Armed: m.runs.armed, After: m.stallAfter(), Now: m.now()}
	if m.opts.Sessions != nil {
		rs.Sessions, rs.SessionsWhere = m.sessionRows(), m.opts.Sessions.ClaudeDir+"/projects"
		if len(m.sess.rep.Sessions) > 0 {
			rs.Armed = true // an agent session was seen: a run
		}
	}
	for _, r := range m.runs.list {
		rs.Runs = append(rs.Runs, views.RunInfo{Path: r.Path, Session: r.SessionID, HolSession: r.HolSession,
			Messages: r.MessageCount, SessionMessages: r.SessionMessageCount,
			InputTokens: r.InputTokens, OutputTokens: r.OutputTokens,
			CacheCreation: r.CacheCreationTokens, CacheRead: r.CacheReadTokens,
			CostUSD: r.TotalCostUSD, Modified: r.Modified, Problems: r.Problems, Err: r.Err,
			Handoff: m.runs.handoff[r.Path]})
	}
	return rs
}
