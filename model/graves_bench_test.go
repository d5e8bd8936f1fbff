package model_test

import (
	"os"
	"slices"
	"testing"

	"referee/internal/benchfolder"
	"referee/model"
	"referee/store"
)

// BenchmarkExtrasAfterAWrite is the graveyard and the review queue after an agent's
// write, on a generated folder of 10k statements (100k with REFEREE_BENCH_100K=1): a
// statement sent to the checker and back (tochecker), or one proved and back (proved:
// what waits below it is weighed again). Full passes (Graveyard, ReviewOrder) as each
// extras build made them, against kept from the version before (TouchedBetween once,
// Graves, ReviewQueue).
func BenchmarkExtrasAfterAWrite(b *testing.B) {
	n := 10_000
	if os.Getenv("REFEREE_BENCH_100K") != "" {
		n = 100_000
	}
	snap, err := store.Load(benchfolder.Get(b, n))
	if err != nil {
		b.Fatal(err)
	}
	g := model.Derive(snap)
	for _, c := range []struct{ name, from, to string }{{"tochecker", "pending", "awaiting_verification"}, {"proved", "awaiting_verification", "true"}} {
		// The two versions a run goes back and forth between: the first statement with
		// the status, and the most statements below it.
		var id string
		most := -1
		for _, k := range slices.SortedFunc(snap.Statements.Keys(), model.CompareIDs) {
			if st := snap.Statements.Get(k); st.Status == c.from && len(st.Preliminaries) > most {
				id, most = k, len(st.Preliminaries)
			}
		}
		snaps := [2]*model.Snapshot{snap, {Problems: snap.Problems, Statements: snap.Statements.Fork(), Experiences: snap.Experiences}}
		st := *snap.Statements.Get(id)
		st.Status = c.to
		snaps[1].Statements.Set(id, &st)
		g1, relinked := g.Update(snap, snaps[1], []string{id})
		if relinked {
			b.Fatal("a status write relinked")
		}
		graphs := [2]*model.Graph{g, g1}
		b.Run(c.name+"/full", func(b *testing.B) {
			for i := range b.N {
				s, g := snaps[i%2], graphs[i%2]
				_, _ = model.Graveyard(s, g), model.ReviewOrder(s, g)
			}
		})
		b.Run(c.name+"/kept", func(b *testing.B) {
			var gy model.Graves
			var q model.ReviewQueue
			gy.Update(snaps[0], graphs[0], model.Touched{})
			q.Update(snaps[0], graphs[0], model.Touched{})
			b.ResetTimer()
			for i := range b.N {
				prev, s := snaps[i%2], snaps[(i+1)%2]
				pg, g := graphs[i%2], graphs[(i+1)%2]
				t := model.TouchedBetween(prev, s, pg.Phase, g.Phase)
				_, _ = gy.Update(s, g, t), q.Update(s, g, t)
			}
		})
	}
}
