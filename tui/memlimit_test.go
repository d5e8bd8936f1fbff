package tui

import (
	"math"
	"runtime/debug"
	"runtime/metrics"
	"testing"
)

// A build of the extras in the workbench's own process sets the soft memory limit a
// margin above the live heap (the first after a full collection); elsewhere (tests,
// probes) it leaves the process's limit alone.
func TestExtrasSetTheSoftMemoryLimit(t *testing.T) {
	defer debug.SetMemoryLimit(math.MaxInt64)
	if cmd, _ := (&Extras{}).Update(common{}, extrasMsg{ex: &extras{}}); cmd != nil {
		t.Fatal("a build without LimitMemory asked for a limit")
	}
	e := &Extras{limit: true}
	cmd, out := e.Update(common{}, extrasMsg{ex: &extras{}})
	if cmd == nil || !e.limited {
		t.Fatal("the first build set no limit")
	}
	if _, ok := out.(extrasBuiltMsg); !ok {
		t.Fatalf("answered %T", out)
	}
	cmd()
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	live := int64(s[0].Value.Uint64())
	if got := debug.SetMemoryLimit(-1); got < live+64<<20 || got == math.MaxInt64 {
		t.Fatalf("limit %d with %d live", got, live)
	}
	if cmd, _ := e.Update(common{}, extrasMsg{ex: &extras{}}); cmd == nil {
		t.Fatal("a later build did not follow the live heap")
	}
}
