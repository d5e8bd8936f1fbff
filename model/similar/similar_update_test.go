package similar

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"testing"

	"referee/model"
)

// nextSnapshot is s with a few statements changed the way agents change them: statuses,
// claims, new statements and (rarely) one removed. Unchanged statements are shared.
func nextSnapshot(r *rand.Rand, s *model.Snapshot, next *int) *model.Snapshot {
	out := &model.Snapshot{Statements: s.Statements.Fork()}
	ids := model.SortedIDs(s.Statements)
	statuses := []string{"true", "false", "abandoned", "pending", "validating"}
	for range 1 + r.IntN(4) {
		id := ids[r.IntN(len(ids))]
		st := *out.Statements.Get(id)
		switch r.IntN(4) {
		case 0, 1:
			st.Status = statuses[r.IntN(len(statuses))]
		case 2: // reworded as another statement's claim: a repeat of it, or not
			st.Conclusion = out.Statements.Get(ids[r.IntN(len(ids))]).Conclusion
		case 3:
			out.Statements.Delete(id)
			continue
		}
		out.Statements.Set(id, &st)
	}
	for range r.IntN(3) {
		*next++
		id := fmt.Sprintf("s-%03d", *next)
		from := s.Statements.Get(ids[r.IntN(len(ids))])
		out.Statements.Set(id, &model.Statement{ID: id, Status: statuses[r.IntN(len(statuses))], Conclusion: from.Conclusion})
	}
	return out
}

// The re-treads kept up to date by Update and UpdateRetreads are those the updated
// index finds from scratch, and after status changes alone those of a new index.
func TestSimilarityUpdate(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	snap := benchClaims(400)
	next := 400
	ix := NewIndex(snap)
	retreads := ix.RetreadsByID()
	rebuilt := 0
	for step := range 150 {
		snap = nextSnapshot(r, snap, &next)
		changed, _, full := ix.Update(snap)
		if full {
			rebuilt++
			retreads = ix.RetreadsByID()
			continue
		}
		retreads = ix.UpdateRetreads(retreads, changed)
		if want := ix.RetreadsByID(); !reflect.DeepEqual(retreads, want) {
			t.Fatalf("step %d: changed %v\ngot  %v\nwant %v", step, changed, retreads, want)
		}
	}
	if rebuilt == 0 {
		t.Errorf("150 steps of changed claims never rebuilt the index")
	}
	// Statuses alone: the same weights as a new index, so the same re-treads.
	for range 50 {
		out := &model.Snapshot{Statements: snap.Statements.Fork()}
		for id, st := range snap.Statements.All() {
			if r.IntN(20) == 0 {
				c := *st
				c.Status = []string{"true", "false", "pending"}[r.IntN(3)]
				out.Statements.Set(id, &c)
			}
		}
		snap = out
		changed, claims, full := ix.Update(snap)
		if claims || full {
			t.Fatalf("status changes reported as claims (%v) or rebuilt (%v)", claims, full)
		}
		retreads = ix.UpdateRetreads(retreads, changed)
	}
	fresh := NewIndex(snap)
	if want := fresh.RetreadsByID(); !reflect.DeepEqual(NewIndex(snap).RetreadsByID(), want) {
		t.Fatal("a new index is not deterministic")
	}
	ix.rebuild(snap)
	if got, want := ix.RetreadsByID(), fresh.RetreadsByID(); !reflect.DeepEqual(got, want) {
		t.Fatalf("rebuilt index differs from a new one")
	}
}

// Update reports exactly the statements whose claim, status or type changed.
func TestSimilarityUpdateChanged(t *testing.T) {
	snap := benchClaims(50)
	ix := NewIndex(snap)
	out := &model.Snapshot{Statements: snap.Statements.Fork()}
	a := *out.Statements.Get("s-007")
	a.Status = "abandoned"
	out.Statements.Set("s-007", &a)
	b := *out.Statements.Get("s-009")
	// a copy with the same claim, status and type: a write that changed something else
	out.Statements.Set("s-009", &b)
	out.Statements.Delete("s-012")
	out.Statements.Set("s-051", &model.Statement{ID: "s-051", Status: "pending", Conclusion: []string{"$x_{1} \\to 2$"}})
	changed, claims, full := ix.Update(out)
	if want := []string{"s-007", "s-012", "s-051"}; !reflect.DeepEqual(changed, want) || !claims || full {
		t.Fatalf("Update = %v, %v, %v; want %v, true, false", changed, claims, full, want)
	}
	if ix.Similar("s-012", 5) != nil || ix.RetreadsOf("s-012") != nil {
		t.Fatal("a removed statement is still indexed")
	}
	for _, m := range ix.Similar("s-051", -1) {
		if m.ID == "s-012" {
			t.Fatal("a removed statement is still similar to another")
		}
	}
	// It comes back: at its old position.
	changed, _, full = ix.Update(snap)
	if want := []string{"s-007", "s-012", "s-051"}; full || !reflect.DeepEqual(changed, want) {
		t.Fatalf("Update back = %v (rebuilt %v)", changed, full)
	}
}
