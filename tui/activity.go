package tui

import (
	"fmt"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"referee/model"
	"referee/store"
	"referee/tui/common"
	"referee/tui/dialog"
	"referee/views"
)

// ActivityKeyMap is the activity list's own keys; it moves by the shared common.NavKeyMap.
type ActivityKeyMap struct {
	Filter, Jump, Clear key.Binding
}

// DefaultActivityKeyMap returns the activity pane's keys.
func DefaultActivityKeyMap() ActivityKeyMap {
	return ActivityKeyMap{
		Filter: key.NewBinding(key.WithKeys("/"), key.WithHelp("/", "filter by actor, skill or object")),
		Jump:   key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "go to the object in the tree")),
		Clear:  key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "clear the filter")),
	}
}

// KeyMap is the activity list's keys as help lists them: the navigation keys and its own.
func (a *Activity) KeyMap() []key.Binding {
	n, k := a.nav, a.keys
	return []key.Binding{common.NavHelp(n.Down, "j/↓", "down"), common.NavHelp(n.Up, "k/↑", "up"),
		common.NavHelp(n.Top, "g", "newest"), common.NavHelp(n.Bottom, "G", "oldest"), common.NavHelp(n.PageUp, "pgup", "page up"),
		common.NavHelp(n.PageDown, "pgdn", "page down"), k.Filter, k.Jump, k.Clear}
}

// maxObjectRows is how many objects of one change the list shows; the rest are counted.
const maxObjectRows = 6

// actRow is one row of the activity list: a change's header (object < 0), one of its
// objects, the count of those not listed (more > 0), or the older changes not read
// (more < 0: the last row, when the log's head is not held).
type actRow struct {
	change int // index in changes
	object int // -1: the header
	more   int
}

// olderRow is the row of the older changes not read.
var olderRow = actRow{more: -1}

func (r actRow) older() bool { return r.more < 0 }

// Activity is the activity pane: every change of the log, newest first, filtered by
// what is typed after "/". Rows are rebuilt in Update when the log or the filter
// changes; View draws the visible rows only.
type Activity struct {
	changes   []store.Change
	entries   []views.ActivityEntry // one per change, converted once
	unread    int                   // entries of changes listed from their lines alone
	rows      []actRow
	matched   int // changes under the filter
	cur       int
	offset    int
	width     int
	height    int
	filter    textinput.Model
	filtering bool
	loaded    bool
	shown     string // the change time travel shows, marked ◷
	keys      ActivityKeyMap
	nav       common.NavKeyMap
	agents    map[string]string // change ID → the session agent that made it
	// head is the part of the log the changes leave out (the workbench holds the log's
	// tail); olderBusy says older lines are being read.
	head      model.LogHead
	olderBusy bool
}

// SetAgents names the session agent behind each change it knows.
func (a *Activity) SetAgents(agents map[string]string) {
	a.agents = agents
	for i := range a.entries {
		a.entries[i].Agent = agents[a.entries[i].ID]
	}
	a.rebuild()
}

func newActivity() *Activity {
	in := dialog.NewInput(true)
	in.Prompt = "filter: "
	in.Placeholder = "actor, skill, object or change ID"
	return &Activity{filter: in, keys: DefaultActivityKeyMap(), nav: common.DefaultNavKeyMap()}
}

// SetSize sets the pane's inner size.
func (a *Activity) SetSize(w, h int) {
	a.width, a.height = max(w, 0), max(h, 0)
	a.filter.SetWidth(max(w-10, 4))
	a.clamp()
}

