package tui

import (
	"os"
	"runtime/debug"

	tea "charm.land/bubbletea/v2"
)

// Go's collector lets the heap grow to twice what is live (GOGC=100) before it
// collects, and the pages it frees stay resident for a while: at 100k statements the
// workbench held twice the memory its extras keep. Once the extras are built (the
// largest piece of live memory) it collects in full, gives the freed pages back, and
// collects from then on when the heap grew by half of what is live (GCPercent). A
// percentage follows the live heap by itself: a fixed soft limit (debug.SetMemoryLimit)
// set from the live heap of one moment made the collector run without end once what
// is live grew past it (a later read of the log, a search), on an idle workbench.
//
// GCPercent is that percentage; `referee serve` collects at it from the start.
const GCPercent = 50

// limitMemory is the collection and the new percentage, off the UI goroutine. A GOGC
// the user set is left as it is.
func limitMemory() tea.Cmd {
	return func() tea.Msg {
		debug.FreeOSMemory()
		if os.Getenv("GOGC") == "" {
			debug.SetGCPercent(GCPercent)
		}
		return nil
	}
}
