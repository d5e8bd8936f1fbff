package tuimeasure

import (
	"fmt"
	"testing"
	"time"

	"referee/internal/testutil"
)

// BenchmarkWatchedWriteToFrame10k is an agent's write reaching the screen through the
// watcher in a generated 10k-statement folder (WatchedWriteCase, as `referee-bench`
// measures it): the watcher's quiet time, then the program's work and the frame, at the
// watcher's default debounce (20ms), the former one (30ms) and a shorter one, to weigh
// it. Goal ≤ 50 ms p99.
func BenchmarkWatchedWriteToFrame10k(b *testing.B) {
	dir := testutil.Copy(b, benchFolder(b, 10_000))
	for _, debounce := range []time.Duration{0, 30 * time.Millisecond, 10 * time.Millisecond} {
		name := "debounce=default"
		if debounce > 0 {
			name = fmt.Sprintf("debounce=%s", debounce)
		}
		b.Run(name, func(b *testing.B) {
			c, err := NewWatchedWriteCase(dir, 160, 50, debounce)
			if err != nil {
				b.Fatal(err)
			}
			defer c.Close()
			benchWrites(b, c)
		})
	}
}

// BenchmarkWatchedWriteToFrame100k is the same at 100k statements, extras on, where the
// goal (write → frame p99 ≤ 50 ms through the watcher) is set.
func BenchmarkWatchedWriteToFrame100k(b *testing.B) {
	dir := testutil.Copy(b, benchFolder(b, 100_000))
	c, err := NewWatchedWriteCase(dir, 160, 50, 0)
	if err != nil {
		b.Fatal(err)
	}
	defer c.Close()
	benchWrites(b, c)
}
