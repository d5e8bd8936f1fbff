package mcpserver

import (
	"os"
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"time"
)

// gcTuner sets how often the collector runs in a server that holds a folder. The loaded
// folder is most of the heap and lives as long as the server; each collection marks all
// of it (at 100k statements about a second of CPU), while a call leaves some tens of
// kilobytes of garbage. With the default (collect when the heap doubled) a collection
// came every few thousand calls, took most of their CPU and made all their slowest
// answers. Here the heap may grow by gcHeadroom before a collection (by gcMostPercent of
// what is live at most), and by what is live when that is more: memory stays within
// max(twice what is live, what is live and gcHeadroom). The percent follows the live
// heap after each collection, so a folder that grows keeps that bound; no fixed soft
// memory limit is set, since one taken from the live heap of a moment makes the
// collector run without end once what is live grows past it (the workbench met that).
// GOGC set by hand is obeyed; a load that turned the collector off is left so.
type gcTuner struct {
	mu     sync.Mutex
	off    bool
	last   time.Time
	cycles uint64
}

const (
	gcHeadroom    = 512 << 20
	gcMostPercent = 400
	gcEvery       = time.Second // how often the live heap is looked at again, at most
)

var tuner = &gcTuner{off: os.Getenv("GOGC") != ""}

// gcPercent is how far, in percent of live bytes, the heap may grow before a collection.
func gcPercent(live uint64) int {
	if live == 0 {
		return 100
	}
	return int(min(gcMostPercent, max(100, gcHeadroom*100/live)))
}

// tune sets the percent for the heap live at the last collection, if one came since the
// last look, at most every gcEvery.
func (g *gcTuner) tune() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.off || time.Since(g.last) < gcEvery {
		return
	}
	g.last = time.Now()
	sample := []metrics.Sample{{Name: "/gc/cycles/total:gc-cycles"}, {Name: "/gc/heap/live:bytes"}}
	metrics.Read(sample)
	if sample[0].Value.Kind() != metrics.KindUint64 || sample[1].Value.Kind() != metrics.KindUint64 {
		g.off = true
		return
	}
	cycles := sample[0].Value.Uint64()
	if cycles == g.cycles {
		return
	}
	g.cycles = cycles
	if prev := debug.SetGCPercent(gcPercent(sample[1].Value.Uint64())); prev < 0 {
		debug.SetGCPercent(prev) // a load runs without the collector: it puts it back
	}
}
