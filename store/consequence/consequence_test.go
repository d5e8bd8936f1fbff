package consequence

import (
	"encoding/json"
	"strings"
	"testing"

	"referee/model"
	"referee/model/pyjson"
)

// run is a small P014 run: p-001 open, resolved by s-001, which waits for its
// sub-statement s-002, whose proof awaits the checker.
func run(t *testing.T) *model.Snapshot {
	t.Helper()
	s := &model.Snapshot{Problems: map[string]*model.Problem{}, Statements: model.NewObjects[*model.Statement](2)}
	p := model.NewProblem("p-001", nil, []string{"Prove it"}, "unresolved", "", "")
	prog, _ := p.Get("progresses")
	*prog = pyjson.Strs([]string{"(s-001) The claim"})
	s.Problems["p-001"] = model.ProblemFrom(p)
	s1 := model.NewStatement("s-001", "normal", []string{"The claim"}, nil, "validating")
	pre, _ := s1.Get("preliminaries")
	*pre = pyjson.Strs([]string{"s-002"})
	s.Statements.Set("s-001", model.StatementFrom(s1))
	s.Statements.Set("s-002", model.StatementFrom(withProof(model.NewStatement("s-002", "normal", []string{"A lemma"}, nil, "validating"))))
	return s
}

func withProof(doc pyjson.Value) pyjson.Value {
	proof, _ := doc.Get("proof")
	proof.Set("full", pyjson.Str("We prove it. QED."))
	return doc
}

func write(doc pyjson.Value) *pyjson.Value { return &doc }

// Confirming the sub-statement: its status changes, and its parent, which the change
// does not write, goes from waiting for it to the checker; the next agent moves up.
func TestConfirmingASubStatementMovesItsParent(t *testing.T) {
	before := run(t)
	doc := withProof(model.NewStatement("s-002", "normal", []string{"A lemma"}, nil, "true"))
	r := Of(before, nil, []Write{{ID: "s-002", Doc: write(doc)}}, nil)
	got := strings.Join(r.Lines(0), "\n")
	want := "status of the 1 object it writes:\n" +
		"  s-002 awaiting check (validating), next agent-check → proved (true)\n" +
		"and so:\n" +
		"  s-001 changes phase: awaiting subs (validating) → awaiting check (validating), next agent-check\n" +
		"next: the orchestrator would run agent-check on s-001 (now agent-check on s-002)"
	if got != want {
		t.Fatalf("lines:\n%s\nwant:\n%s", got, want)
	}
	if before.Statements.Get("s-002").Status != "validating" {
		t.Fatal("Of changed the snapshot it was given")
	}
}

// A rewind that removes the statement a problem was solved by and sets the problem back
// says that it becomes unsolved, and lists every change it discards with its skill,
// actor and time.
func TestARewindSaysWhatItUnsolvesAndDiscards(t *testing.T) {
	before := run(t)
	p := model.NewProblem("p-001", nil, []string{"Prove it"}, "resolved", "", "")
	before.Problems["p-001"] = model.ProblemFrom(p)
	open := model.NewProblem("p-001", nil, []string{"Prove it"}, "unresolved", "", "") // s-001 hangs under nothing now: it runs last
	discarded := []model.LogEntry{
		model.ParseLogLine(1, `{"l-007": {"creation": [], "modification": ["s-002"]}, "current": ["p-001", "s-002", "e-000"], "at": "2026-11-20T11:00:00Z", "by": "rev", "skill": "check-reject-proof"}`),
		model.ParseLogLine(2, `{"l-008": {"creation": [], "modification": ["p-001"]}, "current": ["p-001", "s-002", "e-000"]}`),
	}
	r := Of(before, nil, []Write{{ID: "p-001", Doc: &open}, {ID: "s-002"}}, discarded)
	got := strings.Join(r.Lines(0), "\n")
	want := "status of the 2 objects it writes:\n" +
		"  p-001 solved (resolved) → open (unresolved), next agent-solve: becomes unsolved\n" +
		"  s-002 removed (was awaiting check (validating), next agent-check)\n" +
		"discards 2 changes (taken back with their work):\n" +
		"  l-007 check-reject-proof by rev at 2026-11-20T11:00:00Z: s-002\n" +
		"  l-008: p-001\n" +
		"and so:\n" +
		"  s-001 changes phase: awaiting subs (validating) → awaiting check (validating), next agent-check\n" +
		"next: the orchestrator would run agent-solve on p-001 (now agent-check on s-002)"
	if got != want {
		t.Fatalf("lines:\n%s\nwant:\n%s", got, want)
	}
	var back struct {
		Discarded []Change `json:"discarded"`
		Objects   []Object `json:"objects"`
	}
	data, _ := json.Marshal(r)
	if err := json.Unmarshal(data, &back); err != nil || len(back.Discarded) != 2 || back.Discarded[0].Actor != "rev" || back.Objects[1].After != nil {
		t.Fatalf("json %s: %v", data, err)
	}
}

// Lines cuts each list at the limit and says how many more.
func TestLinesCutLongLists(t *testing.T) {
	r := &Report{}
	for range 5 {
		r.Discarded = append(r.Discarded, Change{ID: "l-001", Skill: "x"})
	}
	got := strings.Join(r.Lines(2), "\n")
	if !strings.Contains(got, "discards 5 changes") || !strings.Contains(got, "  … 3 more") || strings.Count(got, "l-001") != 2 {
		t.Fatalf("lines:\n%s", got)
	}
}
