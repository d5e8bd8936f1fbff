package model

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"referee/model/pyjson"
)

func loadFixture(t *testing.T) *Snapshot {
	t.Helper()
	needShared(t)
	s := &Snapshot{Problems: map[string]*Problem{}, Statements: ObjectsOf(map[string]*Statement{}), Experiences: map[string]*Experience{}}
	files, _ := filepath.Glob(filepath.Join(fixture, "*", "*.json"))
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		v, err := pyjson.Parse(data)
		if err != nil {
			t.Fatal(err)
		}
		switch filepath.Base(filepath.Dir(f)) {
		case "problem":
			p := ProblemFrom(v)
			s.Problems[p.ID] = p
		case "statement":
			st := StatementFrom(v)
			s.Statements.Set(st.ID, st)
		}
	}
	return s
}

func TestDeriveFixture(t *testing.T) {
	s := loadFixture(t)
	for id, st := range s.Statements.All() {
		if len(st.Problems) > 0 {
			t.Errorf("%s: unexpected shape problems %v", id, st.Problems)
		}
	}
	g := Derive(s)
	if !reflect.DeepEqual(g.Roots, []string{"p-001"}) || len(g.Orphans) != 0 || len(g.Dangling) != 0 || len(g.Cycles) != 0 {
		t.Errorf("roots %v orphans %v dangling %v cycles %v", g.Roots, g.Orphans, g.Dangling, g.Cycles)
	}
	if g.Actionable.Len() != 0 {
		t.Errorf("a solved run has nothing to do, got %v", g.Actionable.Slice())
	}
	if !g.FullyProved.Get("s-007") || g.Stale.Len() != 0 {
		t.Errorf("fully proved %v stale %v", g.FullyProved, g.Stale)
	}
	if !reflect.DeepEqual(g.Counts, map[string]int{"true": 7}) || !reflect.DeepEqual(g.ProblemCounts, map[string]int{"resolved": 1}) {
		t.Errorf("counts %v %v", g.Counts, g.ProblemCounts)
	}
	if got := DetectVocab(s.Statuses); got != P014 {
		t.Errorf("fixture vocabulary %v, want P014", got)
	}
	var kinds []string
	for _, e := range g.Out["p-001"] {
		kinds = append(kinds, e.Kind.String()+">"+e.To)
	}
	want := "progress>s-007 solution>s-007 premise>s-001 premise>s-002 premise>s-003 premise>s-004 premise>s-005 premise>s-006"
	if strings.Join(kinds, " ") != want {
		t.Errorf("p-001 edges %s", strings.Join(kinds, " "))
	}
	if g.Depth["s-007"] != 1 || g.Depth["s-001"] != 1 {
		t.Errorf("depths %v", g.Depth)
	}
}

// st builds a statement for derivation tests.
func st(id, status string, prelims []string, refs []string, issues, responses int) *Statement {
	s := &Statement{ID: id, Status: status, Preliminaries: prelims, Proof: Proof{Full: "p", Ref: refs}}
	for i := range issues {
		s.Issues = append(s.Issues, fmt.Sprintf("[Issue #%d] x", i+1))
	}
	for i := range responses {
		s.Responses = append(s.Responses, fmt.Sprintf("[Response #%d] Fixes Issue #%d | Type: patch | Change: c", i+1, i+1))
	}
	return s
}

