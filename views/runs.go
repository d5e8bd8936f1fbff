package views

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"referee/model"
	"referee/themes"
)

// RunInfo is one agent run's state file as the runs pane shows it.
type RunInfo struct {
	Path, Session, HolSession string
	Messages, SessionMessages int64
	InputTokens, OutputTokens int64
	CacheCreation, CacheRead  int64
	CostUSD                   float64
	Modified                  time.Time
	Problems                  []string
	Err                       string
	Handoff                   bool // the session changed since the last reading
}

// AgentRow is one Claude Code session agent as the runs pane shows it: the
// orchestrator (Depth 0) or a subagent (Depth 1). Strings come sanitised.
type AgentRow struct {
	Depth                     int
	Role, ID, State, Verdict  string
	Objects                   []string
	Turns                     int
	InputTokens, OutputTokens int64
	CacheCreation, CacheRead  int64
	CostUSD                   float64
	Context                   int64
	Last                      time.Time
	Notes                     []string
}

// RunsState is what the runs pane shows: where it looked, the runs, the stall verdict.
type RunsState struct {
	// Sessions are the agents of the project's Claude Code sessions; SessionsWhere
	// the folder looked in ("" when sessions are not watched).
	Sessions      []AgentRow
	SessionsWhere string

	Where string // the folder looked in, or the glob
	Runs  []RunInfo
	Err   string // the look-up failed
	Read  bool   // the state files were read at least once
	Stall model.Stall
	Armed bool          // a run was seen (a state file, or a change while open)
	After time.Duration // the stall threshold; negative: the alarm is off
	Now   time.Time
}

// RunsDoc renders the agent runs pane.
func RunsDoc(st *themes.Styles, rs RunsState, width int) Doc {
	b := &docBuilder{st: st, width: max(width, 10), doc: Doc{ProofStart: -1}}
	b.line(st.Title.Render(fmt.Sprintf("Agent runs (%d)", len(rs.Runs))))
	b.para("state files under "+rs.Where, 0, st.Muted.Render)
	b.blank()
	switch {
	case rs.After < 0:
		b.para("stall alarm off", 0, st.Muted.Render)
	case rs.Stall.Stalled && rs.Armed:
		b.para("⚠ "+rs.Stall.Reason, 0, st.Error.Render)
	case rs.Stall.Stalled:
		b.para(rs.Stall.Reason, 0, st.Warn.Render)
		b.para("(the alarm arms once a run is seen: a state file, or a change while the workbench is open)", 0, st.Faint.Render)
	case rs.Stall.Reason != "":
		b.para(rs.Stall.Reason, 0, st.Status(model.PhaseProved).Render)
	}
	if rs.Err != "" {
		b.blank()
		b.para("⚠ "+rs.Err, 0, st.Error.Render)
	}
	if rs.SessionsWhere != "" {
		sessionsDoc(b, rs)
	}
	if !rs.Read {
		b.blank()
		b.line(st.Muted.Render("reading the state files…"))
		return b.doc
	}
	if len(rs.Runs) == 0 {
		b.blank()
		b.para("No state file found. A long-running agent keeps one (seeds/002: .claude/hol_agent_state.json) with its session, message counts and token and cost counters.", 0, st.Muted.Render)
		return b.doc
	}
	for _, r := range rs.Runs {
		b.heading(model.SanitizeLine(r.Path))
		if r.Err != "" {
			b.para("⚠ "+r.Err, 2, st.Error.Render)
		}
		session := orDash(model.SanitizeLine(r.Session))
		if r.HolSession != "" {
			session += " · hol " + model.SanitizeLine(r.HolSession)
		}
		if r.Handoff {
			session += " (new session: handoff)"
		}
		b.labelled(2, "session", session)
		b.labelled(2, "messages", fmt.Sprintf("%d in all · %d this session", r.Messages, r.SessionMessages))
		b.labelled(2, "tokens", fmt.Sprintf("in %s · out %s · cache write %s · cache read %s",
			count(r.InputTokens), count(r.OutputTokens), count(r.CacheCreation), count(r.CacheRead)))
		b.labelled(2, "cost", "$"+strconv.FormatFloat(r.CostUSD, 'f', 2, 64))
		last := "—"
		if !r.Modified.IsZero() {
			last = ago(rs.Now.Sub(r.Modified)) + " (" + r.Modified.In(rs.Now.Location()).Format("2006-01-02 15:04:05") + ")"
		}
		b.labelled(2, "last activity", last)
		for _, p := range r.Problems {
			b.para("⚠ "+p, 2, st.Warn.Render)
		}
	}
	return b.doc
}

