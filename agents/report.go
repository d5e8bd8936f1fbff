package agents

import (
	"maps"
	"slices"
	"strings"
	"time"

	"referee/model"
)

// View is one agent as shown: every string from a transcript already sanitised.
type View struct {
	SessionID string   `json:"session_id"`
	AgentID   string   `json:"agent_id,omitempty"`
	Role      string   `json:"role"`
	RoleFrom  string   `json:"role_from,omitempty"`
	Objects   []string `json:"objects"`
	State     string   `json:"state"`
	Tool      string   `json:"tool,omitempty"`
	Verdict   string   `json:"verdict"`
	// Turns, Tokens and CostUSD are of this agent's own transcript: a session's
	// exclude its subagents and its compaction (IncludesSubagents is false; the
	// sums are in WithSubagents).
	Turns             int     `json:"turns"`
	Tokens            Tokens  `json:"tokens"`
	CostUSD           float64 `json:"cost_usd"`
	IncludesSubagents bool    `json:"includes_subagents"`
	// CostUnknown are models the price table does not know: their responses are
	// counted in Tokens, not in CostUSD.
	CostUnknown []string `json:"cost_unknown,omitempty"`
	// LinesWithoutID counts assistant lines without message.id.
	LinesWithoutID int `json:"lines_without_message_id,omitempty"`
	// Compaction is what the session's compaction agents (agent-acompact-*) spent.
	Compaction *Spend `json:"compaction,omitempty"`
	// Background is what Claude Code's other agents of the session spent (prompt
	// suggestions): not subagents, no Task started them.
	Background *Spend `json:"background,omitempty"`
	// WithSubagents is the session's own figures, its subagents' (and theirs), its
	// compaction's and its background agents', each counted once.
	WithSubagents *Spend    `json:"with_subagents,omitempty"`
	Model         string    `json:"model,omitempty"`
	Context       int64     `json:"context_tokens"`
	Compactions   int       `json:"compactions,omitempty"`
	LastActivity  time.Time `json:"last_activity"`
	Idle          Duration  `json:"idle"`
	Prompt        string    `json:"prompt,omitempty"`
	Report        string    `json:"report,omitempty"`
	Calls         int       `json:"skill_calls"`
	Path          string    `json:"transcript"`
	Notes         []string  `json:"notes,omitempty"`
	Subagents     []View    `json:"subagents"`
}

// Spend is what some agents used together.
type Spend struct {
	Agents      int      `json:"agents"`
	Turns       int      `json:"turns"`
	Tokens      Tokens   `json:"tokens"`
	CostUSD     float64  `json:"cost_usd"`
	CostUnknown []string `json:"cost_unknown,omitempty"`
	Kinds       []string `json:"kinds,omitempty"` // of background agents
}

// add counts one agent's own figures in.
func (s *Spend) add(v View) {
	s.plus(Spend{Agents: 1, Turns: v.Turns, Tokens: v.Tokens, CostUSD: v.CostUSD, CostUnknown: v.CostUnknown})
}

func (s *Spend) plus(o Spend) {
	s.Agents += o.Agents
	s.Turns += o.Turns
	s.Tokens = s.Tokens.Plus(o.Tokens)
	s.CostUSD += o.CostUSD
	for _, m := range o.CostUnknown {
		if !slices.Contains(s.CostUnknown, m) {
			s.CostUnknown = append(s.CostUnknown, m)
		}
	}
}

// Duration marshals as text (e.g. "4m10s").
type Duration time.Duration

// MarshalText writes the duration rounded to seconds.
func (d Duration) MarshalText() ([]byte, error) {
	return []byte(time.Duration(d).Round(time.Second).String()), nil
}

// CallView is a skill call with its agent, sanitised.
type CallView struct {
	Call
	SessionID string `json:"session_id"`
	AgentID   string `json:"agent_id,omitempty"`
	Role      string `json:"role"`
}

// Report is what the watcher knows at one moment.
type Report struct {
	ClaudeDir string    `json:"claude_dir"`
	Project   string    `json:"project"`
	Sessions  []View    `json:"sessions"`
	LastLine  time.Time `json:"last_line"` // the newest transcript timestamp
	LastWhat  string    `json:"last_line_agent,omitempty"`
	Prices    string    `json:"prices"` // the price table's date and source
	// Notes are about files that are not followed: special files, transcripts that
	// name no working directory, subagent files of an unknown session.
	Notes []string `json:"notes,omitempty"`
	// Calls are the skill calls: answered ones in the order answered, then running
	// ones. Shared between reports: read only.
	Calls []CallView `json:"-"`
}

// Report is the state now. Transcript text in it is sanitised for a terminal.
func (w *Watcher) Report() Report {
	now := w.opts.Now()
	r := Report{ClaudeDir: w.opts.ClaudeDir, Project: w.project[0], Sessions: []View{},
		Prices: w.opts.Prices.Date + ", " + w.opts.Prices.Source}
	var running []CallView
	for _, path := range w.sessionPaths() {
		s := w.sessions[path]
		v := s.main.view(now)
		r.Sessions = append(r.Sessions, v)
		walk(s.main, func(a *Agent) {
			if a.Last.After(r.LastLine) {
				r.LastLine, r.LastWhat = a.Last, agentName(a)
			}
			for _, c := range a.pending {
				running = append(running, c.view())
			}
		})
	}
	// The answered calls are shared (capped: an append by a reader copies), the few
	// running ones added.
	r.Calls = w.calls[:len(w.calls):len(w.calls)]
	if len(running) > 0 {
		slices.SortFunc(running, func(a, b CallView) int { return a.Start.Compare(b.Start) })
		r.Calls = append(r.Calls, running...)
	}
	r.Notes = append(r.Notes, w.notes...)
	for _, path := range slices.Sorted(maps.Keys(w.orphans)) {
		r.Notes = append(r.Notes, clean(path)+": a subagent transcript of session "+clean(w.orphans[path])+", which is not among the project's: not shown")
	}
	// The session active last first.
	slices.SortStableFunc(r.Sessions, func(a, b View) int { return b.LastActivity.Compare(a.LastActivity) })
	return r
}

