package tui

import (
	"maps"
	"strconv"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"referee/live"
	"referee/model"
	"referee/store"
)

// The live path: the live room (package live) watches the folder, reads what changed
// and derives each snapshot's graph and tree off the UI goroutine; the tui asks it for
// the next frame in a command (listen) and takes frames in Update (onFrame). A frame is
// a live.Frame, which is the message.

// watchOptions are the workbench's watcher's. Under an agents' run the folder never goes
// quiet for the debounce's 20 ms, so a batch was held for the watcher's longest delay
// after its first event (150 ms by default), most of write → screen. The chain asks for
// a batch only once the frame before is taken (listen), and what queued meanwhile is
// merged into one, so a shorter hold makes more frames only while the workbench keeps up.
var watchOptions = store.WatchOptions{MaxDelay: 50 * time.Millisecond}

// flashTickMsg clears the flashes that expired.
type flashTickMsg struct{}

const flashFor = 2 * time.Second

// setHead moves the head of the reload chain (the newest frame taken: the next is read
// and derived from its snapshot and tree).
func (fd *feed) setHead(f *live.Forest) {
	fd.head, fd.latest = f, f.Snapshot()
}

// listen asks the live room for the frame after the head: the watcher's next batch,
// read and derived in the command. One listen is outstanding at a time (the next is
// asked when its frame arrives), so the reload chain has a single owner. The read stays
// at the UI's priority: on a thread of lower priority (inBackground) the write → screen
// lag rose under an agents' run, and the keys gained nothing (docs/performance.md).
func (fd *feed) listen() tea.Cmd {
	if fd.src == nil {
		return nil
	}
	feed, head := fd.src, fd.head
	var folds map[string]bool
	if fd.tree != nil {
		folds = maps.Clone(fd.tree.folds) // read here, on the UI goroutine that changes them
	}
	return func() tea.Msg {
		fr := feed.Next(head)
		if fr.Forest != nil && !fr.Forest.SameShape(head) {
			// A tree of a new shape (a statement added or relinked) has new rows: the
			// flattening of every row of a large tree is done here, off the UI goroutine,
			// and Tree.SetForest finds it made, unless the folds changed meanwhile.
			fr.Forest.Flatten(folds)
		}
		return fr
	}
}

// reloadAll reads the whole folder again (after a conflict, or without a watcher).
func (m loader) reloadAll() tea.Cmd {
	dir := m.env.dir
	return func() tea.Msg { return live.ReloadAll(dir) }
}

// onFrame takes a new frame: applied now, or kept while the view is paused.
func (m loader) onFrame(fr live.Frame) tea.Cmd {
	var cmds []tea.Cmd
	if fr.Closed {
		m.feed.watchNote = "watching stopped"
		m.feed.src = nil
		return nil
	}
	if fr.WatchErr != nil {
		m.feed.watchNote = fr.WatchErr.Error()
	} else if fr.Rescan && fr.LoadErr == nil && strings.Contains(m.feed.watchNote, "is gone") {
		m.feed.watchNote = "" // the folder is back and was read again
	}
	if fr.LoadErr != nil {
		m.status.error("cannot read the folder: " + fr.LoadErr.Error())
	}
	if fr.Snap != nil {
		m.feed.setHead(fr.Forest)
	}
	if !fr.Full {
		cmds = append(cmds, m.feed.listen())
	}
	if fr.Snap == nil {
		return tea.Batch(cmds...)
	}
	ids := live.ChangedIDs(fr.Paths)
	if m.feed.paused && !fr.Full || m.travel != nil { // time travel waits like a pause
		m.feed.pending = &fr
		m.feed.pendingCount += len(fr.Paths)
		if fr.Rescan {
			m.feed.pendingCount++
		}
		return tea.Batch(cmds...)
	}
	cmds = append(cmds, m.loader().setSnapshot(fr.Snap, fr.Graph, fr.Forest, ids))
	return tea.Batch(cmds...)
}

// setSnapshot shows a snapshot: the tree keeps its cursor and folds by path, changed
// objects flash for a moment.
func (m loader) setSnapshot(snap *model.Snapshot, g *model.Graph, f *live.Forest, changed []string) tea.Cmd {
	m.shown.snap, m.shown.g, m.shown.forest = snap, g, f
	m.tree.SetForest(f)
	found := m.search.Refresh(searchIn(snap, f))
	var cmd tea.Cmd
	if len(changed) > 0 {
		until := m.now().Add(flashFor)
		for _, id := range changed {
			m.status.flash[id] = until
		}
		cmd = tea.Tick(flashFor, func(time.Time) tea.Msg { return flashTickMsg{} })
	}
	return tea.Batch(cmd, found, m.reader().refreshDetail(false))
}

// togglePause pauses or resumes the live view; on resume the latest snapshot is shown.
func (m loader) togglePause() tea.Cmd {
	m.feed.paused = !m.feed.paused
	if m.feed.paused {
		m.status.info("live view paused: changes are counted and shown when you press p again")
		return nil
	}
	w := m.feed.waiting(m.shown.snap)
	p := m.feed.pending
	m.feed.pending, m.feed.pendingCount = nil, 0
	if p == nil {
		m.status.info("live view resumed")
		return nil
	}
	m.status.info("live view resumed: " + w + " applied")
	return m.loader().setSnapshot(p.Snap, p.Graph, p.Forest, nil)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return strconv.Itoa(n) + " " + many
}

// waiting says what a paused view holds back: the changes (log lines) the folder
// gained, or, when none was logged, how many files changed outside the log.
func (fd *feed) waiting(shown *model.Snapshot) string {
	if fd.pending == nil || fd.latest == nil || shown == nil {
		return ""
	}
	if n := fd.latest.LogChanges() - shown.LogChanges(); n > 0 {
		return plural(n, "change", "changes") + " waiting"
	}
	if fd.pendingCount > 0 {
		return plural(fd.pendingCount, "file", "files") + " changed outside the log"
	}
	return ""
}
