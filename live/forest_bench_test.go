package live

import (
	"testing"

	"referee/internal/benchfolder"
	"referee/model"
	"referee/store"
)

// BenchmarkNewForest10k is the tree of a loaded 10k-statement folder: newForest, and
// the first Flatten (the rows the first frame shows, under no folds), after model.Derive.
func BenchmarkNewForest10k(b *testing.B) {
	snap, err := store.Load(benchfolder.Get(b, 10_000))
	if err != nil {
		b.Fatal(err)
	}
	g := model.Derive(snap)
	b.Run("build", func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			newForest(snap, g)
		}
	})
	f := newForest(snap, g)
	b.Run("flatten", func(b *testing.B) {
		b.ReportAllocs()
		for range b.N {
			f.Flatten(map[string]bool{})
		}
	})
}
