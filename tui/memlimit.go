package tui

import (
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"sync/atomic"

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
		collectAtGCPercent()
		return nil
	}
}

// collectAtGCPercent sets GCPercent (unless GOGC is set) and, unless GOMEMLIMIT is,
// starts following the live heap with a ceiling (followCeiling).
func collectAtGCPercent() {
	if os.Getenv("GOGC") != "" {
		return
	}
	debug.SetGCPercent(GCPercent)
	if os.Getenv("GOMEMLIMIT") == "" {
		followOnce.Do(followCeiling)
	}
}

// At GCPercent the heap grows to half as much again as what is live before the
// collector runs, and the pages it grew into stay resident: at 100k statements under
// an agents' run that was 650 MiB resident for about 420 MiB live. While what is live
// leaves room under memoryCeiling (ceilingRoom of it at least), the workbench keeps
// under the ceiling as a soft memory limit instead: it collects a little sooner, and
// the runtime gives pages back to stay under it. Once what is live nears the ceiling
// the limit is lifted (GCPercent alone again), so the collector never runs without end
// for a heap that cannot fit, the way a fixed limit did. The ceiling is looked at
// again after every collection.
const (
	memoryCeiling = 540 << 20
	ceilingRoom   = 1.25 // the ceiling holds only while it is this much of what is live, or more
)

var (
	followOnce    sync.Once
	stopFollowing atomic.Bool // tests: the next collection ends the following
)

// followCeiling sets the limit from the heap now (all of it: the collector may not have
// run since the load, so what it last found live says nothing yet), then from what each
// collection finds live (a cleanup of an object dropped now runs once a collection has
// freed it).
func followCeiling() {
	if !stopFollowing.Load() {
		debug.SetMemoryLimit(ceilingFor(heapMetric("/memory/classes/heap/objects:bytes")))
		afterCollection()
	}
}

func afterCollection() {
	runtime.AddCleanup(&collected{}, func(struct{}) {
		if !stopFollowing.Load() {
			debug.SetMemoryLimit(ceilingFor(heapMetric("/gc/heap/live:bytes")))
			afterCollection()
		}
	}, struct{}{})
}

// collected is dropped as soon as it is made: its cleanup says a collection ran. (It
// holds a pointer so that it is never packed with other small objects, which would
// keep it.)
type collected struct{ _ *byte }

// ceilingFor is the memory limit for a live heap of live bytes: memoryCeiling while it
// leaves ceilingRoom, else none.
func ceilingFor(live uint64) int64 {
	if float64(live)*ceilingRoom > memoryCeiling {
		return math.MaxInt64
	}
	return memoryCeiling
}

// heapMetric reads one of the runtime's heap sizes, in bytes.
func heapMetric(name string) uint64 {
	s := []metrics.Sample{{Name: name}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s[0].Value.Uint64()
}
