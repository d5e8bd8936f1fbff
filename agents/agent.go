package agents

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"
)

// Bounds on what an agent keeps, so memory follows the work done (skill calls), not
// the transcript's length.
const (
	maxAnalysis = 32 << 10 // text written before one skill call
	maxPrompt   = 4 << 10
	maxReport   = 8 << 10
	maxResult   = 1 << 10 // a skill's output is a line or two
	maxCommand  = 4 << 10
	maxObjects  = 64
	maxNotes    = 20
	maxCalls    = 20000
	maxTasks    = 256
	// maxOpen is how many recent responses an agent keeps to merge the later lines of
	// one response into: Claude Code writes a response's lines together.
	maxOpen = 64
	// maxUUIDs is how many recent sidechain line IDs an older transcript's agent keeps
	// to find the subagent a line continues.
	maxUUIDs         = 256
	maxUnknownModels = 8
)

// Agent states.
const (
	StateStarting = "starting"
	StateThinking = "thinking"
	StateTool     = "running"  // running a tool: Tool says which
	StateFinished = "finished" // a subagent that reported
	StateWaiting  = "waiting"  // the orchestrator, its turn ended: waiting for a human
	StateIdle     = "idle"     // nothing written for IdleAfter: stopped, or left open
	StateGone     = "gone"     // its transcript was deleted
)

// How long a transcript must stay silent before its state is read off the silence:
// an answer with no tool call is waiting for the human (or, from a subagent, its
// report) after WaitAfter; anything is idle after IdleAfter.
const (
	WaitAfter = time.Minute
	IdleAfter = 10 * time.Minute
)

// Role of a compaction agent's transcript (subagents/agent-acompact-*.jsonl).
const RoleCompaction = "compaction"

// RoleOrchestrator is the main session's role.
const RoleOrchestrator = "orchestrator"

// Tokens are summed token counts.
type Tokens struct {
	Input         int64 `json:"input"`
	Output        int64 `json:"output"`
	CacheCreation int64 `json:"cache_creation"`
	CacheRead     int64 `json:"cache_read"`
}

func (t *Tokens) add(u *Usage, sign int64) {
	t.Input += sign * u.Input
	t.Output += sign * u.Output
	t.CacheCreation += sign * u.CacheCreation
	t.CacheRead += sign * u.CacheRead
}

// Plus is the sum of two counts.
func (t Tokens) Plus(o Tokens) Tokens {
	return Tokens{t.Input + o.Input, t.Output + o.Output, t.CacheCreation + o.CacheCreation, t.CacheRead + o.CacheRead}
}

// sideLine is a sidechain line's ID and the agent it went to.
type sideLine struct {
	uuid  string
	agent *Agent
}

// ring puts v at *at in list, growing it up to n, then overwriting the oldest.
func ring[T any](list []T, at *int, n int, v T) []T {
	if len(list) < n {
		return append(list, v)
	}
	list[*at] = v
	*at = (*at + 1) % n
	return list
}

// response is one API response: the transcript lines sharing (message.id, requestId),
// counted once with the usage of its line with the largest total.
type response struct {
	key   string
	usage Usage
	cost  float64
}

// Call is one skill call an agent made: a skill script run through Bash (python
// src/state.py …), `referee skill …`, or a referee MCP tool.
type Call struct {
	ToolUseID string `json:"tool_use_id"`
	Tool      string `json:"tool"`            // Bash, mcp__referee__…
	Skill     string `json:"skill,omitempty"` // the skill named or loaded just before, when known
	// SkillGuessed says the skill was read off a script's flags (the SKILL.md sample
	// commands): the agents' own log lines name none.
	SkillGuessed bool      `json:"skill_guessed,omitempty"`
	Command      string    `json:"command"`
	Objects      []string  `json:"objects"` // IDs in the command and the result
	Start        time.Time `json:"start"`   // the tool_use line
	End          time.Time `json:"end"`     // the tool_result line (zero while running)
	Result       string    `json:"result,omitempty"`
	IsError      bool      `json:"is_error,omitempty"`
	Change       string    `json:"change,omitempty"`  // the change ID the result names
	Created      []string  `json:"created,omitempty"` // IDs the result says were created
	// Analysis is the text (and thinking) the agent wrote since its previous tool call:
	// the reasoning behind this one.
	Analysis string `json:"analysis,omitempty"`

	owner *Agent
	shown *CallView // the sanitised view, once the call has its result
}

