package tuimeasure

import (
	"testing"
	"time"

	"referee/tui"
)

// BenchmarkFirstFrame10k is the time from opening to the first frame showing the load
// (loading-ms), and to the first frame showing the tree (full-ms; ns/op), on a
// generated 10k-statement folder at 120×40: with the watcher (as the program opens
// a folder) and without; sync is the load in opening (SyncLoad, as before the load was
// streamed: the first frame is the tree). Goal: a useful frame ≤ 150 ms.
func BenchmarkFirstFrame10k(b *testing.B) {
	dir := benchFolder(b, 10_000)
	for _, c := range []struct {
		name        string
		watch, sync bool
	}{{"watch", true, false}, {"nowatch", false, false}, {"sync", true, true}} {
		b.Run(c.name, func(b *testing.B) {
			var loading, full time.Duration
			cpu := cpuTime()
			for range b.N {
				l, f, err := measureFirstFrame(dir, 120, 40, c.watch)
				if c.sync {
					l, err = syncFirstFrame(dir, 120, 40)
					f = l
				}
				if err != nil {
					b.Fatal(err)
				}
				loading += l
				full += f
			}
			b.ReportMetric(float64(loading.Microseconds())/1000/float64(b.N), "loading-ms")
			b.ReportMetric(float64(full.Microseconds())/1000/float64(b.N), "full-ms")
			b.ReportMetric(float64((cpuTime()-cpu).Microseconds())/1000/float64(b.N), "cpu-ms/op")
		})
	}
}

// syncFirstFrame is the time from opening with SyncLoad to its first frame.
func syncFirstFrame(dir string, width, height int) (time.Duration, error) {
	start := time.Now()
	p, err := tui.OpenProbe(dir, width, height, tui.ProbeOptions{Watch: true})
	if err != nil {
		return 0, err
	}
	defer p.Close()
	_ = p.View()
	return time.Since(start), nil
}
