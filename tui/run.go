package tui

import (
	"fmt"
	"os"
	"path/filepath"

	tea "charm.land/bubbletea/v2"

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
	// 120 frames a second, Bubble Tea's most: a key waits for the next frame, half a
	// frame on average, and at 60 that wait was most of a keypress's 13 ms.
	p := tea.NewProgram(m, tea.WithFPS(120))
	_, err = p.Run()
	return err
}
