package tui

import (
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"referee/agents"
	"referee/model"
	"referee/tui/common"
	"referee/views"
)

// The agents' Claude Code sessions (issue 14): a command follows their transcripts off
// the UI goroutine and returns a Report when something was appended; Update only keeps
// it. The attribution of the log's changes to skill calls runs in a command too.

// sessionsEvery is how often the transcripts are looked at: a new line is on screen
// within this (plus a Poll, well under a millisecond for one appended line).
const sessionsEvery = 100 * time.Millisecond

// sessionsQuiet is how long a command waits without news before it reports anyway,
// so idle times and the stall alarm move on.
const sessionsQuiet = 5 * time.Second

// Sessions is the component that follows the agents' sessions: the newest report of
// their transcripts, the attribution of the log's changes to skill calls, and the texts
// behind each statement's issues, responses and verdicts. It reads the log of the
// snapshot shown through the shownSource it is given.
type Sessions struct {
	opts  *agents.Options // nil: not followed
	shown shownSource

	w       *agents.Watcher // only ever used inside the watching command
	rep     agents.Report
	read    bool
	atts    map[string]agents.Attribution // by change ID
	why     map[string]views.WhyNotes     // by statement ID
	attOf   [2]int                        // calls and log length the attribution is of
	attBusy bool
	whyOpen bool // the detail shows the agents' text unfolded
}

func newSessions(opts *agents.Options, shown shownSource) *Sessions {
	return &Sessions{opts: opts, shown: shown}
}

type sessionsMsg struct {
	w   *agents.Watcher
	rep agents.Report
}

type attributionMsg struct {
	atts  map[string]agents.Attribution
	why   map[string]views.WhyNotes
	attOf [2]int
}

// sessionsReadMsg says a report of the transcripts was taken; run says an agent
// session was seen.
type sessionsReadMsg struct{ run bool }

// attributedMsg says the log's changes were attributed again.
type attributedMsg struct{}

// Watch polls the transcripts until something new arrives (or sessionsQuiet passes)
// and returns the report. w is nil the first time.
func (s *Sessions) Watch(w *agents.Watcher) tea.Cmd {
	if s.opts == nil {
		return nil
	}
	opts := *s.opts
	return func() tea.Msg {
		first := w == nil
		if first {
			w = agents.New(opts)
		}
		start := time.Now()
		for {
			changed, _ := w.Poll()
			if changed || first || time.Since(start) >= sessionsQuiet {
				return sessionsMsg{w: w, rep: w.Report()}
			}
			time.Sleep(sessionsEvery)
		}
	}
}

// Update takes a report of the transcripts (sessionsMsg) or an attribution.
func (s *Sessions) Update(_ common.Common, msg tea.Msg) (tea.Cmd, tea.Msg) {
	switch msg := msg.(type) {
	case sessionsMsg:
		s.w, s.rep, s.read = msg.w, msg.rep, true
		return tea.Batch(s.Watch(msg.w), s.attribute()), sessionsReadMsg{run: len(msg.rep.Sessions) > 0}
	case attributionMsg:
		s.atts, s.why, s.attOf, s.attBusy = msg.atts, msg.why, msg.attOf, false
		return s.attribute(), attributedMsg{}
	}
	return nil, nil
}

// attribute ties the log's changes to the skill calls in a command, when calls or
// changes were added since the last time.
func (s *Sessions) attribute() tea.Cmd {
	snap := s.shown.shownSnapshot()
	if snap == nil || s.attBusy || len(s.rep.Calls) == 0 {
		return nil
	}
	log, calls := snap.Log, s.rep.Calls
	of := [2]int{len(calls), snap.LogChanges()}
	if of == s.attOf {
		return nil
	}
	s.attBusy = true
	return func() tea.Msg {
		by := map[string]agents.Attribution{}
		for _, a := range agents.Attribute(log, calls, 0) {
			if a.Call != nil {
				by[a.Change] = a
			}
		}
		return attributionMsg{atts: by, why: whyIndex(log, by), attOf: of}
	}
}

// Agents names the agent behind each attributed change, for the activity pane.
func (s *Sessions) Agents() map[string]string {
	out := make(map[string]string, len(s.atts))
	for id, a := range s.atts {
		out[id] = agentLabel(a.Call)
	}
	return out
}

// watchSessions is the sessions' Watch (measurements call it).
func (m supervisor) watchSessions(w *agents.Watcher) tea.Cmd { return m.bg.sess.Watch(w) }

// onSessionsRead lets the stall alarm and the runs pane hear a report of the
// transcripts.
func (m supervisor) onSessionsRead(msg sessionsReadMsg) tea.Cmd {
	// An agent session is a run: the status bar may show the alarm.
	cmd := m.route(m.runs, stallCheckMsg(msg))
	if m.lay.side == sideRuns {
		return tea.Batch(cmd, m.reader().rebuildDetail())
	}
	return cmd
}

// onAttributed names the agents in the activity and shows the texts behind issues.
func (m supervisor) onAttributed() tea.Cmd {
	if m.activity != nil {
		m.activity.SetAgents(m.bg.sess.Agents())
	}
	return m.reader().rebuildDetail()
}

func agentLabel(c *agents.CallView) string {
	if c.AgentID != "" {
		return c.Role + " " + c.AgentID
	}
	return c.Role + " " + shortSession(c.SessionID)
}

func shortSession(id string) string {
	if len(id) > 8 {
		return id[:8]
	}
	return id
}

// Why is the agents' texts behind a statement's issues, responses and verdicts (made
// with the attribution, off the UI goroutine).
func (s *Sessions) Why(id string) views.WhyNotes { return s.why[id] }