// SetChanges takes the log's activity (oldest first; a longer list that starts with
// the same changes only converts the new ones) and keeps the cursor on its row: on the
// newest row if it was there (following the log), else on the same change.
func (a *Activity) SetChanges(changes []store.Change) {
	keep := len(a.entries)
	if keep > len(changes) || (keep > 0 && changes[keep-1].ID != a.changes[keep-1].ID) {
		keep = 0
	}
	if keep == 0 {
		a.unread = 0
	}
	for i := 0; i < keep && a.unread > 0; i++ { // changes read whole since (Changes.filled)
		if a.entries[i].Unread && !changes[i].Unread {
			e := entryOf(changes[i])
			e.Agent = a.agents[changes[i].ID]
			a.entries[i] = e
			a.unread--
		}
	}
	a.entries = a.entries[:keep]
	for _, c := range changes[keep:] {
		e := entryOf(c)
		e.Agent = a.agents[c.ID]
		if e.Unread {
			a.unread++
		}
		a.entries = append(a.entries, e)
	}
	a.changes = changes
	a.loaded = true
	a.rebuild()
}

// SetHead says what part of the log the changes leave out: a last row counts it.
func (a *Activity) SetHead(head model.LogHead) {
	if head != a.head {
		a.head = head
		a.rebuild()
	}
}

// Prepend puts changes read further back (oldest first) before the listed ones, and
// the cursor on the newest of them.
func (a *Activity) Prepend(changes []store.Change, head model.LogHead) {
	entries := make([]views.ActivityEntry, 0, len(changes)+len(a.entries))
	for _, c := range changes {
		e := entryOf(c)
		e.Agent = a.agents[c.ID]
		if e.Unread {
			a.unread++
		}
		entries = append(entries, e)
	}
	a.entries = append(entries, a.entries...)
	a.changes = append(slices.Clip(changes), a.changes...)
	a.head, a.olderBusy = head, false
	a.rebuild()
	for i, r := range a.rows {
		if !r.older() && r.object < 0 && r.change == len(changes)-1 {
			a.moveTo(i)
			break
		}
	}
}

func entryOf(c store.Change) views.ActivityEntry {
	e := views.ActivityEntry{ID: c.ID, At: c.At, Actor: c.Actor, Skill: c.Skill, Reverts: c.Reverts, Err: c.Err, Objects: c.Objects, Unread: c.Unread}
	if e.Actor == "" && c.GuessedActor != "" {
		e.Actor, e.ActorGuessed = c.GuessedActor, true
	}
	if e.Skill == "" && c.GuessedSkill != "" {
		e.Skill, e.SkillGuessed = c.GuessedSkill, true
	}
	return e
}

// rebuild lists the rows under the filter, keeping the cursor's row.
func (a *Activity) rebuild() {
	atTop := a.cur == 0
	var was actRow
	if a.cur < len(a.rows) {
		was = a.rows[a.cur]
	}
	wasID := ""
	if !was.older() && was.change < len(a.changes) && len(a.rows) > 0 {
		wasID = a.changes[was.change].ID
	}
	words := strings.Fields(strings.ToLower(a.filter.Value()))
	a.rows = a.rows[:0]
	a.cur, a.matched = 0, 0
	for i := len(a.changes) - 1; i >= 0; i-- {
		c := &a.changes[i]
		if !matches(c, &a.entries[i], words) {
			continue
		}
		a.matched++
		if !atTop && c.ID == wasID && was.object < 0 {
			a.cur = len(a.rows)
		}
		a.rows = append(a.rows, actRow{change: i, object: -1})
		for j := range c.Objects {
			if j == maxObjectRows && len(c.Objects) > maxObjectRows+1 {
				if !atTop && c.ID == wasID && was.object >= j {
					a.cur = len(a.rows)
				}
				a.rows = append(a.rows, actRow{change: i, object: j, more: len(c.Objects) - j})
				break
			}
			if !atTop && c.ID == wasID && was.object == j {
				a.cur = len(a.rows)
			}
			a.rows = append(a.rows, actRow{change: i, object: j})
		}
	}
	if a.head.Changes > 0 {
		if was.older() && !atTop {
			a.cur = len(a.rows)
		}
		a.rows = append(a.rows, olderRow)
	}
	a.clamp()
}

