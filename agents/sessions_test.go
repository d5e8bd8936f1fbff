package agents

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"referee/internal/testutil"
	"referee/model"
)

func demoEntries(t *testing.T, contents string) []model.LogEntry {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(contents, "history", "log.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var entries []model.LogEntry
	for i, l := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		entries = append(entries, model.ParseLogLine(i+1, l))
	}
	return entries
}

func readTestdata(t *testing.T, now time.Time) Report {
	t.Helper()
	_, r := Read(Options{ClaudeDir: "testdata/claude", Project: demoProject, Now: func() time.Time { return now }})
	return r
}

func TestReadsTheProjectsSessionsByCWD(t *testing.T) {
	now := time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC)
	r := readTestdata(t, now)
	if len(r.Sessions) != 2 {
		t.Fatalf("want the demo and the older session (not %s from /work/mra/demo, same slug), got %d", otherSession, len(r.Sessions))
	}
	var demo, old View
	for _, s := range r.Sessions {
		switch s.SessionID {
		case demoSession:
			demo = s
		case oldSession:
			old = s
		default:
			t.Fatalf("session %s is not the project's", s.SessionID)
		}
	}
	if demo.Role != RoleOrchestrator || demo.Compactions != 1 {
		t.Fatalf("orchestrator: role %q, compactions %d", demo.Role, demo.Compactions)
	}
	// 35 changes by agents, one dispatch that never answered.
	if len(demo.Subagents) != 36 {
		t.Fatalf("subagents: %d", len(demo.Subagents))
	}
	entries := demoEntries(t, testutil.DemoDir())
	byAgent := map[string]View{}
	for _, s := range demo.Subagents {
		byAgent[s.AgentID] = s
	}
	n := 0
	for _, e := range entries {
		if e.By == "human" {
			continue
		}
		n++
		sub := byAgent[agentIDFor(n)]
		if sub.Role != e.By || sub.State != StateFinished {
			t.Errorf("%s: subagent %s is %q (%s), want %s finished", e.ID, agentIDFor(n), sub.Role, sub.State, e.By)
		}
		if e.Skill == "check-reject-proof" && !strings.HasPrefix(sub.Verdict, "REJECTED at sentence ") {
			t.Errorf("%s: verdict %q", e.ID, sub.Verdict)
		}
		if e.Skill == "check-confirm-proof" && sub.Verdict != "VERIFIED" {
			t.Errorf("%s: verdict %q", e.ID, sub.Verdict)
		}
	}
	// s-013 was rejected at sentence 4 (l-026, the 24th change by an agent).
	if v := byAgent[agentIDFor(24)].Verdict; v != "REJECTED at sentence 4" {
		t.Errorf("l-026's checker: %q", v)
	}
	// Silent for 25 minutes: idle; a minute after its Read, it was running it.
	if s := byAgent["a3f1fff"]; s.State != StateIdle || !strings.HasPrefix(s.Tool, "while running Read: ") {
		t.Errorf("the silent checker after 25 minutes: %s", s.State)
	}
	var stalled View
	for _, s := range readTestdata(t, time.Date(2026, 11, 20, 11, 35, 40, 0, time.UTC)).Sessions {
		for _, sub := range s.Subagents {
			if sub.AgentID == "a3f1fff" {
				stalled = sub
			}
		}
	}
	if stalled.Role != "agent-check" || stalled.State != StateTool || !strings.HasPrefix(stalled.Tool, "Read: ") ||
		strings.Join(stalled.Objects, ",") != "s-014" {
		t.Errorf("the silent checker: %+v", stalled)
	}
	// Tokens: one response written as three lines is counted once.
	if got := byAgent[agentIDFor(1)].Tokens; got != (Tokens{Input: 5 + 8 + 4 + 3, Output: 300 + 900 + 200 + 150,
		CacheCreation: 4000 + 2500 + 300 + 200, CacheRead: 11000 + 15000 + 17500 + 18000}) {
		t.Errorf("tokens %+v", got)
	}
	if c := byAgent[agentIDFor(1)].CostUSD; c < 0.1133 || c > 0.1134 {
		t.Errorf("cost %.4f", c) // 0.11335 at opus-4-5 prices
	}
	// The older session's inline sidechain is its subagent.
	if len(old.Subagents) != 1 || old.Subagents[0].Role != "agent-check" || old.Subagents[0].Verdict != "VERIFIED" {
		t.Errorf("older session: %+v", old.Subagents)
	}
	if old.State != StateIdle {
		t.Errorf("older orchestrator state %q, long after its end_turn", old.State)
	}
	if r.LastWhat != "agent-check a3f1fff" {
		t.Errorf("last line by %q", r.LastWhat)
	}
}

