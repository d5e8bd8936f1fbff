package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"referee/internal/testutil"
	"referee/model"
	"referee/model/pyjson"
)

var demo = testutil.DemoDir()

// The fixture's log lines are the agents' own: no time or actor; the skills are guessed
// (marked ~) from the transitions the backups show.
func TestLogFixture(t *testing.T) {
	root := copyFixture(t)
	referee(t, root, "", "log").want(t, 0, `l-001  -                    -             ~init                       +s-001 true; +s-002 true; +s-003 true; +s-004 true; +s-005 true; +s-006 true; +p-001 unresolved
l-002  -                    ~agent-solve  ~prob-wrapup-statement      +s-007 pending
l-003  -                    ~agent-solve  ~prob-wrapup-statement      p-001 unresolved (progresses) +s-007
l-004  -                    ~agent-prove  ~state-complete-proof       s-007 pending → validating +PROOF
l-005  -                    ~agent-check  ~check-confirm-proof        s-007 validating → true +VERIFIED
l-006  -                    ~agent-solve  ~prob-finish-up             p-001 unresolved → resolved
`, "")
	referee(t, root, "", "log", "--actor", "agent-check").want(t, 0,
		"l-005  -                    ~agent-check  ~check-confirm-proof        s-007 validating → true +VERIFIED\n", "")
	referee(t, root, "", "log", "--actor", "nobody").want(t, 0, "no changes\n", "")
	out := referee(t, root, "", "log", "--object", "s-007", "--output", "json")
	var changes []struct {
		ID           string `json:"id"`
		Skill        string `json:"skill"`
		GuessedSkill string `json:"guessed_skill"`
		Objects      []struct {
			ID, Action, From, To string
			Notes                []string
		} `json:"objects"`
	}
	if err := json.Unmarshal([]byte(out.stdout), &changes); err != nil || out.code != 0 {
		t.Fatalf("%v %d %s", err, out.code, out.stderr)
	}
	if len(changes) != 3 || changes[1].ID != "l-004" || changes[1].Skill != "" || changes[1].GuessedSkill != "state-complete-proof" ||
		changes[1].Objects[0].From != "pending" || changes[1].Objects[0].To != "validating" || len(changes[1].Objects[0].Notes) != 1 {
		t.Errorf("json: %+v", changes)
	}
	referee(t, root, "", "log", "--object", "x-1").want(t, 2, "", "referee: --object: \"x-1\" is not an ID (expected <kind>-<letters><three digits>, e.g. s-007, p-001 or l-012)\n")
	referee(t, root, "", "log", "--contents", "nowhere").want(t, 2, "", "referee: contents folder nowhere: no such file or directory\n")
}

// The demo's lines carry their own time, actor and skill.
func TestLogDemo(t *testing.T) {
	referee(t, ".", "", "log", "--contents", demo, "--object", "s-004").want(t, 0, `l-002  2026-11-20T09:04:00Z agent-solve   prob-wrapup-statement       +s-004 pending; p-001 unresolved (progresses) +s-004
l-003  2026-11-20T09:07:00Z agent-prove   state-complete-proof        s-004 pending → validating +PROOF
l-005  2026-11-20T09:15:00Z agent-check   check-reject-proof          s-004 validating (validation.issues)
l-006  2026-11-20T09:20:00Z agent-fix     fix-patch-proof             s-004 validating (proof.full, validation.responses)
l-007  2026-11-20T09:23:00Z agent-check   check-confirm-proof         s-004 validating → false +DISPROOF_VERIFIED
`, "")
	out := referee(t, ".", "", "log", "--contents", demo)
	if lines := strings.Split(strings.TrimSuffix(out.stdout, "\n"), "\n"); len(lines) != 38 || out.code != 0 ||
		lines[36] != "l-037  2026-11-20T11:30:00Z agent-solve   prob-wrapup-statement       +s-017 pending" {
		t.Errorf("%d lines, exit %d; l-037: %q", len(lines), out.code, lines[min(36, len(lines)-1)])
	}
}

