package tui

import (
	"path"
	"slices"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"referee/model"
	"referee/store"
)

// snapshotMsg carries a new snapshot, its graph and its tree, all built off the UI
// goroutine, with what changed.
type snapshotMsg struct {
	snap    *model.Snapshot
	g       *model.Graph
	f       *forest
	paths   []string
	rescan  bool
	watch   error // a watch problem to show
	full    bool  // a full reload (after a conflict, or without a watcher)
	closed  bool  // the watcher stopped
	loadErr error
}

// flashTickMsg clears the flashes that expired.
type flashTickMsg struct{}

const flashFor = 2 * time.Second

// derive builds everything a snapshot needs for display.
func derive(snap *model.Snapshot) (*model.Graph, *forest) {
	g := model.Derive(snap)
	return g, newForest(snap, g)
}

// deriveFrom is derive for snap, a reload of base's snapshot with the files paths name
// read again: when the changed objects keep their references (an agent's write usually
// changes a status, a proof, an issue or a response) the graph is updated for what they
// touch and the tree keeps base's shape, instead of deriving 10k objects again per
// write. Without a base it derives in full.
func deriveFrom(base *forest, snap *model.Snapshot, paths []string) (*model.Graph, *forest) {
	switch {
	case base == nil:
		return derive(snap)
	case snap == base.snap:
		return base.g, base
	}
	g, relinked := base.g.Update(base.snap, snap, changedIDs(paths))
	if relinked {
		return g, newForest(snap, g)
	}
	return g, base.with(snap, g)
}

// derivedOf is the tree (and, in it, the graph) the model holds for snap, if any: what
// the next batch of the chain is derived from.
func (m *Model) derivedOf(snap *model.Snapshot) *forest {
	held := []*forest{m.forest}
	if m.pending != nil {
		held = append(held, m.pending.f)
	}
	if m.travel != nil {
		held = append(held, m.travel.live.f)
	}
	for _, f := range held {
		if f != nil && f.snap == snap {
			return f
		}
	}
	return nil
}

// listen waits for the watcher's next batch, coalesces whatever else is already
// queued, reloads only the changed files from prev (store.Reload: a half-written file
// keeps its last good version) and returns one message. One listen is outstanding at a
// time, so the reload chain has a single owner.
func (m *Model) listen(prev *model.Snapshot) tea.Cmd {
	return m.listenFrom(prev, m.derivedOf(prev))
}

// listenFrom is listen with the tree derived from prev, when there is one (base): the
// next snapshot's graph and tree are updated from it rather than derived anew.
func (m *Model) listenFrom(prev *model.Snapshot, base *forest) tea.Cmd {
	if m.watcher == nil {
		return nil
	}
	if base != nil && base.snap != prev {
		base = nil
	}
	ch := m.watcher.Batches()
	dir := m.dir
	return func() tea.Msg {
		b, ok := <-ch
		if !ok {
			return snapshotMsg{closed: true}
		}
	drain:
		for {
			select {
			case more, ok := <-ch:
				if !ok {
					break drain
				}
				b = b.Merge(more)
			default:
				break drain
			}
		}
		b.Paths = slices.DeleteFunc(b.Paths, func(p string) bool { return !store.InSnapshot(p) })
		msg := snapshotMsg{paths: b.Paths, rescan: b.Rescan, watch: b.Err}
		var snap *model.Snapshot
		if b.Rescan {
			s, err := store.LoadTail(dir, nil)
			if err != nil {
				msg.loadErr = err
				snap = prev
			} else {
				snap, base = s, nil // every object read anew
			}
		} else if len(b.Paths) > 0 {
			snap = store.Reload(dir, prev, b.Paths)
		} else {
			return msg // only backups, temp files or the lock: nothing to derive or show
		}
		msg.snap = snap
		msg.g, msg.f = deriveFrom(base, snap, b.Paths)
		return msg
	}
}

