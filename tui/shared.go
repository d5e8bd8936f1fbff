package tui

import (
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"

	"referee/live"
	"referee/model"
)

// One engine, many screens (referee serve): the workbenches on one folder share one
// watcher, one snapshot and derivation per change (a live.Hub), and one extras build
// per snapshot; each holds only its own view state (cursor, folds, panes, forms).

// frameSource is where a workbench takes its frames: its own watcher (live.Feed) or a
// subscription to a shared one (live.Sub).
type frameSource interface {
	Next(head *live.Forest) live.Frame
	Wait() bool
	Close() error
}

// Shared is what the workbenches on one folder share: make one with NewShared and pass
// it in every Options.Shared, with the Room their Seats are in.
type Shared struct {
	hub  *live.Hub
	Room *Room

	mu   sync.Mutex  // one extras build at a time; the others wait for it and take it
	sim  *similarity // one similarity index for every screen
	last []*extras   // the newest builds, by snapshot
}

// NewShared shares hub's frames (the caller closes the hub) among workbenches.
func NewShared(hub *live.Hub) *Shared {
	return &Shared{hub: hub, Room: NewRoom(), sim: &similarity{}}
}

// sharedProofsKept is how many proof renderings a shared workbench's session keeps: a
// few screens' worth, so that twenty reviewers scrolling through proofs do not each hold
// hundreds (a session's memory is the goal of issue 30).
const sharedProofsKept = 24

// openShared shows the hub's newest frame at once (it is loaded already) and takes the
// frames after it from a subscription.
func (m loader) openShared(sh *Shared) {
	sub := sh.hub.Subscribe()
	m.feed.src = sub
	m.bg.extras.shared = sh
	m.detail.keep = sharedProofsKept
	m.runs.shared = sh.hub.Runs(m.runs.opts, runsEvery) // i30s: one poll of the run-state files for every screen
	if fr := sub.Current(); fr.Snap != nil {
		m.feed.setHead(fr.Forest)
		m.loader().setSnapshot(fr.Snap, fr.Graph, fr.Forest, nil)
	}
}

// extrasFor is the extras of snap, built once for all the screens showing it.
func (sh *Shared) extrasFor(snap *model.Snapshot, g *model.Graph) *extras {
	sh.mu.Lock()
	defer sh.mu.Unlock()
	for _, ex := range sh.last {
		if ex.snap == snap {
			return ex
		}
	}
	ex := inBackground(func() *extras { return sh.sim.extras(snap, g) })
	if len(sh.last) == 4 { // a paused screen may show an older snapshot
		sh.last = sh.last[1:]
	}
	sh.last = append(sh.last, ex)
	return ex
}

// buildShared is Extras.Build's command when the extras are shared.
func (e *Extras) buildShared(snap *model.Snapshot, g *model.Graph) tea.Cmd {
	sh := e.shared
	return func() tea.Msg {
		start := time.Now()
		ex := sh.extrasFor(snap, g)
		return extrasMsg{ex, time.Since(start)}
	}
}