func agentIDFor(n int) string { return "a" + strings.TrimPrefix(hex6(0x3f1a00+n), "") }

func hex6(n int) string {
	const digits = "0123456789abcdef"
	b := make([]byte, 6)
	for i := 5; i >= 0; i-- {
		b[i] = digits[n%16]
		n /= 16
	}
	return string(b)
}

func TestEveryChangeAttributedToItsAgent(t *testing.T) {
	r := readTestdata(t, time.Date(2026, 11, 20, 12, 0, 0, 0, time.UTC))
	checkAttribution(t, demoEntries(t, testutil.DemoDir()), r)
}

func checkAttribution(t *testing.T, entries []model.LogEntry, r Report) {
	t.Helper()
	atts := Attribute(entries, r.Calls, 0)
	hows := map[string]int{}
	for _, a := range atts {
		if a.By == "human" {
			if a.Call != nil {
				t.Errorf("%s by a human tied to %s's call", a.Change, a.Call.Role)
			}
			continue
		}
		if a.Call == nil {
			t.Errorf("%s (%s by %s): no call found", a.Change, a.Skill, a.By)
			continue
		}
		hows[a.How]++
		if a.Call.Role != a.By || a.Call.SessionID != demoSession {
			t.Errorf("%s: tied to %s in %s, the log says %s", a.Change, a.Call.Role, a.Call.SessionID, a.By)
		}
		if a.Call.Skill != a.Skill {
			t.Errorf("%s: call's skill %q, log's %q", a.Change, a.Call.Skill, a.Skill)
		}
		if a.Call.Analysis == "" {
			t.Errorf("%s: no analysis before the call", a.Change)
		}
		if strings.ContainsAny(a.Call.Analysis+a.Call.Command+a.Call.Result, "\x1b\x07\u202e") {
			t.Errorf("%s: unsanitised text reached the report", a.Change)
		}
	}
	if hows[ByName] == 0 || hows[ByTime] == 0 {
		t.Errorf("the run should exercise both ways: %v", hows)
	}
	// The checker's sentence analysis behind l-026 (s-013 rejected at sentence 4).
	for _, a := range atts {
		if a.Change == "l-026" && (a.Call == nil || !strings.Contains(a.Call.Analysis, "VERDICT: INVALID at sentence 4")) {
			t.Errorf("l-026's analysis: %+v", a.Call)
		}
		if a.Change == "l-015" && (a.Call == nil || !strings.Contains(a.Call.Analysis, "␛]52;c;") || !strings.Contains(a.Call.Analysis, "<U+202E>")) {
			t.Errorf("l-015's hostile analysis not shown inert: %+v", a.Call)
		}
	}
}

// Transcripts and contents written together into a fresh project: the watcher finds
// them by the project's own path and every change goes to its agent.
func TestWrittenTogether(t *testing.T) {
	root := t.TempDir()
	project := filepath.Join(root, "knights")
	if err := os.CopyFS(filepath.Join(project, "contents"), os.DirFS(testutil.DemoDir())); err != nil {
		t.Fatal(err)
	}
	claude := filepath.Join(root, "claude")
	writeRun(t, claude, filepath.Join(project, "contents"), project)
	_, r := Read(Options{ClaudeDir: claude, Project: project})
	if len(r.Sessions) != 2 {
		t.Fatalf("sessions %d", len(r.Sessions))
	}
	checkAttribution(t, demoEntries(t, filepath.Join(project, "contents")), r)
}

