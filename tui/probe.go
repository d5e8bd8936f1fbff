package tui

import (
	"time"

	tea "charm.land/bubbletea/v2"

	"referee/agents"
	"referee/live"
	"referee/mathtext"
	"referee/model"
	"referee/views"
)

// The measuring seam. `referee-bench` and the workbench's benchmarks (package
// bench/tuimeasure) drive a Model as the program drives it and time it; what they need
// of its insides passes through Probe, and nothing else of the product is exported for
// them. A Probe is driven from one goroutine, like the program's UI goroutine.

// ProbeOptions say how a Probe opens its folder.
type ProbeOptions struct {
	// Watch starts the watcher, as the program does (measurements of writes start their
	// own, through WatchWith).
	Watch bool
	// Loading returns before the folder is read, as the program opens it: LoadCmd is the
	// load. Otherwise the folder is read in OpenProbe (Options.SyncLoad).
	Loading bool
	// Extras builds the similarity extras (index, re-treads, graveyard, review order) in
	// OpenProbe, as the background would build them, so that every frame draws what the
	// program draws.
	Extras bool
	// Sessions follows the agents' Claude Code sessions (Options.Sessions).
	Sessions *agents.Options
	// SyncRender renders proof markdown in Update (what a measurement must notice).
	SyncRender bool
}

// Probe is a workbench opened for measuring.
type Probe struct {
	m       *Model
	renders int // markdown renderings made
}

// OpenProbe opens a folder at a terminal size, with the dark theme and actor "human".
// Builds of the extras that the workbench would start later are not started: they run
// off the UI goroutine and are no part of a frame.
func OpenProbe(dir string, width, height int, o ProbeOptions) (*Probe, error) {
	m, err := New(dir, Options{NoWatch: !o.Watch, Theme: "dark", Actor: "human", SyncLoad: !o.Loading, Sessions: o.Sessions})
	if err != nil {
		return nil, err
	}
	p := &Probe{m: m}
	m.detail.syncRender = o.SyncRender
	render := m.detail.renderMarkdown
	m.detail.renderMarkdown = func(proof string, width int, style string, math mathtext.Mode) (*views.RenderedProof, error) {
		p.renders++
		return render(proof, width, style, math)
	}
	if o.Extras {
		m.bg.extras.sim = &similarity{}
		m.answer(extrasBuiltMsg{m.bg.extras.sim.extras(m.shown.snap, m.shown.g)})
	}
	m.bg.extras.busy = true
	m.Update(tea.WindowSizeMsg{Width: width, Height: height})
	return p, nil
}

// Update gives the workbench a message and returns its command.
func (p *Probe) Update(msg tea.Msg) tea.Cmd {
	_, cmd := p.m.Update(msg)
	return cmd
}

// View draws the frame and returns its content.
func (p *Probe) View() string { return p.m.View().Content }

// Close stops the workbench.
func (p *Probe) Close() { p.m.Close() }

// Cursor is the path of the tree's cursor row; Rows counts the tree's visible rows.
func (p *Probe) Cursor() string { return p.m.tree.Cursor() }

// Rows counts the tree's visible rows.
func (p *Probe) Rows() int { return len(p.m.tree.Rows()) }

// LoadCmd is the command that reads the folder (ProbeOptions.Loading), as Init starts
// it, and the one that brings its glimpse of the tree (nil when it gave none).
func (p *Probe) LoadCmd() (load, glimpse tea.Cmd) { return p.m.loader().loadCmd() }

// GlimpseFirst is the ID of the glimpse's first row ("" when none is shown).
func (p *Probe) GlimpseFirst() string {
	if ls := p.m.feed.loading; ls != nil && ls.glimpse != nil && len(ls.glimpse.Rows) > 0 {
		return ls.glimpse.Rows[0].ID
	}
	return ""
}

// Loading reports whether the folder is still being read, and why its last read failed.
func (p *Probe) Loading() (bool, error) {
	if p.m.feed.loading == nil {
		return false, nil
	}
	return true, p.m.feed.loading.err
}

// Shown is the snapshot the workbench shows.
func (p *Probe) Shown() *model.Snapshot { return p.m.shown.snap }

// Head is the head of the reload chain: the tree of the newest snapshot read, from
// which the next frame is read and derived (live.Reload, live.Feed.Next).
func (p *Probe) Head() *live.Forest { return p.m.feed.head }

// Flashing reports whether an object is marked as just changed.
func (p *Probe) Flashing(id string) bool {
	_, ok := p.m.status.flash[id]
	return ok
}

// WatchWith makes the workbench listen to a feed it had not started (Close stops it),
// and returns the first listen command.
func (p *Probe) WatchWith(feed *live.Feed) tea.Cmd {
	p.m.feed.src = feed
	return p.Next()
}

// Next is the listen command the workbench has outstanding after a frame: it asks the
// live room for the next (nil when there is no watcher).
func (p *Probe) Next() tea.Cmd { return p.m.feed.listen() }

// Watching reports whether the watcher still runs, and the note about it.
func (p *Probe) Watching() (bool, string) { return p.m.feed.src != nil, p.m.feed.watchNote }

// WatchSessions is the command that polls the agents' transcripts once they change.
func (p *Probe) WatchSessions() tea.Cmd { return p.m.supervisor().watchSessions(p.m.bg.sess.w) }

// ShowProof looks a proof up as the detail pane does at a width: the command, if any,
// renders its markdown off the UI goroutine.
func (p *Probe) ShowProof(proof string, width int) tea.Cmd {
	_, cmd := p.m.reader().proofFor(proof, width)
	return cmd
}

// ForgetProof drops a proof's markdown at a width from the workbench's cache.
func (p *Probe) ForgetProof(proof string, width int) {
	key := views.ProofKey(proof, width, p.m.look.st.MarkdownStyle(), p.m.look.math)
	delete(p.m.detail.proofs, key)
	delete(p.m.detail.inflight, key)
}

// ProofRendered reports whether msg is a proof's markdown, rendered by ShowProof's
// command.
func ProofRendered(msg tea.Msg) bool {
	r, ok := msg.(proofRenderedMsg)
	return ok && r.rp != nil
}

// Renders counts the markdown renderings made.
func (p *Probe) Renders() int { return p.renders }

// SessionsEvery is how often the workbench looks at the agents' transcripts.
func (p *Probe) SessionsEvery() time.Duration { return sessionsEvery }