// matches says whether a change has every word of the filter in its ID, actor, skill
// (guessed ones too) or the IDs of the objects it touched.
func matches(c *store.Change, e *views.ActivityEntry, words []string) bool {
	if len(words) == 0 {
		return true
	}
	hay := strings.ToLower(c.ID + " " + e.Actor + " " + e.Skill + " " + strings.Join(c.Created, " ") + " " +
		strings.Join(c.Modified, " ") + " " + strings.Join(c.Deleted, " "))
	for _, w := range words {
		if !strings.Contains(hay, w) {
			return false
		}
	}
	return true
}

func (a *Activity) listHeight() int {
	if a.filtering || a.filter.Value() != "" {
		return max(a.height-1, 0)
	}
	return a.height
}

func (a *Activity) clamp() {
	a.cur = min(max(a.cur, 0), max(len(a.rows)-1, 0))
	h := max(a.listHeight(), 1)
	if a.cur < a.offset {
		a.offset = a.cur
	}
	if a.cur >= a.offset+h {
		a.offset = a.cur - h + 1
	}
	a.offset = max(min(a.offset, len(a.rows)-h), 0)
}

func (a *Activity) moveTo(i int) {
	a.cur = i
	a.clamp()
}

// Scroll moves the window (mouse wheel), dragging the cursor along.
func (a *Activity) Scroll(n int) {
	h := max(a.listHeight(), 1)
	a.offset = max(0, min(a.offset+n, len(a.rows)-h))
	a.cur = min(max(a.cur, a.offset), a.offset+h-1)
	a.clamp()
}

// Click selects the row at a line of the pane (0 = the first line).
func (a *Activity) Click(y int) {
	if a.filtering || a.filter.Value() != "" {
		y--
	}
	if i := a.offset + y; y >= 0 && i < len(a.rows) {
		a.cur = i
	}
}

// Selected is the change under the cursor.
func (a *Activity) Selected() (store.Change, bool) {
	if a.cur >= len(a.rows) || a.rows[a.cur].older() {
		return store.Change{}, false
	}
	return a.changes[a.rows[a.cur].change], true
}

// Target is the object enter goes to: the object under the cursor, or the change's
// first object still there (created or modified), else its first.
func (a *Activity) Target() string {
	if a.cur >= len(a.rows) || a.rows[a.cur].older() {
		return ""
	}
	r := a.rows[a.cur]
	objs := a.changes[r.change].Objects
	if r.object >= 0 && r.object < len(objs) {
		return objs[r.object].ID
	}
	for _, oc := range objs {
		if oc.Action != model.Deleted {
			return oc.ID
		}
	}
	if len(objs) > 0 {
		return objs[0].ID
	}
	return ""
}

// Update handles the pane's keys. handled is false for a key the pane leaves to the
// workbench; jump names an object to go to.
// Update takes a key of the list's (a key it does not take: Unhandled) and, while the
// filter is typed, what the filter wants (the cursor's blink). Enter on a change answers
// jumpMsg.
func (a *Activity) Update(_ common.Common, msg tea.Msg) (tea.Cmd, tea.Msg) {
	km, ok := msg.(tea.KeyPressMsg)
	if !ok {
		if !a.filtering {
			return nil, nil
		}
		var cmd tea.Cmd
		a.filter, cmd = a.filter.Update(msg)
		return cmd, nil
	}
	cmd, handled, jump := a.key(km)
	switch {
	case !handled:
		return nil, common.Unhandled{}
	case jump != "":
		return cmd, jumpMsg{id: jump}
	}
	return cmd, nil
}

// jumpMsg: go to the object in the tree, showing the detail.
type jumpMsg struct{ id string }

