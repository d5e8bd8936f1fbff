package agents

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"referee/internal/testutil"
	"referee/model"
)

// The transcripts under testdata/claude are written by writeRun from the demo run's
// log (contents/history/log.jsonl): the orchestrator dispatches each change's agent,
// which reasons, makes the skill call and reports. `go test ./sessions -run
// TestTestdataIsGenerated -update` writes them again; the test fails when they drift.

var update = flag.Bool("update", false, "write testdata/claude again")

const (
	demoProject  = "/work/mra-demo"
	demoSession  = "7f3c2a10-5b1e-4c2d-9a8e-2f6d1c0b9e41"
	oldSession   = "0b5e9d22-1c3a-4f7e-8d6b-3a2c1e0f9d87" // an older version: sidechains inline
	otherSession = "c4d8e6f0-2a1b-4c3d-8e9f-0a1b2c3d4e5f" // /work/mra/demo: same slug, not ours
	slug         = "-work-mra-demo"
	demoModel    = "claude-opus-4-5-20251101"
)

type genWriter struct {
	lines []string
	times []time.Time
	sid   string
	cwd   string
	agent string
	side  bool
	prev  string
	n     int
}

func (g *genWriter) add(typ string, at time.Time, msg map[string]any, extra map[string]any) string {
	g.n++
	uuid := fmt.Sprintf("%08x-0000-4000-8000-%012x", len(g.sid)*1000+g.n, g.n)
	if g.agent != "" {
		uuid = fmt.Sprintf("%s-%04d", g.agent, g.n)
	}
	line := map[string]any{
		"type": typ, "uuid": uuid, "sessionId": g.sid, "cwd": g.cwd,
		"timestamp": at.UTC().Format("2006-01-02T15:04:05.000Z"), "isSidechain": g.side,
		"userType": "external", "version": "2.0.50", "gitBranch": "main",
	}
	if g.prev == "" {
		line["parentUuid"] = nil
	} else {
		line["parentUuid"] = g.prev
	}
	if g.agent != "" {
		line["agentId"] = g.agent
	}
	if msg != nil {
		line["message"] = msg
	}
	for k, v := range extra {
		line[k] = v
	}
	g.prev = uuid
	b, err := json.Marshal(line)
	if err != nil {
		panic(err)
	}
	g.lines = append(g.lines, string(b))
	g.times = append(g.times, at)
	return uuid
}

func (g *genWriter) user(at time.Time, content any) {
	g.add("user", at, map[string]any{"role": "user", "content": content}, nil)
}

var msgN int

func (g *genWriter) assistant(at time.Time, usage [4]int64, blocks ...map[string]any) {
	msgN++
	id := fmt.Sprintf("msg_01demo%06d", msgN)
	// One line per content block, each repeating the response's usage, as Claude Code
	// writes them.
	for i, b := range blocks {
		stop := any(nil)
		if i == len(blocks)-1 {
			if b["type"] == "tool_use" {
				stop = "tool_use"
			} else {
				stop = "end_turn"
			}
		}
		g.add("assistant", at, map[string]any{
			"id": id, "type": "message", "role": "assistant", "model": demoModel,
			"content": []any{b}, "stop_reason": stop,
			"usage": map[string]any{"input_tokens": usage[0], "output_tokens": usage[1],
				"cache_creation_input_tokens": usage[2], "cache_read_input_tokens": usage[3]},
		}, map[string]any{"requestId": "req_" + id})
	}
}

func text(s string) map[string]any { return map[string]any{"type": "text", "text": s} }
func thinking(s string) map[string]any {
	return map[string]any{"type": "thinking", "thinking": s, "signature": "sig"}
}
func toolUse(id, name string, input any) map[string]any {
	return map[string]any{"type": "tool_use", "id": id, "name": name, "input": input}
}
func toolResult(id, out string) []any {
	return []any{map[string]any{"type": "tool_result", "tool_use_id": id, "content": out}}
}

var issueRe = regexp.MustCompile(`^\[Issue #\d+\] Sentence (\d+): '(.*?)' \| Type: (\w+) \| Explanation: (.*?) \| Fix: (.*)$`)

