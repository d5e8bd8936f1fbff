package tui

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"referee/cells"
)

// Time travel puts the cursor on what the change shown touched, d diffs that object, and
// the first esc closes the diff even with a search in force.
func TestTravelFollowsTheChangeAndEscClosesTheDiff(t *testing.T) {
	m, _ := newTestModel(t, 120, 40)
	keys(t, m, "/")
	typeText(t, m, "s-004")
	keys(t, m, "enter") // a search in force, the cursor on s-004
	keys(t, m, "t", ",", ",")
	if m.travel == nil || m.travel.id != "l-036" {
		t.Fatalf("travel at %+v, want l-036", m.travel)
	}
	if got := selectedID(m); got != "s-016" {
		t.Fatalf("after l-036 (state-propose-modification on s-016) the cursor is on %s", got)
	}
	keys(t, m, "d")
	if m.lay.side != sideDiff || !strings.Contains(screen(m), "Diff of s-016  after l-035 → after l-036") {
		t.Fatalf("d does not diff the object the change touched:\n%s", screen(m))
	}
	keys(t, m, "esc")
	if m.lay.side != sideDetail || m.search.Query() == "" {
		t.Fatalf("the first esc: side %v, search %q (want the diff closed, the search kept)", m.lay.side, m.search.Query())
	}
}

// u undoes the session's last change, ctrl+r takes that undo back (the confirmation
// says so), and u then undoes the redo.
func TestRedoTakesTheUndoBack(t *testing.T) {
	m, dir := newTestModel(t, 120, 40)
	p := filepath.Join(dir, "statement/s-014.json")
	keys(t, m, "ctrl+r")
	if m.dlg.confirm != nil || !strings.Contains(m.status.message, "cannot redo: no undo was made") {
		t.Fatalf("ctrl+r with nothing undone: %q", m.status.message)
	}
	keys(t, m, "n", "C", "enter", "y")
	confirmed := readFile(t, p)
	keys(t, m, "u", "y")
	if readFile(t, p) == confirmed {
		t.Fatalf("u y did not undo: %q", m.status.message)
	}
	keys(t, m, "ctrl+r")
	if m.dlg.confirm == nil || !strings.Contains(screen(m), "Redo what the last undo of this session took back?") ||
		!strings.Contains(screen(m), "→ proved (true)") {
		t.Fatalf("ctrl+r does not confirm the redo:\n%s", screen(m))
	}
	keys(t, m, "y")
	if readFile(t, p) != confirmed || !strings.Contains(m.status.message, "redo by") {
		t.Fatalf("the redo did not write back the confirmation: %q", m.status.message)
	}
	if _, ok := m.writes.LastUndo(); ok {
		t.Fatal("the redone undo can be redone again")
	}
	if last, _ := m.writes.Last(); last == nil || !strings.HasPrefix(m.status.message, "✓ "+last.Change) {
		t.Fatalf("u would not undo the redo: %v, %q", last, m.status.message)
	}
}

// The workbench counts widths by grapheme cluster whatever the terminal reports: Run
// sends GraphemeWidths as if the terminal had answered mode 2027, and the views follow.
func TestGraphemeWidthsWhateverTheTerminalSays(t *testing.T) {
	defer cells.SetMethod(cells.Method())
	cells.SetMethod(ansi.WcWidth)
	if GraphemeWidths.Mode != ansi.ModeUnicodeCore || GraphemeWidths.Value != ansi.ModeSet {
		t.Fatalf("GraphemeWidths is %+v", GraphemeWidths)
	}
	m, _ := newTestModel(t, 120, 40)
	send(t, m, GraphemeWidths)
	if cells.Method() != ansi.GraphemeWidth || cells.Width("👨‍👩‍👧‍👦") != 2 {
		t.Fatalf("after the report: method %v, the family %d cells wide", cells.Method(), cells.Width("👨‍👩‍👧‍👦"))
	}
}
