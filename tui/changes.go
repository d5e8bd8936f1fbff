package tui

import (
	"slices"

	tea "charm.land/bubbletea/v2"

	"referee/model"
	"referee/store"
	"referee/tui/common"
)

// Changes is the component that lists the log's changes, for the activity pane and
// time travel: the History of a recent snapshot and the activity listed from it,
// brought up to date by what the log gained. Indexing the log is linear in it (seconds
// for a 500 MB log), so both are made in commands; Update only takes them. It reads the
// newest snapshot through the latestSource it is given, and shows nothing itself.
type Changes struct {
	dir    string
	latest latestSource

	// hist is the History of histOf, a recent snapshot: made with the listing, or when
	// time travel needs the newest (backups are read lazily, once, and shared by the
	// successive Histories).
	hist   *store.History
	histOf *model.Snapshot
	// list is the activity of the log, oldest first; listedOf the snapshot it is of.
	// Listing starts when it is first wanted (the activity pane, time travel), then
	// follows the log.
	list     []store.Change
	wanted   bool
	busy     bool
	listedOf *model.Snapshot
	// provisional is the first of list listed provisionally (store.Change.Provisional),
	// listed again with those after it; len(list) when none is.
	provisional int
	// listedBy is the History list's indexes are into; gen counts the times they moved
	// (a listing made again, changes read back before them), so that a reading of
	// unread changes made before is not put at the wrong place.
	listedBy *store.History
	gen      int
	filling  bool
	// unread counts the changes of list listed from their lines alone: while none is,
	// a listing (one per change of a live run) looks for none.
	unread int
}

// unreadIn counts the changes listed from their lines alone.
func unreadIn(list []store.Change) (n int) {
	for i := range list {
		if list[i].Unread {
			n++
		}
	}
	return n
}

// wholeFirst is how many of the newest changes a listing reads whole at once; the
// older ones are listed from their lines (store.Change.Unread) and read fillChunk at a
// time, newest first, after it is shown. Reading a change whole reads its objects'
// backups: for the tens of thousands of changes the workbench holds of a long run that
// took seconds before the pane showed anything.
var (
	wholeFirst = 1024
	fillChunk  = 2048
)

// listing lists the changes of h from index from on: the newest wholeFirst whole, those
// before from their lines.
func listing(h *store.History, from int) []store.Change {
	return listingRange(h, from, len(h.Changes()))
}

// listingRange is listing of the changes from index from to index to (excluded).
func listingRange(h *store.History, from, to int) []store.Change {
	cut := max(from, to-wholeFirst)
	return append(h.ActivityLines(from, cut), h.ActivityRange(cut, to)...)
}

// changesFilledMsg brings unread changes read whole: changes replace those from index
// from of the list, if the list is still the one of gen.
type changesFilledMsg struct {
	gen     int
	from    int
	changes []store.Change
}

// fill reads the newest unread changes of the list whole, in a command at a lower
// priority.
func (c *Changes) fill() tea.Cmd {
	if c.filling || c.listedBy == nil || c.unread == 0 {
		return nil
	}
	end := -1
	for i := len(c.list) - 1; i >= 0; i-- {
		if c.list[i].Unread {
			end = i + 1
			break
		}
	}
	if end < 0 {
		return nil
	}
	c.filling = true
	h, gen, from := c.listedBy, c.gen, max(end-fillChunk, 0)
	return func() tea.Msg {
		// At a lower priority, as the extras: the pane is in use meanwhile, and at 100k
		// statements these readings add up to tens of seconds of a core.
		changes := inBackground(func() []store.Change { return h.ActivityRange(from, end) })
		return changesFilledMsg{gen: gen, from: from, changes: changes}
	}
}

// filled puts changes read whole in the place of their unread lines, and says whether
// any was put.
func (c *Changes) filled(msg changesFilledMsg) bool {
	c.filling = false
	if msg.gen != c.gen {
		return false
	}
	put := false
	for i, ch := range msg.changes {
		k := msg.from + i
		if k < len(c.list) && c.list[k].Unread && c.list[k].ID == ch.ID {
			c.list[k] = ch
			c.unread--
			put = true
			if ch.Provisional && k < c.provisional {
				c.provisional = k
			}
		}
	}
	return put
}

// latestSource gives the newest snapshot read (ahead of the one shown when paused).
type latestSource interface {
	latestSnapshot() *model.Snapshot
}

// historyMsg carries the activity of the changes from index from on (from < 0: the
// whole log, which was rewritten).
type historyMsg struct {
	snap    *model.Snapshot
	h       *store.History
	from    int
	changes []store.Change
}

// historyMadeMsg carries a History made off the UI goroutine, and what waited for it.
type historyMadeMsg struct {
	snap *model.Snapshot
	h    *store.History
	then func(h *store.History) tea.Cmd
}

// historyWantedMsg asks for then to run with the History of the newest snapshot.
type historyWantedMsg struct {
	then func(h *store.History) tea.Cmd
}

// changesListedMsg says the list of changes grew or was made again, from h.
type changesListedMsg struct{ h *store.History }

func newChanges(dir string, latest latestSource) *Changes {
	return &Changes{dir: dir, latest: latest}
}