// writeRun writes the demo run's transcripts under dir (a Claude config folder) and
// returns the relative paths written.
func writeRun(t testing.TB, dir, contents, project string) []string {
	msgN = 0
	data, err := os.ReadFile(filepath.Join(contents, "history", "log.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var entries []model.LogEntry
	for i, l := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		entries = append(entries, model.ParseLogLine(i+1, l))
	}
	issuesUsed := map[string]int{}
	issueOf := func(id string) (n, sentence, kind, why, fix string) {
		raw, err := os.ReadFile(filepath.Join(contents, "statement", id+".json"))
		if err != nil {
			t.Fatal(err)
		}
		var st struct {
			Validation struct{ Issues []string } `json:"validation"`
		}
		json.Unmarshal(raw, &st)
		i := issuesUsed[id]
		issuesUsed[id]++
		if i >= len(st.Validation.Issues) {
			i = len(st.Validation.Issues) - 1
		}
		m := issueRe.FindStringSubmatch(st.Validation.Issues[i])
		if m == nil {
			t.Fatalf("%s: issue %q not in the skill's format", id, st.Validation.Issues[i])
		}
		return m[1], m[2], m[3], m[4], m[5]
	}

	main := &genWriter{sid: demoSession, cwd: project}
	files := map[string]*genWriter{}
	var order []string
	start, _ := time.Parse(time.RFC3339, entries[0].At)
	main.add("file-history-snapshot", start.Add(-time.Minute), nil, map[string]any{"snapshot": map[string]any{}})
	main.user(start.Add(-50*time.Second), "/start Solve the puzzle in puzzle.md.")
	main.assistant(start.Add(-45*time.Second), [4]int64{3, 120, 9000, 14000},
		thinking("The human asked to start. I check the status first."),
		toolUse("toolu_orch_status", "Bash", map[string]any{"command": "venv-python src/current.py", "description": "Show current status"}))
	main.user(start.Add(-44*time.Second), toolResult("toolu_orch_status", "p-001: unresolved\nlog: l-001"))

	agentN := 0
	for i, e := range entries {
		if e.By == "human" {
			continue
		}
		at, _ := time.Parse(time.RFC3339, e.At)
		agentN++
		agentID := fmt.Sprintf("a%06x", 0x3f1a00+agentN)
		target := e.Modification
		if len(target) == 0 {
			target = e.Creation
		}
		obj := target[0]
		dispatch := map[string]string{
			"agent-solve": "Call agent-solve to work on problem [%s]",
			"agent-prove": "Call agent-prove to work on statement [%s]",
			"agent-check": "Call agent-check to verify statement [%s]",
			"agent-fix":   "Call agent-fix to fix gap in statement [%s]",
		}[e.By]
		prompt := fmt.Sprintf(dispatch, obj)
		taskID := fmt.Sprintf("toolu_task_%03d", i)
		t0 := at.Add(-90 * time.Second)
		main.assistant(t0, [4]int64{2, 80, 600, 23000 + int64(i)*500},
			text(fmt.Sprintf("Next: %s on %s.", e.By, obj)),
			toolUse(taskID, "Task", map[string]any{"description": e.By + " " + obj, "subagent_type": e.By, "prompt": prompt}))

		sub := &genWriter{sid: demoSession, cwd: project, agent: agentID, side: true}
		name := "agent-" + agentID + ".jsonl"
		files[name] = sub
		order = append(order, name)
		sub.user(t0.Add(time.Second), prompt)
		sub.assistant(t0.Add(10*time.Second), [4]int64{5, 300, 4000, 11000},
			thinking("I read the statement file first."),
			toolUse(fmt.Sprintf("toolu_read_%03d", i), "Read", map[string]any{"file_path": project + "/contents/statement/" + obj + ".json"}))
		sub.user(t0.Add(11*time.Second), toolResult(fmt.Sprintf("toolu_read_%03d", i), `{"id": "`+obj+`", "status": "validating"}`))

		analysis := fmt.Sprintf("ANALYSIS:\n- Object: %s\n- The work this change records (%s).", obj, e.Skill)
		report := map[string]string{
			"check-confirm-proof":        "VERIFIED: Statement %s proof is valid.",
			"state-complete-proof":       "PROOF SUBMITTED: Statement %s",
			"state-setup-substatement":   "DECOMPOSED: Statement %s split into sub-statements",
			"fix-patch-proof":            "FIXED: Statement %s patched, awaiting re-verification",
			"fix-create-substatement":    "SUB-STATEMENT CREATED: for the gap in %s",
			"state-mark-false":           "FALSE: Statement %s has a counterexample",
			"state-propose-modification": "MODIFICATION PROPOSED: Statement %s needs revision",
			"prob-wrapup-statement":      "STATEMENT CREATED: for problem %s",
			"prob-setup-subgoal":         "DECOMPOSED: Problem %s has a subgoal",
			"prob-finish-up":             "RESOLVED: Problem %s",
		}[e.Skill]
		report = fmt.Sprintf(report, obj)
		var callName string
		var input any
		var out string
		callID := fmt.Sprintf("toolu_skill_%03d", i)
		switch {
		case e.Skill == "check-reject-proof":
			n, sentence, kind, why, fix := issueOf(obj)
			analysis = fmt.Sprintf("SENTENCE-BY-SENTENCE ANALYSIS:\nSENTENCE %s: %q\nStatus: INVALID\n%s\n\nVERDICT: INVALID at sentence %s", n, sentence, why, n)
			report = fmt.Sprintf("REJECTED: Statement %s proof has a gap at sentence %s.\nError type: %s\nIssue: %s\nSuggested fix: %s", obj, n, kind, why, fix)
			issue := fmt.Sprintf("[Issue #1] Sentence %s: '%s' | Type: %s | Explanation: %s | Fix: %s", n, sentence, kind, why, fix)
			if i%2 == 0 {
				callName = "Bash"
				input = map[string]any{"command": fmt.Sprintf("venv-python src/state.py --id %s --status validating --validation.issues Append %q", obj, issue), "description": "Record the gap"}
				out = fmt.Sprintf("Updated %s [status,validation] (log: %s)", obj, e.ID)
			} else {
				callName = "mcp__referee__check_reject_proof"
				input = map[string]any{"statement_id": obj, "sentence_number": n, "sentence_text": sentence, "error_type": kind, "explanation": why, "suggested_fix": fix}
				out = fmt.Sprintf(`{"change": %q, "skill": "check-reject-proof", "objects": [%q]}`, e.ID, obj)
			}
		case i%3 == 0:
			callName = "Bash"
			input = map[string]any{"command": fmt.Sprintf("referee skill %s --statement-id %s --actor %s", e.Skill, obj, e.By)}
			out = fmt.Sprintf("%s %s by %s: %s", e.ID, e.Skill, e.By, strings.Join(append(slicesClone(e.Creation), e.Modification...), ", "))
		case i%3 == 1:
			callName = "Bash"
			script := "state"
			if strings.HasPrefix(obj, "p-") {
				script = "prob"
			}
			input = map[string]any{"command": fmt.Sprintf("venv-python src/%s.py --id %s --progresses Append %q", script, obj, report)}
			out = fmt.Sprintf("Updated %s [progresses] (log: %s)", obj, e.ID)
		default:
			// An output that names no change: tied by objects and time.
			callName = "Bash"
			input = map[string]any{"command": fmt.Sprintf("venv-python src/state.py --id %s --status validating", obj)}
			out = "Done."
		}
		if i == 14 { // hostile text: escape sequences, an OSC 52 clipboard write, bidi
			analysis += "\n\x1b]52;c;cm0gLXJmIH4=\x07\x1b[2J\x1b[31mred\x1b[0m \u202edetalumis\u202c"
		}
		sub.assistant(at.Add(-20*time.Second), [4]int64{8, 900, 2500, 15000},
			thinking("Working through the argument."),
			text(analysis),
			toolUse("toolu_skill_load_"+fmt.Sprint(i), "Skill", map[string]any{"skill": e.Skill}))
		sub.user(at.Add(-19*time.Second), toolResult("toolu_skill_load_"+fmt.Sprint(i), "Launching skill: "+e.Skill))
		sub.assistant(at.Add(-3*time.Second), [4]int64{4, 200, 300, 17500},
			toolUse(callID, callName, input))
		sub.user(at.Add(time.Second), toolResult(callID, out))
		sub.assistant(at.Add(15*time.Second), [4]int64{3, 150, 200, 18000}, text(report))
		main.user(at.Add(16*time.Second), []any{map[string]any{"type": "tool_result", "tool_use_id": taskID,
			"content": []any{text(report), text("agentId: " + agentID + " (for resuming to continue this agent's work if needed)")}}})
		if i == 18 { // a compaction of the orchestrator's context
			main.add("system", at.Add(20*time.Second), nil, map[string]any{"subtype": "compact_boundary", "content": "Conversation compacted",
				"compactMetadata": map[string]any{"trigger": "auto", "preTokens": 155000}, "level": "info"})
			main.add("user", at.Add(21*time.Second), map[string]any{"role": "user", "content": "This session is being continued from a previous conversation that ran out of context. Summary: s-010 verified, s-009 fixed."},
				map[string]any{"isCompactSummary": true})
		}
	}
	// The last dispatch never answers: agent-check on s-014 went silent (a stall).
	last, _ := time.Parse(time.RFC3339, entries[len(entries)-1].At)
	main.assistant(last.Add(30*time.Second), [4]int64{2, 60, 400, 30000},
		toolUse("toolu_task_stall", "Task", map[string]any{"description": "agent-check s-014", "subagent_type": "agent-check", "prompt": "Call agent-check to verify statement [s-014]"}))
	stall := &genWriter{sid: demoSession, cwd: project, agent: "a3f1fff", side: true}
	files["agent-a3f1fff.jsonl"] = stall
	order = append(order, "agent-a3f1fff.jsonl")
	stall.user(last.Add(31*time.Second), "Call agent-check to verify statement [s-014]")
	stall.assistant(last.Add(40*time.Second), [4]int64{5, 400, 4000, 11000},
		thinking("SENTENCE 1 looks fine; reading sentence 2."),
		toolUse("toolu_stall_read", "Read", map[string]any{"file_path": project + "/contents/statement/s-014.json"}))

	var written []string
	write := func(rel string, g *genWriter, tail string) {
		lines := g.lines
		if liveSink != nil { // the live test writes the lines itself, in time order
			for i, l := range lines {
				*liveSink = append(*liveSink, runEvent{rel: rel, at: g.times[i], line: l})
			}
			return
		}
		path := filepath.Join(dir, rel)
		os.MkdirAll(filepath.Dir(path), 0o755)
		if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"+tail), 0o644); err != nil {
			t.Fatal(err)
		}
		written = append(written, rel)
	}
	base := filepath.Join("projects", slug)
	// The main transcript ends in a half-written line.
	write(filepath.Join(base, demoSession+".jsonl"), main, `{"type":"assistant","uuid":"half","sessionId":"`+demoSession+`","message":{"role":"assist`)
	for _, name := range order {
		write(filepath.Join(base, demoSession, "subagents", name), files[name], "")
	}

	// An older version's session: its subagent's lines are inline, isSidechain true.
	old := &genWriter{sid: oldSession, cwd: project}
	t1 := start.Add(-24 * time.Hour)
	old.add("summary", t1, nil, map[string]any{"summary": "Knights and knaves, first try", "leafUuid": "x"})
	old.user(t1, "/step 1 please check statement (s-004)")
	old.assistant(t1.Add(time.Second), [4]int64{3, 50, 1000, 0},
		toolUse("toolu_old_task", "Task", map[string]any{"description": "check s-004", "subagent_type": "agent-check", "prompt": "Call agent-check to verify statement [s-004]"}))
	side := &genWriter{sid: oldSession, cwd: project, side: true}
	side.n = 100
	side.user(t1.Add(2*time.Second), "Call agent-check to verify statement [s-004]")
	side.assistant(t1.Add(5*time.Second), [4]int64{4, 70, 500, 800}, text("VERIFIED: Statement s-004 proof is valid."))
	old.lines = append(old.lines, side.lines...)
	old.times = append(old.times, side.times...)
	old.user(t1.Add(6*time.Second), toolResult("toolu_old_task", "VERIFIED: Statement s-004 proof is valid."))
	old.assistant(t1.Add(7*time.Second), [4]int64{2, 20, 0, 1000}, text("Step done: s-004 verified."))
	write(filepath.Join(base, oldSession+".jsonl"), old, "")

	// Same slug, another folder: must not be taken.
	other := &genWriter{sid: otherSession, cwd: "/work/mra/demo"}
	other.user(start, "Call agent-check to verify statement [s-010]")
	write(filepath.Join(base, otherSession+".jsonl"), other, "")
	return written
}

// runEvent is one transcript line with its time, for the live test.
type runEvent struct {
	rel  string
	at   time.Time
	line string
}

// liveSink, when set, takes writeRun's lines instead of the files.
var liveSink *[]runEvent

func slicesClone(s []string) []string { return append([]string(nil), s...) }

func TestTestdataIsGenerated(t *testing.T) {
	dir := t.TempDir()
	written := writeRun(t, dir, testutil.DemoDir(), demoProject)
	for _, rel := range written {
		got, _ := os.ReadFile(filepath.Join(dir, rel))
		path := filepath.Join("testdata", "claude", rel)
		if *update {
			os.MkdirAll(filepath.Dir(path), 0o755)
			if err := os.WriteFile(path, got, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		want, err := os.ReadFile(path)
		if err != nil || string(want) != string(got) {
			t.Errorf("%s differs from what writeRun writes (go test ./sessions -run TestTestdataIsGenerated -update)", path)
		}
	}
}
