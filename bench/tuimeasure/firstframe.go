package tuimeasure

import (
	"errors"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"referee/tui"
)

// MeasureFirstFrame opens a folder as the program does (its watcher on) at a terminal
// size, and returns how long it took from opening to the first frame (View) that shows
// the folder loading, and to the first frame that shows its tree: the glimpse's (its
// first rows, read from their files) when the folder gives one, else the load's (its
// first rows: the whole tree, and its row count, follow). The load and glimpse
// commands run here, side by side, as the program runs them off the UI goroutine; the
// background work the program starts beside them (the terminal's colour, the agents'
// runs, the similarity index) is not part of either frame. The load's frame must come
// and show the tree too.
func MeasureFirstFrame(dir string, width, height int) (loading, tree time.Duration, err error) {
	return measureFirstFrame(dir, width, height, true)
}

func measureFirstFrame(dir string, width, height int, watch bool) (loading, tree time.Duration, err error) {
	start := time.Now()
	p, err := tui.OpenProbe(dir, width, height, tui.ProbeOptions{Watch: watch, Loading: true})
	if err != nil {
		return 0, 0, err
	}
	defer p.Close()
	load, glimpse := p.LoadCmd()
	v := p.View()
	loading = time.Since(start)
	if !strings.Contains(v, "loading ") {
		return 0, 0, errors.New("the first frame does not show the load")
	}
	loaded := make(chan tea.Msg, 1)
	go func() { loaded <- load() }()
	if msg := glimpse(); msg != nil {
		p.Update(msg)
		v = p.View()
		tree = time.Since(start)
		if !strings.Contains(v, p.GlimpseFirst()) {
			return 0, 0, errors.New("the glimpse's frame does not show its first row")
		}
	}
	msg := <-loaded
	if msg == nil {
		return 0, 0, errors.New("the load command gave no snapshot")
	}
	p.Update(msg)
	v = p.View()
	if tree == 0 {
		tree = time.Since(start)
	}
	if still, err := p.Loading(); err != nil {
		return 0, 0, err
	} else if still || p.Rows() == 0 || !strings.Contains(v, strings.TrimPrefix(p.Cursor(), "@")) {
		return 0, 0, errors.New("the frame after the load does not show the tree")
	}
	return loading, tree, nil
}
