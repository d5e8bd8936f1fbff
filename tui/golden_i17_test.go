package tui

import (
	"fmt"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
)

// Golden screens of issue 17's items, ANSI-stripped, at 80×24 and 120×40 (`go test
// ./tui -run TestGoldenReviewLoop -update` regenerates them).
func TestGoldenReviewLoop(t *testing.T) {
	for _, sz := range [][2]int{{80, 24}, {120, 40}} {
		for _, step := range []struct {
			name string
			keys []string
			prep func(m *Model)
		}{
			{name: "queue-wrapped", keys: []string{"n", "n", "n", "n"}},
			{name: "search-next", keys: []string{"/", "f", "o", "r", "enter", "ctrl+n", "ctrl+n"}},
			{name: "help-scrolled", keys: []string{"?", "pgdown", "pgdown"}},
			{name: "help-filter-page", keys: []string{"?", "p", "a", "g", "e"}},
			{name: "zoom", keys: []string{"n", "tab", "z"}},
			{name: "decide", keys: []string{"/", "s", "-", "0", "1", "6", "enter", "H"}},
			{name: "reject-form-typed", keys: []string{"n", "]", "R", "T", "h", "e", "enter", "F", "i", "x"}},
			{name: "confirm-reject", keys: []string{"n", "]", "R", "T", "h", "e", "enter", "F", "i", "x", "ctrl+s"}},
			{name: "confirm-patch", keys: []string{"n", "n"}, prep: func(m *Model) {
				orig := proofText(m.shown.snap.Statements.Get("s-015"))
				send(t, m, editorDoneMsg{text: orig + "\n\nStep 3: Since $n(n+1)$ is even, $m$ is an integer.", orig: orig,
					skill: "fix-patch-proof", target: "s-015", version: m.shown.snap.Versions.Get("s-015")})
				typeText(t, m, "Show m is an integer")
				keys(t, m, "ctrl+s")
			}},
			{name: "undo-refused", keys: []string{"n", "C", "enter", "y"}, prep: func(m *Model) {
				m.writes.done[0].Change = "l-001"
				keys(t, m, "u")
			}},
		} {
			t.Run(fmt.Sprintf("%dx%d-%s", sz[0], sz[1], step.name), func(t *testing.T) {
				m, _ := newTestModel(t, sz[0], sz[1])
				keys(t, m, step.keys...)
				if step.prep != nil {
					step.prep(m)
				}
				golden.RequireEqual(t, ansi.Strip(m.Render()))
			})
		}
	}
}
