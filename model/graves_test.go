package model

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
)

// checkExtrasUpdates applies random batches of edits and brings a Graves and a
// ReviewQueue along, now after each batch, now after several (as the workbench's paced
// builds do), and checks that each equals a full pass (Graveyard, ReviewOrder) on the
// version it was brought to. It returns how many updates kept some graves and how many
// found the queue unchanged without sorting it again.
func checkExtrasUpdates(t testing.TB, s *Snapshot, e *editor, rnd *rand.Rand, steps int) (keptGraves, keptQueue int) {
	t.Helper()
	g := Derive(s)
	var gy Graves
	var q ReviewQueue
	check := func(step int, s *Snapshot, g *Graph, graves []Grave, order []string) {
		t.Helper()
		full := Derive(s)
		if want := Graveyard(s, full); !reflect.DeepEqual(graves, want) {
			t.Fatalf("step %d: Graves.Update differs from Graveyard:\n got %+v\nwant %+v", step, graves, want)
		}
		if want := ReviewOrder(s, full); !slices.Equal(order, want) {
			t.Fatalf("step %d: ReviewQueue.Update differs from ReviewOrder:\n got %v\nwant %v", step, order, want)
		}
	}
	graves, order := gy.Update(s, g, Touched{}), q.Update(s, g, Touched{})
	check(-1, s, g, graves, order)
	at, atPhase := s, g.Phase
	for step := range steps {
		n, changed := e.batch(s)
		g, _ = g.Update(s, n, changed)
		s = n
		if rnd.IntN(3) == 0 {
			continue // the next update takes several batches at once
		}
		tc := TouchedBetween(at, s, atPhase, g.Phase)
		was, wasOrder := gy.list, q.order
		graves, order = gy.Update(s, g, tc), q.Update(s, g, tc)
		check(step, s, g, graves, order)
		if len(was) > 0 && len(graves) > 0 && &was[0] != &graves[0] && !tc.Empty() {
			for _, gr := range graves {
				if i := slices.IndexFunc(was, func(w Grave) bool { return w.ID == gr.ID }); i >= 0 && len(gr.Blocked) > 0 && len(was[i].Blocked) > 0 && &gr.Blocked[0] == &was[i].Blocked[0] {
					keptGraves++
					break
				}
			}
		}
		if len(order) > 0 && len(wasOrder) > 0 && &order[0] == &wasOrder[0] && !tc.Empty() {
			keptQueue++
		}
		at, atPhase = s, g.Phase
	}
	return keptGraves, keptQueue
}

// Random walks of edits (statuses, proofs, issues, new sub-statements, deletions,
// references that make cycles or dangle, problems, experiences) over the fuzzer's small
// snapshots and over larger trees: the graveyard and the review queue kept from version
// to version are those a full pass makes, and the kept ways are taken.
func TestGravesAndReviewQueueMatchFullPasses(t *testing.T) {
	kg, kq := 0, 0
	for seed := range uint64(200) {
		rnd := rand.New(rand.NewPCG(seed, 17))
		data := make([]byte, 40)
		for i := range data {
			data[i] = byte(rnd.IntN(256))
		}
		a, b := checkExtrasUpdates(t, snapshotFrom(data), newEditor(rnd, nil), rnd, 30)
		kg, kq = kg+a, kq+b
	}
	for seed := range uint64(4) {
		rnd := rand.New(rand.NewPCG(seed, 18))
		a, b := checkExtrasUpdates(t, treeSnapshot(rnd, 400), newEditor(rnd, nil), rnd, 150)
		kg, kq = kg+a, kq+b
	}
	if kg < 100 || kq < 100 {
		t.Errorf("the kept ways were hardly taken: graves kept in %d updates, the queue in %d", kg, kq)
	}
}

// Every grave's notes and what rests on it: a status, a counterexample, a reason, a
// citation that makes a true statement stale, each changed alone.
func TestGravesFollowEachPart(t *testing.T) {
	s := &Snapshot{
		Problems: map[string]*Problem{"p-001": {ID: "p-001", Status: "unresolved", Progresses: []string{"(s-001) main"}}},
		Statements: ObjectsOf(map[string]*Statement{
			"s-001": {ID: "s-001", Status: "pending", Preliminaries: []string{"s-002"}},
			"s-002": {ID: "s-002", Status: "pending", Conclusion: []string{"All odd numbers are prime"}},
			"s-003": {ID: "s-003", Status: "true"},
		}),
	}
	g := Derive(s)
	var gy Graves
	gy.Update(s, g, Touched{})
	edits := []func(*Statement) (string, *Statement){
		func(*Statement) (string, *Statement) {
			return "s-002", &Statement{ID: "s-002", Status: "false", Conclusion: []string{"All odd numbers are prime"}}
		},
		func(old *Statement) (string, *Statement) {
			c := *old
			c.Progresses = []string{"COUNTEREXAMPLE: 9"}
			return "s-002", &c
		},
		func(*Statement) (string, *Statement) {
			return "s-003", &Statement{ID: "s-003", Status: "true", Proof: Proof{Ref: []string{"s-002"}}}
		},
		func(*Statement) (string, *Statement) {
			return "s-001", &Statement{ID: "s-001", Status: "true", Preliminaries: []string{"s-002"}}
		},
		func(old *Statement) (string, *Statement) {
			c := *old
			c.Status, c.Progresses = "abandoned", []string{"ABANDONED: moot"}
			return "s-002", &c
		},
	}
	for i, edit := range edits {
		n := &Snapshot{Problems: s.Problems, Statements: s.Statements.Fork()}
		id, st := edit(s.Statements.Get("s-002"))
		n.Statements.Set(id, st)
		ng, _ := g.Update(s, n, []string{id})
		got := gy.Update(n, ng, TouchedBetween(s, n, g.Phase, ng.Phase))
		if want := Graveyard(n, Derive(n)); !reflect.DeepEqual(got, want) {
			t.Fatalf("edit %d: got %+v\nwant %+v", i, got, want)
		}
		if i >= 1 && (len(got) != 1 || got[0].Counterexample != "9" && got[0].Reason != "moot") {
			t.Fatalf("edit %d: %+v", i, got)
		}
		s, g = n, ng
	}
	if got := fmt.Sprint(gy.list[0].Stale, gy.list[0].Blocked); got != "[s-001 s-003] []" {
		t.Errorf("stale, blocked: %s", got)
	}
}
