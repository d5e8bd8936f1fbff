package agents

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"referee/internal/testutil"
	"referee/store"
)

// A state file as seeds/002's agent writes it (Python json.dump), with a field of its own.
const stateFile = `{
    "session_id": "9f1c2b7e-3a41-4c55-8d0e-2b9f6a1d7c30",
    "message_count": 342,
    "session_message_count": 42,
    "hol_session": "main",
    "holmake_env": {"HOLDIR": "/opt/hol"},
    "input_tokens": 1234567,
    "output_tokens": 89012,
    "cache_creation_tokens": 3456,
    "cache_read_tokens": 7890123,
    "total_cost_usd": 12.345,
    "task": "TASK_knights.md"
}`

func writeState(t *testing.T, base, rel, data string, mtime time.Time) {
	t.Helper()
	path := filepath.Join(base, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(path, mtime, mtime); err != nil {
		t.Fatal(err)
	}
}

func TestFindRuns(t *testing.T) {
	base := t.TempDir()
	contents := filepath.Join(base, "contents")
	testutil.CopyTree(t, testutil.Path("fixtures/mra-knights/contents"), contents)
	t0 := time.Date(2026, 11, 21, 8, 0, 0, 0, time.UTC)
	writeState(t, base, ".claude/hol_agent_state.json", stateFile, t0)
	writeState(t, base, ".claude/settings.json", `{"permissions": {"allow": []}}`, t0)               // not a state file
	writeState(t, base, ".claude/runs/prover_state.json", `{"session_id": "ab`, t0.Add(time.Minute)) // caught half-written
	writeState(t, base, ".claude/runs/checker.json", `{"session_id": null, "message_count": "many", "total_cost_usd": 0.5}`, t0.Add(2*time.Minute))
	writeState(t, base, ".claude/a/b/c/deep_state.json", `{"session_id": "too deep"}`, t0)
	writeState(t, base, ".claude/skills/x/SKILL.md", "# not json", t0)

	runs, err := FindRuns(contents, RunsOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, r := range runs {
		paths = append(paths, r.Path)
	}
	if want := []string{".claude/hol_agent_state.json", ".claude/runs/checker.json", ".claude/runs/prover_state.json"}; !reflect.DeepEqual(paths, want) {
		t.Fatalf("paths %q, want %q", paths, want)
	}
	r := runs[0]
	want := AgentRun{Path: ".claude/hol_agent_state.json", SessionID: "9f1c2b7e-3a41-4c55-8d0e-2b9f6a1d7c30", MessageCount: 342,
		SessionMessageCount: 42, HolSession: "main", InputTokens: 1234567, OutputTokens: 89012, CacheCreationTokens: 3456,
		CacheReadTokens: 7890123, TotalCostUSD: 12.345,
		Other:    map[string]json.RawMessage{"holmake_env": json.RawMessage(`{"HOLDIR": "/opt/hol"}`), "task": json.RawMessage(`"TASK_knights.md"`)},
		Modified: r.Modified}
	if !reflect.DeepEqual(r, want) || !r.Modified.Equal(t0) {
		t.Errorf("run\n got %+v\nwant %+v", r, want)
	}
	if c := runs[1]; c.SessionID != "" || c.MessageCount != 0 || c.TotalCostUSD != 0.5 || c.Err != "" ||
		!reflect.DeepEqual(c.Problems, []string{`message_count: expected a whole number, found "many"`}) {
		t.Errorf("checker: %+v", c)
	}
	if p := runs[2]; p.Err != "not valid JSON (perhaps caught half-written): line 1 (byte 18): unterminated string (truncated?)" {
		t.Errorf("prover: %q", p.Err)
	}

	old := t0.Add(-time.Hour)
	for _, f := range []string{store.LogFile, store.ConfigFile} {
		if err := os.Chtimes(filepath.Join(contents, f), old, old); err != nil {
			t.Fatal(err)
		}
	}
	if last, what := LastActivity(contents, runs); !last.Equal(t0.Add(2*time.Minute)) || what != ".claude/runs/checker.json" {
		t.Errorf("last activity %v %s", last, what)
	}
	newer := t0.Add(5 * time.Minute)
	if err := os.Chtimes(filepath.Join(contents, store.LogFile), newer, newer); err != nil {
		t.Fatal(err)
	}
	if last, what := LastActivity(contents, runs); !last.Equal(newer) || what != store.LogFile {
		t.Errorf("last activity %v %s", last, what)
	}

	// A glob names the files outright: every match is read.
	runs, err = FindRuns(contents, RunsOptions{Glob: ".claude/*.json"})
	if err != nil || len(runs) != 2 || runs[0].Path != ".claude/hol_agent_state.json" || runs[1].Path != ".claude/settings.json" {
		t.Errorf("glob: %v %+v", err, runs)
	}
	if _, err := FindRuns(contents, RunsOptions{Glob: "[x"}); err == nil {
		t.Error("a bad glob was accepted")
	}
	// No .claude at all: no runs, no error.
	runs, err = FindRuns(testutil.Path("fixtures/mra-knights/contents"), RunsOptions{Base: t.TempDir()})
	if err != nil || len(runs) != 0 {
		t.Errorf("no .claude: %v %v", err, runs)
	}
}

func TestHandoff(t *testing.T) {
	a := AgentRun{SessionID: "s1", SessionMessageCount: 99}
	for _, c := range []struct {
		b    AgentRun
		want bool
	}{
		{AgentRun{SessionID: "s1", SessionMessageCount: 100}, false},
		{AgentRun{SessionID: "", SessionMessageCount: 0}, true},
		{AgentRun{SessionID: "s2", SessionMessageCount: 1}, true},
		{AgentRun{SessionID: "s1", SessionMessageCount: 3}, true},
	} {
		if got := Handoff(a, c.b); got != c.want {
			t.Errorf("Handoff(%+v, %+v) = %v", a, c.b, got)
		}
	}
}
