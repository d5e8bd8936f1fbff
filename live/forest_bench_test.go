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

// BenchmarkGlimpse10k is a glimpse of a 10k-statement folder's tree: a tall terminal's
// rows, read from their files (the page cache warm).
func BenchmarkGlimpse10k(b *testing.B) {
	dir := benchfolder.Get(b, 10_000)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := NewGlimpse(dir, 96); err != nil {
			b.Fatal(err)
		}
	}
}
