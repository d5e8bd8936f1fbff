package agents

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Shapes reproduced by hand after public descriptions (testdata/real/README.md):
// Claude Code 2.0's agent-<id>.jsonl beside the sessions, inline sidechains with the
// agent ID on some lines only, a byte order mark, a first line over 1 MB without a
// working directory, lines without message.id, token counts written as floats,
// costUSD on a line, an unknown model, a named pipe among the transcripts.

func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for name, body := range files {
		p := filepath.Join(root, "projects", name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

const shapeNow = "2026-03-01T10:00:30Z"

func shapeRead(t *testing.T, claude, project string, now time.Time) Report {
	t.Helper()
	_, r := Read(Options{ClaudeDir: claude, Project: project, Now: func() time.Time { return now }})
	return r
}

func TestOlderLayoutAgentFilesBesideSessions(t *testing.T) {
	// 2.0.x: the subagent's file sits beside its session and names it in sessionId.
	claude := writeTree(t, map[string]string{
		"-p/s1.jsonl": `{"type":"user","uuid":"u1","sessionId":"s1","cwd":"/p","timestamp":"2026-03-01T10:00:00Z","message":{"role":"user","content":"check it"}}
{"type":"assistant","uuid":"a1","parentUuid":"u1","sessionId":"s1","cwd":"/p","timestamp":"2026-03-01T10:00:01Z","requestId":"r1","message":{"id":"m1","role":"assistant","model":"claude-sonnet-4-5-20250929","content":[{"type":"tool_use","id":"t1","name":"Task","input":{"subagent_type":"agent-check","prompt":"Call agent-check to verify statement [s-001]"}}],"stop_reason":"tool_use","usage":{"input_tokens":10,"output_tokens":20,"cache_creation_input_tokens":0,"cache_read_input_tokens":0}}}
`,
		"-p/agent-0a1b2c3d.jsonl": `{"type":"user","uuid":"x1","sessionId":"s1","agentId":"0a1b2c3d","isSidechain":true,"cwd":"/p","timestamp":"2026-03-01T10:00:02Z","message":{"role":"user","content":"Call agent-check to verify statement [s-001]"}}
{"type":"assistant","uuid":"x2","parentUuid":"x1","sessionId":"s1","agentId":"0a1b2c3d","isSidechain":true,"cwd":"/p","timestamp":"2026-03-01T10:00:03Z","requestId":"r2","message":{"id":"m2","role":"assistant","model":"claude-haiku-4-5-20251001","content":[{"type":"text","text":"VERIFIED: fine"}],"stop_reason":"end_turn","usage":{"input_tokens":1000000,"output_tokens":0,"cache_creation_input_tokens":0,"cache_read_input_tokens":0}}}
`,
	})
	now, _ := time.Parse(time.RFC3339, shapeNow)
	r := shapeRead(t, claude, "/p", now)
	if len(r.Sessions) != 1 || r.Sessions[0].SessionID != "s1" {
		t.Fatalf("sessions: %+v (no phantom session for the agent file)", r.Sessions)
	}
	s := r.Sessions[0]
	if len(s.Subagents) != 1 {
		t.Fatalf("subagents: %+v", s.Subagents)
	}
	sub := s.Subagents[0]
	if sub.AgentID != "0a1b2c3d" || sub.Role != "agent-check" || sub.RoleFrom != "the orchestrator's Task call" || sub.CostUSD != 1 || sub.State != StateFinished {
		t.Errorf("subagent: %+v", sub)
	}
	if s.State != StateTool || s.Tool != "Task" {
		t.Errorf("orchestrator: %s %s", s.State, s.Tool)
	}
}

func TestInlineSidechainTaggedOnSomeLines(t *testing.T) {
	// The agent ID on the user lines only: one subagent, linked to its Task by prompt.
	claude := writeTree(t, map[string]string{"-p/s2.jsonl": `{"type":"user","uuid":"u1","sessionId":"s2","cwd":"/p","timestamp":"2026-03-01T10:00:00Z","message":{"role":"user","content":"go"}}
{"type":"assistant","uuid":"a1","parentUuid":"u1","sessionId":"s2","cwd":"/p","timestamp":"2026-03-01T10:00:01Z","message":{"id":"m1","role":"assistant","model":"claude-opus-4-6","content":[{"type":"tool_use","id":"t1","name":"Task","input":{"subagent_type":"agent-fix","prompt":"Call agent-fix on [s-002]"}}],"usage":{"input_tokens":1,"output_tokens":1}}}
{"type":"user","uuid":"x1","parentUuid":null,"isSidechain":true,"agentId":"ab12","sessionId":"s2","cwd":"/p","timestamp":"2026-03-01T10:00:02Z","message":{"role":"user","content":"Call agent-fix on [s-002]"}}
{"type":"assistant","uuid":"x2","parentUuid":"x1","isSidechain":true,"sessionId":"s2","cwd":"/p","timestamp":"2026-03-01T10:00:03Z","message":{"id":"m2","role":"assistant","model":"claude-opus-4-6","content":[{"type":"tool_use","id":"t2","name":"Read","input":{"file_path":"/p/x"}}],"usage":{"input_tokens":2,"output_tokens":3}}}
{"type":"user","uuid":"x3","parentUuid":"x2","isSidechain":true,"agentId":"ab12","sessionId":"s2","cwd":"/p","timestamp":"2026-03-01T10:00:04Z","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t2","content":"ok"}]}}
{"type":"assistant","uuid":"x4","parentUuid":"x3","isSidechain":true,"sessionId":"s2","cwd":"/p","timestamp":"2026-03-01T10:00:05Z","message":{"id":"m3","role":"assistant","model":"claude-opus-4-6","content":[{"type":"text","text":"FIXED: done"}],"usage":{"input_tokens":4,"output_tokens":5}}}
{"type":"user","uuid":"u2","parentUuid":"a1","sessionId":"s2","cwd":"/p","timestamp":"2026-03-01T10:00:06Z","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t1","content":"FIXED: done"}]}}
`})
	now, _ := time.Parse(time.RFC3339, shapeNow)
	s := shapeRead(t, claude, "/p", now).Sessions[0]
	if len(s.Subagents) != 1 {
		t.Fatalf("subagents: %d", len(s.Subagents))
	}
	sub := s.Subagents[0]
	if sub.AgentID != "ab12" || sub.Role != "agent-fix" || sub.Turns != 2 || sub.Tokens != (Tokens{Input: 6, Output: 8}) || sub.State != StateFinished || sub.Verdict != "FIXED" {
		t.Errorf("sidechain: %+v", sub)
	}
	if s.Turns != 1 || s.Tokens != (Tokens{Input: 1, Output: 1}) {
		t.Errorf("orchestrator: %d turns %+v", s.Turns, s.Tokens)
	}
}

func TestOdditiesAreNotedNeverDropped(t *testing.T) {
	big := `{"type":"summary","summary":"` + strings.Repeat("x", 1<<20+10) + `","leafUuid":"l"}`
	claude := writeTree(t, map[string]string{
		// A byte order mark, then lines without message.id (two blocks of one
		// response, then another), a float count, costUSD, an unknown model.
		"-p/s3.jsonl": "\xef\xbb\xbf" + `{"type":"user","uuid":"u1","sessionId":"s3","cwd":"/p","timestamp":"2026-03-01T10:00:00Z","message":{"role":"user","content":"go"}}
{"type":"assistant","uuid":"a1","sessionId":"s3","cwd":"/p","timestamp":"2026-03-01T10:00:01Z","message":{"role":"assistant","model":"claude-opus-4-5-20251101","content":[{"type":"thinking","thinking":"hm"}],"usage":{"input_tokens":100,"output_tokens":10}}}
{"type":"assistant","uuid":"a2","sessionId":"s3","cwd":"/p","timestamp":"2026-03-01T10:00:01Z","message":{"role":"assistant","model":"claude-opus-4-5-20251101","content":[{"type":"text","text":"a"}],"usage":{"input_tokens":100,"output_tokens":10}}}
{"type":"assistant","uuid":"a3","sessionId":"s3","cwd":"/p","timestamp":"2026-03-01T10:00:02Z","message":{"role":"assistant","model":"claude-opus-4-5-20251101","content":[{"type":"text","text":"b"}],"usage":{"input_tokens":100,"output_tokens":20}}}
{"type":"assistant","uuid":"a4","sessionId":"s3","cwd":"/p","timestamp":"2026-03-01T10:00:03Z","requestId":"r4","costUSD":0.5,"message":{"id":"m4","role":"assistant","model":"claude-opus-4-5-20251101","content":[{"type":"text","text":"c"}],"usage":{"input_tokens":1.0,"output_tokens":2e1}}}
{"type":"assistant","uuid":"a5","sessionId":"s3","cwd":"/p","timestamp":"2026-03-01T10:00:04Z","requestId":"r5","message":{"id":"m5","role":"assistant","model":"claude-opus-4-6-fast","content":[{"type":"text","text":"d"}],"usage":{"input_tokens":7,"output_tokens":7}}}
`,
		// The first line is over 1 MB and names no working directory.
		"-p/s4.jsonl": big + "\n" + `{"type":"user","uuid":"u1","sessionId":"s4","cwd":"/p","timestamp":"2026-03-01T10:00:00Z","message":{"role":"user","content":"hello"}}
`,
	})
	if err := syscall.Mkfifo(filepath.Join(claude, "projects", "-p", "pipe.jsonl"), 0o644); err != nil {
		t.Fatal(err)
	}
	now, _ := time.Parse(time.RFC3339, shapeNow)
	r := shapeRead(t, claude, "/p", now)
	if len(r.Sessions) != 2 {
		t.Fatalf("sessions: %d", len(r.Sessions))
	}
	if len(r.Notes) != 1 || !strings.Contains(r.Notes[0], "pipe.jsonl: a named pipe, not a transcript: skipped without opening it") {
		t.Errorf("report notes: %q", r.Notes)
	}
	var s3, s4 View
	for _, s := range r.Sessions {
		if s.SessionID == "s3" {
			s3 = s
		} else {
			s4 = s
		}
	}
	if s4.SessionID != "s4" || s4.Prompt != "hello" {
		t.Errorf("the session behind a long first line: %+v", s4)
	}
	// 2 id-less responses (100+10, 100+20), then m4 (1+20 at its own $0.50), then m5.
	if s3.Turns != 4 || s3.Tokens != (Tokens{Input: 208, Output: 57}) || s3.LinesWithoutID != 3 {
		t.Errorf("tokens: %d turns %+v, %d lines without id", s3.Turns, s3.Tokens, s3.LinesWithoutID)
	}
	if want := 0.5 + (200*5+30*25)/1e6; !near(s3.CostUSD, want) {
		t.Errorf("cost %.6f, want %.6f", s3.CostUSD, want)
	}
	if !slices.Equal(s3.CostUnknown, []string{"claude-opus-4-6-fast"}) {
		t.Errorf("cost unknown: %v", s3.CostUnknown)
	}
	notes := strings.Join(s3.Notes, "\n")
	for _, want := range []string{"line 1 starts with a UTF-8 byte order mark", "line 2: an assistant line without message.id",
		"line 5: a token count written as a fraction: rounded", "cost unknown: model claude-opus-4-6-fast"} {
		if !strings.Contains(notes, want) {
			t.Errorf("notes lack %q:\n%s", want, notes)
		}
	}
	if s3.Prompt != "go" {
		t.Errorf("line 1 read: prompt %q", s3.Prompt)
	}
}

func TestPricesExactIDsCacheLifetimesLongContext(t *testing.T) {
	p := DefaultPrices()
	cost := func(model string, u Usage) float64 {
		c, ok := p.Cost(model, &u)
		if !ok {
			return -1
		}
		return c
	}
	for _, c := range []struct {
		model string
		u     Usage
		want  float64
	}{
		{"claude-opus-4-6", Usage{Input: 1e6, Output: 1e6}, 30},
		{"claude-opus-4-5-20251101", Usage{Input: 1e6, Output: 1e6}, 30},
		{"claude-opus-4-1-20250805", Usage{Input: 1e6, Output: 1e6}, 90},
		{"claude-opus-4-20250514", Usage{Input: 1e6, Output: 1e6}, 90},
		{"claude-haiku-4-5-20251001", Usage{Input: 1e6, Output: 1e6}, 6},
		{"claude-3-5-haiku-20241022", Usage{Input: 1e6, Output: 1e6}, 4.8},
		// Cache reads 0.1×, 5-minute writes 1.25×, 1-hour writes 2× input.
		{"claude-opus-4-6", Usage{CacheRead: 1e6}, 0.5},
		{"claude-opus-4-6", Usage{CacheCreation: 1e6}, 6.25},
		{"claude-opus-4-6", Usage{CacheCreation: 1e6, CacheCreationDetail: CacheCreation{Ephemeral1h: 1e6}}, 10},
		{"claude-opus-4-6", Usage{CacheCreation: 1e6, CacheCreationDetail: CacheCreation{Ephemeral5m: 4e5, Ephemeral1h: 6e5}}, 0.4*6.25 + 0.6*10},
		// Sonnet 4.5 above 200k prompt tokens: the whole request at $6 / $22.50.
		{"claude-sonnet-4-5-20250929", Usage{Input: 150_000, CacheRead: 50_000, Output: 1000}, (150_000*3 + 50_000*0.3 + 1000*15) / 1e6},
		{"claude-sonnet-4-5-20250929", Usage{Input: 150_000, CacheRead: 50_001, Output: 1000}, (150_000*6 + 50_001*0.6 + 1000*22.5) / 1e6},
		// Never by a prefix.
		{"claude-opus-4-6-20990101", Usage{Input: 1}, -1},
		{"claude-opus-4", Usage{Input: 1e6}, 15},
		{"claude-opus-4-9", Usage{Input: 1}, -1},
		{"claude-sonnet-4-5-2025", Usage{Input: 1}, -1},
	} {
		if got := cost(c.model, c.u); !near(got, c.want) {
			t.Errorf("%s %+v: %v, want %v", c.model, c.u, got, c.want)
		}
	}
}

func TestDecideState(t *testing.T) {
	at := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		f     Facts
		after time.Duration
		want  string
	}{
		{Facts{Event: StateTool, Tool: "Bash: make"}, 5 * time.Minute, StateTool},
		{Facts{Event: StateTool, Tool: "Bash: make"}, IdleAfter, StateIdle},
		{Facts{Event: StateThinking, TextLast: true}, 10 * time.Second, StateThinking},
		{Facts{Event: StateThinking, TextLast: true}, WaitAfter, StateWaiting},
		{Facts{Event: StateThinking, TextLast: true, Subagent: true}, WaitAfter, StateFinished},
		{Facts{Event: StateThinking}, WaitAfter, StateThinking},
		{Facts{Event: StateThinking}, IdleAfter, StateIdle},
		{Facts{Event: StateWaiting}, 0, StateWaiting},
		{Facts{Event: StateWaiting}, IdleAfter, StateIdle},
		{Facts{Event: StateFinished, Subagent: true}, 0, StateFinished},
		{Facts{Event: StateGone}, 0, StateGone},
	} {
		c.f.Last = at
		if got, _ := Decide(c.f, at.Add(c.after)); got != c.want {
			t.Errorf("%+v after %s: %s, want %s", c.f, c.after, got, c.want)
		}
		if c.want == StateIdle && c.f.Event == StateTool {
			if _, tool := Decide(c.f, at.Add(c.after)); tool != "while running Bash: make" {
				t.Errorf("idle in a call: %q", tool)
			}
		}
	}
}

// Claude Code's own agents under subagents/ (agent-acompact-…, agent-aprompt_suggestion-…)
// are the session's compaction and background work, not subagents; each costs once.
func TestHelperAgentsAreNotSubagents(t *testing.T) {
	line := `{"type":"assistant","uuid":"%s","sessionId":"s5","cwd":"/p","timestamp":"2026-03-01T10:00:00Z","requestId":"r%[1]s","message":{"id":"m%[1]s","role":"assistant","model":"claude-haiku-4-5-20251001","content":[{"type":"text","text":"x"}],"usage":{"input_tokens":1000000,"output_tokens":0}}}` + "\n"
	one := func(id string) string { return fmt.Sprintf(line, id) }
	claude := writeTree(t, map[string]string{
		"-p/s5.jsonl":                                           one("1"),
		"-p/s5/subagents/agent-a1b2c3d.jsonl":                   one("2"),
		"-p/s5/subagents/agent-acompact-00c79b.jsonl":           one("3"),
		"-p/s5/subagents/agent-aprompt_suggestion-a12dbf.jsonl": one("4"),
	})
	now, _ := time.Parse(time.RFC3339, shapeNow)
	s := shapeRead(t, claude, "/p", now).Sessions[0]
	if len(s.Subagents) != 1 || s.Subagents[0].AgentID != "a1b2c3d" {
		t.Fatalf("subagents: %+v", s.Subagents)
	}
	if c := s.Compaction; c == nil || c.Agents != 1 || c.CostUSD != 1 || c.Kinds != nil {
		t.Errorf("compaction: %+v", c)
	}
	if b := s.Background; b == nil || b.Agents != 1 || b.CostUSD != 1 || !slices.Equal(b.Kinds, []string{"prompt suggestion"}) {
		t.Errorf("background: %+v", b)
	}
	if all := s.WithSubagents; all.Agents != 4 || all.Turns != 4 || all.CostUSD != 4 || s.CostUSD != 1 || s.IncludesSubagents {
		t.Errorf("session $%v, with subagents %+v", s.CostUSD, all)
	}
}
