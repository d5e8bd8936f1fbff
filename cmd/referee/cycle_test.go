package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"referee/internal/testutil"
)

// The whole agent cycle from the shell: a problem is set up, the solver states the
// claim, the prover proves it, the checker finds a gap, the fixer patches it, the
// checker confirms, the solver finishes the problem. After every step `referee status`
// must name the agent the orchestrator runs next (the problem stays actionable for the
// solver throughout: only its preliminaries hold it back), and at the end every file of the
// folder must be byte for byte the golden copy under testdata/.

type step struct {
	args   []string
	stdout string
	next   string // `status` next after the step: "agent id depth", "" when nothing
}

const (
	claim     = "The unique solution to the puzzle is: Olivia is a Knave, Alice is a Spy, and Ivy is a Knave"
	proofV1   = "We check every assignment of roles.\n\nStep 1: Alice is not a Knight, since a Knight cannot say she is a spy.\n\nStep 2: Therefore Alice is the Spy, and Olivia and Ivy, who claim her role, are Knaves. QED."
	proofV2   = "We check every assignment of roles.\n\nStep 1: Alice is not a Knight, since a Knight cannot say she is a spy.\n\nStep 2: Alice is not a Knave either: a Knave saying \"I am a spy\" would be telling the truth.\n\nStep 3: Therefore Alice is the Spy, and Olivia and Ivy, who claim her role, are Knaves. QED."
	gapText   = "Therefore Alice is the Spy, and Olivia and Ivy, who claim her role, are Knaves."
	verifyMsg = "3 steps checked, all valid"
)

func cycleSteps(pid, sid, lastChange string, changeIDs []string, solved string) []step {
	l := func(i int) string { return changeIDs[i] }
	return []step{
		{[]string{"skill", "prob-core-statement", "--actor", "agent-solve", "--problem-id", pid, "--claim", claim,
			"--premises", "(s-001) Each player is either a Knight (always tells truth), Knave (always lies), or Spy (can lie or tell truth)",
			"--premises", "(s-003) Alice says: I am a spy", "--purpose", "It names the role of every player"},
			l(0) + " prob-wrapup-statement by agent-solve: created " + sid + "; modified " + pid + "\n", "agent-prove " + sid + " 1, agent-solve " + pid + " 0"},
		{[]string{"skill", "state-complete-proof", "--actor", "agent-prove", "--statement-id", sid, "--strategy", "case_analysis",
			"--proof-text", proofV1, "--proof-ref", "s-001", "--proof-ref", "s-003", "--proof-cot", "Alice's claim decides her role"},
			l(1) + " state-complete-proof by agent-prove: modified " + sid + "\n", "agent-check " + sid + " 1, agent-solve " + pid + " 0"},
		{[]string{"skill", "check-reject-proof", "--actor", "agent-check", "--statement-id", sid, "--sentence-number", "3",
			"--sentence-text", gapText, "--error-type", "unjustified_leap",
			"--explanation", "Step 1 rules out a Knight only; a Knave | Spy split is never examined",
			"--suggested-fix", "Rule out that Alice is a Knave"},
			l(2) + " check-reject-proof by agent-check: modified " + sid + "\n", "agent-fix " + sid + " 1, agent-solve " + pid + " 0"},
		{[]string{"skill", "fix-patch-proof", "--actor", "agent-fix", "--statement-id", sid, "--issue-number", "1",
			"--updated-proof", proofV2, "--change-description", "Added Step 2: Alice is not a Knave"},
			l(3) + " fix-patch-proof by agent-fix: modified " + sid + "\n", "agent-check " + sid + " 1, agent-solve " + pid + " 0"},
		{[]string{"skill", "check-confirm-proof", "--actor", "agent-check", "--statement-id", sid, "--verification-summary", verifyMsg},
			l(4) + " check-confirm-proof by agent-check: modified " + sid + "\n", "agent-solve " + pid + " 0"},
		{[]string{"skill", "prob-finish-up", "--actor", "agent-solve", "--problem-id", pid, "--key-statement-id", sid,
			"--resolution", sid + " is true and names the role of every player, which is the objective.",
			"--cot", sid + " proves the roles by cases", "--cot", "This answers the objective"},
			lastChange + " prob-finish-up by agent-solve: modified " + pid + "\n", solved},
	}
}