func TestDeriveEdgeCases(t *testing.T) {
	s := &Snapshot{
		Problems: map[string]*Problem{
			"p-001": {ID: "p-001", Status: "unresolved", Preliminaries: []string{"p-002"}, Progresses: []string{"(s-001) main"}},
			"p-002": {ID: "p-002", Status: "unresolved", Progresses: []string{"(s-010) sub"}, Hypothesis: []string{"(s-099) missing premise"}},
		},
		Statements: ObjectsOf(map[string]*Statement{
			"s-001": st("s-001", "validating", []string{"s-002", "s-003"}, nil, 0, 0),    // waits for subs
			"s-002": st("s-002", "validating", nil, nil, 2, 1),                           // gap: fix
			"s-003": st("s-003", "validating", nil, []string{"s-004"}, 1, 1),             // answered: check
			"s-004": st("s-004", "true", []string{"s-005"}, nil, 0, 0),                   // true, rests on false
			"s-005": st("s-005", "false", nil, nil, 0, 0),                                //
			"s-006": st("s-006", "pending", nil, nil, 0, 0),                              // orphan
			"s-007": st("s-007", "true", []string{"s-008"}, nil, 0, 0),                   // cycle 7→8→7
			"s-008": st("s-008", "true", []string{"s-007"}, nil, 0, 0),                   //
			"s-010": st("s-010", "awaiting_substatements", []string{"s-011"}, nil, 0, 0), // P013, subs done
			"s-011": st("s-011", "true", nil, nil, 0, 0),                                 //
			"s-012": st("s-012", "mystery", nil, nil, 0, 0),                              // unknown status, orphan
		}),
	}
	s.Statements.Get("s-010").Proof.Full = ""
	g := Derive(s)
	if !reflect.DeepEqual(g.Roots, []string{"p-001"}) {
		t.Errorf("roots %v", g.Roots)
	}
	if !reflect.DeepEqual(g.Orphans, []string{"s-006", "s-007", "s-012"}) && !reflect.DeepEqual(g.Orphans, []string{"s-006", "s-012"}) {
		t.Errorf("orphans %v", g.Orphans)
	}
	if !reflect.DeepEqual(g.Unreachable, []string{"s-006", "s-007", "s-008", "s-012"}) {
		t.Errorf("unreachable %v", g.Unreachable)
	}
	if len(g.Dangling) != 1 || g.Dangling[0].To != "s-099" || g.Dangling[0].From != "p-002" || g.Dangling[0].Kind != EdgePremise {
		t.Errorf("dangling %+v", g.Dangling)
	}
	if !reflect.DeepEqual(g.Cycles, [][]string{{"s-007", "s-008"}}) {
		t.Errorf("cycles %v", g.Cycles)
	}
	wantPhase := map[string]Phase{"s-001": PhaseAwaitingSubs, "s-002": PhaseHasGap, "s-003": PhaseAwaitingCheck, "s-010": PhaseAwaitingSubs, "s-012": PhaseUnknown}
	for id, ph := range wantPhase {
		if g.Phase.Get(id) != ph {
			t.Errorf("%s phase %v, want %v", id, g.Phase.Get(id), ph)
		}
	}
	// Deepest first; s-001 waits for its subs; p-001 waits for p-002; p-002 is open with no prelims.
	want := []Action{{"s-002", AgentFix, 2}, {"s-003", AgentCheck, 2}, {"s-010", AgentProve, 2}, {"p-002", AgentSolve, 1}, {"s-006", AgentProve, -1}}
	if got := g.Actionable.Slice(); !reflect.DeepEqual(got, want) {
		t.Errorf("actionable\n got %v\nwant %v", got, want)
	}
	if g.FullyProved.Get("s-007") || g.FullyProved.Get("s-004") || !g.FullyProved.Get("s-011") {
		t.Errorf("fully proved %v", g.FullyProved)
	}
	if g.Stale.Get("s-004") != "rests on s-005, which is false" || g.Stale.Len() != 1 {
		t.Errorf("stale %v", g.Stale)
	}
	if !reflect.DeepEqual(g.Unknown, []string{"s-012"}) {
		t.Errorf("unknown %v", g.Unknown)
	}
}

func TestStaleIsTransitiveAndCycleSafe(t *testing.T) {
	s := &Snapshot{Statements: ObjectsOf(map[string]*Statement{
		"s-001": st("s-001", "true", nil, []string{"s-002"}, 0, 0),
		"s-002": st("s-002", "true", []string{"s-003"}, nil, 0, 0),
		"s-003": st("s-003", "abandoned", nil, nil, 0, 0),
		"s-004": st("s-004", "true", []string{"s-404"}, nil, 0, 0),
		"s-005": st("s-005", "true", []string{"s-005"}, nil, 0, 0),
	})}
	g := Derive(s)
	want := map[string]string{
		"s-001": "rests on s-002, which is stale",
		"s-002": "rests on s-003, which is abandoned",
		"s-004": "rests on s-404, which does not exist",
	}
	if !reflect.DeepEqual(g.Stale.Map(), want) {
		t.Errorf("stale %v", g.Stale)
	}
	if !reflect.DeepEqual(g.Cycles, [][]string{{"s-005"}}) || g.FullyProved.Get("s-005") {
		t.Errorf("self-loop: cycles %v proved %v", g.Cycles, g.FullyProved.Get("s-005"))
	}
}
