package tui

import (
	"referee/tui/common"
	"runtime/debug"
	"testing"
)

// The first build of the extras in the workbench's own process collects and lowers the
// collector's percentage (once: later builds leave it); elsewhere (tests, probes) the
// process's collector is left alone.
func TestExtrasLowerTheGCPercentOnce(t *testing.T) {
	t.Setenv("GOGC", "")
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