func runSteps(t *testing.T, root string, steps []step) {
	t.Helper()
	for _, s := range steps {
		referee(t, root, "", s.args...).want(t, 0, s.stdout, "")
		o := referee(t, root, "", "status", "--output", "json")
		var st struct {
			Next []struct {
				ID, Agent string
				Depth     int
			}
		}
		if err := json.Unmarshal([]byte(o.stdout), &st); err != nil {
			t.Fatal(err)
		}
		var next []string
		for _, n := range st.Next {
			next = append(next, n.Agent+" "+n.ID+" "+itoa(n.Depth))
		}
		if got := strings.Join(next, ", "); got != s.next {
			t.Errorf("after %s %s: next is %q, want %q", s.args[0], s.args[1], got, s.next)
		}
	}
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// golden compares a folder's files with testdata/<name>/ (or rewrites it with -update).
// keep, when set, selects the files that belong to the golden copy.
func golden(t *testing.T, name string, got map[string]string, keep func(path string) bool) {
	t.Helper()
	dir := filepath.Join("testdata", name)
	sel := map[string]string{}
	for p, data := range got {
		if keep == nil || keep(p) {
			sel[p] = data
		}
	}
	if *update {
		if err := os.RemoveAll(dir); err != nil {
			t.Fatal(err)
		}
		for p, data := range sel {
			writeFile(t, filepath.Join(dir, filepath.FromSlash(p)), data)
		}
		return
	}
	sameTree(t, sel, testutil.Files(t, dir))
}

// On a fresh folder, in the vocabulary a fresh folder uses: the agents' own today (P014).
func TestAgentCycleFreshFolder(t *testing.T) {
	root := t.TempDir()
	referee(t, root, "", append([]string{"init"}, knights...)...).want(t, 0,
		"l-001 init by agent: created s-001, s-002, s-003, s-004, s-005, s-006, p-001\n", "")
	runSteps(t, root, cycleSteps("p-001", "s-007", "l-007",
		[]string{"l-002", "l-003", "l-004", "l-005", "l-006"}, ""))
	dir := filepath.Join(root, "contents")
	got := testutil.Files(t, dir)
	golden(t, "cycle-fresh", got, nil)

	// Spot checks on the golden bytes, so that an -update cannot hide a regression.
	if !strings.Contains(got["statement/s-007.json"], `"status": "true",
    "reliability": 1.0,`) {
		t.Error("s-007 is not true with reliability 1.0")
	}
	for _, frag := range []string{
		`"[Issue #1] Sentence 3: 'Therefore Alice is the Spy, and Olivia and Ivy, who claim her role, are Knaves.' | Type: unjustified_leap | Explanation: Step 1 rules out a Knight only; a Knave | Spy split is never examined | Fix: Rule out that Alice is a Knave"`,
		`"[Response #1] Fixes Issue #1 | Type: patch | Change: Added Step 2: Alice is not a Knave"`,
		`"PROOF: Case analysis proof with 2 steps"`,
		`"VERIFIED: 3 steps checked, all valid"`,
	} {
		if !strings.Contains(got["statement/s-007.json"], frag) {
			t.Errorf("s-007 lacks %s", frag)
		}
	}
	// The backups hold each object as it was before each change.
	if !strings.Contains(got["history/l-003/s-007.json"], `"status": "pending"`) ||
		!strings.Contains(got["history/l-004/s-007.json"], `"status": "validating"`) ||
		!strings.Contains(got["history/l-005/s-007.json"], `"status": "validating"`) ||
		!strings.Contains(got["history/l-006/s-007.json"], `"status": "validating"`) ||
		!strings.Contains(got["history/l-007/p-001.json"], `"status": "unresolved"`) ||
		got["history/l-002/p-001.json"] != readFile(t, filepath.Join(fixture, "history/l-003/p-001.json")) {
		t.Error("a backup does not hold the object as it was before its change")
	}
	if !strings.Contains(got["problem/p-001.json"], `"status": "resolved",`) {
		t.Error("p-001 is not resolved")
	}
	wantLog := `{"l-001": {"creation": ["s-001", "s-002", "s-003", "s-004", "s-005", "s-006", "p-001"], "modification": []}, "current": ["p-001", "s-006", "e-000"], "at": "2026-01-08T12:00:00Z", "by": "agent", "skill": "init"}
{"l-002": {"creation": ["s-007"], "modification": ["p-001"]}, "current": ["p-001", "s-007", "e-000"], "at": "2026-01-08T12:00:00Z", "by": "agent-solve", "skill": "prob-wrapup-statement"}
{"l-003": {"creation": [], "modification": ["s-007"]}, "current": ["p-001", "s-007", "e-000"], "at": "2026-01-08T12:00:00Z", "by": "agent-prove", "skill": "state-complete-proof"}
{"l-004": {"creation": [], "modification": ["s-007"]}, "current": ["p-001", "s-007", "e-000"], "at": "2026-01-08T12:00:00Z", "by": "agent-check", "skill": "check-reject-proof"}
{"l-005": {"creation": [], "modification": ["s-007"]}, "current": ["p-001", "s-007", "e-000"], "at": "2026-01-08T12:00:00Z", "by": "agent-fix", "skill": "fix-patch-proof"}
{"l-006": {"creation": [], "modification": ["s-007"]}, "current": ["p-001", "s-007", "e-000"], "at": "2026-01-08T12:00:00Z", "by": "agent-check", "skill": "check-confirm-proof"}
{"l-007": {"creation": [], "modification": ["p-001"]}, "current": ["p-001", "s-007", "e-000"], "at": "2026-01-08T12:00:00Z", "by": "agent-solve", "skill": "prob-finish-up"}
`
	if withoutVersions(got["history/log.jsonl"]) != wantLog {
		t.Errorf("log:\n%s\nwant:\n%s", got["history/log.jsonl"], wantLog)
	}
	if got["config.json"] != "{\n    \"p\": \"p-001\",\n    \"s\": \"s-007\",\n    \"e\": \"e-000\",\n    \"l\": \"l-007\"\n}" {
		t.Errorf("config.json:\n%s", got["config.json"])
	}
	referee(t, root, "", "check").want(t, 0, "0 errors, 0 warnings\n", "")
	referee(t, root, "", "show", "s-007").want(t, 0, readGolden(t, "show-s-007.txt", func() string {
		return referee(t, root, "", "show", "s-007").stdout
	}), "")
	referee(t, root, "", "show", "p-001").want(t, 0, readGolden(t, "show-p-001.txt", func() string {
		return referee(t, root, "", "show", "p-001").stdout
	}), "")
	referee(t, root, "", "show", "l-004").want(t, 0, `l-004  change (line 4 of history/log.jsonl)
by agent-check with check-reject-proof at 2026-01-08T12:00:00Z
created: none
modified: s-007 (backups in history/l-004/)
current: p-001, s-007, e-000
`, "")
}

func readGolden(t *testing.T, name string, make func() string) string {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		writeFile(t, path, make())
	}
	return readFile(t, path)
}

