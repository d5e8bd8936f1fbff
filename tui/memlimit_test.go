package tui

import (
	"math"
	"runtime"
	"runtime/debug"
	"testing"
	"time"

	"referee/tui/common"
)

// The first build of the extras in the workbench's own process collects and lowers the
// collector's percentage (once: later builds leave it); elsewhere (tests, probes) the
// process's collector is left alone.
func TestExtrasLowerTheGCPercentOnce(t *testing.T) {
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "off") // no ceiling followed for the rest of the tests
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	if cmd, _ := (&Extras{}).Update(common.Common{}, extrasMsg{ex: &extras{}}); cmd != nil {
		t.Fatal("a build without LimitMemory asked for a collection")
	}
	e := &Extras{limit: true}
	cmd, out := e.Update(common.Common{}, extrasMsg{ex: &extras{}})
	if cmd == nil || !e.limited {
		t.Fatal("the first build did nothing")
	}
	if _, ok := out.(extrasBuiltMsg); !ok {
		t.Fatalf("answered %T", out)
	}
	cmd()
	if got := debug.SetGCPercent(100); got != GCPercent {
		t.Fatalf("GC percent %d, want %d", got, GCPercent)
	}
	if cmd, _ := e.Update(common.Common{}, extrasMsg{ex: &extras{}}); cmd != nil {
		t.Fatal("a later build collected again")
	}
}

// The ceiling holds while what is live leaves room under it, is lifted past that, and
// is set again after each collection from what it found live.
func TestTheCeilingFollowsTheLiveHeap(t *testing.T) {
	if got := ceilingFor(100 << 20); got != memoryCeiling {
		t.Fatalf("100 MiB live: limit %d, want the ceiling", got)
	}
	if got := ceilingFor(memoryCeiling / 2); got != memoryCeiling {
		t.Fatalf("half the ceiling live: limit %d, want the ceiling", got)
	}
	if got := ceilingFor(memoryCeiling * 9 / 10); got != math.MaxInt64 {
		t.Fatalf("nine tenths of the ceiling live: limit %d, want none", got)
	}
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(math.MaxInt64))
	defer stopFollowing.Store(true)
	followCeiling()
	if got := debug.SetMemoryLimit(-1); got != memoryCeiling {
		t.Fatalf("limit %d after following began, want %d", got, memoryCeiling)
	}
	debug.SetMemoryLimit(math.MaxInt64)
	for range 50 { // the cleanup runs on its own goroutine after a collection
		runtime.GC()
		if debug.SetMemoryLimit(-1) == memoryCeiling {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatal("a collection did not set the limit again")
}