// key handles a key press; handled is false for a key that is not the list's.
func (a *Activity) key(msg tea.KeyPressMsg) (cmd tea.Cmd, handled bool, jump string) {
	k := a.keys
	if a.filtering {
		switch msg.String() {
		case "esc":
			a.filtering = false
			a.filter.Blur()
			a.filter.SetValue("")
			a.rebuild()
		case "enter":
			a.filtering = false
			a.filter.Blur()
		default:
			a.filter, cmd = a.filter.Update(msg)
			a.cur = 0
			a.rebuild()
		}
		return cmd, true, ""
	}
	if to, ok := a.nav.Move(msg, a.cur, len(a.rows), max(a.listHeight()-1, 1)); ok {
		a.moveTo(to)
		return nil, true, ""
	}
	switch {
	case key.Matches(msg, k.Filter):
		a.filtering = true
		a.clamp()
		return a.filter.Focus(), true, ""
	case key.Matches(msg, k.Jump) && a.cur < len(a.rows) && a.rows[a.cur].older():
		if a.olderBusy {
			return nil, true, ""
		}
		a.olderBusy = true
		return func() tea.Msg { return olderMsg{ask: true} }, true, ""
	case key.Matches(msg, k.Jump):
		return nil, true, a.Target()
	case key.Matches(msg, k.Clear) && a.filter.Value() != "":
		a.filter.SetValue("")
		a.rebuild()
	default:
		return nil, false, ""
	}
	return nil, true, ""
}

// Show marks the change time travel shows ("" for none) and puts the cursor on it.
func (a *Activity) Show(id string) {
	a.shown = id
	if id == "" {
		return
	}
	for i, r := range a.rows {
		if !r.older() && r.object < 0 && a.changes[r.change].ID == id {
			a.moveTo(i)
			return
		}
	}
}

// Title is the pane's title: how many changes it lists.
func (a *Activity) Title() string {
	switch {
	case !a.loaded:
		return "Activity"
	case a.filter.Value() != "":
		return fmt.Sprintf("Activity · %d of %d changes", a.matched, len(a.changes))
	case a.head.Changes > 0:
		return fmt.Sprintf("Activity · the last %s of %s changes, newest first", thousands(int64(len(a.changes))),
			thousands(int64(len(a.changes)+a.head.Changes)))
	}
	return fmt.Sprintf("Activity · %s, newest first", plural(len(a.changes), "change", "changes"))
}

// View renders the filter line (when there is a filter) and the visible rows.
func (a *Activity) View(com common.Common) []string {
	st, focused := com.Styles, com.Focused
	if a.height <= 0 || a.width <= 0 {
		return nil
	}
	lines := make([]string, 0, a.height)
	if a.filtering || a.filter.Value() != "" {
		lines = append(lines, fitWidth(a.filter.View(), a.width))
	}
	switch {
	case !a.loaded:
		lines = append(lines, st.Muted.Render("reading the log…"))
	case len(a.changes) == 0 && a.head.Changes == 0:
		lines = append(lines, st.Muted.Render("The log has no change yet."))
	case len(a.rows) == 0:
		lines = append(lines, st.Muted.Render("No change matches the filter (esc clears it)."))
	}
	end := min(a.offset+a.listHeight(), len(a.rows))
	for i := a.offset; i < end; i++ {
		r := a.rows[i]
		var e *views.ActivityEntry
		if !r.older() {
			e = &a.entries[r.change]
		}
		var l string
		switch {
		case r.older():
			l = st.Muted.Render(a.olderText())
		case r.object < 0:
			l = views.ActivityHeader(st, *e, a.width, e.ID == a.shown && a.shown != "")
		case r.more > 0:
			l = views.ActivityMore(st, r.more, a.width)
		default:
			l = views.ActivityObject(st, e.Objects[r.object], a.width)
		}
		lines = append(lines, views.SelectLine(st, l, a.width, i == a.cur, focused))
	}
	for i := range lines {
		lines[i] = fitWidth(lines[i], a.width)
	}
	for len(lines) < a.height {
		lines = append(lines, strings.Repeat(" ", a.width))
	}
	return lines
}