func TestHalfWrittenLineWaitsAndLiveFollow(t *testing.T) {
	root := t.TempDir()
	project := filepath.Join(root, "p")
	claude := filepath.Join(root, "claude")
	dir := filepath.Join(claude, "projects", "-p")
	os.MkdirAll(dir, 0o755)
	path := filepath.Join(dir, "s1.jsonl")
	now := time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)
	w := New(Options{ClaudeDir: claude, Project: project, Now: func() time.Time { return now }})
	if changed, _ := w.Poll(); changed {
		t.Fatal("nothing there yet")
	}
	line := `{"type":"user","uuid":"u1","sessionId":"s1","cwd":"` + project + `","timestamp":"2026-01-01T10:00:00Z","message":{"role":"user","content":"Call agent-check to verify statement [s-010]"}}` + "\n"
	appendFile(t, path, line[:40])
	now = now.Add(3 * time.Second)
	w.Poll()
	if r := w.Report(); len(r.Sessions) != 0 {
		t.Fatalf("a first line without its cwd yet made a session: %+v", r.Sessions)
	}
	appendFile(t, path, line[40:])
	now = now.Add(3 * time.Second)
	w.Poll()
	r := w.Report()
	if len(r.Sessions) != 1 || r.Sessions[0].State != StateThinking {
		t.Fatalf("after the line: %+v", r.Sessions)
	}
	tool := `{"type":"assistant","uuid":"a1","parentUuid":"u1","sessionId":"s1","cwd":"` + project + `","timestamp":"2026-01-01T10:00:05Z","message":{"id":"m1","role":"assistant","model":"claude-sonnet-4-5","content":[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"referee skill check-confirm-proof --statement-id s-010"}}],"usage":{"input_tokens":10,"output_tokens":20}}}` + "\n"
	appendFile(t, path, tool[:100])
	w.Poll()
	if s := w.Report().Sessions[0]; s.State != StateThinking {
		t.Fatalf("half a line changed the state: %q", s.State)
	}
	appendFile(t, path, tool[100:])
	if changed, _ := w.Poll(); !changed {
		t.Fatal("the rest of the line was not seen")
	}
	s := w.Report().Sessions[0]
	if s.State != StateTool || s.Tool != "Bash: referee skill check-confirm-proof --statement-id s-010" || s.Turns != 1 ||
		s.Tokens.Output != 20 || strings.Join(s.Objects, ",") != "s-010" {
		t.Fatalf("after the tool call: %+v", s)
	}
}

func TestOversizeLineIsNoted(t *testing.T) {
	root := t.TempDir()
	claude := filepath.Join(root, "claude")
	dir := filepath.Join(claude, "projects", "-p")
	os.MkdirAll(dir, 0o755)
	path := filepath.Join(dir, "s1.jsonl")
	first := `{"type":"user","sessionId":"s1","cwd":"/p","timestamp":"2026-01-01T10:00:00Z","message":{"role":"user","content":"hi"}}` + "\n"
	big := `{"type":"user","sessionId":"s1","cwd":"/p","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"x","content":"` + strings.Repeat("A", 5000) + `"}]}}` + "\n"
	appendFile(t, path, first+big+first)
	w := New(Options{ClaudeDir: claude, Project: "/p", MaxLine: 1000})
	w.Poll()
	s := w.Report().Sessions[0]
	if len(s.Notes) != 1 || !strings.Contains(s.Notes[0], "line 2 ") || !strings.Contains(s.Notes[0], "longer than 1000 bytes: skipped") {
		t.Fatalf("notes %q", s.Notes)
	}
}

func TestParseVerdict(t *testing.T) {
	for text, want := range map[string]string{
		"REJECTED: Statement s-001 proof has a gap at sentence 3.\nError type: gap": "REJECTED at sentence 3",
		"**VERIFIED**: Statement s-002":                                             "VERIFIED",
		"Some words.\nDISPROOF VERIFIED: s-3":                                       "DISPROOF VERIFIED",
		"VERDICT: INVALID at sentence 2":                                            "",
		"FIXED: Direct patch applied":                                               "FIXED",
		"Nothing to report":                                                         "",
	} {
		if got := ParseVerdict(text); got != want {
			t.Errorf("%q: %q, want %q", text, got, want)
		}
	}
}

