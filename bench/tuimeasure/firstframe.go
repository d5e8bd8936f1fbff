package tuimeasure

import (
	"errors"
	"strings"
	"time"

	"referee/tui"
)

// MeasureFirstFrame opens a folder as the program does (its watcher on) at a terminal
// size, and returns how long it took from opening to the first frame (View) that shows
// the folder loading, and to the first frame that shows its tree (its first rows: the
// whole tree, and its row count, follow). The load command runs
// here, as the program runs it off the UI goroutine; the background work the program
// starts beside it (the terminal's colour, the agents' runs, the similarity index) is
// not part of either frame.
func MeasureFirstFrame(dir string, width, height int) (loading, full time.Duration, err error) {
	return measureFirstFrame(dir, width, height, true)
}

func measureFirstFrame(dir string, width, height int, watch bool) (loading, full time.Duration, err error) {
	start := time.Now()
	p, err := tui.OpenProbe(dir, width, height, tui.ProbeOptions{Watch: watch, Loading: true})
	if err != nil {
		return 0, 0, err
	}
	defer p.Close()
	load := p.LoadCmd()
	v := p.View()
	loading = time.Since(start)
	if !strings.Contains(v, "loading ") {
		return 0, 0, errors.New("the first frame does not show the load")
	}
	msg := load()
	if msg == nil {
		return 0, 0, errors.New("the load command gave no snapshot")
	}
	p.Update(msg)
	v = p.View()
	full = time.Since(start)
	if still, err := p.Loading(); err != nil {
		return 0, 0, err
	} else if still || p.Rows() == 0 || !strings.Contains(v, strings.TrimPrefix(p.Cursor(), "@")) {
		return 0, 0, errors.New("the frame after the load does not show the tree")
	}
	return loading, full, nil
}
