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
// an agents' run that was 690-730 MiB resident for about 420 MiB live. While what is
// live leaves room under memoryCeiling (ceilingRoom more than it, besides the runtime's
// own memory), the workbench keeps under the ceiling as a soft memory limit instead: it
// collects sooner, and the runtime gives pages back to stay under it. Once what is live
// nears the ceiling the limit is lifted (GCPercent alone again), so the collector never
// runs without end for a heap that cannot fit, the way a fixed limit did. The ceiling
// is looked at again after every collection.
const (
	memoryCeiling = 560 << 20
	ceilingRoom   = 1.15 // the least the heap may grow over what is live under the ceiling
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
		debug.SetMemoryLimit(ceilingFor(readMemory("/memory/classes/heap/objects:bytes")))
		afterCollection()
	}
}

func afterCollection() {
	runtime.AddCleanup(&collected{}, func(struct{}) {
		if !stopFollowing.Load() {
			debug.SetMemoryLimit(ceilingFor(readMemory("/gc/heap/live:bytes")))
			afterCollection()
		}
	}, struct{}{})
}

// ceilingFor is the memory limit for the memory the runtime holds now, of which live
// bytes are live: memoryCeiling while it leaves ceilingRoom, else none.
func ceilingFor(m memory) int64 {
	if float64(m.live)*ceilingRoom+float64(m.other) > memoryCeiling {
		return math.MaxInt64
	}
	return memoryCeiling
}

// memory is what the runtime holds: live heap, and what else a memory limit counts and
// a collection cannot free (the runtime's metadata, stacks, the spans' unused room).
type memory struct{ live, other uint64 }

// readMemory reads the memory the runtime holds, live being the named metric.
func readMemory(live string) memory {
	s := []metrics.Sample{{Name: live}, {Name: "/memory/classes/heap/objects:bytes"},
		{Name: "/memory/classes/total:bytes"}, {Name: "/memory/classes/heap/released:bytes"},
		{Name: "/memory/classes/heap/free:bytes"}}
	metrics.Read(s)
	v := func(i int) uint64 {
		if s[i].Value.Kind() != metrics.KindUint64 {
			return 0
		}
		return s[i].Value.Uint64()
	}
	// Held: all the runtime has from the system but what it gave back; of it, the heap's
	// objects (live or not yet collected) and its free pages (given back under a limit)
	// are the heap's, the rest (metadata, stacks, the spans' unused room) the runtime's.
	held := v(2) - min(v(3), v(2))
	heap := v(1) + v(4)
	return memory{live: v(0), other: held - min(heap, held)}
}

// collected is dropped as soon as it is made: its cleanup says a collection ran. (It
// holds a pointer so that it is never packed with other small objects, which would
// keep it.)
type collected struct{ _ *byte }