// syncBuffer is a bytes.Buffer safe to read while a process writes to it.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

func waitFor(t *testing.T, b *syncBuffer, what string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(b.String(), what) {
		if time.Now().After(deadline) {
			t.Fatalf("no %q within 10 s; output so far:\n%s", what, b.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// log --follow prints the log, then each change as it is appended (here an agent's own
// change, written as its tools write it), and ends cleanly on Ctrl+C.
func TestLogFollow(t *testing.T) {
	root := copyFixture(t)
	dir := filepath.Join(root, "contents")
	cmd := exec.Command(binary, "log", "--follow")
	cmd.Dir = root
	var out, errOut syncBuffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	waitFor(t, &out, "l-006  -")
	// agent-fix reopens s-007 by hand: backup, object, log line, as FORMAT.md orders it.
	old := readFile(t, filepath.Join(dir, "statement/s-007.json"))
	writeFile(t, filepath.Join(dir, "history/l-007/s-007.json"), old)
	writeFile(t, filepath.Join(dir, "statement/s-007.json"), strings.Replace(old, `"status": "true"`, `"status": "validating"`, 1))
	f, err := os.OpenFile(filepath.Join(dir, "history/log.jsonl"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	io.WriteString(f, `{"l-007": {"creation": [], "modification": ["s-007"]}, "current": ["p-001", "s-007", "e-000"]}`+"\n")
	f.Close()
	waitFor(t, &out, "l-007  -")
	if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("log --follow ended with %v (stderr %q)", err, errOut.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("log --follow did not stop on SIGINT")
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) != 7 || lines[6] != "l-007  -                    -             -                           s-007 true → validating" {
		t.Errorf("output:\n%s", out.String())
	}
}

func TestRuns(t *testing.T) {
	root := t.TempDir()
	testutil.CopyTree(t, demo, filepath.Join(root, "contents"))
	writeFile(t, filepath.Join(root, ".claude/hol_agent_state.json"), `{"session_id": "9f1c2b7e", "message_count": 342, "session_message_count": 42, "hol_session": "main", "holmake_env": {}, "input_tokens": 1234567, "output_tokens": 89012, "cache_creation_tokens": 3456, "cache_read_tokens": 7890123, "total_cost_usd": 12.5}`)
	writeFile(t, filepath.Join(root, ".claude/settings.json"), `{"model": "x"}`)
	at := func(rel, when string) {
		ts, _ := time.Parse(time.RFC3339, when)
		if err := os.Chtimes(filepath.Join(root, rel), ts, ts); err != nil {
			t.Fatal(err)
		}
	}
	at("contents/history/log.jsonl", "2026-01-08T11:30:00Z")
	at("contents/config.json", "2026-01-08T11:30:00Z")
	at(".claude/hol_agent_state.json", "2026-01-08T11:40:00Z")
	// REFEREE_NOW is 12:00: twenty minutes without a change while six items wait.
	referee(t, root, "", "runs").want(t, 1, `runs: 1 state file(s) in `+root+`
  .claude/hol_agent_state.json
    session 9f1c2b7e, 342 messages (42 in this session)
    tokens: 1,234,567 in, 89,012 out, cache 3,456 written, 7,890,123 read; cost $12.50
    HOL session main
    last activity 2026-01-08T11:40:00Z (20m0s ago)
stall alarm: stalled: nothing changed for 20m0s (.claude/hol_agent_state.json), at least 15m0s, while 6 item(s) are actionable: agent-check s-014, agent-prove s-007, agent-fix s-015, and 3 more
`, "")
	out := referee(t, root, "", "runs", "--stall-after", "30m", "--output", "json")
	var got struct {
		Runs []struct {
			SessionID    string         `json:"session_id"`
			MessageCount int            `json:"message_count"`
			Other        map[string]any `json:"other"`
		} `json:"runs"`
		What  string `json:"last_change_file"`
		Stall struct {
			Stalled bool   `json:"stalled"`
			Reason  string `json:"reason"`
		} `json:"stall"`
	}
	if err := json.Unmarshal([]byte(out.stdout), &got); err != nil || out.code != 0 {
		t.Fatalf("%v %d %q", err, out.code, out.stderr)
	}
	if len(got.Runs) != 1 || got.Runs[0].SessionID != "9f1c2b7e" || got.Runs[0].MessageCount != 342 || fmt.Sprint(got.Runs[0].Other) != "map[holmake_env:map[]]" ||
		got.Stall.Stalled || got.Stall.Reason != "not stalled: last change 20m0s ago (.claude/hol_agent_state.json), under 30m0s; 6 actionable" {
		t.Errorf("json: %+v", got)
	}
	referee(t, root, "", "runs", "--stall-after", "0s").want(t, 2, "", "referee: --stall-after: 0s is not a positive duration (e.g. 10m)\n")
	// The solved fixture never stalls; no .claude beside it: no runs.
	fixtureRoot := copyFixture(t)
	referee(t, fixtureRoot, "", "runs").want(t, 0, "runs: no state files under "+fixtureRoot+"/.claude\nstall alarm: not stalled: nothing is actionable; last change "+
		stallAge(t, fixtureRoot)+" ago (history/log.jsonl)\n", "")
}

// stallAge is how long before REFEREE_NOW the copied log was written.
func stallAge(t *testing.T, root string) string {
	info, err := os.Stat(filepath.Join(root, "contents/history/log.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	n, _ := time.Parse(time.RFC3339, now)
	return max(n.Sub(info.ModTime()), 0).Round(time.Second).String()
}

// show --at and diff: the fixture's s-007 and p-001 through their six changes.
func TestTimeTravel(t *testing.T) {
	root := copyFixture(t)
	out := referee(t, root, "", "show", "s-007", "--at", "l-003")
	if out.code != 0 || !strings.HasPrefix(out.stdout, "as it was right after l-003 (rebuilt from history/; read-only)\ns-007  statement (normal)\nstatus: pending (needs proof)\n") ||
		!strings.Contains(out.stdout, "\nproof: none\n") {
		t.Errorf("s-007 at l-003:\n%s%s", out.stdout, out.stderr)
	}
	out = referee(t, root, "", "show", "s-007", "--at", "l-004")
	if !strings.Contains(out.stdout, "\nstatus: validating (awaiting check)\n") || !strings.Contains(out.stdout, "\nproof:\n    We prove that (Olivia=Knave") {
		t.Errorf("s-007 at l-004:\n%s", out.stdout)
	}
	out = referee(t, root, "", "show", "p-001", "--at", "l-003")
	if !strings.Contains(out.stdout, "progresses:\n  - (s-007) The unique solution: Olivia=Knave, Alice=Spy, Ivy=Knave\n") || !strings.Contains(out.stdout, "status: unresolved (open)") {
		t.Errorf("p-001 at l-003:\n%s", out.stdout)
	}
	out = referee(t, root, "", "show", "p-001", "--at", "l-002")
	if !strings.Contains(out.stdout, "progresses: none\n") {
		t.Errorf("p-001 at l-002:\n%s", out.stdout)
	}
	out = referee(t, root, "", "show", "s-007", "--at", "l-005", "--output", "json")
	if !strings.Contains(out.stdout, "\n        \"status\": \"true\",") || !strings.HasSuffix(out.stdout, "    },\n    \"at\": \"l-005\"\n}\n") {
		t.Errorf("json:\n%s", out.stdout)
	}
	referee(t, root, "", "show", "s-007", "--at", "l-001").want(t, 1, "", "referee: s-007 does not exist in ./contents right after l-001\n")
	referee(t, root, "", "show", "s-007", "--at", "l-009").want(t, 2, "", "referee: l-009 is not in history/log.jsonl\n")
	referee(t, root, "", "show", "s-007", "--at", "s-001").want(t, 2, "", "referee: --at: \"s-001\" is not a change ID (expected l-<letters><three digits>, e.g. l-007)\n")

	referee(t, root, "", "diff", "s-007", "l-004", "l-005").want(t, 0, `s-007: right after l-004 → l-005
status: validating → true
reliability: 0.0 → 1.0
progresses:
  + VERIFIED: 27 steps checked, all valid. Case analysis proof correctly establishes unique solution.
`, "")
	referee(t, root, "", "diff", "p-001", "l-002", "l-003").want(t, 0, `p-001: right after l-002 → l-003
progresses:
  + (s-007) The unique solution: Olivia=Knave, Alice=Spy, Ivy=Knave
`, "")
	referee(t, root, "", "diff", "s-007", "l-005").want(t, 0, "s-007: right after l-005 → now\nno difference\n", "")
	out = referee(t, root, "", "diff", "s-007", "l-001", "l-002")
	if !strings.HasPrefix(out.stdout, "s-007: right after l-001 → l-002\n(s-007 did not exist right after l-001)\nid: - → s-007\ntype: - → normal\n") {
		t.Errorf("created:\n%s", out.stdout)
	}
	referee(t, root, "", "diff", "s-007").want(t, 2, "", "referee: diff takes an ID and one or two changes (e.g. referee diff s-007 l-003 l-005), got 1 arguments\n")
}

// A proof patched between two changes of the demo: the diff shows the lines that
// changed, with two lines of context.
func TestDiffDemoProof(t *testing.T) {
	out := referee(t, ".", "", "diff", "s-009", "l-015", "l-017", "--contents", demo)
	if out.code != 0 || !strings.HasPrefix(out.stdout, "s-009: right after l-015 → l-017\nproof.full:\n") ||
		!strings.Contains(out.stdout, "\n  - ") || !strings.Contains(out.stdout, "\n  + ") ||
		!strings.Contains(out.stdout, "validation.responses:\n  + [Response #1] Fixes Issue #1 | Type: patch | Change: ") {
		t.Errorf("diff:\n%s%s", out.stdout, out.stderr)
	}
}

func TestGraveyardAndSimilar(t *testing.T) {
	referee(t, ".", "", "graveyard", "--contents", demo).want(t, 0, `s-004  false  For every prime $p$ with $p \equiv 3 \pmod{4}$, the number $4p - 1$ is also prime.
    disproof verified: 3 steps checked. $7$ is a prime $\equiv 3 \pmod{4}$ and $4 \cdot 7 - 1 = 27 = 3^3$ is composite, so the claim fails at $p = 7$.
    held up: nothing still open
s-013  abandoned  For every integer $n \ge 1$, $\sum_{k=1}^n k^3 = \left(\sum_{k=1}^n k\right)^2$.
    reason: given s-009 this claim is equivalent to s-011 itself, so any proof of it is already a proof of s-011 — the induction route through s-012 is enough.
    held up: p-002, s-011, s-015
`, "")
	// Right after l-006 nothing had failed yet: the disproof was verified at l-007.
	referee(t, ".", "", "graveyard", "--contents", demo, "--at", "l-006").want(t, 0, "no false or abandoned statement\n", "")
	root := copyFixture(t)
	referee(t, root, "", "graveyard").want(t, 0, "no false or abandoned statement\n", "")

	// s-017 restates s-016 as the modification proposed it: its closest claim.
	out := referee(t, ".", "", "similar", "s-017", "-k", "2", "--contents", demo)
	lines := strings.Split(out.stdout, "\n")
	if out.code != 0 || len(lines) != 4 || !strings.HasPrefix(lines[0], "s-017  For every integer") || !strings.HasPrefix(lines[1], "  0.55  s-016  validating  For every integer") {
		t.Errorf("similar:\n%s", out.stdout)
	}
	referee(t, ".", "", "similar", "p-001", "--contents", demo).want(t, 2, "", "referee: similar: \"p-001\" is not a statement ID (expected s-<letters><three digits>, e.g. s-007)\n")
}

// A statement that repeats a refuted one: check warns naming both, similar says so.
func TestCheckRetread(t *testing.T) {
	root := t.TempDir()
	testutil.CopyTree(t, demo, filepath.Join(root, "contents"))
	s018 := model.NewStatement("s-018", "normal", []string{`For each prime $p \equiv 3 \pmod 4$, $4p-1$ is prime as well.`}, nil, "pending")
	writeFile(t, filepath.Join(root, "contents/statement/s-018.json"), string(pyjson.EncodeIndent(s018)))
	out := referee(t, root, "", "check")
	if !strings.Contains(out.stdout, "warning: statement/s-018.json: s-018: re-tread: its claim repeats s-004, which already failed (false) (similarity 0.88)\n") {
		t.Errorf("check:\n%s", out.stdout)
	}
	out = referee(t, root, "", "similar", "s-018")
	if !strings.Contains(out.stdout, "\nre-tread: repeats s-004, which is false (similarity 0.88)\n  0.88  s-004  false") {
		t.Errorf("similar:\n%s", out.stdout)
	}
	// The demo itself has no re-tread.
	if out := referee(t, ".", "", "check", "--contents", demo); strings.Contains(out.stdout, "re-tread") {
		t.Errorf("demo:\n%s", out.stdout)
	}
}

func TestExport(t *testing.T) {
	root := copyFixture(t)
	out := referee(t, root, "", "export", "--format", "md")
	if out.code != 0 || !strings.HasPrefix(out.stdout, "# Proof tree of contents\n\n1 problem (1 solved), 7 statements (7 proved).\n\n## Problems\n\n- [p-001](#p-001) `resolved`: ") {
		t.Errorf("md:\n%s", out.stdout)
	}
	referee(t, root, "", "export", "--format", "html", "--out", "tree.html").want(t, 0, "", "")
	html := readFile(t, filepath.Join(root, "tree.html"))
	if !strings.HasPrefix(html, "<!DOCTYPE html>") || !strings.Contains(html, `<section class="object" id="s-007">`) || strings.Contains(html, "<script") {
		t.Errorf("html:\n%s", html[:200])
	}
	out = referee(t, ".", "", "export", "--format", "dot", "--contents", demo, "--at", "l-007")
	if out.code != 0 || !strings.HasPrefix(out.stdout, "digraph referee {\n  graph [rankdir=TB, label=\"Proof tree of contents as of l-007\"") ||
		!strings.Contains(out.stdout, `fillcolor="#f6b0b0", label="s-004\nfalse\n`) || strings.Contains(out.stdout, `"s-007"`) {
		t.Errorf("dot:\n%s", out.stdout)
	}
	referee(t, root, "", "export", "--format", "pdf").want(t, 2, "", "referee: --format: \"pdf\" is not one of md, html, dot\n")
	referee(t, root, "", "export", "--out", "/nonexistent/x.md").want(t, 1, "", "referee: cannot write /nonexistent/x.md: open /nonexistent/x.md: no such file or directory\n")
}

// The review order in status: what holds up the most of the root first.
func TestStatusDemoOrder(t *testing.T) {
	out := referee(t, ".", "", "status", "--contents", demo)
	sc := bufio.NewScanner(strings.NewReader(out.stdout))
	var next []string
	for sc.Scan() {
		if f := strings.Fields(sc.Text()); len(f) > 2 && strings.HasPrefix(sc.Text(), "  ") && strings.Contains(sc.Text(), " blocks ") {
			next = append(next, f[1])
		}
	}
	if strings.Join(next, " ") != "s-014 s-015 s-016 s-007 p-002 s-017" {
		t.Errorf("next %v:\n%s", next, out.stdout)
	}
}
