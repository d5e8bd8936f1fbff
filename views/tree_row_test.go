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
