package model

import (
	"fmt"
	"reflect"
	"slices"
	"testing"
)

// sortedKeys sorts by a number when every key is a short ID, compares text when some
// ID has more letters, and falls back to CompareIDs when a key is not an ID: each way
// must give CompareIDs' order.
func TestSortedKeysOrdersAsCompareIDs(t *testing.T) {
	for _, ids := range [][]string{
		{"s-001", "s-999", "s-a001", "s-z999", "s-aa001", "s-az010", "s-ba001", "s-zzz999", "p-002", "e-001", "s-010"},
		{"s-001", "s-a001", "s-zzz999", "s-aaaa001", "s-zz999", "p-001"},
		{"s-001", "x", "s-a001", "readme", "s-002"},
		{},
	} {
		m := map[string]bool{}
		for _, id := range ids {
			m[id] = true
		}
		want := slices.Clone(ids)
		slices.SortFunc(want, CompareIDs)
		if got := sortedKeys(m); !slices.Equal(got, want) {
			t.Errorf("sortedKeys(%v) = %v, want %v", ids, got, want)
		}
	}
}

// Derive takes shortcuts when every problem's and statement's ID is valid and of its
// kind, and when each preliminary is a reference. Off those paths it must still match
// the reference derivations.
func TestDeriveMatchesReferenceOffTheFastPaths(t *testing.T) {
	for seed := range 200 {
		data := []byte(fmt.Sprintf("%d%d-seed-%d\x07\x03\x0b\x11\x13\x17\x1d\x1f%d", seed%7, seed*31%11, seed, seed*seed))
		s := snapshotFrom(data)
		switch seed % 4 {
		case 0: // a statement stored under an ID that is no reference, preliminary of another
			s.Statements.Set("s-000", &Statement{ID: "s-000", Status: "true"})
			for _, st := range s.Statements.All() {
				st.Preliminaries = append(st.Preliminaries, "s-000")
				break
			}
		case 1: // a problem whose key is not an ID
			s.Problems["notes"] = &Problem{ID: "notes", Status: "open", Preliminaries: []string{"s-001"}}
		case 2: // a statement among the problems
			s.Problems["s-013"] = &Problem{ID: "s-013", Status: "open", Progresses: []string{"s-002"}}
		case 3: // longer letters than the numeric sort key holds
			s.Statements.Set("s-abcd001", &Statement{ID: "s-abcd001", Status: "true", Preliminaries: []string{"s-001", "(s-002) text"}})
		}
		got, want := Derive(s).Plain(), refDerive(s).Plain()
		if !reflect.DeepEqual(got, want) {
			g, w := reflect.ValueOf(got).Elem(), reflect.ValueOf(want).Elem()
			for i := range g.NumField() {
				if !reflect.DeepEqual(g.Field(i).Interface(), w.Field(i).Interface()) {
					t.Errorf("seed %d: %s: got %v, want %v", seed, g.Type().Field(i).Name, g.Field(i).Interface(), w.Field(i).Interface())
				}
			}
		}
	}
}

// A statement filed under a problem's ID breaks the index's order (problems, then
// statements): the orchestrator's order must still be CompareIDs'. p-060 and p-061 are
// each other's subgoal, so neither is a root and both are as unattached as p-050.
func TestActionableOrderWithAStatementUnderAProblemID(t *testing.T) {
	s := &Snapshot{
		Problems: map[string]*Problem{
			"p-001": {ID: "p-001", Status: "unresolved"},
			"p-060": {ID: "p-060", Status: "unresolved", Preliminaries: []string{"p-061"}},
			"p-061": {ID: "p-061", Status: "solved", Preliminaries: []string{"p-060"}},
		},
		Statements: ObjectsOf(map[string]*Statement{"p-050": {ID: "p-050", Status: "pending"}}),
	}
	want := []Action{{ID: "p-001", Agent: AgentSolve, Depth: 0}, {ID: "p-050", Agent: AgentProve, Depth: -1}, {ID: "p-060", Agent: AgentSolve, Depth: -1}}
	if got := Derive(s).Actionable.Slice(); !reflect.DeepEqual(got, want) {
		t.Errorf("Actionable = %v, want %v", got, want)
	}
	if got, want := Derive(s).Plain(), refDerive(s).Plain(); !reflect.DeepEqual(got, want) {
		t.Errorf("Derive differs from the reference: %+v, want %+v", got, want)
	}
}

// A preliminary that is no reference ("s-000", a counter value) is looked up as it
// stands, as the reference does: here it names a true statement, so s-020 is fully proved.
func TestFullyProvedOverAPreliminaryThatIsNoReference(t *testing.T) {
	s := &Snapshot{
		Problems: map[string]*Problem{"p-001": {ID: "p-001", Status: "pending", Progresses: []string{"s-020"}}},
		Statements: ObjectsOf(map[string]*Statement{
			"s-000": {ID: "s-000", Status: "true"},
			"s-020": {ID: "s-020", Status: "true", Preliminaries: []string{"s-000"}},
		}),
	}
	g := Derive(s)
	if !g.FullyProved.Get("s-020") {
		t.Errorf("s-020 is not fully proved: %v", g.FullyProved)
	}
	if want := refDerive(s).Plain(); !reflect.DeepEqual(g.Plain(), want) {
		t.Errorf("Derive differs from the reference: %+v, want %+v", g, want)
	}
}
