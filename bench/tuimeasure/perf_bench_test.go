package tuimeasure

import (
	"testing"
	"time"

	"referee/internal/testutil"
)

// BenchmarkKeypress100k is one key (j: next row) and the frame it produces, in a
// generated 100k-statement folder: Update plus View, the work the UI goroutine does
// between a keypress and the terminal write (KeypressCase, as `referee-bench` measures
// it). Goal ≤ 2 ms/op.
func BenchmarkKeypress100k(b *testing.B) {
	p := benchProbe(b, benchFolder(b, 100_000), 160, 50)
	c := &KeypressCase{p: p}
	b.ResetTimer()
	for range b.N {
		c.Press()
	}
	b.ReportMetric(float64(p.Rows()), "rows")
}

// BenchmarkWriteToFrame10k is an agent's write reaching the screen in a generated
// 10k-statement folder: one statement file replaced, then what the program does with
// the watcher's batch and the next frame (WriteCase, as `referee-bench` measures it).
// Goal ≤ 50 ms p99.
func BenchmarkWriteToFrame10k(b *testing.B) {
	dir := testutil.Copy(b, benchFolder(b, 10_000))
	c, err := newWriteCase(benchProbe(b, dir, 160, 50), dir)
	if err != nil {
		b.Fatal(err)
	}
	benchWrites(b, c)
}

// benchWrites times b.N writes after one to warm up, and reports their p99.
func benchWrites(b *testing.B, c interface {
	Write() (time.Duration, error)
	Run(n int, budget time.Duration) (p99, mean time.Duration, err error)
}) {
	if _, err := c.Write(); err != nil { // warm up
		b.Fatal(err)
	}
	b.ResetTimer()
	p99, _, err := c.Run(b.N, 0)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(float64(p99)/float64(time.Millisecond), "p99-ms")
}
