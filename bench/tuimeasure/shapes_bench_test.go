package tuimeasure

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"referee/gen"
	"referee/tui"
)

// BenchmarkShapeFrames opens each pathological shape (at `referee-bench --shapes`'s
// sizes, but the log at 100 MB; REFEREE_BENCH_SHAPES=1, since writing them takes a
// while) with its extras, walks it with the keys a reader uses (down the tree, the next
// sentence, the detail pane and back, a page, the end and the top), and reports the
// slowest frame: Update and View of one message, the key or what its commands brought.
// Goal: every frame ≤ 16 ms.
func BenchmarkShapeFrames(b *testing.B) {
	if os.Getenv("REFEREE_BENCH_SHAPES") == "" {
		b.Skip("set REFEREE_BENCH_SHAPES=1 to write the shapes and time their frames")
	}
	sizes := map[gen.Shape]int{gen.ShapeChain: 50000, gen.ShapeCitations: 8000, gen.ShapeFanout: 20000,
		gen.ShapeBigClaim: 5 << 20, gen.ShapeLongProof: 100000, gen.ShapeBigLog: 100 << 20}
	for _, shape := range gen.Shapes {
		b.Run(string(shape), func(b *testing.B) {
			dir := filepath.Join(b.TempDir(), "contents")
			if err := gen.WriteShape(dir, shape, sizes[shape]); err != nil {
				b.Fatal(err)
			}
			p, err := tui.OpenProbe(dir, 120, 40, tui.ProbeOptions{Extras: true})
			if err != nil {
				b.Fatal(err)
			}
			defer p.Close()
			var frames []time.Duration
			slowest, slowestMsg := time.Duration(0), ""
			frame := func(msg tea.Msg) tea.Cmd {
				start := time.Now()
				cmd := p.Update(msg)
				_ = p.View()
				d := time.Since(start)
				frames = append(frames, d)
				if d > slowest {
					slowest, slowestMsg = d, fmt.Sprintf("%T %v", msg, msg)
				}
				return cmd
			}
			var deliver func(cmd tea.Cmd, depth int)
			deliver = func(cmd tea.Cmd, depth int) {
				if cmd == nil || depth > 3 {
					return
				}
				out := make(chan tea.Msg, 1)
				go func() { out <- cmd() }()
				select {
				case msg := <-out:
					if batch, ok := msg.(tea.BatchMsg); ok {
						for _, c := range batch {
							deliver(c, depth+1)
						}
						return
					}
					if msg != nil {
						deliver(frame(msg), depth+1)
					}
				case <-time.After(500 * time.Millisecond): // a tick (flashes, polls): no frame of the key's
				}
			}
			for b.Loop() {
				for _, k := range []string{"j", "j", "]", "]", "[", "tab", "j", "space", "tab", "G", "g", "j"} {
					deliver(frame(keyPress(k)), 0)
				}
			}
			b.Logf("slowest frame: %s after %.80s", slowest, slowestMsg)
			slices.Sort(frames)
			b.ReportMetric(float64(frames[len(frames)/2].Microseconds())/1000, "p50-ms/frame")
			b.ReportMetric(float64(frames[len(frames)-1].Microseconds())/1000, "max-ms/frame")
			b.ReportMetric(float64(len(frames)), "frames")
		})
	}
}

// keyPress is a key as the terminal sends it.
func keyPress(k string) tea.KeyPressMsg {
	switch k {
	case "tab":
		return tea.KeyPressMsg{Code: tea.KeyTab}
	case "space":
		return tea.KeyPressMsg{Code: tea.KeySpace, Text: " "}
	}
	r := []rune(k)[0]
	return tea.KeyPressMsg{Code: r, Text: k}
}