// task is a Task (Agent) tool call of a parent: a subagent dispatch.
type task struct {
	id, kind, prompt, description string
	agentID                       string // from the result's "agentId: …"
	report                        string
	done                          bool
}

// Agent is one session's main agent or one of its subagents.
type Agent struct {
	SessionID   string
	AgentID     string // empty for the main agent
	Path        string
	Role        string
	RoleFrom    string // how the role was found
	Objects     []string
	State       string
	Tool        string // the tool running, with a short detail
	Verdict     string
	Report      string // the last text it wrote (bounded)
	Prompt      string // its first prompt (bounded)
	Turns       int    // model responses
	Tokens      Tokens
	Model       string
	CostUSD     float64
	Context     int64 // tokens in context at the last response
	Compactions int
	// CostUnknown are the models it used that the price table does not know: their
	// responses are not in CostUSD.
	CostUnknown []string
	// NoID counts assistant lines without message.id: each is counted as a response
	// of its own, except a repeat of the line before it (one response's blocks).
	NoID        int
	First, Last time.Time // transcript timestamps of its first and last line
	Seen        time.Time // wall clock of the last line read
	Calls       []*Call
	Notes       []string
	Sub         []*Agent
	// Compacting are the agents that compacted the session (their own transcripts).
	Compacting []*Agent
	// Background are Claude Code's other agents of the session that no Task started
	// (agent-aprompt_suggestion-…: prompt suggestions).
	Background []*Agent

	prices    *Prices
	pending   map[string]*Call // skill calls awaiting their result
	running   map[string]string
	tasks     []*task
	analysis  strings.Builder
	boundary  bool    // the last line was a compaction boundary
	done      []*Call // calls answered since the watcher last collected them
	dirty     bool    // changed since shown was made
	shown     *View
	lastSkill string            // a skill loaded (Skill tool) but not yet run
	side      map[string]*Agent // sidechain agents of an older transcript, by agent ID
	sideCur   *Agent
	sideN     int
	sideLines []sideLine // recent sidechain lines, a ring (made on first use)
	sideAt    int

	open     []*response // recent responses, a ring (made on first use)
	openAt   int
	prevNoID *response // the response of the line before, when it had no message.id
	// textLast says the last message was the agent's text with no tool call after it.
	textLast bool
	noted    map[string]bool // notes made once per agent
}

func newAgent(session, agentID, path string, prices *Prices) *Agent {
	a := &Agent{SessionID: session, AgentID: agentID, Path: path, State: StateStarting, prices: prices,
		pending: map[string]*Call{}, running: map[string]string{}}
	if agentID == "" {
		a.Role, a.RoleFrom = RoleOrchestrator, "the main session"
	}
	return a
}

// reset forgets what was read from the agent's transcript, which is read again from
// its start (truncated or replaced): counts would double otherwise. Its role, its
// notes and the subagents of their own files stay.
func (a *Agent) reset() {
	var subs []*Agent
	for _, s := range a.Sub {
		if _, inline := a.side[s.AgentID]; !inline {
			subs = append(subs, s)
		}
	}
	fresh := newAgent(a.SessionID, a.AgentID, a.Path, a.prices)
	fresh.Role, fresh.RoleFrom, fresh.Notes, fresh.Sub = a.Role, a.RoleFrom, a.Notes, subs
	fresh.Compacting, fresh.Background = a.Compacting, a.Background
	fresh.dirty = true
	*a = *fresh
}

func (a *Agent) note(s string) {
	a.dirty = true
	if len(a.Notes) == maxNotes {
		a.Notes = append(a.Notes[:0], a.Notes[1:]...)
	}
	a.Notes = append(a.Notes, s)
}

func (a *Agent) addObjects(ids ...string) {
	for _, id := range ids {
		if len(a.Objects) >= maxObjects {
			return
		}
		found := false
		for _, o := range a.Objects {
			if o == id {
				found = true
				break
			}
		}
		if !found {
			a.Objects = append(a.Objects, id)
		}
	}
}

