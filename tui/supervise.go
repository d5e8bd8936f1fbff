package tui

import (
	"path/filepath"
	"slices"
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
	ix       *model.SimilarityIndex
	retreads map[string][]model.Retread // by the statement that repeats an older one
	graves   []model.Grave
	review   []string
	similar  map[string][]model.Match // top similarK per statement, filled as they are shown (UI goroutine)
}

// similarK is how many similar statements the detail pane lists.
const similarK = 5

// newExtras builds the extras of a snapshot. The similarity index and its re-treads
// (an all-pairs check: seconds at 10k statements) are kept from prev when no claim,
// status or type changed, which is what most agent writes leave alone.
func newExtras(prev *extras, snap *model.Snapshot, g *model.Graph) *extras {
	ex := &extras{snap: snap, similar: map[string][]model.Match{},
		graves: model.Graveyard(snap, g), review: model.ReviewOrder(snap, g)}
	if prev != nil && prev.ix.Serves(snap) {
		ex.ix, ex.retreads = prev.ix, prev.retreads
		return ex
	}
	ex.ix, ex.retreads = model.NewSimilarityIndex(snap), map[string][]model.Retread{}
	for _, r := range ex.ix.Retreads() {
		ex.retreads[r.ID] = append(ex.retreads[r.ID], r)
	}
	return ex
}

// similarTo is the top similar statements of id (cached per snapshot).
func (ex *extras) similarTo(id string) []model.Match {
	if ex == nil || ex.snap.Statements[id] == nil {
		return nil
	}
	if s, ok := ex.similar[id]; ok {
		return s
	}
	s := ex.ix.Similar(id, similarK)
	ex.similar[id] = s
	return s
}

type extrasMsg struct{ ex *extras }

// historyMsg carries the activity of the changes from index from on (from < 0: the
// whole log, which was rewritten).
type historyMsg struct {
	snap    *model.Snapshot
	h       *store.History
	from    int
	changes []store.Change
}

// logHistory is the History of the newest snapshot read, made when it is stale.
func (m *Model) logHistory() *store.History {
	if m.hist == nil || m.histOf != m.latest {
		if m.hist == nil {
			m.hist = store.NewHistory(m.dir, m.latest)
		} else {
			m.hist = m.hist.With(m.latest) // keeps the backups already read
		}
		m.histOf = m.latest
	}
	return m.hist
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
		m.exBusy = true
		prev, snap, g := m.ex, m.snap, m.g
		cmds = append(cmds, func() tea.Msg { return extrasMsg{newExtras(prev, snap, g)} })
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
