package serve

import (
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"referee/live"
)

// countModel counts its drawings; its screen is the number of messages it took.
type countModel struct{ updates, views int }

func (c *countModel) Init() tea.Cmd { return nil }
func (c *countModel) Update(tea.Msg) (tea.Model, tea.Cmd) {
	c.updates++
	return c, nil
}
func (c *countModel) View() tea.View {
	c.views++
	return tea.NewView(string(rune('a' + c.updates)))
}

type runMsg struct{}

// A paced workbench draws a person's input at once, holds what the run brings back
// until the interval has passed, and then draws the newest state.
func TestPacedDrawsInputAtOnceAndTheRunAtItsPace(t *testing.T) {
	c := &countModel{}
	p := &paced{m: c, every: func() time.Duration { return time.Hour }}
	p.Update(runMsg{})
	if v := p.View(); v.Content != "b" || c.views != 1 {
		t.Fatalf("first drawing %q after %d views", v.Content, c.views)
	}
	_, cmd := p.Update(runMsg{})
	if v := p.View(); v.Content != "b" || c.views != 1 {
		t.Fatalf("a message within the interval was drawn: %q, %d views", v.Content, c.views)
	}
	if cmd == nil {
		t.Fatal("no redraw scheduled for the message held back")
	}
	if _, cmd2 := p.Update(runMsg{}); cmd2 != nil {
		t.Fatal("a second redraw scheduled while one is on its way")
	}
	p.Update(redrawMsg{})
	if v := p.View(); v.Content != "d" || c.views != 2 {
		t.Fatalf("after the redraw: %q, %d views", v.Content, c.views)
	}
	p.Update(tea.KeyPressMsg{Code: 'j', Text: "j"})
	if v := p.View(); v.Content != "e" || c.views != 3 {
		t.Fatalf("a key was not drawn at once: %q, %d views", v.Content, c.views)
	}
	if v := p.View(); v.Content != "e" || c.views != 3 {
		t.Fatalf("drawn again with nothing new: %q, %d views", v.Content, c.views)
	}
	p.Update(runMsg{}) // held: a key was drawn just now
	if v := p.View(); v.Content != "e" || c.views != 3 {
		t.Fatalf("a message within the interval was drawn: %q, %d views", v.Content, c.views)
	}
	p.Update(live.Frame{}) // a frame is not held, and brings what was
	if v := p.View(); v.Content != "g" || c.views != 4 {
		t.Fatalf("a frame was not drawn at once: %q, %d views", v.Content, c.views)
	}
}

// The paces grow with the sessions open, from drawEvery to at most paceMax.
func TestPaceGrowsWithTheSessions(t *testing.T) {
	if got := pace(1); got != drawEvery {
		t.Errorf("pace(1) = %s, want %s", got, drawEvery)
	}
	if got := pace(paceFrom); got != drawEvery {
		t.Errorf("pace(%d) = %s, want %s", paceFrom, got, drawEvery)
	}
	if got := pace(paceFrom + 5); got != drawEvery+5*paceStep {
		t.Errorf("pace(%d) = %s, want %s", paceFrom+5, got, drawEvery+5*paceStep)
	}
	if got := pace(20); got != paceMax {
		t.Errorf("pace(20) = %s, want %s", got, paceMax)
	}
	if got := pace(1000); got != paceMax {
		t.Errorf("pace(1000) = %s, want %s", got, paceMax)
	}
}
