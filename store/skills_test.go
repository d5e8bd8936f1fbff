package store

import (
	"encoding/json"
	"errors"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"referee/internal/testutil"
	"referee/model"
	"referee/model/pyjson"
	"referee/skill"
)

var fixtureDir = testutil.Path("fixtures/mra-knights/contents")

var pinned = func() time.Time { return time.Date(2026, 11, 21, 8, 0, 0, 0, time.UTC) }

func read(t testing.TB, dir, rel string) string {
	t.Helper()
	testutil.Need(t, dir)
	data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(rel)))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func write(t testing.TB, dir, rel, data string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(rel)), []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

func run(t testing.TB, dir, name string, a skill.Args) (*Result, error) {
	t.Helper()
	s, ok := skill.Lookup(name)
	if !ok {
		t.Fatalf("no skill %s", name)
	}
	return Run(dir, s, a, Options{Actor: "human", Now: pinned})
}

// fileVersion is the version (model.Version) of a file in the folder.
func fileVersion(t testing.TB, dir, rel string) string {
	return model.Version([]byte(read(t, dir, rel)))
}

func lastLogLine(t testing.TB, dir string) string {
	lines := strings.Split(strings.TrimSuffix(read(t, dir, LogFile), "\n"), "\n")
	return lines[len(lines)-1]
}