// sessionsDoc lists the session agents: one line each (role, ID, objects, state,
// verdict), a second with turns, tokens, cost, context and idle time.
func sessionsDoc(b *docBuilder, rs RunsState) {
	st := b.st
	b.heading(fmt.Sprintf("Claude Code sessions (%d)", countDepth(rs.Sessions, 0)))
	if len(rs.Sessions) == 0 {
		b.para("none ran in this project yet under "+rs.SessionsWhere, 2, st.Muted.Render)
		return
	}
	for _, a := range rs.Sessions {
		pad := 2 + 2*a.Depth
		if a.Depth == 0 {
			b.blank()
		}
		objs := strings.Join(a.Objects, " ")
		state := a.State
		style := st.Base.Render
		switch {
		case a.Verdict != "":
			state += " · " + a.Verdict
		case a.State == "finished" || a.State == "waiting" || a.State == "done" || strings.HasPrefix(a.State, "idle"):
			style = st.Muted.Render
		}
		if strings.HasPrefix(a.Verdict, "REJECTED") {
			style = st.Status(model.PhaseHasGap).Render
		}
		head := st.Accent.Render(a.Role) + " " + st.Muted.Render(a.ID)
		if objs != "" {
			head += " " + st.ID.Render(objs)
		}
		b.line(fitLine(strings.Repeat(" ", pad)+head+"  "+style(state), b.width))
		idle := "—"
		if !a.Last.IsZero() {
			idle = ago(rs.Now.Sub(a.Last))
		}
		b.line(fitLine(strings.Repeat(" ", pad+2)+st.Faint.Render(fmt.Sprintf("%d turns · in %s out %s · cache w %s r %s · $%.2f · ctx %s · %s",
			a.Turns, count(a.InputTokens), count(a.OutputTokens), count(a.CacheCreation), count(a.CacheRead), a.CostUSD, count(a.Context), idle)), b.width))
		for _, n := range a.Notes {
			b.para("· "+n, pad+2, st.Faint.Render)
		}
	}
}

func countDepth(rows []AgentRow, d int) int {
	n := 0
	for _, r := range rows {
		if r.Depth == d {
			n++
		}
	}
	return n
}

// count is a token count the way people read them: 980, 12.3k, 4.5M.
func count(n int64) string {
	switch {
	case n >= 1_000_000:
		return strconv.FormatFloat(float64(n)/1e6, 'f', 1, 64) + "M"
	case n >= 10_000:
		return strconv.FormatFloat(float64(n)/1e3, 'f', 0, 64) + "k"
	case n >= 1_000:
		return strconv.FormatFloat(float64(n)/1e3, 'f', 1, 64) + "k"
	}
	return strconv.FormatInt(n, 10)
}

// ago is a duration in words: "just now", "42s ago", "17m ago", "3h05m ago".
func ago(d time.Duration) string {
	switch {
	case d < time.Second:
		return "just now"
	case d < time.Minute:
		return fmt.Sprintf("%ds ago", int(d.Seconds()))
	case d < time.Hour:
		return fmt.Sprintf("%dm ago", int(d.Minutes()))
	case d < 48*time.Hour:
		return fmt.Sprintf("%dh%02dm ago", int(d.Hours()), int(d.Minutes())%60)
	}
	return fmt.Sprintf("%dd ago", int(d.Hours()/24))
}

// Idle is a stall's idle time, short: "17m", "3h05m".
func Idle(d time.Duration) string { return strings.TrimSuffix(ago(d), " ago") }
