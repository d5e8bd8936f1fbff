package tui

import (
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"

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

// Ceiling is a soft memory limit kept beside GCPercent once the extras are built: with
// a large folder's heap, half of what is live again is more room than the workbench's
// memory goal leaves, and under an agents' run the heap grows into all of it. The
// ceiling only holds while what is live leaves it room (ceilingRoom): after each
// collection (a cleanup the collector runs) the live heap is read, and the ceiling is
// lifted while less than that is left, set again once what is live fell back, so
// the collector never runs without end against a ceiling what is live reached.
const (
	Ceiling     = 540 << 20
	ceilingRoom = 0.12 // lifted when less than this share of the ceiling is left over what is live
	ceilingBack = 0.18 // set again when this share is left
)

// limitMemory is the collection and the new percentage, off the UI goroutine, and the
// ceiling from then on. A GOGC or GOMEMLIMIT the user set is left as it is.
func limitMemory() tea.Cmd {
	return func() tea.Msg {
		debug.FreeOSMemory()
		if os.Getenv("GOGC") == "" {
			debug.SetGCPercent(GCPercent)
		}
		if os.Getenv("GOMEMLIMIT") == "" {
			startCeiling(Ceiling)
		}
		return nil
	}
}

// ceiling follows the live heap after each collection (see Ceiling).
type ceiling struct {
	limit  int64
	on     bool
	sample []metrics.Sample
}

var ceilingOnce sync.Once

// startCeiling sets the ceiling and watches it, once per process.
func startCeiling(limit int64) {
	ceilingOnce.Do(func() {
		c := &ceiling{limit: limit, sample: []metrics.Sample{{Name: "/gc/heap/live:bytes"}}}
		c.check()
		c.arm()
	})
}

// arm has check run after the next collection: a cleanup of an object nothing keeps,
// armed again each time.
func (c *ceiling) arm() {
	runtime.AddCleanup(new([16]byte), func(c *ceiling) { c.check(); c.arm() }, c)
}

// check sets or lifts the ceiling from what the last collection found live.
func (c *ceiling) check() {
	metrics.Read(c.sample)
	if c.sample[0].Value.Kind() != metrics.KindUint64 {
		return
	}
	c.follow(c.sample[0].Value.Uint64())
}

// follow sets or lifts the ceiling for live bytes found live.
func (c *ceiling) follow(live uint64) {
	switch left := 1 - float64(live)/float64(c.limit); {
	case c.on && left < ceilingRoom:
		debug.SetMemoryLimit(math.MaxInt64)
		c.on = false
	case !c.on && left >= ceilingBack:
		debug.SetMemoryLimit(c.limit)
		c.on = true
	}
}
