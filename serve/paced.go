package serve

import (
	"sync/atomic"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"referee/live"
)

// paced draws a workbench at most once per interval for what the run brings between
// frames (commands' results, ticks): Bubble Tea asks for the whole screen after every
// message, and each session then lays out its whole screen again, so a run's bursts of
// messages would cost every session a screen each. A key, the mouse, a paste, a resize
// or a frame (the hub gives a session one per interval at most) is drawn at once; any
// other message that comes sooner than the interval after the last drawing is drawn
// with the next one, at most an interval later, so the screen ends as it would have
// (only the states in between are skipped, as a renderer that draws at a frame rate
// skips them anyway).
type paced struct {
	m     tea.Model
	every func() time.Duration // the interval, asked at each message (it grows with the sessions)
	scr   *screen              // where each drawing goes (the program has no renderer of its own); nil: nowhere

	last    time.Time // when the screen was last drawn
	view    tea.View  // what it drew
	drawn   bool      // view holds a drawing
	stale   bool      // an update came after view was drawn
	waiting bool      // a redrawMsg is on its way
	due     bool      // the redrawMsg came: draw now
}

// drawings counts the screens every session drew (BenchmarkServeSessions reports them).
var drawings atomic.Int64

// redrawMsg draws what paced held back.
type redrawMsg struct{}

func (p *paced) Init() tea.Cmd { return p.m.Init() }

func (p *paced) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if _, ok := msg.(redrawMsg); ok {
		p.waiting, p.due = false, true
		return p, nil
	}
	if p.scr != nil {
		switch msg := msg.(type) {
		case tea.WindowSizeMsg:
			p.scr.resize(msg.Width, msg.Height)
		case tea.ColorProfileMsg:
			p.scr.setProfile(msg.Profile)
		case tea.ModeReportMsg:
			if msg.Mode == ansi.ModeSynchronizedOutput && msg.Value == ansi.ModeReset {
				p.scr.syncd = true // the terminal has it, off for now: drawings are wrapped in it
			}
		}
	}
	var cmd tea.Cmd
	p.m, cmd = p.m.Update(msg)
	p.stale = true
	switch msg.(type) {
	case tea.KeyPressMsg, tea.KeyReleaseMsg, tea.MouseMsg, tea.PasteMsg, tea.WindowSizeMsg:
		p.last = time.Time{} // a person's input is drawn at once
	case live.Frame:
		// So is a frame: the hub gives a session at most one a pace already, and a frame
		// held for a drawing made just before (a flash ending, a search's result) would
		// wait up to a pace more. What comes between frames is held, and mostly drawn
		// with the next frame.
		p.last = time.Time{}
	}
	if wait := p.every() - time.Since(p.last); wait > 0 && p.drawn && !p.waiting {
		p.waiting = true
		cmd = tea.Batch(cmd, tea.Tick(wait, func(time.Time) tea.Msg { return redrawMsg{} }))
	}
	return p, cmd
}

func (p *paced) View() tea.View {
	if p.drawn && (!p.stale || !p.due && time.Since(p.last) < p.every()) {
		return p.view
	}
	drawings.Add(1)
	p.view, p.drawn, p.stale, p.due, p.last = p.m.View(), true, false, false, time.Now()
	if p.scr != nil {
		p.scr.draw(p.view)
	}
	return p.view
}
