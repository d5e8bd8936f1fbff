package tuimeasure

import (
	"testing"
	"time"
)

// benchProofRender shows a proof of kb KiB at an 80-column detail pane, rendered with
// glamour each time (cold) or taken from the workbench's cache of renderings (cached:
// hash of the text, width and theme, then a map lookup): ProofCase, as `referee-bench`
// measures it.
func benchProofRender(b *testing.B, kb int, cached bool) {
	c, err := NewProofCase(kb)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(c.Close)
	b.SetBytes(int64(c.Len()))
	if _, err := c.Cached(1); err != nil { // the plain fallback and, for cached, the markdown
		b.Fatal(err)
	}
	b.ResetTimer()
	cpu := cpuTime()
	if cached {
		_, err = c.Cached(b.N)
	} else {
		for i := 0; i < b.N && err == nil; i++ {
			_, err = c.Cold()
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(cpuTime()-cpu)/float64(time.Millisecond)/float64(b.N), "cpu-ms/op")
	if err != nil {
		b.Fatal(err)
	}
	if !c.OffUIGoroutine || !c.RenderedOnce {
		b.Fatalf("rendered off the UI goroutine: %v; once per (hash, width, theme): %v", c.OffUIGoroutine, c.RenderedOnce)
	}
}

func BenchmarkProofRender2KBCold(b *testing.B)    { benchProofRender(b, 2, false) }
func BenchmarkProofRender2KBCached(b *testing.B)  { benchProofRender(b, 2, true) }
func BenchmarkProofRender20KBCold(b *testing.B)   { benchProofRender(b, 20, false) }
func BenchmarkProofRender20KBCached(b *testing.B) { benchProofRender(b, 20, true) }