func TestPricesOverride(t *testing.T) {
	path := filepath.Join(t.TempDir(), "prices.json")
	os.WriteFile(path, []byte(`{"date":"2026-11-01","models":{"claude-opus-4-5":{"input":1,"output":2,"cache_creation":3,"cache_read":4}}}`), 0o644)
	p, err := LoadPrices(path)
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := p.Cost("claude-opus-4-5-20251101", &Usage{Input: 1e6, Output: 1e6, CacheCreation: 1e6, CacheRead: 1e6}); got != 10 {
		t.Fatalf("cost %v", got)
	}
	if got, _ := p.Cost("claude-sonnet-4-5", &Usage{Input: 1e5}); got != 0.3 {
		t.Fatalf("the default table is kept for other models: %v", got)
	}
	os.WriteFile(path, []byte(`{"models": 3}`), 0o644)
	if _, err := LoadPrices(path); err == nil || !strings.Contains(err.Error(), path) {
		t.Fatalf("a bad file: %v", err)
	}
}

// The agents' own log lines carry no time: a created object, the change named in the
// output, else the objects and the order of the calls decide.
func TestAttributeWithoutTimes(t *testing.T) {
	at := func(s int) time.Time { return time.Date(2026, 1, 1, 10, 0, s, 0, time.UTC) }
	call := func(role, id string, s int, objs []string, change string, created ...string) CallView {
		return CallView{Call: Call{ToolUseID: id, Objects: objs, Start: at(s), End: at(s + 1), Change: change, Created: created}, Role: role}
	}
	calls := []CallView{
		call("agent-prove", "c1", 10, []string{"s-002"}, "", "s-002"),                                                      // Created statement: s-002
		call("agent-prove", "c2", 12, []string{"s-001", "s-002"}, "l-003"),                                                 // (log: l-003)
		call("agent-check", "c3", 20, []string{"s-002"}, ""),                                                               // says nothing
		call("agent-check", "c4", 30, []string{"s-002"}, "", ""),                                                           // says nothing
		CallView{Call: Call{ToolUseID: "c5", Objects: []string{"s-002"}, Start: at(40), IsError: true}, Role: "agent-fix"}, // failed
	}
	entries := []model.LogEntry{
		{ID: "l-002", Creation: []string{"s-002"}},
		{ID: "l-003", Modification: []string{"s-001"}},
		{ID: "l-004", Modification: []string{"s-002"}},
		{ID: "l-005", Modification: []string{"s-002"}},
		{ID: "l-006", Modification: []string{"s-002"}},
	}
	var got []string
	for _, a := range Attribute(entries, calls, 0) {
		who := "none"
		if a.Call != nil {
			who = a.Call.ToolUseID + " " + a.How
		}
		got = append(got, a.Change+": "+who)
	}
	want := []string{
		"l-002: c1 " + ByCreated,
		"l-003: c2 " + ByName,
		"l-004: c3 " + ByOrder,
		"l-005: c4 " + ByOrder,
		"l-006: none", // the failed call made no change
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// A transcript truncated and written again is read from its start without counting
// its tokens twice.
func TestTruncatedTranscriptCountsOnce(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "projects", "-p")
	os.MkdirAll(dir, 0o755)
	path := filepath.Join(dir, "s1.jsonl")
	line := `{"type":"assistant","sessionId":"s1","cwd":"/p","timestamp":"2026-01-01T10:00:00Z","message":{"id":"m%d","role":"assistant","model":"claude-opus-4-5","content":[{"type":"text","text":"hi"}],"usage":{"input_tokens":10,"output_tokens":%d}}}` + "\n"
	appendFile(t, path, fmt.Sprintf(line, 1, 100)+fmt.Sprintf(line, 2, 100)+fmt.Sprintf(line, 3, 100))
	w := New(Options{ClaudeDir: root, Project: "/p"})
	w.Poll()
	if got := w.Report().Sessions[0].Tokens.Output; got != 300 {
		t.Fatalf("before: %d", got)
	}
	os.WriteFile(path, []byte(fmt.Sprintf(line, 9, 7)), 0o644)
	w.Poll()
	s := w.Report().Sessions[0]
	if s.Tokens.Output != 7 || s.Turns != 1 || len(s.Notes) != 1 || !strings.Contains(s.Notes[0], "truncated") {
		t.Fatalf("after truncation: tokens %d turns %d notes %q", s.Tokens.Output, s.Turns, s.Notes)
	}
}

// The run as it happens: every transcript line and every log line appended in time
// order to a fresh project, the watcher polling as they come. Right after each change
// is logged — its call still running, its output not yet in the transcript — the
// change is already tied to its agent; at the end every change is.
func TestLiveRunAttributedAsItHappens(t *testing.T) {
	root := t.TempDir()
	project := filepath.Join(root, "knights")
	contents := filepath.Join(project, "contents")
	if err := os.CopyFS(contents, os.DirFS(testutil.DemoDir())); err != nil {
		t.Fatal(err)
	}
	entries := demoEntries(t, contents)
	logPath := filepath.Join(contents, "history", "log.jsonl")
	logLines := strings.Split(strings.TrimSpace(readString(t, logPath)), "\n")
	claude := filepath.Join(root, "claude")
	var events []runEvent
	liveSink = &events
	writeRun(t, claude, contents, project)
	liveSink = nil
	if err := os.WriteFile(logPath, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for i, e := range entries {
		at, _ := time.Parse(time.RFC3339, e.At)
		events = append(events, runEvent{rel: "log", at: at, line: logLines[i]})
	}
	slices.SortStableFunc(events, func(a, b runEvent) int { return a.at.Compare(b.at) })

	w := New(Options{ClaudeDir: claude, Project: project, ScanEvery: time.Nanosecond})
	logged := 0
	for i, ev := range events {
		path := filepath.Join(claude, ev.rel)
		if ev.rel == "log" {
			path = logPath
		}
		os.MkdirAll(filepath.Dir(path), 0o755)
		appendFile(t, path, ev.line+"\n")
		if ev.rel != "log" && i%3 != 0 {
			continue // poll every few lines, and at each change
		}
		w.Poll()
		if ev.rel != "log" {
			continue
		}
		e := entries[logged]
		logged++
		atts := Attribute(entries[:logged], w.Report().Calls, 0)
		a := atts[logged-1]
		switch {
		case e.By == "human" && a.Call != nil:
			t.Errorf("%s by a human tied to %s", e.ID, a.Call.Role)
		case e.By != "human" && (a.Call == nil || a.Call.Role != e.By):
			t.Errorf("%s by %s, as it was logged: tied to %+v", e.ID, e.By, a.Call)
		case e.By != "human" && a.Call.End.IsZero() == false:
			t.Errorf("%s: its call should still be running when the change is logged", e.ID)
		}
	}
	w.Poll()
	if logged != len(entries) {
		t.Fatalf("%d of %d changes logged", logged, len(entries))
	}
	checkAttribution(t, entries, w.Report())
}

func readString(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestScriptSkill(t *testing.T) {
	for cmd, want := range map[string]string{
		`venv-python src/state.py --id s-001 --status validating --validation.issues Append "[Issue #1] …"`:                        "check-reject-proof",
		`venv-python src/state.py --id s-001 --status true --reliability 1.0 --progresses Append "VERIFIED: …"`:                    "check-confirm-proof",
		`venv-python src/state.py --id s-001 --status validating --proof.full "…" --validation.responses Append "[Response #1] …"`: "fix-patch-proof",
		`venv-python src/state.py --id s-001 --status validating --proof.full "…" --progresses Append "PROOF: …"`:                  "state-complete-proof",
		`venv-python src/state.py --id s-001 --status false --progresses Append "COUNTEREXAMPLE: …"`:                               "state-mark-false",
		`venv-python src/current.py`:                                        "",
		`venv-python src/prob.py --id p-001 --preliminaries Append "p-002"`: "",
	} {
		if got := scriptSkill(cmd); got != want {
			t.Errorf("%s: %q, want %q", cmd, got, want)
		}
	}
}