func walk(a *Agent, f func(*Agent)) {
	f(a)
	for _, s := range a.Sub {
		walk(s, f)
	}
}

func agentName(a *Agent) string {
	role := a.Role
	if role == "" {
		role = "subagent"
	}
	if a.AgentID != "" {
		return model.SanitizeLine(role + " " + a.AgentID)
	}
	return model.SanitizeLine(role + " " + a.SessionID)
}

// view is the agent as shown; the sanitised part is remade only when the agent
// changed (an idle subagent of a long run costs a copy).
func (a *Agent) view(now time.Time) View {
	if a.shown == nil || a.dirty {
		v := a.makeView()
		a.shown, a.dirty = &v, false
	}
	v := *a.shown
	if !a.Last.IsZero() {
		v.Idle = Duration(max(now.Sub(a.Last), 0))
	}
	v.Subagents = make([]View, 0, len(a.Sub))
	last := a.Last
	for _, s := range a.Sub {
		sv := s.view(now)
		v.Subagents = append(v.Subagents, sv)
		if sv.LastActivity.After(last) {
			last = sv.LastActivity
		}
	}
	helpers := func(list []*Agent) *Spend {
		if len(list) == 0 {
			return nil
		}
		sp := &Spend{}
		for _, c := range list {
			cv := c.view(now)
			sp.add(cv)
			if !slices.Contains(sp.Kinds, cv.Role) {
				sp.Kinds = append(sp.Kinds, cv.Role)
			}
			if cv.LastActivity.After(last) {
				last = cv.LastActivity
			}
		}
		return sp
	}
	v.Compaction, v.Background = helpers(a.Compacting), helpers(a.Background)
	if v.Compaction != nil {
		v.Compaction.Kinds = nil
	}
	v.State, v.Tool = Decide(Facts{Event: a.State, Tool: v.Tool, TextLast: a.textLast, Subagent: a.AgentID != "", Last: last}, now)
	if a.AgentID == "" {
		all := &Spend{}
		all.add(v)
		var subs func(list []View)
		subs = func(list []View) {
			for _, s := range list {
				all.add(s)
				subs(s.Subagents)
			}
		}
		subs(v.Subagents)
		for _, h := range []*Spend{v.Compaction, v.Background} {
			if h != nil {
				all.plus(*h)
			}
		}
		v.WithSubagents = all
	}
	return v
}

func (a *Agent) makeView() View {
	role := a.Role
	if role == "" {
		role = "subagent"
	}
	v := View{SessionID: clean(a.SessionID), AgentID: clean(a.AgentID), Role: clean(role), RoleFrom: a.RoleFrom,
		Objects: cleanAll(a.Objects), State: a.State, Tool: clean(a.Tool), Verdict: clean(a.Verdict),
		Turns: a.Turns, Tokens: a.Tokens, CostUSD: a.CostUSD, Model: clean(a.Model), Context: a.Context,
		CostUnknown: cleanAll(a.CostUnknown), LinesWithoutID: a.NoID,
		Compactions: a.Compactions, LastActivity: a.Last, Prompt: model.Sanitize(a.Prompt),
		Report: model.Sanitize(a.Report), Calls: len(a.Calls), Path: clean(a.Path),
		Notes: cleanAll(a.Notes), Subagents: []View{}}
	if v.Objects == nil {
		v.Objects = []string{}
	}
	return v
}

func (c *Call) view() CallView {
	if c.shown != nil {
		return *c.shown // a finished call does not change: sanitised once
	}
	v := CallView{Call: *c}
	v.Skill, v.Command, v.Result = clean(c.Skill), model.Sanitize(c.Command), model.Sanitize(c.Result)
	v.Tool, v.ToolUseID = clean(c.Tool), clean(c.ToolUseID)
	v.Analysis, v.Change = model.Sanitize(c.Analysis), clean(c.Change)
	v.Objects, v.Created = cleanAll(c.Objects), cleanAll(c.Created)
	v.owner = nil
	if a := c.owner; a != nil {
		v.SessionID, v.AgentID = clean(a.SessionID), clean(a.AgentID)
		v.Role = clean(a.Role)
		if v.Role == "" {
			v.Role = "subagent"
		}
	}
	v.shown = nil
	if !c.End.IsZero() && c.owner != nil && c.owner.Role != "" {
		c.shown = &v
	}
	return v
}

func clean(s string) string { return model.SanitizeLine(s) }

func cleanAll(list []string) []string {
	if list == nil {
		return nil
	}
	out := make([]string, len(list))
	for i, s := range list {
		out[i] = clean(s)
	}
	return out
}

// Who says in a few words what the agents are doing, for a status line.
func (r *Report) Who() string {
	var parts []string
	for _, s := range r.Sessions {
		for _, sub := range s.Subagents {
			if sub.State != StateFinished && sub.State != StateGone && sub.State != StateIdle {
				parts = append(parts, sub.Role+" "+strings.Join(sub.Objects, ","))
			}
		}
	}
	return strings.Join(parts, "; ")
}
