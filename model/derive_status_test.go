package model

import (
	"math/rand/v2"
	"reflect"
	"testing"
)

// statusPart is what DeriveStatus keeps of a graph: what `referee status` reads.
type statusPart struct {
	Roots, Orphans, Unreachable []string
	Dangling                    []Edge
	Cycles                      [][]string
	Stale                       map[string]string
	Counts, ProblemCounts       map[string]int
	PhaseCounts                 map[Phase]int
	Unknown                     []string
	Actionable, Next            []Action
	Scores                      []int
}

func statusPartOf(s *Snapshot, g *Graph) statusPart {
	next, scores := NextWithScores(s, g)
	return statusPart{g.Roots, g.Orphans, g.Unreachable, g.Dangling, g.Cycles, g.Stale.Map(), g.Counts,
		g.ProblemCounts, g.PhaseCounts, g.Unknown, g.Actionable.Slice(), next, scores}
}

// TestDeriveStatusAsDerive: on thousands of small snapshots of every shape (cycles, self
// references, dangling and mistyped references, experiences, every status, the fuzz
// test's), DeriveStatus finds what Derive finds of all status reads, the next list and
// its block scores included; on a snapshot with an ID that is not valid it is Derive.
func TestDeriveStatusAsDerive(t *testing.T) {
	r := rand.New(rand.NewPCG(27, 3))
	for i := range 3000 {
		data := make([]byte, 8+r.IntN(120))
		for k := range data {
			data[k] = byte(r.IntN(256))
		}
		s := snapshotFrom(data)
		got, want := statusPartOf(s, DeriveStatus(s)), statusPartOf(s, Derive(s))
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("snapshot %d (%v): DeriveStatus gives\n%+v\nDerive\n%+v", i, data, got, want)
		}
	}
	s := snapshotFrom([]byte{3, 7, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20})
	st := s.Statements.Get("s-001")
	if st == nil {
		t.Fatal("no s-001 to copy")
	}
	s.Statements.Set("s-1", st) // not a valid ID: scores by ID, as Derive
	if got, want := DeriveStatus(s).Plain(), Derive(s).Plain(); !reflect.DeepEqual(got, want) {
		t.Errorf("with an invalid ID, DeriveStatus gives\n%+v\nDerive\n%+v", got, want)
	}
	if g := DeriveStatus(snapshotFrom([]byte{3, 7, 1, 2, 3})); g.dense == nil || g.In != nil || g.Depth != nil {
		t.Errorf("DeriveStatus of valid IDs: dense %v, In %v, Depth %v; want by index, without the maps", g.dense != nil, g.In, g.Depth)
	}
}
