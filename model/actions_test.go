package model

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
)

// Actions reads as the sorted list it stands for whatever the history of forks, inserts
// and removes (past the folds too), and a fork never changes the version it was made
// from.
func TestActionsBehavesAsASortedList(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	agents := []string{AgentProve, AgentCheck, AgentFix, AgentHuman}
	var list []Action
	for i := range 900 {
		if i%3 != 0 {
			list = append(list, Action{ID: fmt.Sprintf("s-%04d", i), Agent: agents[i%4], Depth: i % 7})
		}
	}
	slices.SortFunc(list, compareActions)
	check := func(step int, l Actions, want []Action) {
		t.Helper()
		if l.Len() != len(want) {
			t.Fatalf("step %d: Len %d, want %d", step, l.Len(), len(want))
		}
		if got := l.Slice(); !reflect.DeepEqual(got, want) {
			t.Fatalf("step %d: Slice differs from the reference (%d vs %d actions)", step, len(got), len(want))
		}
		humans := 0
		for _, a := range want {
			if a.Agent == AgentHuman {
				humans++
			}
		}
		if l.Humans() != humans {
			t.Fatalf("step %d: Humans %d, want %d", step, l.Humans(), humans)
		}
		if a, ok := l.First(); ok != (len(want) > 0) || ok && a != want[0] {
			t.Fatalf("step %d: First %v %v, want %v", step, a, ok, want[:min(1, len(want))])
		}
		if got := ActionsOf(slices.Clone(want)); !reflect.DeepEqual(ActionsOf(l.Slice()), got) {
			t.Fatalf("step %d: folded, the list is not ActionsOf the reference", step)
		}
	}
	l := ActionsOf(slices.Clone(list))
	want := list
	var versions []Actions
	var wants [][]Action
	for step := range 400 {
		f := l.Fork()
		next := slices.Clone(want)
		for range 1 + r.IntN(4) {
			id := fmt.Sprintf("s-%04d", r.IntN(900))
			i := slices.IndexFunc(next, func(a Action) bool { return a.ID == id })
			if i >= 0 { // its agent goes, or changes
				f.Remove(next[i])
				next = slices.Delete(next, i, i+1)
				if r.IntN(2) == 0 {
					continue
				}
			}
			a := Action{ID: id, Agent: agents[r.IntN(4)], Depth: r.IntN(9) - 1}
			f.Insert(a)
			at, _ := slices.BinarySearchFunc(next, a, compareActions)
			next = slices.Insert(next, at, a)
		}
		f.Remove(Action{ID: "s-9999", Agent: AgentProve}) // not held: left alone
		check(step, f, next)
		versions, wants = append(versions, l), append(wants, want)
		l, want = f, next
	}
	for i, v := range versions {
		check(-i, v, wants[i])
	}
	if len(l.add)+len(l.drop) > max(64, 30) {
		t.Errorf("%d changes over the base: they are folded past √n", len(l.add)+len(l.drop))
	}
}

// A graph Update made carries its actions over its predecessor's list and reads as the
// list Derive makes, change after change, including past the folds.
func TestUpdateKeepsTheActionsAsDeriveMakesThem(t *testing.T) {
	s := &Snapshot{Problems: map[string]*Problem{"p-001": {ID: "p-001", Status: "unresolved"}},
		Statements: NewObjects[*Statement](0), Experiences: map[string]*Experience{}}
	var ids []string
	for i := range 300 {
		id := fmt.Sprintf("s-%03d", i+1)
		ids = append(ids, id)
		s.Statements.Set(id, &Statement{ID: id, Status: "pending"})
	}
	g := Derive(s)
	r := rand.New(rand.NewPCG(5, 6))
	statuses := []string{"pending", "proved", "true", "false", "abandoned"}
	forked := false
	for step := range 500 {
		n := &Snapshot{Problems: s.Problems, Statements: s.Statements.Fork(), Experiences: s.Experiences}
		id := ids[r.IntN(len(ids))]
		st := *n.Statements.Get(id)
		st.Status = statuses[r.IntN(len(statuses))]
		n.Statements.Set(id, &st)
		got, relinked := g.Update(s, n, []string{id})
		if relinked {
			t.Fatalf("step %d: a status change relinked", step)
		}
		if want := Derive(n); !reflect.DeepEqual(got.Plain(), want.Plain()) {
			t.Fatalf("step %d: Update differs from Derive:\n%s", step, graphDiff(got, want))
		}
		forked = forked || len(got.Actionable.add)+len(got.Actionable.drop) > 0
		s, g = n, got
	}
	if !forked {
		t.Error("no update carried its actions over a shared list")
	}
}
