package tui

import (
	"path/filepath"
	"time"

	tea "charm.land/bubbletea/v2"

	"referee/agents"
	"referee/live"
	"referee/model"
	"referee/tui/common"
	"referee/views"
)

// The agents' runs and the stall alarm (issue 6): the state files are read every
// runsEvery in a command; Update keeps what was read, notices handoffs and asks
// model.StallOf about the present.

// runsEvery is how often the state files are read.
const runsEvery = 2 * time.Second

// Runs is the component of the agents' runs and the stall alarm. It reads the present
// (never a past or paused state) through the presentSource it is given.
type Runs struct {
	dir     string
	where   string // where the state files are looked for, in the pane's words
	opts    agents.RunsOptions
	after   time.Duration // the alarm's threshold; negative: off
	present presentSource

	list    []agents.AgentRun
	handoff map[string]bool
	err     string
	read    bool
	last    time.Time
	what    string
	first   time.Time // last activity at the first reading
	armed   bool      // a run was seen: a state file, or a change since the first reading
	stall   model.Stall

	// referee serve: the hub's one poll for every screen (nil: this workbench reads).
	shared *live.RunsPoller
	seq    uint64 // the shared reading last taken
}

// presentSource is what the stall alarm reads of the present.
type presentSource interface {
	// presentGraph is the graph of the folder as it is now, nil before it is read.
	presentGraph() *model.Graph
	// transcripts is when the agents' transcripts last had a line (zero: none), and whose.
	transcripts() (time.Time, string)
}

type runsMsg struct {
	runs []agents.AgentRun
	err  error
	last time.Time
	what string
	tick bool // part of the polling loop: schedule the next reading
	seq  uint64
	done bool // the shared poll stopped: no reading follows
}

type runsTickMsg struct{}

// stallCheckMsg asks the alarm to look again (the transcripts moved); run says an
// agent session was seen, which is a run.
type stallCheckMsg struct{ run bool }

// newRuns follows the runs of the contents folder dir (named name); after is
// Options.StallAfter (0: model.DefaultStallAfter, negative: no alarm).
func newRuns(dir, name string, opts agents.RunsOptions, after time.Duration, present presentSource) *Runs {
	if after == 0 {
		after = model.DefaultStallAfter
	}
	where := filepath.ToSlash(agents.RunsDir) + "/ next to " + name + "/"
	switch {
	case opts.Glob != "":
		where = opts.Glob
	case opts.Base != "":
		where = filepath.Join(opts.Base, agents.RunsDir)
	}
	return &Runs{dir: dir, where: where, opts: opts, after: after, present: present}
}

// Poll reads the state files and the last activity in a command; with tick, the
// reading after it is scheduled when it arrives.
func (r *Runs) Poll(tick bool) tea.Cmd {
	if p := r.shared; p != nil { // shared poll (referee serve): wait for the hub's next reading
		after := r.seq
		if !tick {
			after = 0 // asked for now: the newest reading
		}
		return func() tea.Msg {
			rd, ok := p.Next(after)
			return runsMsg{runs: rd.Runs, err: rd.Err, last: rd.Last, what: rd.What, tick: tick, seq: rd.Seq, done: !ok}
		}
	}
	dir, opts := r.dir, r.opts
	return func() tea.Msg {
		runs, err := agents.FindRuns(dir, opts)
		last, what := agents.LastActivity(dir, runs)
		return runsMsg{runs: runs, err: err, last: last, what: what, tick: tick}
	}
}

// Update takes a reading (runsMsg), the polling tick, or a request to look again.
func (r *Runs) Update(com common.Common, msg tea.Msg) (tea.Cmd, tea.Msg) {
	switch msg := msg.(type) {
	case runsTickMsg:
		return r.Poll(true), nil
	case stallCheckMsg:
		if msg.run {
			r.armed = true // the status bar may show the alarm
		}
		r.check(com.Now())
		return nil, nil
	case runsMsg:
		prev := map[string]agents.AgentRun{}
		for _, run := range r.list {
			prev[run.Path] = run
		}
		r.handoff = map[string]bool{}
		for _, run := range msg.runs {
			if p, ok := prev[run.Path]; ok && agents.Handoff(p, run) {
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
		r.check(com.Now())
		var cmd tea.Cmd
		switch {
		case r.shared != nil: // the hub's poll keeps its own time
			r.seq = max(r.seq, msg.seq)
			if msg.tick && !msg.done {
				cmd = r.Poll(true)
			}
		case msg.tick:
			cmd = tea.Tick(runsEvery, func(time.Time) tea.Msg { return runsTickMsg{} })
		}
		return cmd, paneChangedMsg{side: sideRuns}
	}
	return nil, nil
}

// Status is the status bar's alarm, when it rings.
func (r *Runs) Status(com common.Common) []string {
	if !r.Stalled() {
		return nil
	}
	return []string{com.Styles.Error.Render("⚠ stalled " + views.Idle(r.stall.Idle) + " (r)")}
}

// check asks model.StallOf about the present (the verdict; the pane lists no waiting work).
func (r *Runs) check(now time.Time) {
	g := r.present.presentGraph()
	if g == nil || !r.read {
		return
	}
	line, who := r.present.transcripts()
	r.stall = model.StallOf(g, r.last, r.what, now, max(r.after, 0)).
		WithTranscripts(line, who, now, max(r.after, 0))
}

// Stalled says whether the status bar shows the alarm.
func (r *Runs) Stalled() bool {
	return r.after > 0 && r.armed && r.stall.Stalled
}

// State is the runs pane's state (the Model adds the agents' sessions).
func (r *Runs) State(now time.Time) views.RunsState {
	rs := views.RunsState{Where: r.where, Err: r.err, Read: r.read, Stall: r.stall,
		Armed: r.armed, After: r.after, Now: now}
	for _, run := range r.list {
		rs.Runs = append(rs.Runs, views.RunInfo{Path: run.Path, Session: run.SessionID, HolSession: run.HolSession,
			Messages: run.MessageCount, SessionMessages: run.SessionMessageCount,
			InputTokens: run.InputTokens, OutputTokens: run.OutputTokens,
			CacheCreation: run.CacheCreationTokens, CacheRead: run.CacheReadTokens,
			CostUSD: run.TotalCostUSD, Modified: run.Modified, Problems: run.Problems, Err: run.Err,
			Handoff: r.handoff[run.Path]})
	}
	return rs
}

// presentGraph is the graph of the present: while travelling or paused, the newest one
// read, not the one shown (the stall alarm's presentSource).
func (m supervisor) presentGraph() *model.Graph {
	switch {
	case m.feed.pending != nil:
		return m.feed.pending.Graph
	case m.travel != nil:
		return m.travel.live.g
	}
	return m.shown.g
}

// transcripts is when the agents' transcripts last had a line, and whose.
func (m supervisor) transcripts() (time.Time, string) {
	return m.bg.sess.rep.LastLine, m.bg.sess.rep.LastWhat
}

// runsState is the runs pane's state: the runs, and the agents' sessions when followed.
func (m supervisor) runsState() views.RunsState {
	rs := m.runs.State(m.now())
	if m.env.opts.Sessions != nil {
		rs.Sessions, rs.SessionsWhere = m.bg.sess.Rows(), m.env.opts.Sessions.ClaudeDir+"/projects"
		if len(m.bg.sess.rep.Sessions) > 0 {
			rs.Armed = true // an agent session was seen: a run
		}
	}
	return rs
}
