package bench

import (
	"slices"
	"testing"

	"referee/model"
)

// benchUpdate is the graph brought up to date after an agent's write to one statement:
// model.Graph.Update, what the workbench does per write instead of Derive (compare
// BenchmarkDerive10k). The write flips the status of the middle statement in ID order
// (true ↔ false, else to true), so its phase, its next agent, and the fully proved and
// stale marks of everything that rests on it are worked out again; each op goes from
// one version to the other.
func benchUpdate(b *testing.B, n int) {
	snap, g, err := LoadDerive(folder(b, n))
	if err != nil {
		b.Fatal(err)
	}
	ids := slices.SortedFunc(snap.Statements.Keys(), model.CompareIDs)
	id := ids[len(ids)/2]
	st := *snap.Statements.Get(id)
	if st.Status == "true" {
		st.Status = "false"
	} else {
		st.Status = "true"
	}
	other := *snap
	other.Statements = snap.Statements.Fork()
	other.Statements.Set(id, &st)
	snaps := [2]*model.Snapshot{snap, &other}
	graphs := [2]*model.Graph{g, model.Derive(&other)}
	changed := []string{id}
	defer reportCPU(b)()
	for i := 0; b.Loop(); i++ {
		if _, relinked := graphs[i%2].Update(snaps[i%2], snaps[1-i%2], changed); relinked {
			b.Fatal("a status write relinked the graph")
		}
	}
}

func BenchmarkUpdate10k(b *testing.B)  { benchUpdate(b, 10_000) }
func BenchmarkUpdate100k(b *testing.B) { benchUpdate(b, 100_000) }
