package tui

import (
	"slices"
	"strings"
	"testing"

	"referee/store"
	"referee/tui/common"
)

// With a log longer than the window the workbench holds, the activity pane says how
// many older changes there are and where; enter on that row reads them, and time
// travel says where it stops until then.
func TestActivityReadsOlderChanges(t *testing.T) {
	t.Cleanup(store.SetLogWindow(10, 1<<20))
	m, _ := newTestModel(t, 120, 40)
	keys(t, m, "a")
	if h := headers(m); len(h) != 10 || h[0] != "l-038" || h[9] != "l-029" {
		t.Fatalf("activity lists %v", h)
	}
	if got := m.activity.Title(); got != "Activity · the last 10 of 38 changes, newest first" {
		t.Fatalf("title %q", got)
	}
	keys(t, m, "G")
	contains(t, "screen", screen(m), "… 28 older changes, log lines 1–28: enter reads more")
	if _, ok := m.activity.Selected(); ok || m.activity.Target() != "" {
		t.Fatal("the older changes' row selects a change")
	}
	// Time travel through what is held stops at its first change and says why.
	keys(t, m, "up", "t")
	if m.travel == nil || m.travel.id != "l-029" {
		t.Fatalf("travel at %v", m.travel)
	}
	if got := strings.Join(m.travel.Status(common.Common{}), ""); got != "◷ time travel: after l-029 (29 of 38) · read-only" {
		t.Fatalf("travel says %q", got)
	}
	keys(t, m, ",")
	if want := "at the first change read, l-029: 28 older in history/log.jsonl lines 1–28 (the activity pane's last row reads further back)"; m.status.message != want {
		t.Fatalf("message %q", m.status.message)
	}
	keys(t, m, "G", "enter")
	if h := headers(m); len(h) != 38 || h[0] != "l-038" || h[37] != "l-001" {
		t.Fatalf("after reading back, activity lists %d: %v", len(h), h)
	}
	if c, ok := m.activity.Selected(); !ok || c.ID != "l-028" {
		t.Fatalf("cursor on %v", c.ID)
	}
	if got := m.activity.Title(); got != "Activity · 38 changes, newest first" || strings.Contains(screen(m), "older changes, log lines") {
		t.Fatalf("title %q", got)
	}
	if !strings.HasPrefix(m.status.message, "read 28 older changes, back to l-001") {
		t.Fatalf("message %q", m.status.message)
	}
	// Travel goes on through them.
	keys(t, m, ",")
	if m.travel == nil || m.travel.id != "l-028" || strings.Join(m.travel.Status(common.Common{}), "") != "◷ time travel: after l-028 (28 of 38) · read-only" {
		t.Fatalf("travel at %v after reading back: %q", m.travel.id, strings.Join(m.travel.Status(common.Common{}), ""))
	}
	if got := slices.Index(headers(m), "l-028"); got < 0 {
		t.Fatal("l-028 not listed")
	}
}
