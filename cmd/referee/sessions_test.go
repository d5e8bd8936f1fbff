package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"referee/internal/testutil"
)

// The transcripts of the agents package's demo run, with the demo contents.
func sessionsFixture(t *testing.T) (root, claude string) {
	t.Helper()
	root = t.TempDir()
	if err := os.CopyFS(filepath.Join(root, "contents"), os.DirFS(testutil.DemoDir())); err != nil {
		t.Fatal(err)
	}
	claude, err := filepath.Abs(filepath.Join(testutil.Root(), "agents/testdata/claude"))
	if err != nil {
		t.Fatal(err)
	}
	return root, claude
}

// refereeAt is referee with the clock at when.
func refereeAt(t *testing.T, dir, when string, args ...string) outcome {
	t.Helper()
	cmd := exec.Command(binary, args...)
	cmd.Dir = dir
	cmd.Env = []string{"REFEREE_NOW=" + when, "PATH=" + os.Getenv("PATH"), "HOME=" + os.Getenv("HOME")}
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("running referee %v: %v", args, err)
	}
	return outcome{out.String(), errOut.String(), code}
}

func TestRunsShowsSessions(t *testing.T) {
	root, claude := sessionsFixture(t)
	// 29 minutes after the last line: the silent checker is a stall.
	out := refereeAt(t, root, "2026-11-20T12:00:00Z", "runs", "--claude-dir", claude, "--project", "/work/mra-demo", "--output", "json")
	if out.code != 1 {
		t.Fatalf("exit %d (the run stalled: its last agent is silent), stderr %s", out.code, out.stderr)
	}
	var got struct {
		Runs     []json.RawMessage `json:"runs"`
		Stalled  bool              `json:"stalled"`
		Sessions []struct {
			SessionID string   `json:"session_id"`
			Role      string   `json:"role"`
			Objects   []string `json:"objects"`
			State     string   `json:"state"`
			Verdict   string   `json:"verdict"`
			Tokens    struct {
				Input         int64 `json:"input"`
				Output        int64 `json:"output"`
				CacheCreation int64 `json:"cache_creation"`
				CacheRead     int64 `json:"cache_read"`
			} `json:"tokens"`
			CostUSD      float64 `json:"cost_usd"`
			LastActivity string  `json:"last_activity"`
			Subagents    []struct {
				Role, State, Verdict string
				Objects              []string
			} `json:"subagents"`
		} `json:"sessions"`
		Stall struct{ Reason string } `json:"stall"`
	}
	if err := json.Unmarshal([]byte(out.stdout), &got); err != nil {
		t.Fatalf("%v\n%s", err, out.stdout)
	}
	if got.Runs == nil || !got.Stalled || len(got.Sessions) != 2 {
		t.Fatalf("runs %v stalled %v sessions %d", got.Runs, got.Stalled, len(got.Sessions))
	}
	demo := got.Sessions[0] // the session active last first
	if demo.SessionID != "7f3c2a10-5b1e-4c2d-9a8e-2f6d1c0b9e41" || demo.Role != "orchestrator" || len(demo.Subagents) != 36 ||
		demo.LastActivity != "2026-11-20T11:34:30Z" || demo.CostUSD <= 0 ||
		demo.Tokens.CacheRead != 1185500 || strings.Join(demo.Objects, ",") != "s-014" || demo.State != "idle" {
		t.Fatalf("demo session: %+v", demo)
	}
	if s := demo.Subagents[2]; s.Role != "agent-check" || s.Verdict != "REJECTED at sentence 7" || s.State != "finished" || strings.Join(s.Objects, ",") != "s-004" {
		t.Fatalf("third subagent: %+v", s)
	}
	// The log was just copied (changed 0s ago), the transcripts are silent.
	if !strings.HasPrefix(got.Stall.Reason, "stalled: the transcripts fell silent: the last transcript line was 25m20s ago (agent-check a3f1fff)") {
		t.Fatalf("reason %q", got.Stall.Reason)
	}
}

func TestWhy(t *testing.T) {
	root, claude := sessionsFixture(t)
	args := []string{"--claude-dir", claude, "--project", "/work/mra-demo"}
	out := referee(t, root, "", append([]string{"why", "l-026"}, args...)...)
	for _, want := range []string{
		"l-026 check-reject-proof by agent-check at 2026-11-20T10:44:00Z: s-013\n",
		"session: 7f3c2a10-5b1e-4c2d-9a8e-2f6d1c0b9e41\nagent: agent-check a3f1a18\n",
		"(tied: the call's output names the change)",
		"  VERDICT: INVALID at sentence 4\n",
	} {
		if !strings.Contains(out.stdout, want) {
			t.Errorf("why l-026: %q missing from\n%s", want, out.stdout)
		}
	}
	if out.code != 0 {
		t.Errorf("exit %d", out.code)
	}
	// The hostile analysis behind l-015 arrives inert.
	out = referee(t, root, "", append([]string{"why", "l-015"}, args...)...)
	if strings.ContainsAny(out.stdout, "\x1b\x07\u202e") || !strings.Contains(out.stdout, "␛]52;c;") {
		t.Errorf("why l-015 not sanitised:\n%q", out.stdout)
	}
	referee(t, root, "", append([]string{"why", "l-028"}, args...)...).want(t, 1,
		"l-028 abandon by human at 2026-11-20T10:53:00Z: s-013\nno skill call in the 2 session(s) of /work/mra-demo made it\n", "")
	out = referee(t, root, "", append([]string{"why", "l-999"}, args...)...)
	if out.code != 2 || !strings.Contains(out.stderr, "no change l-999") {
		t.Errorf("unknown change: %d %q", out.code, out.stderr)
	}
}

