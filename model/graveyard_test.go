package model

import (
	"reflect"
	"testing"
)

func TestGraveyard(t *testing.T) {
	s := &Snapshot{
		Problems: map[string]*Problem{
			"p-001": {ID: "p-001", Status: "unresolved", Progresses: []string{"(s-001) main", "(s-004) other"}},
		},
		Statements: ObjectsOf(map[string]*Statement{
			"s-001": st("s-001", "has_gap", []string{"s-002"}, nil, 1, 0),
			"s-002": {ID: "s-002", Status: "false", Conclusion: []string{"All odd numbers are prime"},
				Progresses: []string{"PROOF: direct", "COUNTEREXAMPLE: 9 = 3 · 3"}},
			"s-003": {ID: "s-003", Status: "false", Conclusion: []string{"n² is odd"},
				Responses: []string{"[Response #1] Fixes Issue #1 | Type: false | Counterexample: n = 2"}},
			"s-004": {ID: "s-004", Status: "abandoned", Conclusion: []string{"A detour"},
				Progresses: []string{"ABANDONED: first reason", "ABANDONED: not needed after s-001"}},
			"s-005": st("s-005", "true", nil, []string{"s-003"}, 0, 0), // cites a false one: stale
			"s-006": st("s-006", "true", nil, nil, 0, 0),
		}),
	}
	got := Graveyard(s, Derive(s))
	want := []Grave{
		{ID: "s-002", Status: "false", Claim: "All odd numbers are prime", Counterexample: "9 = 3 · 3", Blocked: []string{"p-001", "s-001"}, Stale: []string{}},
		{ID: "s-003", Status: "false", Claim: "n² is odd", Counterexample: "n = 2", Blocked: []string{}, Stale: []string{"s-005"}},
		{ID: "s-004", Status: "abandoned", Claim: "A detour", Reason: "not needed after s-001", Blocked: []string{"p-001"}, Stale: []string{}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("graveyard\n got %+v\nwant %+v", got, want)
	}
}
