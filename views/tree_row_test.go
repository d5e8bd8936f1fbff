package views

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"referee/live"
	"referee/model"
	"referee/themes"
)

// TestTreeRowNeverCutsTheID: at every width from the ID's own up, at any depth, with
// every mark on, the row is exactly the width and shows the whole ID.
func TestTreeRowNeverCutsTheID(t *testing.T) {
	st := themes.New(themes.Dark())
	info := RowInfo{Phase: model.PhaseHasGap, Status: "has_gap", Text: strings.Repeat("a long claim ", 20),
		IssuesOpen: 1, IssuesTotal: 3, Next: model.AgentFix, Retread: true, Stale: true}
	for _, depth := range []int{0, 3, 11, 40, 500} {
		r := live.TreeRow{Kind: live.RowStatement, ID: "s-10234", Path: "p-001/s-10234", Depth: depth, HasKids: true, Open: true, Shared: true}
		for w := 8; w <= 120; w++ {
			got := ansi.Strip(TreeLine(st, r, info, w, false, false))
			if ansi.StringWidth(got) != w {
				t.Fatalf("depth %d width %d: row is %d cells: %q", depth, w, ansi.StringWidth(got), got)
			}
			if !strings.Contains(got, "s-10234") {
				t.Fatalf("depth %d width %d: the ID is cut: %q", depth, w, got)
			}
			if depth > MaxIndent && w > 40 && !strings.Contains(got, "›") {
				t.Fatalf("depth %d width %d: no mark that the indentation is capped: %q", depth, w, got)
			}
		}
	}
}

// A row gives up its status word before its marks: at every width where the row with
// the glyph alone has room for the marks and a few words of claim, the marks show.
func TestTreeRowKeepsItsMarksOverTheStatusWord(t *testing.T) {
	st := themes.New(themes.Dark())
	info := RowInfo{Phase: model.PhaseProved, Status: "true", Text: strings.Repeat("a long claim ", 20), IssuesTotal: 1}
	r := live.TreeRow{Kind: live.RowStatement, ID: "s-138", Path: "@s-138", Depth: 7, HasKids: true, Open: true}
	shown := 0
	for w := CompactTree; w <= 60; w++ {
		got := ansi.Strip(TreeLine(st, r, info, w, false, false))
		short := strings.Repeat("  ", 7) + "▾ ✓ s-138" // the head with the glyph alone
		if ansi.StringWidth(short)+1+8+1+len("⚑0/1") <= w {
			if !strings.HasSuffix(got, "⚑0/1") {
				t.Fatalf("width %d: the marks are dropped: %q", w, got)
			}
			shown++
		}
	}
	if shown == 0 {
		t.Fatal("no width shows the marks")
	}
}
