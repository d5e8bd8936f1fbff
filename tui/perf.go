package tui

import (
	"errors"
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
)

// MeasureFirstFrame opens a folder as the program does (its watcher on) at a terminal
// size, and returns how long it took from New to the first frame (View) that shows the
// folder loading, and to the first frame that shows its tree. The load command runs
// here, as the program runs it off the UI goroutine; the background work the program
// starts beside it (the terminal's colour, the agents' runs, the similarity index) is
// not part of either frame.
func MeasureFirstFrame(dir string, width, height int) (loading, full time.Duration, err error) {
	return measureFirstFrame(dir, width, height, true)
}

func measureFirstFrame(dir string, width, height int, watch bool) (loading, full time.Duration, err error) {
	start := time.Now()
	m, err := New(dir, Options{Theme: "dark", Actor: "human", NoWatch: !watch})
	if err != nil {
		return 0, 0, err
	}
	defer m.Close()
	m.exBusy = true
	m.Update(tea.WindowSizeMsg{Width: width, Height: height})
	load := m.loadCmd()
	v := m.View()
	loading = time.Since(start)
	if !strings.Contains(v.Content, "loading ") {
		return 0, 0, errors.New("the first frame does not show the load")
	}
	msg, ok := load().(loadedMsg)
	if !ok {
		return 0, 0, errors.New("the load command gave no snapshot")
	}
	if msg.err != nil {
		return 0, 0, msg.err
	}
	m.Update(msg)
	v = m.View()
	full = time.Since(start)
	if m.loading != nil || !strings.Contains(v.Content, fmt.Sprintf("Tree · %d rows", len(m.tree.Rows()))) {
		return 0, 0, errors.New("the frame after the load does not show the tree")
	}
	return loading, full, nil
}
