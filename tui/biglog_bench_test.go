package tui

import (
	"os"
	"slices"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
)

// BenchmarkFramesBigLog times the frames (Update plus View) of the workbench on the
// folder REFEREE_BIGLOG names, as `referee gen --shape biglog --size 524288000` writes
// it: moving in the tree, then in the activity pane once listed (listing runs in a
// command, as in the program, and is not timed). It reports the slowest frame.
func BenchmarkFramesBigLog(b *testing.B) {
	dir := os.Getenv("REFEREE_BIGLOG")
	if dir == "" {
		b.Skip("REFEREE_BIGLOG names no folder")
	}
	m, err := New(dir, Options{NoWatch: true, Theme: "dark", Actor: "human", SyncLoad: true})
	if err != nil {
		b.Fatal(err)
	}
	defer m.Close()
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 40})
	frame := func(k string) time.Duration {
		start := time.Now()
		_, cmd := m.Update(keyMsg(k))
		_ = m.View()
		d := time.Since(start)
		runCmds(b, m, cmd)
		return d
	}
	// The activity listed once before the frames (it takes longer than runCmds waits).
	m.Update(keyMsg("a"))
	m.bg.changes.busy = false
	m.Update(m.bg.changes.List()())
	if !m.activity.loaded || m.activity.head.Changes == 0 {
		b.Fatalf("the activity lists %d changes, %d older", len(m.activity.changes), m.activity.head.Changes)
	}
	m.Update(keyMsg("a"))
	var frames []time.Duration
	for b.Loop() {
		for _, k := range []string{"j", "j", "k", "j", "a", "j", "j", "G", "k", "g", "space", "a"} {
			frames = append(frames, frame(k))
		}
	}
	slices.Sort(frames)
	b.ReportMetric(float64(frames[len(frames)/2].Microseconds())/1000, "p50-ms/frame")
	b.ReportMetric(float64(frames[len(frames)-1].Microseconds())/1000, "max-ms/frame")
}