// logHistory is the History at hand: of the newest snapshot read, or of one a little older
// while the newest one's is made. It never builds one.
func (c *Changes) logHistory() *store.History {
	if c.hist == nil {
		return store.NewHistory(c.dir, &model.Snapshot{}) // empty: nothing read yet
	}
	return c.hist
}

// Listed is the activity listed so far, oldest first.
func (c *Changes) Listed() []store.Change { return c.list }

// Want starts the listing (then it follows the log).
func (c *Changes) Want() { c.wanted = true }

// Update takes a listing (historyMsg), a History made (historyMadeMsg), or a request
// for one (historyWantedMsg: at once when it is made, else once a command has made it,
// from the last one, sharing its backups).
func (c *Changes) Update(_ common.Common, msg tea.Msg) (tea.Cmd, tea.Msg) {
	latest := c.latest.latestSnapshot()
	switch msg := msg.(type) {
	case historyWantedMsg:
		if c.hist != nil && c.histOf == latest {
			return msg.then(c.hist), nil
		}
		if latest == nil {
			return nil, common.StatusMsg{Text: "the folder is still loading"}
		}
		prev, snap, dir, then := c.hist, latest, c.dir, msg.then
		return func() tea.Msg {
			var h *store.History
			if prev == nil {
				h = store.NewHistory(dir, snap)
			} else {
				h = prev.With(snap) // keeps the backups already read
			}
			return historyMadeMsg{snap: snap, h: h, then: then}
		}, nil
	case historyMadeMsg:
		if c.histOf != latest || c.hist == nil {
			c.hist, c.histOf = msg.h, msg.snap
		}
		return msg.then(msg.h), nil
	case historyMsg:
		c.busy = false
		c.listedOf = msg.snap
		if c.histOf != latest {
			c.hist, c.histOf = msg.h, msg.snap
		}
		c.listedBy = msg.h
		switch {
		case msg.from == -1:
			c.list = msg.changes
			c.gen++
			c.unread = unreadIn(msg.changes)
		case msg.from == len(c.list): // the changes gained: appended in place (a copy of 64k changes per change was a tenth of a core)
			c.list = append(c.list, msg.changes...)
			c.unread += unreadIn(msg.changes)
		case msg.from < len(c.list): // and those listed provisionally again: a new list, since the activity pane holds the old one
			c.unread += unreadIn(msg.changes) - unreadIn(c.list[msg.from:])
			c.list = append(c.list[:msg.from:msg.from], msg.changes...)
			c.gen++ // those listed again are of a newer History
		default: // cannot happen with one listing at a time; start over
			c.list, c.listedOf = nil, nil
			c.gen++
			c.unread = 0
		}
		// Only the changes just listed can be provisional: those before were not.
		c.provisional = len(c.list)
		if i := slices.IndexFunc(msg.changes, func(x store.Change) bool { return x.Provisional }); i >= 0 && c.list != nil {
			c.provisional = len(c.list) - len(msg.changes) + i
		}
		return c.fill(), changesListedMsg{h: msg.h}
	case changesFilledMsg:
		if !c.filled(msg) {
			return c.fill(), nil
		}
		return c.fill(), changesListedMsg{h: c.listedBy}
	}
	return nil, nil
}

// List lists the changes the log gained since the last listing (all of them when it
// was rewritten), when wanted and not listed for the newest snapshot yet. One listing
// runs at a time.
func (c *Changes) List() tea.Cmd {
	snap := c.latest.latestSnapshot()
	if !c.wanted || c.busy || snap == nil || c.listedOf == snap {
		return nil
	}
	c.busy = true
	prev, dir := c.hist, c.dir
	if c.histOf == snap {
		prev = nil // already made: reuse it as is
	}
	made := c.hist
	n := min(c.provisional, len(c.list)) // from the first listed provisionally, if any
	lastID := ""
	if n > 0 {
		lastID = c.list[n-1].ID
	}
	return func() tea.Msg {
		h := made
		switch {
		case prev != nil:
			h = prev.With(snap)
		case h == nil:
			h = store.NewHistory(dir, snap)
		}
		log := h.Changes()
		if n <= len(log) && (n == 0 || log[n-1].ID == lastID) {
			return historyMsg{snap: snap, h: h, from: n, changes: listing(h, n)}
		}
		return historyMsg{snap: snap, h: h, from: -1, changes: listing(h, 0)}
	}
}

// latestSnapshot is the newest snapshot read (the Changes' latestSource).
func (fd *feed) latestSnapshot() *model.Snapshot { return fd.latest }

// withHistory runs then with the History of the newest snapshot.
func (m supervisor) withHistory(then func(h *store.History) tea.Cmd) tea.Cmd {
	return m.route(m.bg.changes, historyWantedMsg{then: then})
}

// onChangesListed shows the changes listed: in the activity pane, and in time travel's
// summary of the change shown.
func (m supervisor) onChangesListed(msg changesListedMsg) tea.Cmd {
	if m.activity.agents == nil && m.bg.sess.atts != nil {
		m.activity.agents = m.bg.sess.Agents()
	}
	m.activity.SetHead(msg.h.Head())
	m.activity.SetChanges(m.bg.changes.list)
	if t := m.travel; t != nil {
		m.activity.Show(t.id)
		t.Summarize()
	}
	return nil
}