// On a copy of the agents' own run, in its later vocabulary (P014): a second problem is
// added with init --add and goes through the same cycle; the fixture's own files stay
// untouched.
func TestAgentCycleOnTheFixture(t *testing.T) {
	root := copyFixture(t)
	referee(t, root, "", "init", "--add", "--actor", "human",
		"--objective", "Determine the role of each player once more, by a shorter argument",
		"--hypothesis", "Alice says: I am a spy").want(t, 0,
		"l-007 init by human: created s-008, p-002\n", "")
	runSteps(t, root, cycleSteps("p-002", "s-009", "l-013",
		[]string{"l-008", "l-009", "l-010", "l-011", "l-012"}, ""))
	got := testutil.Files(t, filepath.Join(root, "contents"))
	fixtureFiles := testutil.Files(t, fixture)
	golden(t, "cycle-fixture", got, func(p string) bool {
		orig, ok := fixtureFiles[p]
		return !ok || orig != got[p]
	})
	// Only config.json and the log changed among the fixture's files.
	for p, orig := range fixtureFiles {
		if got[p] != orig && p != "config.json" && p != "history/log.jsonl" {
			t.Errorf("%s changed", p)
		}
	}
	if !strings.HasPrefix(withoutVersions(got["history/log.jsonl"]), readFile(t, filepath.Join(fixture, "history/log.jsonl"))) {
		t.Error("the log was not appended to")
	}
	// The later vocabulary: validating throughout, resolved at the end.
	for _, c := range []struct{ path, status string }{
		{"history/l-010/s-009.json", "validating"}, {"history/l-011/s-009.json", "validating"},
		{"history/l-012/s-009.json", "validating"}, {"statement/s-009.json", "true"},
		{"history/l-013/p-002.json", "unresolved"}, {"problem/p-002.json", "resolved"},
	} {
		if !strings.Contains(got[c.path], `"status": "`+c.status+`",`) {
			t.Errorf("%s: status is not %s:\n%s", c.path, c.status, got[c.path])
		}
	}
	// The second problem proves the very claim s-007 already holds: check says so.
	referee(t, root, "", "check").want(t, 0, "warning: statement/s-009.json: s-009: re-tread: its claim repeats s-007, which already holds (true) (similarity 1.00)\n0 errors, 1 warning\n", "")
}

