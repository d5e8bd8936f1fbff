package tui

import (
	"errors"
	"strings"
	"testing"

	"referee/live"
)

// TestFolderGoneNoteClearsWhenBack feeds the watcher's batches for a deleted folder and
// its return: the status bar says the folder is gone, then the note goes once the
// rescan reads it again, and the tree is still shown throughout.
func TestFolderGoneNoteClearsWhenBack(t *testing.T) {
	m, _ := newTestModel(t, 120, 30)
	gone := errors.New("contents folder /x/contents is gone; waiting for it to reappear")
	send(t, m, live.Frame{Snap: m.shown.snap, Graph: m.shown.g, Forest: m.shown.forest, Rescan: true, WatchErr: gone})
	if out := lastLine(screen(m)); !strings.Contains(out, "is gone; waiting for it to reappear") {
		t.Fatalf("status bar does not say the folder is gone: %q", out)
	}
	send(t, m, live.Frame{Snap: m.shown.snap, Graph: m.shown.g, Forest: m.shown.forest, Rescan: true})
	if out := screen(m); strings.Contains(out, "is gone") || !strings.Contains(out, "p-001") {
		t.Fatalf("after the folder came back:\n%s", out)
	}
}
