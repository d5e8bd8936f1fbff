package model

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// randomWaitGraph is a graph of problems and statements with edges of every kind, some
// finished objects and some cycles: all BlockScores reads.
func randomWaitGraph(r *rand.Rand, n, density int) (*Graph, []string) {
	g := &Graph{In: map[string][]Edge{}}
	var ids []string
	for i := range n {
		kind := "s"
		if r.IntN(5) == 0 {
			kind = "p"
		}
		id := fmt.Sprintf("%s-%03d", kind, i)
		ids = append(ids, id)
		g.Phase.Set(id, []Phase{PhaseNeedsProof, PhaseAwaitingCheck, PhaseProved, PhaseRefuted, PhaseProblemSolved, PhaseHasGap}[r.IntN(6)])
		if kind == "p" && r.IntN(2) == 0 {
			g.Roots = append(g.Roots, id)
		}
	}
	kinds := []EdgeKind{EdgeSub, EdgeNeeds, EdgeSubgoal, EdgeProgress, EdgeCites, EdgePremise, EdgeSolution}
	for range density * n * 2 / 3 {
		from, to := ids[r.IntN(n)], ids[r.IntN(n)]
		if r.IntN(4) != 0 && from > to { // mostly downwards, some cycles
			from, to = to, from
		}
		e := Edge{From: from, To: to, Kind: kinds[r.IntN(len(kinds))]}
		g.In[to] = append(g.In[to], e)
	}
	// A reference to an object that is not there waits like an unknown one.
	g.In["s-000"] = append(g.In["s-000"], Edge{From: "s-999", To: "s-000", Kind: EdgeCites})
	return g, append(ids, "s-999", "s-998")
}

// Both ways of scoring (counts carried down with walks where sets meet, and the bit
// sets) agree with BlockingOf, on sparse graphs (trees with a few shared lemmas) and on
// dense ones with cycles.
func TestBlockScoresIsBlockingOf(t *testing.T) {
	defer func(b int) { blockWalkBudget = b }(blockWalkBudget)
	for _, budget := range []int{16, 0, -1} {
		blockWalkBudget = budget
		r := rand.New(rand.NewPCG(7, 8))
		for round := range 40 {
			g, ids := randomWaitGraph(r, 5+r.IntN(150), 1+round%3)
			got := BlockScores(g, ids)
			for _, id := range ids {
				if want := BlockingOf(g, id).Score; got[id] != want {
					t.Fatalf("budget %d, round %d: score of %s = %d, BlockingOf says %d", budget, round, id, got[id], want)
				}
			}
		}
	}
}

// Past the 64 MB of bit sets the objects are taken a slice at a time: the same scores.
func TestBlockScoresChain(t *testing.T) {
	g := &Graph{In: map[string][]Edge{}}
	n := 3000
	var ids []string
	for i := range n {
		id := fmt.Sprintf("s-%04d", i)
		ids = append(ids, id)
		g.Phase.Set(id, PhaseNeedsProof)
		if i > 0 {
			g.In[id] = []Edge{{From: ids[i-1], To: id, Kind: EdgeCites}}
		}
	}
	got := BlockScores(g, ids)
	defer func(w int) { blockChunkWords = w }(blockChunkWords)
	blockChunkWords = 3 * n // three words (192 objects) at a time
	sliced := BlockScores(g, ids)
	for i, id := range ids {
		if sliced[id] != got[id] {
			t.Fatalf("%s: %d a slice at a time, %d at once", id, sliced[id], got[id])
		}
		if got[id] != i {
			t.Fatalf("%s holds up %d, want %d", id, got[id], i)
		}
	}
}

// On a derived graph BlockScores reads Derive's index (denseGraph): the same scores as
// by ID, for every object, on trees with shared lemmas, premises, problems and cycles.
func TestBlockScoresByIndexIsByID(t *testing.T) {
	defer func(b int) { blockWalkBudget = b }(blockWalkBudget)
	for seed := range uint64(12) {
		rnd := rand.New(rand.NewPCG(seed, 9))
		s := treeSnapshot(rnd, 50+rnd.IntN(400))
		for _, id := range sortedIDs(s.Statements)[:5] { // some cycles
			st := s.Statements.Get(id)
			st.Proof.Ref = append(st.Proof.Ref, sortedIDs(s.Statements)[rnd.IntN(s.Statements.Len())])
		}
		g := Derive(s)
		if g.dense == nil {
			t.Fatal("Derive kept no index on a folder of valid IDs")
		}
		ids := append(sortedKeys(s.Problems), sortedIDs(s.Statements)...)
		ids = append(ids, "s-zz999", "p-999", "not an ID")
		for _, budget := range []int{16, -1} {
			blockWalkBudget = budget
			got := BlockScores(g, ids)
			byID := *g
			byID.dense = nil
			want := BlockScores(&byID, ids)
			for _, id := range ids {
				if got[id] != want[id] {
					t.Fatalf("seed %d, budget %d: score of %s by index %d, by ID %d", seed, budget, id, got[id], want[id])
				}
				if budget < 0 && seed < 3 {
					if b := BlockingOf(g, id).Score; got[id] != b {
						t.Fatalf("seed %d: score of %s = %d, BlockingOf says %d", seed, id, got[id], b)
					}
				}
			}
		}
	}
}
