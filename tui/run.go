package tui

import (
	"fmt"
	"os"
	"path/filepath"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"referee/themes"
)

// Run opens the workbench on a contents folder and blocks until the reviewer quits.
func Run(dir string, opts Options) error {
	if !themes.Valid(opts.Theme) {
		return fmt.Errorf("unknown theme %q (one of %v)", opts.Theme, themes.Names)
	}
	if IsDemo(dir) && opts.DemoOf == "" {
		scratch, err := ScratchCopy(dir)
		if err != nil {
			return err
		}
		defer os.RemoveAll(filepath.Dir(scratch))
		dir, opts.DemoOf = scratch, dir
	}
	opts.LimitMemory = true
	m, err := New(dir, opts)
	if err != nil {
		return err
	}
	defer m.Close()
	m.Begin()
	// 120 frames a second, Bubble Tea's most: a key waits for the next frame, half a
	// frame on average, and at 60 that wait was most of a keypress's 13 ms.
	//
	// The colour profile is the one lipgloss detected for standard output when the
	// process started (lipgloss.Writer), the detection Bubble Tea would make again for
	// the same output and environment: inside tmux each runs `tmux info`, whose whole
	// state a user's tmux prints, beside the first frame's load.
	p := tea.NewProgram(m, tea.WithFPS(120), tea.WithColorProfile(lipgloss.Writer.Profile))
	// Widths are grapheme clusters whatever the terminal reports: the renderer counts per
	// rune (wcwidth) until the terminal answers mode 2027, and many that draw an emoji
	// ZWJ sequence (👨‍👩‍👧‍👦) as one wide cluster never answer (tmux), so a row holding one
	// pushed its right border out. The answer the renderer waits for is given here, as
	// if the terminal had sent it: the renderer and the views (cells) then both count by
	// grapheme, and the terminal is asked to as well (2027 set).
	go p.Send(GraphemeWidths)
	_, err = p.Run()
	return err
}

// GraphemeWidths is the mode report that makes a program count widths by grapheme
// cluster (its renderer and cells), sent to every program the workbench runs in.
var GraphemeWidths = tea.ModeReportMsg{Mode: ansi.ModeUnicodeCore, Value: ansi.ModeSet}