func TestRunsTextShowsSessions(t *testing.T) {
	root, claude := sessionsFixture(t)
	out := refereeAt(t, root, "2026-11-20T12:00:00Z", "runs", "--claude-dir", claude, "--project", "/work/mra-demo")
	for _, want := range []string{
		"sessions: 2 in " + claude + "/projects ran in /work/mra-demo (prices of 2026-11-26, ",
		"  orchestrator 7f3c2a10-5b1e-4c2d-9a8e-2f6d1c0b9e41 on s-014: idle while running Task: agent-check s-014\n" +
			"    37 turns; tokens 75 in, 2,980 out, cache 30,400 written, 1,185,500 read; $0.86; context 30,462; last line 25m30s ago\n",
		"    agent-check a3f1a18 on s-013 s-011 s-012: finished, REJECTED at sentence 4\n",
		"      4 turns; tokens 20 in, 1,550 out, cache 7,000 written, 61,500 read; $0.11; context 18,353; last line",
		"    agent-check a3f1fff on s-014: idle while running Read: /work/mra-demo/contents/statement/s-014.json\n",
		"stall alarm: stalled: the transcripts fell silent: the last transcript line was 25m20s ago (agent-check a3f1fff)",
	} {
		if !strings.Contains(out.stdout, want) {
			t.Errorf("missing %q in\n%s", want, out.stdout)
		}
	}
	if strings.ContainsAny(out.stdout, "\x1b\x07") {
		t.Error("control characters in the output")
	}
}

// A session with a compaction agent, a subagent and a model the price table does not
// know: the text says what each cost, the cost left out, and the sum with subagents.
func TestRunsTextShowsCompactionAndUnknownCost(t *testing.T) {
	root, _ := sessionsFixture(t)
	claude := t.TempDir()
	dir := filepath.Join(claude, "projects", "-p")
	line := func(typ, uuid, model, id string, in, out int) string {
		return `{"type":"` + typ + `","uuid":"` + uuid + `","sessionId":"s","cwd":"/p","timestamp":"2026-03-01T10:00:00Z","requestId":"r` + id +
			`","message":{"id":"m` + id + `","role":"assistant","model":"` + model + `","content":[{"type":"text","text":"ok"}],"usage":{"input_tokens":` +
			itoa(in) + `,"output_tokens":` + itoa(out) + `}}}` + "\n"
	}
	files := map[string]string{
		"s.jsonl": `{"type":"user","uuid":"u","sessionId":"s","cwd":"/p","timestamp":"2026-03-01T10:00:00Z","message":{"role":"user","content":"go"}}` + "\n" +
			line("assistant", "a1", "claude-opus-4-6", "1", 1000000, 0) + line("assistant", "a2", "claude-new-model", "2", 5, 5),
		"s/subagents/agent-a1.jsonl":          line("assistant", "b1", "claude-haiku-4-5-20251001", "3", 1000000, 0),
		"s/subagents/agent-acompact-77.jsonl": line("assistant", "c1", "claude-opus-4-6", "4", 0, 40000),
	}
	for name, body := range files {
		os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755)
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out := refereeAt(t, root, "2026-03-01T10:00:10Z", "runs", "--claude-dir", claude, "--project", "/p")
	for _, want := range []string{
		"  orchestrator s on -: thinking\n    2 turns; tokens 1,000,005 in, 5 out, cache 0 written, 0 read; $5.00 + cost unknown: model claude-new-model;",
		"    subagent a1 on -: thinking\n      1 turns; tokens 1,000,000 in, 0 out, cache 0 written, 0 read; $1.00;",
		"    compaction: 1 agent(s), 1 turns; tokens 0 in, 40,000 out, cache 0 written, 0 read; $1.00\n",
		"    with its subagents and compaction: 4 turns; tokens 2,000,005 in, 40,005 out, cache 0 written, 0 read; $7.00 + cost unknown: model claude-new-model\n",
	} {
		if !strings.Contains(out.stdout, want) {
			t.Errorf("missing %q in\n%s", want, out.stdout)
		}
	}
	if strings.Contains(out.stdout, "note: cost unknown") {
		t.Errorf("the unknown cost is said twice:\n%s", out.stdout)
	}
}
