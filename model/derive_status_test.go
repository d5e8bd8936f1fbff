package model

import (
	"maps"
	"math/rand/v2"
	"reflect"
	"slices"
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

// TestDeriveStatusNumberedAsDeriveStatus: numbered from its IDs listed in any order (as
// a load lists its folders), a snapshot derives as DeriveStatus derives it, on thousands
// of snapshots of every shape; a numbering that is not the snapshot's (one object more
// or fewer, no statements given, an ID not of the usual shape) is not used.
func TestDeriveStatusNumberedAsDeriveStatus(t *testing.T) {
	r := rand.New(rand.NewPCG(27, 6))
	listed := func(ids []string) []string {
		r.Shuffle(len(ids), func(i, j int) { ids[i], ids[j] = ids[j], ids[i] })
		return ids
	}
	numbered := 0
	for i := range 3000 {
		data := make([]byte, 8+r.IntN(120))
		for k := range data {
			data[k] = byte(r.IntN(256))
		}
		s := snapshotFrom(data)
		pids, eids := listed(slices.Collect(maps.Keys(s.Problems))), listed(slices.Collect(maps.Keys(s.Experiences)))
		sids := listed(slices.Collect(s.Statements.Keys()))
		sts := make([]*Statement, len(sids))
		for k, id := range sids {
			sts[k] = s.Statements.Get(id)
		}
		nb := NumberIDs(pids, sids, eids).WithStatements(sts)
		if nb != nil {
			numbered++
		}
		got, want := statusPartOf(s, DeriveStatusNumbered(s, nb)), statusPartOf(s, DeriveStatus(s))
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("snapshot %d (%v): numbered gives\n%+v\nDeriveStatus\n%+v", i, data, got, want)
		}
	}
	if numbered < 1000 {
		t.Errorf("only %d of 3000 snapshots numbered", numbered)
	}
	s := snapshotFrom([]byte{3, 7, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20})
	sids := slices.Collect(s.Statements.Keys())
	sts := make([]*Statement, len(sids))
	for k, id := range sids {
		sts[k] = s.Statements.Get(id)
	}
	pids := slices.Collect(maps.Keys(s.Problems))
	if NumberIDs(pids, sids, nil).WithStatements(sts) == nil {
		t.Fatal("a snapshot of the usual shape is not numbered")
	}
	if NumberIDs(pids, sids, nil).WithStatements(sts[1:]) != nil || NumberIDs(pids, append(sids, "s-1"), nil) != nil ||
		NumberIDs(pids, append(sids, sids[0]), nil) != nil || NumberIDs(append(pids, "s-999"), sids, nil) != nil {
		t.Error("a numbering of other IDs was made")
	}
	want := statusPartOf(s, DeriveStatus(s))
	fewer := NumberIDs(pids, sids[1:], nil).WithStatements(sts[1:]) // one statement short of s
	if got := statusPartOf(s, DeriveStatusNumbered(s, fewer)); !reflect.DeepEqual(got, want) {
		t.Errorf("with a numbering of fewer statements: %+v, want %+v", got, want)
	}
	if got := statusPartOf(s, DeriveStatusNumbered(s, NumberIDs(pids, sids, nil))); !reflect.DeepEqual(got, want) {
		t.Errorf("with a numbering given no statements: %+v, want %+v", got, want)
	}
}
