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
// version it was brought to. It returns how many updates kept some graves (or the whole
// list) and how many found the queue unchanged without sorting it again.
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
		if len(was) > 0 && len(graves) > 0 && &was[0] == &graves[0] && !tc.Empty() {
			keptGraves++ // the whole list: no grave changed
		} else if len(was) > 0 && len(graves) > 0 && !tc.Empty() {
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

// An update whose touched statements are no graves, or whose graves made again come out
// the same, returns the list it returned before (not a copy); one that changes a grave
// returns a new list, as Graveyard makes it.
func TestGravesKeepTheirListWhileNoGraveChanges(t *testing.T) {
	s := &Snapshot{
		Problems: map[string]*Problem{"p-001": {ID: "p-001", Status: "unresolved", Progresses: []string{"(s-001) main"}}},
		Statements: ObjectsOf(map[string]*Statement{
			"s-001": {ID: "s-001", Status: "pending", Preliminaries: []string{"s-002"}},
			"s-002": {ID: "s-002", Status: "false", Conclusion: []string{"All odd numbers are prime"}, Progresses: []string{"COUNTEREXAMPLE: 9"}},
			"s-003": {ID: "s-003", Status: "pending"},
		}),
	}
	g := Derive(s)
	var gy Graves
	list := gy.Update(s, g, Touched{})
	if len(list) != 1 || fmt.Sprint(list[0].Blocked) != "[p-001 s-001]" {
		t.Fatalf("first update: %+v", list)
	}
	steps := []struct {
		st   *Statement
		kept bool
	}{
		{&Statement{ID: "s-003", Status: "true"}, true},                                               // no grave looks at it
		{&Statement{ID: "s-001", Status: "validating", Preliminaries: []string{"s-002"}}, true},       // the grave is made again, the same
		{&Statement{ID: "s-001", Status: "pending", Preliminaries: []string{"s-002", "s-003"}}, true}, // s-003 is true: nothing waits on it
		{&Statement{ID: "s-001", Status: "true", Preliminaries: []string{"s-002"}}, false},            // now stale, no longer blocked
		{&Statement{ID: "s-003", Status: "false"}, false},                                             // a new grave
	}
	for i, step := range steps {
		n := &Snapshot{Problems: s.Problems, Statements: s.Statements.Fork()}
		n.Statements.Set(step.st.ID, step.st)
		ng, _ := g.Update(s, n, []string{step.st.ID})
		got := gy.Update(n, ng, TouchedBetween(s, n, g.Phase, ng.Phase))
		if want := Graveyard(n, Derive(n)); !reflect.DeepEqual(got, want) {
			t.Fatalf("step %d: got %+v\nwant %+v", i, got, want)
		}
		if kept := len(got) > 0 && &got[0] == &list[0]; kept != step.kept {
			t.Errorf("step %d: the list kept %v, want %v", i, kept, step.kept)
		}
		s, g, list = n, ng, got
	}
}

// sameGrave looks at every field of a grave.
func TestSameGraveComparesEveryField(t *testing.T) {
	base := Grave{ID: "s-1", Status: "false", Claim: "c", Counterexample: "x", Reason: "r", Disproof: "d", Blocked: []string{"a"}, Stale: []string{"b"}}
	if !sameGrave(base, base) {
		t.Fatal("a grave differs from itself")
	}
	rt := reflect.TypeOf(base)
	for i := range rt.NumField() {
		c := base
		f := reflect.ValueOf(&c).Elem().Field(i)
		switch f.Kind() {
		case reflect.String:
			f.SetString(f.String() + "!")
		case reflect.Slice:
			f.Set(reflect.ValueOf([]string{"other"}))
		default:
			t.Fatalf("field %s of kind %s: sameGrave and this test need it", rt.Field(i).Name, f.Kind())
		}
		if sameGrave(base, c) {
			t.Errorf("a grave with another %s reads the same", rt.Field(i).Name)
		}
	}
	empty, none := base, base
	empty.Stale, none.Stale = []string{}, nil
	if sameGrave(empty, none) {
		t.Error("an empty list and a nil one read the same")
	}
}
