package tui

import (
	"runtime/debug"
	"runtime/metrics"

	tea "charm.land/bubbletea/v2"
)

// Go's collector lets the heap grow to twice what is live (GOGC) before it collects,
// and the pages it frees stay resident for a while: at 100k statements the workbench
// held twice the memory its extras keep. Once the extras are built (the largest piece
// of live memory), a soft limit a margin above what is live (debug.SetMemoryLimit)
// makes it collect, and give pages back, before that. The limit follows the live heap
// after each build; the margin (a third of what is live, at least 64 MiB) keeps
// collections far apart, and the limit is never below what is live, so the collector
// never runs without end (the runtime also caps its share of the CPU under a limit).

// limitMemory sets the soft memory limit from the live heap, off the UI goroutine.
// first collects in full before (and returns the freed pages): the build's garbage is
// not yet collected and the figure of the last collection is from before it.
func limitMemory(first bool) tea.Cmd {
	return func() tea.Msg {
		if first {
			debug.FreeOSMemory()
		}
		debug.SetMemoryLimit(softLimit())
		return nil
	}
}

// softLimit is what is live, what the runtime keeps besides the heap, and the margin.
func softLimit() int64 {
	s := []metrics.Sample{
		{Name: "/gc/heap/live:bytes"},
		{Name: "/memory/classes/total:bytes"},
		{Name: "/memory/classes/heap/objects:bytes"},
		{Name: "/memory/classes/heap/unused:bytes"},
		{Name: "/memory/classes/heap/free:bytes"},
		{Name: "/memory/classes/heap/released:bytes"},
	}
	metrics.Read(s)
	v := func(i int) int64 {
		if s[i].Value.Kind() != metrics.KindUint64 {
			return 0
		}
		return int64(s[i].Value.Uint64())
	}
	live := v(0)
	other := v(1) - v(2) - v(3) - v(4) - v(5) // stacks, the collector's own, the runtime's
	return live + max(other, 0) + max(live/3, 64<<20)
}
