package tui

import (
	"math"
	"referee/tui/common"
	"runtime/debug"
	"testing"
)

// The first build of the extras in the workbench's own process collects and lowers the
// collector's percentage (once: later builds leave it); elsewhere (tests, probes) the
// process's collector is left alone.
func TestExtrasLowerTheGCPercentOnce(t *testing.T) {
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "off") // no ceiling in the tests' process (TestCeilingFollowsTheLiveHeap)
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

// The ceiling holds while what is live leaves it room, is lifted when it does not (a
// collector working against a ceiling what is live reached would run without end), and
// is set again once what is live fell back.
func TestCeilingFollowsTheLiveHeap(t *testing.T) {
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	const limit = 1000 << 20
	c := &ceiling{limit: limit}
	steps := []struct {
		live uint64
		want int64
	}{
		{700 << 20, limit},         // 30% left: set
		{850 << 20, limit},         // 15% left: kept
		{900 << 20, math.MaxInt64}, // 10% left: lifted
		{850 << 20, math.MaxInt64}, // 15% left: not yet set again
		{800 << 20, limit},         // 20% left: set again
	}
	for i, s := range steps {
		c.follow(s.live)
		if got := debug.SetMemoryLimit(-1); got != s.want {
			t.Fatalf("step %d (%d MiB live): limit %d, want %d", i, s.live>>20, got, s.want)
		}
	}
}