// whyIndex finds, for every statement, the texts behind its issues, responses and
// verdicts: the n-th rejection of the statement wrote its issue #n, the n-th answering
// change its response #n.
func whyIndex(log []model.LogEntry, atts map[string]agents.Attribution) map[string]views.WhyNotes {
	out := map[string]views.WhyNotes{}
	type count struct{ issues, responses int }
	counts := map[string]*count{}
	for _, e := range log {
		for _, id := range e.Modification {
			c := counts[id]
			if c == nil {
				c = &count{}
				counts[id] = c
			}
			n := out[id]
			whyStep(e, atts, &c.issues, &c.responses, &n)
			if n.Issues != nil || n.Responses != nil || n.Verdicts != nil {
				out[id] = n
			}
		}
	}
	return out
}

// whyStep counts one change of a statement and notes its text when it has one.
func whyStep(e model.LogEntry, atts map[string]agents.Attribution, issues, responses *int, n *views.WhyNotes) {
	a, ok := atts[e.ID]
	skill := e.Skill
	if ok && skill == "" {
		skill = a.Call.Skill
	}
	note := func() views.WhyNote {
		return views.WhyNote{Change: e.ID, Agent: agentLabel(a.Call), Text: a.Call.Analysis}
	}
	switch skill {
	case "check-reject-proof":
		*issues++
		if ok {
			if n.Issues == nil {
				n.Issues = map[int]views.WhyNote{}
			}
			n.Issues[*issues] = note()
		}
	case "fix-patch-proof", "fix-create-substatement", "state-mark-false", "state-propose-modification":
		if skill != "fix-patch-proof" && skill != "fix-create-substatement" && *issues <= *responses {
			return // marked false or modified without an issue to answer
		}
		*responses++
		if ok {
			if n.Responses == nil {
				n.Responses = map[int]views.WhyNote{}
			}
			n.Responses[*responses] = note()
		}
	case "check-confirm-proof":
		if ok {
			n.Verdicts = append(n.Verdicts, note())
		}
	}
}

// Rows are the runs pane's rows of the session agents.
func (s *Sessions) Rows() []views.AgentRow {
	var rows []views.AgentRow
	var add func(v agents.View, depth int)
	add = func(v agents.View, depth int) {
		id := v.AgentID
		if id == "" {
			id = shortSession(v.SessionID)
		}
		state := v.State
		if v.Tool != "" {
			state += " " + v.Tool
		}
		notes := []string{}
		for _, n := range v.Notes {
			if !strings.HasPrefix(n, "compacted") && !strings.HasPrefix(n, "summary line") {
				notes = append(notes, n)
			}
		}
		rows = append(rows, views.AgentRow{Depth: depth, Role: v.Role, ID: id, State: state, Verdict: v.Verdict,
			Objects: v.Objects, Turns: v.Turns, InputTokens: v.Tokens.Input, OutputTokens: v.Tokens.Output,
			CacheCreation: v.Tokens.CacheCreation, CacheRead: v.Tokens.CacheRead, CostUSD: v.CostUSD,
			Context: v.Context, Last: v.LastActivity, Notes: notes})
		// Newest first: the working subagent is at the top.
		for i := len(v.Subagents) - 1; i >= 0; i-- {
			add(v.Subagents[i], depth+1)
		}
		// The session's compaction and background agents, below its subagents: what
		// they cost, not agents of the run.
		for _, h := range []struct {
			role string
			sp   *agents.Spend
		}{{agents.RoleCompaction, v.Compaction}, {"background", v.Background}} {
			if h.sp == nil {
				continue
			}
			var notes []string
			for _, m := range h.sp.CostUnknown {
				notes = append(notes, "cost unknown: model "+m)
			}
			if len(h.sp.Kinds) > 0 {
				notes = append(notes, strings.Join(h.sp.Kinds, ", "))
			}
			rows = append(rows, views.AgentRow{Depth: depth + 1, Role: h.role, ID: fmt.Sprintf("%d agent(s)", h.sp.Agents),
				State: "done", Turns: h.sp.Turns, InputTokens: h.sp.Tokens.Input, OutputTokens: h.sp.Tokens.Output,
				CacheCreation: h.sp.Tokens.CacheCreation, CacheRead: h.sp.Tokens.CacheRead, CostUSD: h.sp.CostUSD, Notes: notes})
		}
	}
	for _, v := range s.rep.Sessions {
		add(v, 0)
	}
	return rows
}

// instruction composes the agents' /instruct command about the sentence under the
// cursor, for the agent the statement needs next.
func (m supervisor) instruction() (string, string) {
	st := m.reader().selectedStatement()
	if st == nil {
		return "", "select a statement first"
	}
	n, text := m.changer().sentenceUnderCursor()
	agent := ""
	if m.shown.g != nil {
		agent = m.shown.g.Next.Get(st.ID)
	}
	if agent == "" || agent == model.AgentHuman {
		agent = model.AgentCheck
	}
	verb := map[string]string{model.AgentCheck: "please check", model.AgentFix: "please fix the gap in",
		model.AgentProve: "please prove"}[agent]
	if verb == "" {
		verb = "please work on"
	}
	s := fmt.Sprintf("/instruct %s: %s statement (%s)", agent, verb, st.ID)
	if n > 0 {
		quoted := model.SanitizeLine(text)
		if r := []rune(quoted); len(r) > 80 {
			quoted = string(r[:79]) + "…"
		}
		s += fmt.Sprintf(", sentence %d \"%s\"", n, quoted)
	}
	return s + ": <your note>", ""
}

// instruct shows the composed instruction and copies it with OSC 52, on the user's key.
func (m supervisor) instruct() tea.Cmd {
	s, why := m.supervisor().instruction()
	if s == "" {
		m.status.error("cannot compose an instruction: " + why)
		return nil
	}
	m.status.info("copied: " + s)
	return tea.SetClipboard(s)
}