// apply takes one line of this agent's transcript (or, for sidechain lines of an
// older transcript, hands it to the sidechain's agent).
func (a *Agent) apply(l *Line, n int, seen time.Time) {
	a.dirty = true
	if l.IsSidechain && a.AgentID == "" {
		a.sidechain(l).apply(l, n, seen)
		return
	}
	at := l.At()
	if !at.IsZero() {
		if a.First.IsZero() {
			a.First = at
		}
		if at.After(a.Last) {
			a.Last = at
		}
	}
	a.Seen = seen
	if l.IsCompaction() {
		// A boundary line and the summary message after it are one compaction.
		if !(l.Type == "user" && a.boundary) {
			a.Compactions++
			what := "compacted"
			if l.Type == "summary" {
				what = "summary line (an earlier compaction or a resumed session)"
			}
			if l.Compact != nil && l.Compact.PreTokens > 0 {
				what = fmt.Sprintf("compacted (%s, %d tokens before)", l.Compact.Trigger, l.Compact.PreTokens)
			}
			a.note(what + " at " + l.Timestamp)
		}
		a.boundary = l.Type != "user"
		a.Context = 0
		return
	}
	a.boundary = false
	if l.Type == "system" && (l.Subtype == "turn_duration" || l.Subtype == "stop_hook_summary") && len(a.running) == 0 {
		// Claude Code 2.1 marks the end of a turn so (its stop_reason is null).
		a.State, a.Tool = StateWaiting, ""
		return
	}
	if l.Message == nil {
		return
	}
	switch l.Type {
	case "assistant":
		a.assistant(l, n)
	case "user":
		a.prevNoID = nil
		a.textLast = false
		a.user(l)
	}
}

// noteOnce notes s the first time key is seen.
func (a *Agent) noteOnce(key, s string) {
	if a.noted == nil {
		a.noted = map[string]bool{}
	}
	if !a.noted[key] {
		a.noted[key] = true
		a.note(s)
	}
}

// sidechain finds the agent of a sidechain line in an older transcript: by its agent
// ID when it has one, else a line without a parent starts a new sidechain and the
// others continue the current one (the orchestrator waits for each subagent).
func (a *Agent) sidechain(l *Line) *Agent {
	if a.side == nil {
		a.side = map[string]*Agent{}
	}
	var s *Agent
	// The line's parent says which sidechain it continues: Claude Code puts the agent
	// ID on some lines only.
	if l.ParentUUID != "" {
		for _, sl := range a.sideLines {
			if sl.uuid == l.ParentUUID {
				s = sl.agent
				break
			}
		}
	}
	if s == nil && l.AgentID != "" {
		s = a.side[l.AgentID]
	}
	if s == nil && l.ParentUUID != "" && l.AgentID == "" {
		s = a.sideCur
	}
	if s == nil {
		key := l.AgentID
		if key == "" {
			a.sideN++
			key = fmt.Sprintf("sidechain-%d", a.sideN)
		}
		s = newAgent(a.SessionID, key, a.Path, a.prices)
		a.side[key] = s
		a.Sub = append(a.Sub, s)
	}
	if l.AgentID != "" && s.AgentID != l.AgentID && strings.HasPrefix(s.AgentID, "sidechain-") {
		delete(a.side, s.AgentID)
		s.AgentID, s.dirty = l.AgentID, true
		a.side[l.AgentID] = s
	}
	if l.UUID != "" {
		a.sideLines = ring(a.sideLines, &a.sideAt, maxUUIDs, sideLine{l.UUID, s})
	}
	a.sideCur = s
	return s
}

