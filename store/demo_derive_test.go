package store

import (
	"reflect"
	"testing"

	"referee/internal/testutil"
	"referee/model"
)

var demoDir = testutil.DemoDir()

// The bundled demo exercises every derivation; these are its exact values.
func TestDeriveDemo(t *testing.T) {
	snap, err := Load(demoDir)
	if err != nil {
		t.Fatal(err)
	}
	if len(snap.Broken) != 0 || snap.Vocab != model.P014 || len(snap.Problems) != 3 || snap.Statements.Len() != 17 || len(snap.Log) != 38 {
		t.Fatalf("demo: broken %v vocab %v, %d problems, %d statements, %d changes",
			snap.Broken, snap.Vocab, len(snap.Problems), snap.Statements.Len(), len(snap.Log))
	}
	g := model.Derive(snap)
	if !reflect.DeepEqual(g.Roots, []string{"p-001", "p-002"}) || !reflect.DeepEqual(g.Orphans, []string{"s-017"}) ||
		!reflect.DeepEqual(g.Unreachable, []string{"s-017"}) || len(g.Dangling) != 0 ||
		!reflect.DeepEqual(g.Cycles, [][]string{{"s-011", "s-013"}}) {
		t.Errorf("roots %v orphans %v unreachable %v dangling %v cycles %v", g.Roots, g.Orphans, g.Unreachable, g.Dangling, g.Cycles)
	}
	want := []model.Action{
		{ID: "s-014", Agent: model.AgentCheck, Depth: 3},
		{ID: "s-007", Agent: model.AgentProve, Depth: 2},
		{ID: "s-015", Agent: model.AgentFix, Depth: 1},
		{ID: "s-016", Agent: model.AgentCheck, Depth: 1}, // its proposal answers its issue: back to the checker
		{ID: "p-002", Agent: model.AgentSolve, Depth: 0},
		{ID: "s-017", Agent: model.AgentProve, Depth: -1},
	}
	if got := g.Actionable.Slice(); !reflect.DeepEqual(got, want) {
		t.Errorf("actionable\n got %v\nwant %v", got, want)
	}
	// The agents' words at d8d7638: what a "validating" statement waits for is in the phases.
	wantCounts := map[string]int{"abandoned": 1, "false": 1, "pending": 2, "true": 8, "validating": 5}
	if !reflect.DeepEqual(g.Counts, wantCounts) || !reflect.DeepEqual(g.ProblemCounts, map[string]int{"resolved": 2, "unresolved": 1}) {
		t.Errorf("counts %v %v", g.Counts, g.ProblemCounts)
	}
	if g.Stale.Len() != 0 || !g.FullyProved.Get("s-008") || g.FullyProved.Get("s-011") {
		t.Errorf("stale %v, s-008 fully proved %v, s-011 %v", g.Stale, g.FullyProved.Get("s-008"), g.FullyProved.Get("s-011"))
	}
	wantPhase := map[string]model.Phase{"s-011": model.PhaseAwaitingSubs, "s-012": model.PhaseAwaitingSubs, "s-014": model.PhaseAwaitingCheck,
		"s-015": model.PhaseHasGap, "s-016": model.PhaseAwaitingCheck, "s-004": model.PhaseRefuted, "s-013": model.PhaseAbandoned,
		"p-001": model.PhaseProblemSolved, "p-003": model.PhaseProblemSolved, "p-002": model.PhaseProblemOpen}
	for id, ph := range wantPhase {
		if g.Phase.Get(id) != ph {
			t.Errorf("%s: phase %v, want %v", id, g.Phase.Get(id), ph)
		}
	}
}
