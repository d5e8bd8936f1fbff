package tui

import (
	"fmt"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
)

// Golden screens, ANSI-stripped, at the two sizes the issue names. `go test ./tui
// -update` regenerates testdata/*.golden.
func TestGoldenScreens(t *testing.T) {
	for _, sz := range [][2]int{{80, 24}, {120, 40}} {
		for _, step := range []struct {
			name string
			keys []string
		}{
			{"start", nil},
			{"gap", []string{"n", "n"}},
			{"confirm", []string{"n", "C", "enter"}},
			{"reject-form", []string{"n", "]", "R"}},
			{"help", []string{"?"}},
		} {
			t.Run(fmt.Sprintf("%dx%d-%s", sz[0], sz[1], step.name), func(t *testing.T) {
				m, _ := newTestModel(t, sz[0], sz[1])
				keys(t, m, step.keys...)
				golden.RequireEqual(t, ansi.Strip(m.Render()))
			})
		}
	}
}