// init --vocabulary P013 sets a folder up for the seed-era vocabulary: its first objects
// cannot show it, so init's log line records it, and every write after uses P013 words.
func TestAgentCycleFreshFolderP013(t *testing.T) {
	root := t.TempDir()
	referee(t, root, "", append([]string{"init", "--vocabulary", "P013"}, knights...)...).want(t, 0,
		"l-001 init by agent: created s-001, s-002, s-003, s-004, s-005, s-006, p-001\n", "")
	runSteps(t, root, cycleSteps("p-001", "s-007", "l-007",
		[]string{"l-002", "l-003", "l-004", "l-005", "l-006"}, ""))
	got := testutil.Files(t, filepath.Join(root, "contents"))
	if !strings.HasPrefix(withoutVersions(got["history/log.jsonl"]), `{"l-001": {"creation": ["s-001", "s-002", "s-003", "s-004", "s-005", "s-006", "p-001"], "modification": []}, "current": ["p-001", "s-006", "e-000"], "at": "2026-01-08T12:00:00Z", "by": "agent", "skill": "init", "vocabulary": "P013"}`+"\n") {
		t.Errorf("init's log line does not record P013:\n%s", got["history/log.jsonl"])
	}
	if !strings.Contains(got["history/l-004/s-007.json"], `"status": "awaiting_verification"`) ||
		!strings.Contains(got["history/l-005/s-007.json"], `"status": "has_gap"`) ||
		!strings.Contains(got["history/l-006/s-007.json"], `"status": "awaiting_verification"`) ||
		!strings.Contains(got["problem/p-001.json"], `"status": "solved",`) {
		t.Error("the writes did not keep the seed-era vocabulary")
	}
	referee(t, root, "", "init", "--vocabulary", "P015", "--objective", "x").want(t, 2, "",
		"referee: --vocabulary: \"P015\" is not P014 or P013\n")
}