// reloadAll reads the whole folder again (after a conflict, or without a watcher).
func (m *Model) reloadAll() tea.Cmd {
	dir := m.dir
	return func() tea.Msg {
		snap, err := store.LoadTail(dir, nil)
		if err != nil {
			return snapshotMsg{loadErr: err, full: true}
		}
		g, f := derive(snap)
		return snapshotMsg{snap: snap, g: g, f: f, full: true}
	}
}

// changedIDs are the objects a batch touched.
func changedIDs(paths []string) []string {
	var ids []string
	for _, p := range paths {
		dir, file := path.Split(p)
		switch dir {
		case "problem/", "statement/", "experience/":
			if id, ok := strings.CutSuffix(file, ".json"); ok {
				ids = append(ids, id)
			}
		}
	}
	return ids
}

// onSnapshot takes a new snapshot: applied now, or kept while the view is paused.
func (m *Model) onSnapshot(msg snapshotMsg) tea.Cmd {
	var cmds []tea.Cmd
	if msg.closed {
		m.watchNote = "watching stopped"
		m.watcher = nil
		return nil
	}
	if msg.watch != nil {
		m.watchNote = msg.watch.Error()
	} else if msg.rescan && msg.loadErr == nil && strings.Contains(m.watchNote, "is gone") {
		m.watchNote = "" // the folder is back and was read again
	}
	if msg.loadErr != nil {
		m.flashError("cannot read the folder: " + msg.loadErr.Error())
	}
	if !msg.full {
		base := m.derivedOf(m.latest)
		if msg.snap != nil {
			m.latest, base = msg.snap, msg.f
		}
		cmds = append(cmds, m.listenFrom(m.latest, base))
	} else if msg.snap != nil {
		m.latest = msg.snap
	}
	if msg.snap == nil {
		return tea.Batch(cmds...)
	}
	ids := changedIDs(msg.paths)
	if m.paused && !msg.full || m.travel != nil { // time travel waits like a pause
		m.pending = &msg
		m.pendingCount += len(msg.paths)
		if msg.rescan {
			m.pendingCount++
		}
		return tea.Batch(cmds...)
	}
	cmds = append(cmds, m.setSnapshot(msg.snap, msg.g, msg.f, ids))
	return tea.Batch(cmds...)
}

// setSnapshot shows a snapshot: the tree keeps its cursor and folds by path, changed
// objects flash for a moment.
func (m *Model) setSnapshot(snap *model.Snapshot, g *model.Graph, f *forest, changed []string) tea.Cmd {
	m.snap, m.g, m.forest = snap, g, f
	m.tree.SetForest(f)
	m.searchResults = nil
	if m.search != "" {
		m.searchResults = m.findMatches(m.search)
	}
	var cmd tea.Cmd
	if len(changed) > 0 {
		until := m.now().Add(flashFor)
		for _, id := range changed {
			m.flash[id] = until
		}
		cmd = tea.Tick(flashFor, func(time.Time) tea.Msg { return flashTickMsg{} })
	}
	return tea.Batch(cmd, m.refreshDetail(false))
}

// togglePause pauses or resumes the live view; on resume the latest snapshot is shown.
func (m *Model) togglePause() tea.Cmd {
	m.paused = !m.paused
	if m.paused {
		m.flashInfo("live view paused: changes are counted and shown when you press p again")
		return nil
	}
	w := m.waiting()
	p := m.pending
	m.pending, m.pendingCount = nil, 0
	if p == nil {
		m.flashInfo("live view resumed")
		return nil
	}
	m.flashInfo("live view resumed: " + w + " applied")
	return m.setSnapshot(p.snap, p.g, p.f, nil)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return itoa(n) + " " + many
}

// waiting says what a paused view holds back: the changes (log lines) the folder
// gained, or, when none was logged, how many files changed outside the log.
func (m *Model) waiting() string {
	if m.pending == nil || m.latest == nil || m.snap == nil {
		return ""
	}
	if n := m.latest.LogChanges() - m.snap.LogChanges(); n > 0 {
		return plural(n, "change", "changes") + " waiting"
	}
	if m.pendingCount > 0 {
		return plural(m.pendingCount, "file", "files") + " changed outside the log"
	}
	return ""
}