// The agents' own run, replayed: from each backup, our skill must write exactly the
// bytes their tools wrote next.
func TestSkillsReproduceTheAgentsRun(t *testing.T) {
	dir := testutil.Copy(t, fixtureDir)
	final := testutil.Files(t, fixtureDir)
	// s-007 as it was before l-004 (pending), p-001 as before l-006 (unresolved).
	write(t, dir, "statement/s-007.json", final["history/l-004/s-007.json"])
	write(t, dir, "problem/p-001.json", final["history/l-006/p-001.json"])

	proof, _ := pyjson.Parse([]byte(final["statement/s-007.json"]))
	full, _ := proof.Get("proof")
	text, _ := full.Get("full")
	res, err := run(t, dir, "state-complete-proof", skill.Args{
		"statement_id": "s-007", "proof_text": text.Str, "strategy": "case_analysis",
		"proof_ref": []string{"s-001", "s-002", "s-003", "s-004", "s-005", "s-006"},
		"summary":   "showing consistency of proposed solution and contradiction in all alternatives",
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := read(t, dir, "statement/s-007.json"); got != final["history/l-005/s-007.json"] {
		t.Errorf("state-complete-proof wrote\n%s\nthe agents wrote\n%s", got, final["history/l-005/s-007.json"])
	}
	if res.Change != "l-007" || strings.Join(res.Modified, ",") != "s-007" || len(res.Created) != 0 {
		t.Errorf("result = %+v", res)
	}
	if got := read(t, dir, "history/l-007/s-007.json"); got != final["history/l-004/s-007.json"] {
		t.Error("backup of s-007 is not the file as it was before the change")
	}

	if _, err := run(t, dir, "check-confirm-proof", skill.Args{"statement_id": "s-007",
		"verification_summary": "27 steps checked, all valid. Case analysis proof correctly establishes unique solution."}); err != nil {
		t.Fatal(err)
	}
	if got := read(t, dir, "statement/s-007.json"); got != final["statement/s-007.json"] {
		t.Errorf("check-confirm-proof wrote\n%s\nthe agents wrote\n%s", got, final["statement/s-007.json"])
	}

	if _, err := run(t, dir, "prob-finish-up", skill.Args{"problem_id": "p-001", "key_statement_id": []string{"s-007"},
		"resolution": "The objective is directly answered by statement s-007 (status=true): The unique solution to the puzzle is Olivia is a Knave, Alice is a Spy, and Ivy is a Knave. This completely determines the role of each player as required.",
		"cot": []string{
			"s-007 proves via exhaustive case analysis that the unique solution is: Olivia=Knave, Alice=Spy, Ivy=Knave",
			"This directly answers the objective of determining each player's role",
		}}); err != nil {
		t.Fatal(err)
	}
	if got := read(t, dir, "problem/p-001.json"); got != final["problem/p-001.json"] {
		t.Errorf("prob-finish-up wrote\n%s\nthe agents wrote\n%s", got, final["problem/p-001.json"])
	}

	wantConfig := "{\n    \"p\": \"p-001\",\n    \"s\": \"s-007\",\n    \"e\": \"e-000\",\n    \"l\": \"l-009\"\n}"
	if got := read(t, dir, ConfigFile); got != wantConfig {
		t.Errorf("config.json = %s", got)
	}
	wantLog := final[LogFile] +
		`{"l-007": {"creation": [], "modification": ["s-007"]}, "current": ["p-001", "s-007", "e-000"], "at": "2026-11-21T08:00:00Z", "by": "human", "skill": "state-complete-proof", "versions": {"s-007": "3ef7a0c0"}}` + "\n" +
		`{"l-008": {"creation": [], "modification": ["s-007"]}, "current": ["p-001", "s-007", "e-000"], "at": "2026-11-21T08:00:00Z", "by": "human", "skill": "check-confirm-proof", "versions": {"s-007": "35c3a310"}}` + "\n" +
		`{"l-009": {"creation": [], "modification": ["p-001"]}, "current": ["p-001", "s-007", "e-000"], "at": "2026-11-21T08:00:00Z", "by": "human", "skill": "prob-finish-up", "versions": {"p-001": "7ba02523"}}` + "\n"
	if got := read(t, dir, LogFile); got != wantLog {
		t.Errorf("log.jsonl =\n%s\nwant\n%s", got, wantLog)
	}
}

// A statement in the P013 vocabulary taken through a whole review cycle.
func TestReviewCycleP013(t *testing.T) {
	dir := testutil.Copy(t, fixtureDir)
	// The folder as it was after l-001, set up by `init --vocabulary P013`: its objects
	// (pending, true, unresolved) cannot tell the vocabulary, init's log line does.
	if err := os.RemoveAll(filepath.Join(dir, "history")); err != nil {
		t.Fatal(err)
	}
	initLine := `{"l-001": {"creation": ["s-001", "s-002", "s-003", "s-004", "s-005", "s-006", "p-001"], "modification": []}, "current": ["p-001", "s-006", "e-000"], "vocabulary": "P013"}` + "\n"
	if err := os.MkdirAll(filepath.Join(dir, HistoryDir), 0o755); err != nil {
		t.Fatal(err)
	}
	write(t, dir, LogFile, initLine)
	write(t, dir, "problem/p-001.json", read(t, fixtureDir, "history/l-003/p-001.json"))
	res, err := run(t, dir, "prob-wrapup-statement", skill.Args{"problem_id": "p-001",
		"claim": []string{"Alice is the spy"}, "premises": []string{"(s-003) Alice says: I am a spy"}, "purpose": "settles Alice"})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(res.Created, ",") != "s-008" || strings.Join(res.Modified, ",") != "p-001" {
		t.Fatalf("wrap-up result %+v", res)
	}
	want := `{
    "id": "s-008",
    "type": "normal",
    "conclusion": [
        "Alice is the spy"
    ],
    "hypothesis": [
        "(s-003) Alice says: I am a spy"
    ],
    "preliminaries": [],
    "status": "pending",
    "reliability": 0.0,
    "stats": {
        "count_usage": 0
    },
    "progresses": [],
    "proof": {
        "cot": [],
        "full": "",
        "ref": []
    },
    "validation": {
        "issues": [],
        "responses": []
    }
}`
	if got := read(t, dir, "statement/s-008.json"); got != want {
		t.Errorf("new statement:\n%s", got)
	}
	if !strings.Contains(read(t, dir, "problem/p-001.json"), "\"progresses\": [\n        \"(s-008) Alice is the spy\"\n    ],") {
		t.Errorf("problem progresses not linked:\n%s", read(t, dir, "problem/p-001.json"))
	}
	if got := read(t, dir, LogFile); got != initLine+`{"l-007": {"creation": ["s-008"], "modification": ["p-001"]}, "current": ["p-001", "s-008", "e-000"], "at": "2026-11-21T08:00:00Z", "by": "human", "skill": "prob-wrapup-statement", "versions": {"s-008": "`+
		fileVersion(t, dir, "statement/s-008.json")+`", "p-001": "`+fileVersion(t, dir, "problem/p-001.json")+`"}}`+"\n" {
		t.Errorf("log line %s", got)
	}

	proof := "We argue by contradiction.\n\nStep 1: Suppose Alice is a Knight. Then \"I am a spy\" is true.\n\nStep 2: So Alice is a spy, not a Knight. QED."
	mustRun(t, dir, "state-complete-proof", skill.Args{"statement_id": "s-008", "proof_text": proof, "strategy": "contradiction"})
	s := statement(t, dir, "s-008")
	if s.Status != "awaiting_verification" || s.Progresses[0] != "PROOF: Contradiction proof with 2 steps" || s.Proof.Full != proof {
		t.Errorf("after complete-proof: status %q, progresses %q", s.Status, s.Progresses)
	}

	mustRun(t, dir, "check-reject-proof", skill.Args{"statement_id": "s-008", "sentence_number": 3,
		"sentence_text": "Then \"I am a spy\" is true.", "error_type": "gap",
		"explanation": "Knaves | spies are not ruled out", "suggested_fix": "Treat the Knave case"})
	s = statement(t, dir, "s-008")
	wantIssue := `[Issue #1] Sentence 3: 'Then "I am a spy" is true.' | Type: gap | Explanation: Knaves | spies are not ruled out | Fix: Treat the Knave case`
	if s.Status != "has_gap" || len(s.Issues) != 1 || s.Issues[0] != wantIssue {
		t.Errorf("after reject: %q %q", s.Status, s.Issues)
	}
	if err := runErr(t, dir, "check-confirm-proof", skill.Args{"statement_id": "s-008"}); err == nil ||
		err.Error() != `check-confirm-proof: s-008 is "has_gap"; it needs a submitted proof awaiting verification` {
		t.Errorf("confirm with an open gap: %v", err)
	}

	mustRun(t, dir, "fix-patch-proof", skill.Args{"statement_id": "s-008", "issue_number": 1,
		"updated_proof": proof + "\n\nStep 3: The Knave case is symmetric.", "change_description": "Added the Knave case"})
	s = statement(t, dir, "s-008")
	if s.Status != "awaiting_verification" || s.Responses[0] != "[Response #1] Fixes Issue #1 | Type: patch | Change: Added the Knave case" {
		t.Errorf("after patch: %q %q", s.Status, s.Responses)
	}
	if err := runErr(t, dir, "fix-patch-proof", skill.Args{"statement_id": "s-008", "issue_number": 1,
		"updated_proof": "x", "change_description": "y"}); err == nil ||
		err.Error() != `fix-patch-proof: s-008 is "awaiting_verification"; it needs issue #1 without a response, and it already has one` {
		t.Errorf("second patch of one issue: %v", err)
	}

	mustRun(t, dir, "check-reject-proof", skill.Args{"statement_id": "s-008", "sentence_number": 5,
		"sentence_text": "The Knave case is symmetric.", "error_type": "unjustified_leap", "explanation": "not symmetric", "suggested_fix": "prove it"})
	res = mustRun(t, dir, "fix-create-substatement", skill.Args{"parent_statement_id": "s-008", "issue_number": 2,
		"sub_claim": "If Alice is a Knave then she is not a spy", "sub_premises": []string{"(s-001) roles"},
		"gap_location": "sentence 5", "purpose": "covers the Knave case"})
	s = statement(t, dir, "s-008")
	if strings.Join(res.Created, ",") != "s-009" || s.Status != "awaiting_substatement" ||
		strings.Join(s.Preliminaries, ",") != "s-009" ||
		s.Responses[1] != "[Response #2] Fixes Issue #2 | Type: substatement | SubID: s-009 | Purpose: covers the Knave case" ||
		strings.Join(s.Progresses, "|") != "PROOF: Contradiction proof with 2 steps" { // the fixer writes no note
		t.Errorf("after create-substatement: %q %q %q %q", s.Status, s.Preliminaries, s.Responses, s.Progresses)
	}
	if err := runErr(t, dir, "check-confirm-proof", skill.Args{"statement_id": "s-008"}); err == nil {
		t.Error("confirmed while the sub-statement is pending")
	}
	mustRun(t, dir, "state-complete-proof", skill.Args{"statement_id": "s-009", "proof_text": "A Knave lies. QED.", "strategy": "direct"})
	mustRun(t, dir, "check-confirm-proof", skill.Args{"statement_id": "s-009"})
	mustRun(t, dir, "check-confirm-proof", skill.Args{"statement_id": "s-008", "verification_summary": "all steps hold"})
	s = statement(t, dir, "s-008")
	if s.Status != "true" || s.Reliability != 1 || s.Progresses[len(s.Progresses)-1] != "VERIFIED: all steps hold" {
		t.Errorf("after confirm: %q %v %q", s.Status, s.Reliability, s.Progresses)
	}
	if err := runErr(t, dir, "state-mark-false", skill.Args{"statement_id": "s-008", "counterexample": "x", "source": "prove"}); err == nil ||
		err.Error() != `state-mark-false: s-008 is "true"; it needs a statement not yet decided (not true, false or abandoned)` {
		t.Errorf("mark-false of a true statement: %v", err)
	}
	if got := read(t, dir, ConfigFile); !strings.Contains(got, `"s": "s-009"`) || !strings.Contains(got, `"l": "l-015"`) {
		t.Errorf("config %s", got)
	}
}

func mustRun(t testing.TB, dir, skill string, a skill.Args) *Result {
	t.Helper()
	res, err := run(t, dir, skill, a)
	if err != nil {
		t.Fatalf("%s: %v", skill, err)
	}
	return res
}

// runErr runs a skill that must fail, and proves it wrote nothing.
func runErr(t testing.TB, dir, skill string, a skill.Args) error {
	t.Helper()
	before := testutil.Files(t, dir)
	_, err := run(t, dir, skill, a)
	after := testutil.Files(t, dir)
	if len(before) != len(after) {
		t.Errorf("%s failed but the folder changed: %d files before, %d after", skill, len(before), len(after))
	}
	for k, v := range before {
		if after[k] != v {
			t.Errorf("%s failed but wrote %s", skill, k)
		}
	}
	return err
}

func statement(t testing.TB, dir, id string) *model.Statement {
	t.Helper()
	v, err := pyjson.Parse([]byte(read(t, dir, "statement/"+id+".json")))
	if err != nil {
		t.Fatal(err)
	}
	return model.StatementFrom(v)
}

// Every precondition is refused with an error naming the object, its status and the need.
func TestPreconditionsRefused(t *testing.T) {
	dir := testutil.Copy(t, fixtureDir)
	cases := []struct {
		skill string
		args  skill.Args
		want  string
	}{
		{"prob-wrapup-statement", skill.Args{"problem_id": "p-001", "claim": []string{"x"}}, `prob-wrapup-statement: p-001 is "resolved"; it needs an open problem (unresolved)`},
		{"prob-setup-subgoal", skill.Args{"parent_problem_id": "p-001", "subproblem_objective": []string{"x"}, "rationale": "r"}, `prob-setup-subgoal: p-001 is "resolved"; it needs an open problem (unresolved)`},
		{"prob-finish-up", skill.Args{"problem_id": "p-009", "resolution": "r", "key_statement_id": []string{"s-007"}}, `prob-finish-up: p-009 does not exist`},
		{"state-complete-proof", skill.Args{"statement_id": "s-007", "proof_text": "p", "strategy": "direct"}, `state-complete-proof: s-007 is "true"; it needs a statement open for proving (pending, with every sub-statement true, or under a proposed modification)`},
		{"state-setup-substatement", skill.Args{"parent_statement_id": "s-007", "sub_statements": []skill.SubStatement{{Claim: "c"}}, "rationale": "r"}, `state-setup-substatement: s-007 is "true"; it needs an open statement (not true, false or abandoned)`},
		{"state-mark-false", skill.Args{"statement_id": "s-001", "counterexample": "c", "source": "prove"}, `state-mark-false: s-001 is "true"; it needs a statement not yet decided (not true, false or abandoned)`},
		{"state-propose-modification", skill.Args{"statement_id": "s-007", "modification_type": "add_condition", "rationale": "r", "source": "fix"}, `state-propose-modification: s-007 is "true"; it needs a statement not yet decided (not true, false or abandoned)`},
		{"check-confirm-proof", skill.Args{"statement_id": "s-007"}, `check-confirm-proof: s-007 is "true"; it needs a submitted proof awaiting verification`},
		{"check-reject-proof", skill.Args{"statement_id": "s-007", "sentence_number": 1, "sentence_text": "t", "error_type": "gap", "explanation": "e", "suggested_fix": "f"}, `check-reject-proof: s-007 is "true"; it needs a submitted proof awaiting verification`},
		{"fix-patch-proof", skill.Args{"statement_id": "s-007", "issue_number": 1, "updated_proof": "p", "change_description": "c"}, `fix-patch-proof: s-007 is "true"; it needs a statement not yet decided`},
		{"fix-create-substatement", skill.Args{"parent_statement_id": "s-099", "issue_number": 1, "sub_claim": "c", "gap_location": "g", "purpose": "p"}, `fix-create-substatement: s-099 does not exist`},
		{"abandon", skill.Args{"statement_id": "s-404"}, `abandon: s-404 does not exist`},
		// Bad input: refused before the folder is touched.
		{"check-confirm-proof", skill.Args{"statement_id": "../../etc/passwd"}, `--statement-id: "../../etc/passwd" is not a statement ID (expected s-<letters><three digits>, e.g. s-007)`},
		{"check-confirm-proof", skill.Args{}, `check-confirm-proof needs --statement-id (the statement whose proof was checked)`},
		{"check-reject-proof", skill.Args{"statement_id": "s-007", "sentence_number": 1, "sentence_text": "t", "error_type": "typo", "explanation": "e", "suggested_fix": "f"}, `--error-type: "typo" is not one of gap, unjustified_leap, hidden_assumption, circular, scope_error, wrong_target`},
		{"abandon", skill.Args{"statement_id": "s-001", "colour": "red"}, `abandon has no parameter "colour" (see referee skills list)`},
	}
	for _, c := range cases {
		err := runErr(t, dir, c.skill, c.args)
		if err == nil || err.Error() != c.want {
			t.Errorf("%s:\n got %v\nwant %s", c.skill, err, c.want)
		}
	}
}

func TestPreconditionErrorTypes(t *testing.T) {
	dir := testutil.Copy(t, fixtureDir)
	_, err := run(t, dir, "check-confirm-proof", skill.Args{"statement_id": "s-007"})
	var pe *skill.PreconditionError
	if !errors.As(err, &pe) || pe.Object != "s-007" || pe.Status != "true" {
		t.Errorf("want a skill.PreconditionError on s-007, got %#v", err)
	}
	_, err = run(t, dir, "check-confirm-proof", skill.Args{"statement_id": "x"})
	var ie *skill.InputError
	if !errors.As(err, &ie) {
		t.Errorf("want an skill.InputError, got %#v", err)
	}
}

// The version a reviewer saw must still be the file's, or nothing is written.
func TestExpectVersionConflict(t *testing.T) {
	dir := testutil.Copy(t, fixtureDir)
	write(t, dir, "statement/s-007.json", read(t, fixtureDir, "history/l-005/s-007.json"))
	seen := model.Version([]byte(read(t, dir, "statement/s-007.json")))
	// An agent changes the statement after the reviewer read it.
	mustRun(t, dir, "check-reject-proof", skill.Args{"statement_id": "s-007", "sentence_number": 2, "sentence_text": "Step 1: We first verify the proposed solution is consistent.",
		"error_type": "gap", "explanation": "e", "suggested_fix": "f"})
	before := testutil.Files(t, dir)
	s, _ := skill.Lookup("fix-patch-proof")
	_, err := Run(dir, s, skill.Args{"statement_id": "s-007", "issue_number": 1, "updated_proof": "p", "change_description": "c"},
		Options{Actor: "human", ExpectVersion: seen, Now: pinned})
	var ce *ConflictError
	if !errors.As(err, &ce) || ce.Object != "s-007" || ce.Expected != seen || ce.Actual != model.Version([]byte(read(t, dir, "statement/s-007.json"))) {
		t.Fatalf("want a conflict, got %v", err)
	}
	if len(testutil.Files(t, dir)) != len(before) {
		t.Error("a conflicting change wrote files")
	}
	// With the current version it goes through.
	_, err = Run(dir, s, skill.Args{"statement_id": "s-007", "issue_number": 1, "updated_proof": "p", "change_description": "c"},
		Options{Actor: "human", ExpectVersion: ce.Actual, Now: pinned})
	if err != nil {
		t.Fatal(err)
	}
}

// A new ID whose file exists is skipped, never written over.
func TestNewIDSkipsExistingFiles(t *testing.T) {
	dir := testutil.Copy(t, fixtureDir)
	write(t, dir, "problem/p-001.json", read(t, fixtureDir, "history/l-003/p-001.json"))
	squatter := strings.Replace(read(t, dir, "statement/s-001.json"), "s-001", "s-008", 1)
	write(t, dir, "statement/s-008.json", squatter)
	res := mustRun(t, dir, "prob-wrapup-statement", skill.Args{"problem_id": "p-001", "claim": []string{"c"}})
	const note = "config.json says s-007 was the last, but s-008 already exists on disk: took s-009 instead of writing over it (the agents' scripts would overwrite it)"
	if strings.Join(res.Created, ",") != "s-009" || len(res.Notes) != 1 || res.Notes[0] != note {
		t.Errorf("result %+v", res)
	}
	if read(t, dir, "statement/s-008.json") != squatter {
		t.Error("an existing file was written over")
	}
	log := read(t, dir, "history/log.jsonl")
	if !strings.Contains(log, `"notes": ["`+note+`"]`) && !strings.Contains(log, `"notes":["`+note+`"]`) {
		t.Errorf("the log line does not say it: %s", log[strings.LastIndex(log[:len(log)-1], "\n")+1:])
	}
}

// A skill that creates nothing leaves the p, s and e counters where config.json has
// them, even with a file past a counter (the agents' rewind.py can leave one): only l
// moves (issue 21).
func TestCountersStayWithoutCreation(t *testing.T) {
	dir := testutil.Copy(t, fixtureDir)
	write(t, dir, "problem/p-001.json", read(t, fixtureDir, "history/l-003/p-001.json"))
	write(t, dir, "statement/s-008.json", strings.Replace(read(t, dir, "statement/s-001.json"), "s-001", "s-008", 1))
	write(t, dir, "problem/p-002.json", strings.Replace(read(t, dir, "problem/p-001.json"), "p-001", "p-002", 1))
	before := read(t, dir, "config.json")
	mustRun(t, dir, "prob-finish-up", skill.Args{"problem_id": "p-001", "resolution": "r", "key_statement_id": []string{"s-007"}})
	var cb, ca map[string]string
	if err := json.Unmarshal([]byte(before), &cb); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal([]byte(read(t, dir, "config.json")), &ca); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"p", "s", "e"} {
		if ca[k] != cb[k] {
			t.Errorf("config %s moved from %s to %s", k, cb[k], ca[k])
		}
	}
	if ca["l"] == cb["l"] {
		t.Errorf("config l did not move: %s", ca["l"])
	}
}

func TestSetupSubgoalAndSubstatements(t *testing.T) {
	dir := testutil.Copy(t, fixtureDir)
	write(t, dir, "problem/p-001.json", read(t, fixtureDir, "history/l-003/p-001.json"))
	res := mustRun(t, dir, "prob-setup-subgoal", skill.Args{"parent_problem_id": "p-001",
		"subproblem_objective":  []string{"Determine Alice's role"},
		"subproblem_hypothesis": []string{"(s-003) Alice says: I am a spy", "(s-404) a missing one", "Roles are fixed"},
		"rationale":             "Alice first", "priority": "high"})
	if strings.Join(res.Created, ",") != "s-008,s-009,p-002" || strings.Join(res.Modified, ",") != "p-001" {
		t.Fatalf("result %+v", res)
	}
	want := `{
    "id": "p-002",
    "hypothesis": [
        "(s-003) Alice says: I am a spy",
        "(s-008) a missing one",
        "(s-009) Roles are fixed"
    ],
    "objectives": [
        "Determine Alice's role"
    ],
    "status": "unresolved",
    "priority": "high",
    "summary": "",
    "progresses": [],
    "preliminaries": [],
    "solution": {
        "cot": [],
        "full": "",
        "ref": []
    }
}`
	if got := read(t, dir, "problem/p-002.json"); got != want {
		t.Errorf("p-002:\n%s", got)
	}
	if !strings.Contains(read(t, dir, "problem/p-001.json"), "\"preliminaries\": [\n        \"p-002\"\n    ]") {
		t.Error("parent not linked")
	}

	res = mustRun(t, dir, "state-setup-substatement", skill.Args{"parent_statement_id": "s-008", "rationale": "split",
		"sub_statements": []skill.SubStatement{{Claim: "A"}, {Claim: "B", Premises: []string{"(s-001) roles"}}}})
	s := statement(t, dir, "s-008")
	// The fixture speaks the later vocabulary: the decomposed parent is "validating".
	if strings.Join(res.Created, ",") != "s-010,s-011" || s.Status != "validating" ||
		strings.Join(s.Preliminaries, ",") != "s-010,s-011" || s.Progresses[0] != "DECOMPOSED: Created s-010, s-011. Rationale: split" {
		t.Errorf("setup-substatement: %+v %q %q %q", res, s.Status, s.Preliminaries, s.Progresses)
	}
	// A known ID's paraphrase is replaced by its conclusion, as the agents' state.py does.
	if got := statement(t, dir, "s-011"); strings.Join(got.Hypothesis, ",") != "(s-001) Each player is either a Knight (always tells truth), Knave (always lies), or Spy (can lie or tell truth)" {
		t.Errorf("premises %q", got.Hypothesis)
	}
}

// A hypothesis naming a statement the same prob-setup-subgoal call creates finds nothing,
// as in the agents' prob.py (it writes the new statements only at the end): the ID is
// dropped and the text becomes one more new statement. state-setup-substatement runs
// state.py once per sub, so a later sub's premise does find an earlier sub (bytes from
// the agents' scripts at d8d7638 on the same calls).
func TestPremisesNamingStatementsOfTheSameCall(t *testing.T) {
	dir := testutil.Copy(t, fixtureDir)
	write(t, dir, "problem/p-001.json", read(t, fixtureDir, "history/l-003/p-001.json"))
	mustRun(t, dir, "prob-setup-subgoal", skill.Args{"parent_problem_id": "p-001", "subproblem_objective": []string{"O"},
		"subproblem_hypothesis": []string{"new one", "(s-008)", "(s-008) again", "(s-009) x"}, "rationale": "r"})
	p := read(t, dir, "problem/p-002.json")
	if want := `"hypothesis": [
        "(s-008) new one",
        "(s-009) ",
        "(s-010) again",
        "(s-011) x"
    ],`; !strings.Contains(p, want) {
		t.Errorf("p-002:\n%s\nwant hypotheses\n%s", p, want)
	}
	for id, want := range map[string]string{"s-008": "new one", "s-009": "", "s-010": "again", "s-011": "x"} {
		if got := statement(t, dir, id).Conclusion; len(got) != 1 || got[0] != want {
			t.Errorf("%s conclusion %q, want [%q]", id, got, want)
		}
	}

	mustRun(t, dir, "state-setup-substatement", skill.Args{"parent_statement_id": "s-008", "rationale": "split",
		"sub_statements": []skill.SubStatement{{Claim: "A"}, {Claim: "B", Premises: []string{"(s-012)", "(s-013)"}},
			{Claim: "C", Premises: []string{"(s-013) para", "(s-014)"}}}})
	for id, want := range map[string]string{"s-013": "(s-012) A|(s-013)", "s-014": "(s-013) B|(s-014)"} {
		if got := strings.Join(statement(t, dir, id).Hypothesis, "|"); got != want {
			t.Errorf("%s premises %q, want %q", id, got, want)
		}
	}
}

// state-complete-proof without proof_cot/proof_ref and prob-finish-up without cot leave
// what is there, as the agents' commands (which pass those flags only when given) do.
func TestProofAndSolutionKeepCotAndRefNotGiven(t *testing.T) {
	dir := testutil.Copy(t, fixtureDir)
	s7 := read(t, dir, "statement/s-007.json")
	doc, err := pyjson.Parse([]byte(s7))
	if err != nil {
		t.Fatal(err)
	}
	doc.Set("status", pyjson.Str("pending"))
	doc.Set("proof", pyjson.Obj(pyjson.M("cot", pyjson.Strs([]string{"old cot"})), pyjson.M("full", pyjson.Str("old")), pyjson.M("ref", pyjson.Strs([]string{"s-001"}))))
	doc.Set("validation", pyjson.Obj(pyjson.M("issues", pyjson.Strs(nil)), pyjson.M("responses", pyjson.Strs(nil))))
	write(t, dir, "statement/s-007.json", string(pyjson.EncodeIndent(doc)))
	proof := "We prove this statement as follows.\n\nStep 1: x. QED."
	mustRun(t, dir, "state-complete-proof", skill.Args{"statement_id": "s-007", "proof_text": proof, "strategy": "direct"})
	if got := read(t, dir, "statement/s-007.json"); !strings.Contains(got, `"proof": {
        "cot": [
            "old cot"
        ],
        "full": "We prove this statement as follows.\n\nStep 1: x. QED.",
        "ref": [
            "s-001"
        ]
    },`) {
		t.Errorf("s-007 after complete-proof without cot and ref:\n%s", got)
	}

	p := read(t, fixtureDir, "history/l-003/p-001.json")
	pdoc, err := pyjson.Parse([]byte(p))
	if err != nil {
		t.Fatal(err)
	}
	pdoc.Set("solution", pyjson.Obj(pyjson.M("cot", pyjson.Strs([]string{"old"})), pyjson.M("full", pyjson.Str("")), pyjson.M("ref", pyjson.Strs([]string{"s-009"}))))
	write(t, dir, "problem/p-001.json", string(pyjson.EncodeIndent(pdoc)))
	mustRun(t, dir, "prob-finish-up", skill.Args{"problem_id": "p-001", "resolution": "r", "key_statement_id": []string{"s-001"}})
	if got := read(t, dir, "problem/p-001.json"); !strings.Contains(got, `"solution": {
        "cot": [
            "old"
        ],
        "full": "r",
        "ref": [
            "s-001"
        ]
    }`) {
		t.Errorf("p-001 after finish-up without cot:\n%s", got)
	}
}

// The PROOF note counts "Step N:" paragraphs with any decimal digits, as Python's \d
// (the conformance data's generator) does; other whitespace before or inside does not count.
func TestProofNoteCountsStepsWithAnyDigits(t *testing.T) {
	for proof, want := range map[string]string{
		"Step \u0661: a\nStep \uff12: b\nStep 3: c": "PROOF: Direct proof with 3 steps",
		"Step \U0001D7CF: a":                        "PROOF: Direct proof with 1 steps",
		"Step 1\t: a\n Step\t2 :b\n\u2003Step 3: c": "PROOF: Direct proof with 2 steps",
		"Step\u00a01: a\nStep one: b":               "PROOF: Direct proof",
	} {
		dir := testutil.Copy(t, fixtureDir)
		doc, err := pyjson.Parse([]byte(read(t, dir, "statement/s-007.json")))
		if err != nil {
			t.Fatal(err)
		}
		doc.Set("status", pyjson.Str("pending"))
		doc.Set("progresses", pyjson.Strs(nil))
		write(t, dir, "statement/s-007.json", string(pyjson.EncodeIndent(doc)))
		mustRun(t, dir, "state-complete-proof", skill.Args{"statement_id": "s-007", "proof_text": proof, "strategy": "direct"})
		if got := statement(t, dir, "s-007").Progresses; len(got) != 1 || got[0] != want {
			t.Errorf("proof %q: progresses %q, want [%q]", proof, got, want)
		}
	}
}

func TestMarkFalseProposeModificationAbandon(t *testing.T) {
	dir := testutil.Copy(t, fixtureDir)
	write(t, dir, "statement/s-007.json", read(t, fixtureDir, "history/l-005/s-007.json"))
	mustRun(t, dir, "check-reject-proof", skill.Args{"statement_id": "s-007", "sentence_number": 2, "sentence_text": "x", "error_type": "wrong_target", "explanation": "e", "suggested_fix": "f"})
	mustRun(t, dir, "state-propose-modification", skill.Args{"statement_id": "s-007", "modification_type": "weaken_conclusion",
		"suggested_claim": "Alice is a spy", "suggested_premises": []string{"p1", "p2"}, "rationale": "too strong", "source": "fix", "issue_number": 1})
	s := statement(t, dir, "s-007")
	// The fixture speaks the later vocabulary, so the status is "validating".
	if s.Status != "validating" ||
		s.Progresses[len(s.Progresses)-1] != "MODIFICATION: Type=weaken_conclusion | Claim: Alice is a spy; Premises: p1; p2 | Rationale: too strong" ||
		s.Responses[0] != "[Response #1] Fixes Issue #1 | Type: modification | ModType: weaken_conclusion | Proposal: Claim: Alice is a spy; Premises: p1; p2" {
		t.Errorf("modification: %q %q %q", s.Status, s.Progresses, s.Responses)
	}
	mustRun(t, dir, "state-mark-false", skill.Args{"statement_id": "s-007", "counterexample": "Olivia=Spy works", "source": "prove"})
	s = statement(t, dir, "s-007")
	if s.Status != "false" || s.Progresses[len(s.Progresses)-1] != "COUNTEREXAMPLE: Olivia=Spy works" || len(s.Responses) != 1 {
		t.Errorf("mark-false: %q %q", s.Status, s.Progresses)
	}
	mustRun(t, dir, "abandon", skill.Args{"statement_id": "s-007", "reason": "out of scope"})
	s = statement(t, dir, "s-007")
	if s.Status != "abandoned" || s.Progresses[len(s.Progresses)-1] != "ABANDONED: out of scope" {
		t.Errorf("abandon: %q %q", s.Status, s.Progresses)
	}
}

func TestMarkFalseAnswersIssue(t *testing.T) {
	dir := testutil.Copy(t, fixtureDir)
	write(t, dir, "statement/s-007.json", read(t, fixtureDir, "history/l-005/s-007.json"))
	mustRun(t, dir, "check-reject-proof", skill.Args{"statement_id": "s-007", "sentence_number": 2, "sentence_text": "x", "error_type": "circular", "explanation": "e", "suggested_fix": "f"})
	if err := runErr(t, dir, "state-mark-false", skill.Args{"statement_id": "s-007", "counterexample": "c", "source": "fix", "issue_number": 2}); err == nil ||
		err.Error() != `state-mark-false: s-007 is "validating"; it needs issue #2, and it has only issue #1` {
		t.Errorf("unknown issue: %v", err)
	}
	mustRun(t, dir, "state-mark-false", skill.Args{"statement_id": "s-007", "counterexample": "c", "source": "fix", "issue_number": 1})
	if s := statement(t, dir, "s-007"); s.Responses[0] != "[Response #1] Fixes Issue #1 | Type: false | Counterexample: c" {
		t.Errorf("responses %q", s.Responses)
	}
}

func TestUndo(t *testing.T) {
	dir := testutil.Copy(t, fixtureDir)
	write(t, dir, "problem/p-001.json", read(t, fixtureDir, "history/l-003/p-001.json"))
	before := testutil.Files(t, dir)
	res := mustRun(t, dir, "prob-wrapup-statement", skill.Args{"problem_id": "p-001", "claim": []string{"c"}})
	undo, err := Undo(dir, res.Change, Options{Actor: "human", Now: pinned})
	if err != nil {
		t.Fatal(err)
	}
	if undo.Change != "l-008" || strings.Join(undo.Modified, ",") != "p-001" || strings.Join(undo.Deleted, ",") != "s-008" {
		t.Errorf("undo result %+v", undo)
	}
	if read(t, dir, "problem/p-001.json") != before["problem/p-001.json"] {
		t.Error("p-001 not restored")
	}
	if _, err := os.Stat(filepath.Join(dir, "statement/s-008.json")); !errors.Is(err, fs.ErrNotExist) {
		t.Error("created statement not removed")
	}
	if read(t, dir, "history/l-008/s-008.json") == "" {
		t.Error("removed statement not backed up")
	}
	if got := lastLogLine(t, dir); got != `{"l-008": {"creation": [], "modification": ["p-001", "s-008"]}, "current": ["p-001", "s-008", "e-000"], "at": "2026-11-21T08:00:00Z", "by": "human", "skill": "undo", "deleted": ["s-008"], "reverts": "l-007", "versions": {"p-001": "`+fileVersion(t, dir, "problem/p-001.json")+`"}}` {
		t.Errorf("undo log line %s", got)
	}
	// Undoing l-007 again would drop l-008's work.
	if _, err := Undo(dir, "l-007", Options{Actor: "human"}); err == nil ||
		err.Error() != `undo: l-007 is "superseded"; it needs no later change to its objects, and l-008 changed p-001` {
		t.Errorf("second undo: %v", err)
	}
}

// Plan says exactly what Run will write, and writes nothing.
func TestPlanMatchesRun(t *testing.T) {
	dir := testutil.Copy(t, fixtureDir)
	write(t, dir, "statement/s-007.json", read(t, fixtureDir, "history/l-005/s-007.json"))
	s, _ := skill.Lookup("check-confirm-proof")
	args := skill.Args{"statement_id": "s-007", "verification_summary": "ok"}
	before := testutil.Files(t, dir)
	plan, err := Plan(dir, s, args, Options{Actor: "human", Now: pinned})
	if err != nil {
		t.Fatal(err)
	}
	if after := testutil.Files(t, dir); len(after) != len(before) {
		t.Fatalf("Plan wrote files: %d before, %d after", len(before), len(after))
	}
	if plan.Change != "l-007" || len(plan.Objects) != 1 || plan.Objects[0].ID != "s-007" || plan.Objects[0].New {
		t.Fatalf("plan %+v", plan.Result)
	}
	var fields []string
	for _, c := range model.DiffFields(plan.Objects[0].Before, plan.Objects[0].After) {
		fields = append(fields, c.Field)
	}
	if strings.Join(fields, ",") != "status,reliability,progresses" {
		t.Errorf("planned fields %v", fields)
	}
	res, err := Run(dir, s, args, Options{Actor: "human", Now: pinned})
	if err != nil {
		t.Fatal(err)
	}
	if got := read(t, dir, "statement/s-007.json"); got != string(pyjson.EncodeIndent(plan.Objects[0].After)) || res.Change != plan.Change {
		t.Error("Run wrote something else than Plan said")
	}
	if _, err := Plan(dir, s, args, Options{}); err == nil || err.Error() != `check-confirm-proof: s-007 is "true"; it needs a submitted proof awaiting verification` {
		t.Errorf("plan of a refused change: %v", err)
	}
}

// In P014 a decomposed statement stays "validating" without a proof; once its
// sub-statements are true the orchestrator's counts say "check", and the prover may then
// submit the proof that uses them (referee used to refuse both skills there).
func TestProofOfADecomposedStatementP014(t *testing.T) {
	dir := testutil.Copy(t, fixtureDir)
	write(t, dir, "statement/s-007.json", read(t, fixtureDir, "history/l-004/s-007.json")) // pending
	mustRun(t, dir, "state-setup-substatement", skill.Args{"parent_statement_id": "s-007", "rationale": "split",
		"sub_statements": []skill.SubStatement{{Claim: "Alice is not a Knight"}}})
	mustRun(t, dir, "state-complete-proof", skill.Args{"statement_id": "s-008", "proof_text": "We prove this statement as follows. A Knight cannot say so. QED.", "strategy": "direct"})
	mustRun(t, dir, "check-confirm-proof", skill.Args{"statement_id": "s-008"})
	if err := runErr(t, dir, "check-confirm-proof", skill.Args{"statement_id": "s-007"}); err == nil {
		t.Error("confirmed a statement without a proof")
	}
	mustRun(t, dir, "state-complete-proof", skill.Args{"statement_id": "s-007", "proof_text": "We prove this statement as follows. By s-008 … QED.", "strategy": "direct", "proof_ref": []string{"s-008"}})
	if s := statement(t, dir, "s-007"); s.Status != "validating" || s.Proof.Full == "" {
		t.Errorf("after the proof: %q %q", s.Status, s.Proof.Full)
	}
	mustRun(t, dir, "check-confirm-proof", skill.Args{"statement_id": "s-007"})
	if s := statement(t, dir, "s-007"); s.Status != "true" {
		t.Errorf("after confirm: %q", s.Status)
	}
}

// After the prover proposes a modification the orchestrator sends the statement to
// agent-check (the counts are equal) with no proof: the checker can reject it, never
// confirm it, and the prover's new proof is taken (issue 21). A proof whose opening
// does not say its direction is refused without --direction.
func TestProposedModificationIsNotStranded(t *testing.T) {
	dir := testutil.Copy(t, fixtureDir)
	write(t, dir, "problem/p-001.json", read(t, fixtureDir, "history/l-003/p-001.json"))
	mustRun(t, dir, "prob-wrapup-statement", skill.Args{"problem_id": "p-001", "claim": []string{"c"}})
	mustRun(t, dir, "state-propose-modification", skill.Args{"statement_id": "s-008", "modification_type": "add_condition",
		"rationale": "r", "source": "prove"})
	snap, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	var next []string
	for _, n := range StatusOf(snap, model.Derive(snap)).Next {
		next = append(next, n.Agent+" "+n.ID)
	}
	if !slices.Contains(next, "agent-check s-008") {
		t.Fatalf("next %q: want agent-check on s-008, as current.py says", next)
	}
	o := skill.SnapshotObjects{Snap: snap}
	for name, want := range map[string]string{
		"state-complete-proof": "",
		"check-reject-proof":   "",
		"check-confirm-proof":  "a proof, and it has none",
	} {
		s, _ := skill.Lookup(name)
		err := s.Check(o, skill.Args{"statement_id": "s-008"})
		if want == "" && err != nil || want != "" && (err == nil || !strings.Contains(err.Error(), want)) {
			t.Errorf("%s on s-008 under a proposed modification: %v, want %q", name, err, want)
		}
	}
	mustRun(t, dir, "state-complete-proof", skill.Args{"statement_id": "s-008", "strategy": "direct",
		"proof_text": "PROOF: This statement is wrong. We disprove as follows.\n\nStep 1: x."})
	before := testutil.Files(t, dir)
	_, err = run(t, dir, "check-confirm-proof", skill.Args{"statement_id": "s-008"})
	var ie *skill.InputError
	if !errors.As(err, &ie) || !strings.Contains(err.Error(), "headed PROOF") || !strings.Contains(err.Error(), "give --direction") {
		t.Errorf("confirm without a direction on an ambiguous opening: %v", err)
	}
	if !maps.Equal(testutil.Files(t, dir), before) {
		t.Error("a refused confirmation wrote")
	}
	mustRun(t, dir, "check-confirm-proof", skill.Args{"statement_id": "s-008", "direction": "disproof"})
	if st := read(t, dir, "statement/s-008.json"); !strings.Contains(st, `"status": "false"`) {
		t.Errorf("s-008 after a confirmed disproof:\n%s", st)
	}
}
