package tui

import (
	"maps"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"referee/store"
)

// BenchmarkKeypress100k is one key (j: next row) and the frame it produces, in a
// generated 100k-statement folder: Update plus View, the work the UI goroutine does
// between a keypress and the terminal write. Goal ≤ 2 ms/op.
func BenchmarkKeypress100k(b *testing.B) {
	m := benchModel(b, benchFolder(b, 100_000), 160, 50)
	j := keyMsg("j")
	rows := len(m.tree.Rows())
	b.ReportMetric(float64(rows), "rows")
	b.ResetTimer()
	for i := range b.N {
		if i%(rows-1) == rows-2 {
			m.tree.moveTo(0) // wrap around without a key: keep moving down
		}
		m.Update(j)
		_ = m.View()
	}
}

// BenchmarkWriteToFrame10k is an agent's write reaching the screen in a generated
// 10k-statement folder: one statement file rewritten, then what the program does with
// the watcher's batch (listen: store.Reload of that file, derive the graph and the tree
// off the UI goroutine; then onSnapshot on it) and the next frame. Goal ≤ 50 ms p99.
func BenchmarkWriteToFrame10k(b *testing.B) {
	dir := copyDir(b, benchFolder(b, 10_000))
	m := benchModel(b, dir, 160, 50)
	rel := store.StatementDir + "/" + slices.Sorted(maps.Keys(m.snap.Statements))[5000] + ".json"
	orig, err := os.ReadFile(filepath.Join(dir, rel))
	if err != nil {
		b.Fatal(err)
	}
	times := make([]time.Duration, 0, b.N)
	b.ResetTimer()
	for i := range b.N {
		t0 := time.Now()
		data := orig
		if i%2 == 0 {
			data = append(slices.Clip(orig), '\n') // a new version of the same object
		}
		if err := os.WriteFile(filepath.Join(dir, rel), data, 0o644); err != nil {
			b.Fatal(err)
		}
		snap := store.Reload(dir, m.latest, []string{rel})
		g, f := derive(snap)
		m.Update(snapshotMsg{snap: snap, g: g, f: f, paths: []string{rel}})
		_ = m.View()
		times = append(times, time.Since(t0))
	}
	b.StopTimer()
	slices.Sort(times)
	b.ReportMetric(float64(times[len(times)*99/100].Microseconds())/1000, "p99-ms")
}