// count takes an assistant line's usage into its response: a response's usage is
// that of its line with the largest total (the last wins a tie), as the transcript
// tools count since they found Claude Code writes a growing output_tokens on the
// lines of one streamed response.
func (a *Agent) count(l *Line, n int) {
	m := l.Message
	var r *response
	if m.ID != "" {
		a.prevNoID = nil
		key := m.ID + "\x00" + l.RequestID
		for _, o := range a.open {
			if o != nil && o.key == key {
				r = o
				break
			}
		}
		if r == nil {
			r = &response{key: key}
			a.open = ring(a.open, &a.openAt, maxOpen, r)
			a.Turns++
		}
	} else {
		a.NoID++
		a.noteOnce("noid", fmt.Sprintf("line %d: an assistant line without message.id: each such line is counted as a response of its own, except one repeating the usage of the line before it", n))
		if p := a.prevNoID; p != nil && m.Usage != nil && p.usage == *m.Usage && p.key == m.Model {
			return // another content block of the same response
		}
		r = &response{key: m.Model}
		a.prevNoID = r
		a.Turns++
	}
	u := m.Usage
	if u == nil {
		return
	}
	if u.Floats {
		a.noteOnce("float", fmt.Sprintf("line %d: a token count written as a fraction: rounded", n))
	}
	if r.usage != (Usage{}) && u.Total() < r.usage.Total() {
		return
	}
	a.Tokens.add(&r.usage, -1)
	a.CostUSD -= r.cost
	r.usage, r.cost = *u, 0
	switch cost, known := a.prices.Cost(m.Model, u); {
	case l.CostUSD != nil:
		r.cost = *l.CostUSD
	case known:
		r.cost = cost
	case u.Total() > 0 && m.Model != "<synthetic>":
		a.unknownModel(m.Model)
	}
	a.Tokens.add(u, 1)
	a.CostUSD += r.cost
	a.Context = u.Total()
}

func (a *Agent) unknownModel(model string) {
	if slices.Contains(a.CostUnknown, model) || len(a.CostUnknown) == maxUnknownModels {
		return
	}
	a.CostUnknown = append(a.CostUnknown, model)
	a.note("cost unknown: model " + model)
}

func (a *Agent) assistant(l *Line, n int) {
	m := l.Message
	a.count(l, n)
	if m.Model != "" && !strings.HasPrefix(m.Model, "<") {
		a.Model = m.Model
	}
	for _, b := range m.Content() {
		switch b.Type {
		case "text", "tool_use":
			a.textLast = b.Type == "text"
		}
		switch b.Type {
		case "thinking":
			a.write("(thinking) " + b.Thinking)
			a.State, a.Tool = StateThinking, ""
		case "text":
			a.write(b.Text)
			if strings.TrimSpace(b.Text) != "" {
				a.Report = bound(b.Text, maxReport)
				if v := ParseVerdict(b.Text); v != "" {
					a.Verdict = v
				}
			}
			a.State, a.Tool = StateThinking, ""
		case "tool_use":
			a.toolUse(l, b)
		}
	}
	if m.StopReason == "end_turn" && len(a.running) == 0 {
		if a.AgentID == "" {
			a.State = StateWaiting
		} else {
			a.State = StateFinished
		}
		a.Tool = ""
	}
}

func (a *Agent) write(s string) {
	if a.analysis.Len() > 0 {
		a.analysis.WriteString("\n\n")
	}
	a.analysis.WriteString(s)
	if a.analysis.Len() > 2*maxAnalysis {
		// Keep the end: the reasoning right before the call.
		tail := a.analysis.String()
		tail = tail[len(tail)-maxAnalysis:]
		a.analysis.Reset()
		a.analysis.WriteString("… " + tail)
	}
}

func (a *Agent) toolUse(l *Line, b Block) {
	detail := toolDetail(b.Name, b.Input)
	a.running[b.ID] = b.Name
	a.State, a.Tool = StateTool, b.Name
	if detail != "" {
		a.Tool += ": " + detail
	}
	switch {
	case b.Name == "Task" || b.Name == "Agent":
		var in struct {
			Type        string `json:"subagent_type"`
			Prompt      string `json:"prompt"`
			Description string `json:"description"`
		}
		_ = json.Unmarshal(b.Input, &in)
		if len(a.tasks) == maxTasks {
			a.tasks = append(a.tasks[:0], a.tasks[1:]...)
		}
		a.tasks = append(a.tasks, &task{id: b.ID, kind: in.Type, prompt: bound(in.Prompt, maxPrompt), description: in.Description})
		// The orchestrator works on what it dispatches now.
		a.Objects = IDs(in.Prompt)
		a.analysis.Reset()
		return
	case b.Name == "Skill":
		var in struct {
			Skill   string `json:"skill"`
			Command string `json:"command"`
		}
		_ = json.Unmarshal(b.Input, &in)
		a.lastSkill = strings.TrimPrefix(in.Skill+in.Command, "/")
		return // loading a skill's instructions is not yet the change: keep the analysis
	}
	c, ok := skillCall(b.Name, b.Input)
	if !ok {
		return
	}
	if c.Skill == "" {
		c.Skill = a.lastSkill
	}
	if c.Skill == "" {
		c.Skill, c.SkillGuessed = scriptSkill(c.Command), true
	}
	a.lastSkill = ""
	c.ToolUseID, c.Start, c.owner = b.ID, l.At(), a
	c.Analysis = strings.TrimSpace(a.analysis.String())
	a.analysis.Reset()
	a.addObjects(c.Objects...)
	a.pending[b.ID] = c
	if len(a.Calls) < maxCalls {
		a.Calls = append(a.Calls, c)
	}
}

