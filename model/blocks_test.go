package model

import (
	"reflect"
	"testing"
)

// p-001 (root) ← s-001 (progress) ← s-002 (sub) ← s-003 (sub); p-001 → p-002 (subgoal)
// ← s-004 (progress, true) ← s-005 (sub, pending: nothing waits through a true parent);
// s-006 cites s-003; s-007/s-008 a cycle of pending statements, unattached.
func blocksSnapshot() *Snapshot {
	return &Snapshot{
		Problems: map[string]*Problem{
			"p-001": {ID: "p-001", Status: "unresolved", Preliminaries: []string{"p-002"}, Progresses: []string{"(s-001) main"}},
			"p-002": {ID: "p-002", Status: "unresolved", Progresses: []string{"(s-004) sub"}},
		},
		Statements: ObjectsOf(map[string]*Statement{
			"s-001": st("s-001", "awaiting_substatements", []string{"s-002"}, nil, 0, 0),
			"s-002": st("s-002", "awaiting_substatements", []string{"s-003"}, nil, 0, 0),
			"s-003": st("s-003", "pending", nil, nil, 0, 0),
			"s-004": st("s-004", "true", []string{"s-005"}, nil, 0, 0),
			"s-005": st("s-005", "pending", nil, nil, 0, 0),
			"s-006": st("s-006", "awaiting_verification", nil, []string{"s-003"}, 0, 0),
			"s-007": st("s-007", "has_gap", []string{"s-008"}, nil, 1, 0),
			"s-008": st("s-008", "awaiting_verification", []string{"s-007"}, nil, 0, 0),
		}),
	}
}

func TestBlocking(t *testing.T) {
	s := blocksSnapshot()
	g := Derive(s)
	for id, want := range map[string]Blocking{
		"s-003": {ID: "s-003", Above: []string{"p-001", "s-001", "s-002", "s-006"}, Statements: 3, Roots: 1, Score: 13},
		"s-002": {ID: "s-002", Above: []string{"p-001", "s-001"}, Statements: 1, Roots: 1, Score: 11},
		"s-005": {ID: "s-005", Above: []string{}},
		"p-002": {ID: "p-002", Above: []string{"p-001"}, Roots: 1, Score: 10},
		"p-001": {ID: "p-001", Above: []string{}},
		"s-007": {ID: "s-007", Above: []string{"s-008"}, Statements: 1, Score: 1},
	} {
		if got := BlockingOf(g, id); !reflect.DeepEqual(got, want) {
			t.Errorf("%s\n got %+v\nwant %+v", id, got, want)
		}
	}
	all := Blocks(s, g)
	if _, ok := all["s-004"]; ok || len(all) != 9 {
		t.Errorf("Blocks weighs %d objects (a true statement among them: %v)", len(all), ok)
	}
	// The orchestrator runs deepest first; by what they hold up, s-003 comes before p-002.
	var ids []string
	for _, a := range NextByBlocking(s, g) {
		ids = append(ids, a.ID)
	}
	if want := []string{"s-003", "p-002", "s-005", "s-006"}; !reflect.DeepEqual(ids, want) {
		t.Errorf("next %v, want %v (actionable %v)", ids, want, g.Actionable.Slice())
	}
	// Waiting for a human: s-006 (to check), s-007 (a gap), s-008 (to check); s-006 holds
	// nothing up, the cycle holds itself up.
	if got := ReviewOrder(s, g); !reflect.DeepEqual(got, []string{"s-007", "s-008", "s-006"}) {
		t.Errorf("review order %v", got)
	}
	if !WaitsForHuman(s, g, "s-006") || WaitsForHuman(s, g, "s-003") || WaitsForHuman(s, g, "p-001") {
		t.Error("WaitsForHuman")
	}
}