// olderLines is how many lines of the log one "read further back" reads (within the
// store's window of bytes): a quarter of the window, so that each step costs a
// fraction of what the workbench holds (the whole log is `referee log`'s).
const olderLines = 16 << 10

// olderText is the last row when the log's head is not held: how many changes it has,
// where, and how to read them.
func (a *Activity) olderText() string {
	if a.olderBusy {
		return "… reading older changes…"
	}
	return fmt.Sprintf("… %s older %s, log lines 1–%s: enter reads more",
		thousands(int64(a.head.Changes)), pluralWord(a.head.Changes, "change", "changes"), thousands(int64(a.head.Lines)))
}

func pluralWord(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// olderMsg asks for older changes (ask, from the activity pane) or brings them: h is
// from with the lines read back, changes the listing of those lines.
type olderMsg struct {
	ask     bool
	from, h *store.History
	changes []store.Change
	err     error
}

func (m supervisor) onOlder(msg olderMsg) tea.Cmd {
	if msg.ask {
		cmd, why := m.bg.changes.readOlder()
		if why != "" {
			m.activity.olderBusy = false
			m.status.info(why)
		}
		return cmd
	}
	m.activity.olderBusy = false
	if msg.err != nil {
		m.status.error("cannot read further back: " + msg.err.Error())
		return nil
	}
	k, ok := m.bg.changes.takeOlder(msg)
	if !ok {
		m.status.info("the log changed meanwhile: press enter again to read further back")
		return nil
	}
	if t := m.travel; t != nil { // its indexes are into the History's changes
		t.want += k
		if t.at >= 0 {
			t.at += k
		}
	}
	m.activity.Prepend(msg.changes, msg.h.Head())
	if k == 0 {
		m.status.info("no older change: the lines read back are blank")
	} else {
		m.status.info(fmt.Sprintf("read %s older %s, back to %s", thousands(int64(k)), pluralWord(k, "change", "changes"), msg.changes[0].ID))
	}
	return m.bg.changes.fill()
}

// readOlder reads the lines of the log before the oldest listed, in a command; or says
// why it cannot yet.
func (c *Changes) readOlder() (tea.Cmd, string) {
	from := c.hist
	if from == nil || c.busy || c.histOf != c.listedOf || len(from.Changes()) != len(c.list) ||
		len(c.list) > 0 && from.Changes()[0].ID != c.list[0].ID {
		return nil, "the activity is being listed: press enter again in a moment"
	}
	return func() tea.Msg {
		h, err := from.Back(olderLines)
		if err != nil {
			return olderMsg{from: from, err: err}
		}
		// As a listing: the newest of them whole (the cursor goes to them), the others
		// from their lines, read whole after (fill); reading the backups of 16k changes
		// first left the row busy for seconds.
		return olderMsg{from: from, h: h, changes: listingRange(h, 0, len(h.Changes())-len(from.Changes()))}
	}, ""
}

// takeOlder puts the older changes read back before those listed and returns how many
// they are; false when the History changed meanwhile.
func (c *Changes) takeOlder(msg olderMsg) (int, bool) {
	if c.hist != msg.from {
		return 0, false
	}
	k := len(msg.changes)
	c.hist, c.listedBy = msg.h, msg.h
	c.list = append(slices.Clip(msg.changes), c.list...)
	c.provisional += k
	c.unread += unreadIn(msg.changes)
	c.gen++ // the list's indexes moved: a reading of unread changes under way is put off
	return k, true
}

// firstChangeNote is what time travel says at the first change it holds: that older
// ones exist, when they do, and how to reach them.
func firstChangeNote(h *store.History) string {
	first := h.Changes()[0].ID
	hd := h.Head()
	if hd.Changes == 0 {
		return "already at the first change, " + first
	}
	return fmt.Sprintf("at the first change read, %s: %s older in %s lines 1–%s (the activity pane's last row reads further back)",
		first, thousands(int64(hd.Changes)), store.LogFile, thousands(int64(hd.Lines)))
}