func (a *Agent) user(l *Line) {
	m := l.Message
	// Most user lines are tool results nobody waits for (a file read): clear them
	// without decoding their content.
	if ids, ok := m.ResultIDs(); ok && len(ids) > 0 && !a.waitsFor(ids) {
		for _, id := range ids {
			delete(a.running, id)
		}
		if len(a.running) == 0 {
			a.State, a.Tool = StateThinking, ""
		}
		return
	}
	content := m.Content()
	prompt := true
	for _, b := range content {
		if b.Type != "tool_result" {
			continue
		}
		prompt = false
		delete(a.running, b.ToolUseID)
		if c, ok := a.pending[b.ToolUseID]; ok {
			delete(a.pending, b.ToolUseID)
			c.End = l.At()
			a.done = append(a.done, c)
			c.IsError = b.IsError
			c.Result = bound(string(b.Result), maxResult)
			c.Change, c.Created = resultChange(string(b.Result))
			c.Objects = appendNew(c.Objects, c.Created...)
			a.addObjects(c.Created...)
		}
		for _, t := range a.tasks {
			if t.id == b.ToolUseID {
				t.done = true
				t.report = bound(string(b.Result), maxReport)
				if mm := agentIDRe.FindStringSubmatch(string(b.Result)); mm != nil {
					t.agentID = mm[1]
				}
			}
		}
	}
	if prompt {
		text := ""
		for _, b := range content {
			if b.Type == "text" {
				text += b.Text
			}
		}
		if strings.TrimSpace(text) == "" {
			return
		}
		if strings.HasPrefix(text, "[Request interrupted by user") {
			// The human stopped the turn: the agent waits for them.
			a.running = map[string]string{}
			a.State, a.Tool = StateWaiting, ""
			return
		}
		if a.Prompt == "" {
			a.Prompt = bound(text, maxPrompt)
			if a.AgentID != "" {
				a.addObjects(IDs(text)...)
			}
			if a.Role == "" {
				if mm := agentNameRe.FindString(text); mm != "" {
					a.Role, a.RoleFrom = mm, "its first prompt"
				}
			}
		}
		a.Verdict = ""
	}
	if len(a.running) == 0 {
		a.State, a.Tool = StateThinking, ""
	}
}

// waitsFor says whether a result for one of ids is needed: a skill call's or a Task's.
func (a *Agent) waitsFor(ids []string) bool {
	for _, id := range ids {
		if _, ok := a.pending[id]; ok {
			return true
		}
		for _, t := range a.tasks {
			if t.id == id {
				return true
			}
		}
	}
	return false
}

var (
	agentIDRe   = regexp.MustCompile(`agentId:\s*([A-Za-z0-9_-]+)`)
	agentNameRe = regexp.MustCompile(`\bagent-(?:initialize|solve|prove|check|fix)\b`)
	idRe        = regexp.MustCompile(`\b[ps]-\d{3,}\b`)
	changeRe    = regexp.MustCompile(`\(log: (l-\d{3,})\)|(?m)^(l-\d{3,}) [a-z][a-z-]* by |"change":\s*"(l-\d{3,})"`)
	createdRe   = regexp.MustCompile(`Created (?:statement|problem):\s*([ps]-\d{3,})`)
	sentenceRe  = regexp.MustCompile(`(?i)\bsentence\s+#?(\d+)`)
	verdictRe   = regexp.MustCompile(`(?m)^[\s#*>_-]*(DISPROOF VERIFIED BUT MODIFICATION SUGGESTED|DISPROOF VERIFIED|DISPROOF SUBMITTED|PROOF SUBMITTED|SUB-STATEMENT CREATED|STATEMENT CREATED|MODIFICATION PROPOSED|MODIFICATION NEEDED|VERIFIED|REJECTED|FIXED|FALSE|DECOMPOSED|RESOLVED|SOLVED|UNCERTAIN|INITIALIZED)\b[*_]*\s*:`)
)

// IDs lists the problem and statement IDs in s, in order, once each.
func IDs(s string) []string { return appendNew(nil, idRe.FindAllString(s, -1)...) }

func appendNew(list []string, ids ...string) []string {
	for _, id := range ids {
		dup := false
		for _, o := range list {
			if o == id {
				dup = true
				break
			}
		}
		if !dup {
			list = append(list, id)
		}
	}
	return list
}

// ParseVerdict finds an agent's report verdict (its orchestrator-facing first word:
// VERIFIED, REJECTED, FIXED, …) in its text; a rejection names its sentence.
func ParseVerdict(text string) string {
	loc := verdictRe.FindStringSubmatchIndex(text)
	if loc == nil {
		return ""
	}
	v := text[loc[2]:loc[3]]
	if v == "REJECTED" {
		if m := sentenceRe.FindStringSubmatch(text[loc[1]:]); m != nil {
			v += " at sentence " + m[1]
		}
	}
	return v
}

// resultChange reads a skill call's output: the change ID it names and IDs created.
func resultChange(out string) (change string, created []string) {
	if m := changeRe.FindStringSubmatch(out); m != nil {
		change = m[1] + m[2] + m[3]
	}
	for _, m := range createdRe.FindAllStringSubmatch(out, -1) {
		created = appendNew(created, m[1])
	}
	return change, created
}

var (
	scriptRe       = regexp.MustCompile(`\bsrc/(state|prob|prob_init|rewind)\.py\b`)
	refereeSkillRe = regexp.MustCompile(`\breferee\s+skill\s+([a-z][a-z-]*)`)
)

// skillCall says whether a tool call is a skill call, and what it names.
func skillCall(name string, input json.RawMessage) (*Call, bool) {
	switch {
	case name == "Bash":
		var in struct {
			Command string `json:"command"`
		}
		if json.Unmarshal(input, &in) != nil {
			return nil, false
		}
		c := &Call{Tool: name, Command: bound(in.Command, maxCommand), Objects: IDs(in.Command)}
		if m := refereeSkillRe.FindStringSubmatch(in.Command); m != nil {
			c.Skill = m[1]
			return c, true
		}
		if scriptRe.MatchString(in.Command) {
			return c, true
		}
		return nil, false
	case strings.HasPrefix(name, "mcp__referee__"):
		skill := strings.ReplaceAll(strings.TrimPrefix(name, "mcp__referee__"), "_", "-")
		return &Call{Tool: name, Skill: skill, Command: bound(string(input), maxCommand), Objects: IDs(string(input))}, true
	}
	return nil, false
}

// scriptSkill guesses the skill of a python src/state.py or src/prob.py command from
// its flags, after the sample commands of the agents' SKILL.md files; "" when unsure.
func scriptSkill(cmd string) string {
	has := func(s string) bool { return strings.Contains(cmd, s) }
	switch {
	case !scriptRe.MatchString(cmd):
		return ""
	case has("--validation.issues"):
		return "check-reject-proof"
	case has("--validation.responses") && has("--proof.full"):
		return "fix-patch-proof"
	case has("--validation.responses") && has("--preliminaries"):
		return "fix-create-substatement"
	case has("--validation.responses") && has("--status false"):
		return "state-mark-false"
	case has("--reliability") && (has("--status true") || has("--status false")):
		return "check-confirm-proof"
	case has("--proof.full"):
		return "state-complete-proof"
	case has("src/state.py") && has("--status false"):
		return "state-mark-false"
	}
	return ""
}

// toolDetail is a short description of a tool call for the state column.
func toolDetail(name string, input json.RawMessage) string {
	var in map[string]any
	if json.Unmarshal(input, &in) != nil {
		return ""
	}
	for _, k := range []string{"command", "description", "file_path", "pattern", "skill", "url"} {
		if s, ok := in[k].(string); ok && s != "" {
			s = strings.Join(strings.Fields(s), " ")
			return bound(s, 120)
		}
	}
	return ""
}

// bound cuts s to at most n bytes, on a rune boundary, marking the cut.
func bound(s string, n int) string {
	if len(s) <= n {
		return s
	}
	i := n
	for i > 0 && s[i]&0xC0 == 0x80 {
		i--
	}
	return s[:i] + "…"
}
