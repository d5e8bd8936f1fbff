// Package tui is referee's terminal workbench: a Bubble Tea program over a live contents
// folder. Data flows one way: files → store → live → tui → views. The live room (package
// live) watches the folder, reloads what changed and derives the graph and the tree rows,
// and hands the tui immutable frames (live.Frame); the tui draws and routes. A change
// goes tui → store.Run → files → live's watcher → the next frame.
//
// The rule: Update does no disk I/O and never sleeps. What reads or writes files,
// indexes the log or compares many claims (snapshots, histories, the similarity index,
// similar statements, proof markdown) runs in a tea.Cmd and arrives as a message;
// Update only takes results, View only draws them. TestUpdateDoesNoDiskIOAndNeverSleeps
// checks it.
//
// The shape, in the manner of soft-serve's pkg/ui: the Model routes messages and lays
// out; the panes, the search line and the dialogs (package dialog) are components with
// one interface and one context (package common); the parts that draw nothing are
// workers; the Model's work is done by controllers (controllers.go).
// docs/architecture.md tells how to add a pane or a key.
package tui

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"referee/agents"
	"referee/cells"
	"referee/live"
	"referee/mathtext"
	"referee/model"
	"referee/store"
	"referee/themes"
	"referee/tui/common"
	"referee/tui/dialog"
	"referee/views"
)

// Options configure the workbench.
type Options struct {
	// Theme is "auto" (or ""): follow the terminal background; "dark", "light",
	// "high-contrast" or "none".
	Theme string
	// Actor is who changes are recorded as; default $REFEREE_ACTOR, else "human".
	Actor string
	// NoColor turns colour off; NO_COLOR in the environment does too.
	NoColor bool
	// Editor runs for P (fix-patch-proof); default $VISUAL, else $EDITOR, else vi.
	Editor string
	// NoWatch disables the live view (the folder is read once, and after each change).
	NoWatch bool
	// Now is the clock (tests); default time.Now.
	Now func() time.Time
	// StallAfter is how long nothing may change while the agents have actionable work
	// before the status bar shows the stall alarm; 0 is model.DefaultStallAfter, a
	// negative duration turns the alarm off.
	StallAfter time.Duration
	// Runs says where the agents' state files are; default: every JSON state file
	// under .claude/ next to the contents folder.
	Runs agents.RunsOptions
	// Sessions, when set, follows the agents' Claude Code sessions (runs pane, activity,
	// the text behind issues; the stall alarm hears them too).
	Sessions *agents.Options
	// DemoOf is the bundled demo folder that dir is a scratch copy of (Run makes it):
	// the status line says so, and that the checkout is untouched.
	DemoOf string
	// SyncLoad reads the folder in New, as callers that need the tree at once want
	// (tests); by default New returns at once and Init loads it, showing progress.
	SyncLoad bool
	// Shared, when set, is the engine this workbench shares with others on the same
	// folder (referee serve): frames and extras come from it, not from a watcher of its
	// own (shared.go).
	Shared *Shared
	// Seat, when set, is the person at this workbench among the others (referee serve):
	// changes are recorded under their name, a viewer's workbench is read only, and
	// the others are shown (presence.go).
	Seat *Seat
	// LimitMemory collects once the extras are first built and lowers the collector's
	// percentage (memlimit.go): for a process that is the workbench alone (Run).
	LimitMemory bool
}

// selection is what is selected: the tree's object (followed by its path and ID, so
// that the cursor stays on it across reloads), in the detail the sentence, issue thread
// and link under their cursors (-1: none), and the trail of jumps esc goes back along.
type selection struct {
	path, id string
	sentence int
	issue    int
	link     int
	history  []string
}

type focus uint8

const (
	focusTree focus = iota
	focusDetail
)

// Model is the workbench: it routes messages to its parts and lays them out. What it
// holds is grouped by what it is for; each group is a plain struct (below), the panes
// are components (common.Component) and the background parts workers.
type Model struct {
	env    env        // the folder, the options, who changes are recorded as
	look   look       // styles, the background, how math shows
	shown  shownFrame // the frame the tree and detail show
	feed   feed       // the live room's side: frames coming, paused, the load
	lay    layout     // the window, the focus, the zoom, the right-hand pane shown
	status status     // the status line's message and the rows flashed

	tree     *Tree
	detail   *Detail // with the selection and the proofs' renderings
	activity *Activity
	search   *Search
	dlg      dialogs

	runs   *Runs
	travel *Travel // nil: the present is shown
	writes *Writes
	bg     background
	// others are the people at the other workbenches on this folder (serve; presence.go).
	others []Presence
	// drawn is the last screen laid out, in pieces reused where unchanged (drawing.go).
	drawn *drawing
}

// env is what the workbench is of.
type env struct {
	dir, name string
	opts      Options
	actor     string
}

// look is how the workbench draws: the styles for the terminal's background, and math
// readable (the zero value) or raw (key m).
type look struct {
	st   *themes.Styles
	dark bool
	math mathtext.Mode
}

// shownFrame is what the tree and detail show: a frame's snapshot, graph and tree
// (live.Frame).
type shownFrame struct {
	snap   *model.Snapshot
	g      *model.Graph
	forest *live.Forest
}

// feed is the live room's side (live.go): the feed of frames, the head of its reload
// chain (may be ahead of what is shown when paused; latest is its snapshot), the newest
// frame held back while paused or travelling, and the load of the folder.
type feed struct {
	src          frameSource
	head         *live.Forest
	latest       *model.Snapshot
	watchNote    string
	paused       bool
	pending      *live.Frame
	pendingCount int
	loading      *loading // the folder is being read (loading.go); nil once shown
	// held are the keys pressed while the first frame's tree held only its first rows
	// (loading.go: keyWhilePartial), given to the whole tree when it comes.
	held []tea.KeyPressMsg
	// resume turns the collector back on after the load, until the whole tree is in.
	resume func()
	// tree is the tree pane, whose rows under its folds a frame of a new shape has
	// flattened off the UI goroutine (listen).
	tree *Tree
}

// layout is the window and how the panes share it.
type layout struct {
	width, height int
	focus         focus
	zoomed        bool // the focused pane takes the whole width (z)
	side          side // what the right-hand pane shows
}

// status is the status line's message and the statements flashed (changed lately).
type status struct {
	flash     map[string]time.Time
	message   string
	messageOK bool
}

// dialogs are the dialogs open (package dialog), and the forms closed with esc, by skill
// and target: the same key brings the typed text back (drafts.go).
type dialogs struct {
	form    *dialog.Form
	confirm *dialog.Confirm
	decide  *dialog.Decide // the decision of a proposed modification (H)
	notice  *dialog.Notice
	picker  *dialog.Picker
	drafts  map[string]*dialog.Form
}

// background are the workers that keep what the panes draw from (supervise.go).
type background struct {
	// changes lists the log's changes (the activity; time travel's History).
	changes *Changes
	// extras keeps the similarity index, re-treads, graveyard and review order of the
	// shown snapshot, built off the UI goroutine; they may lag a snapshot behind.
	extras *Extras
	// similar is the similar statements of each statement shown.
	similar *Similar
	sess    *Sessions
}

// New opens a contents folder: it fails if the folder is unusable, and otherwise
// returns at once; Init starts the watcher (unless opts.NoWatch) and the load
// (loading.go). With opts.SyncLoad both are done here. Call Close when done.
func New(dir string, opts Options) (*Model, error) {
	if err := checkFolder(dir); err != nil {
		return nil, err
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	actor := opts.Actor
	if opts.Seat != nil {
		actor = opts.Seat.Name
	}
	if actor == "" {
		actor = os.Getenv("REFEREE_ACTOR")
	}
	if actor == "" {
		actor = "human"
	}
	abs, _ := filepath.Abs(dir)
	m := &Model{
		env:  env{dir: dir, name: filepath.Base(abs), opts: opts, actor: actor},
		tree: newTree(), detail: newDetail(), search: newSearch(true), activity: newActivity(),
		status: status{flash: map[string]time.Time{}},
		look:   look{dark: true},
	}
	m.feed.tree = m.tree
	m.runs = newRuns(dir, m.env.name, opts.Runs, opts.StallAfter, m.supervisor())
	m.bg.changes = newChanges(dir, &m.feed)
	m.bg.extras = &Extras{limit: opts.LimitMemory}
	m.bg.similar = newSimilar(&m.shown)
	m.bg.sess = newSessions(opts.Sessions, &m.shown)
	m.writes = newWrites(dir, actor)
	if opts.Seat != nil && opts.Seat.ReadOnly {
		m.writes.readOnly = readOnlyReason(opts.Seat.Name)
	}
	m.applyTheme()
	if opts.DemoOf != "" {
		m.status.info("the bundled demo: changes go to a scratch copy (" + dir + "); " + opts.DemoOf + " stays as it is")
	}
	if opts.Shared != nil {
		m.loader().openShared(opts.Shared)
		return m, nil
	}
	if !opts.SyncLoad {
		m.feed.loading = newLoading(!opts.NoWatch)
		return m, nil
	}
	if !opts.NoWatch { // before the load: a change made during it is reported, not missed
		feed, err := live.Watch(dir, watchOptions)
		if err != nil {
			m.feed.watchNote = "not watching: " + err.Error()
		} else {
			m.feed.src = feed
		}
	}
	snap, err := store.LoadTail(dir, nil)
	if err != nil {
		m.Close()
		return nil, err
	}
	g, f := live.Derive(snap)
	m.feed.setHead(f)
	m.loader().setSnapshot(snap, g, f, nil)
	return m, nil
}

// checkFolder is the error store.Load gives for an unusable folder, without reading it.
func checkFolder(dir string) error {
	info, err := os.Stat(dir)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return fmt.Errorf("contents folder %s: %w", dir, err)
	}
	if !info.IsDir() {
		return fmt.Errorf("contents folder %s: not a directory", dir)
	}
	return nil
}

// Close stops the watcher.
func (m *Model) Close() {
	m.loader().closeLoading()
	if m.feed.resume != nil {
		m.feed.resume()
		m.feed.resume = nil
	}
	if m.feed.src != nil {
		_ = m.feed.src.Close()
		m.feed.src = nil
	}
}

func (m *Model) now() time.Time { return m.env.opts.Now() }

func (m *Model) applyTheme() {
	noColor := m.env.opts.NoColor || themes.NoColorEnv()
	m.look.st = themes.New(themes.Resolve(m.env.opts.Theme, m.look.dark, noColor))
	m.search.SetDark(m.look.dark)
	m.activity.filter.SetStyles(dialog.InputStyles(m.look.dark))
}

// Init asks the terminal for its background and starts loading the folder, or (loaded
// in New) listening to it.
func (m *Model) Init() tea.Cmd {
	if m.feed.loading != nil {
		// The agents' runs and sessions wait for the tree (onLoaded): on two cores they
		// took CPU from the load of the first frame.
		return tea.Batch(tea.RequestBackgroundColor, m.loader().startLoad(), m.room().listenRoom())
	}
	return tea.Batch(tea.RequestBackgroundColor, m.feed.listen(), m.reader().refreshDetail(false), m.runs.Poll(true), m.supervisor().watchSessions(nil), m.room().listenRoom())
}

// Update handles one message.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if cmd, ok := m.room().onRoom(msg); ok {
		return m, cmd
	}
	cmd := m.update(msg)
	// Whatever moved the tree cursor, the detail follows.
	if m.tree.Cursor() != m.detail.sel.path {
		cmd = tea.Batch(cmd, m.reader().refreshDetail(true))
	}
	m.room().sitAt()
	return m, tea.Batch(cmd, m.supervisor().supervise())
}

func (m *Model) update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.lay.width, m.lay.height = msg.Width, msg.Height
		m.layout()
		return m.reader().refreshDetail(false)
	case tea.ModeReportMsg:
		// The terminal counts by grapheme (mode 2027): so does the renderer, and so must
		// the views (cells). Bubble Tea turns the mode on for the same answers.
		// Over SSH (a seat) the method is the process's, shared by every terminal: it stays.
		if m.env.opts.Seat == nil && msg.Mode == ansi.ModeUnicodeCore && (msg.Value == ansi.ModeSet || msg.Value == ansi.ModeReset || msg.Value == ansi.ModePermanentlySet) {
			cells.SetMethod(ansi.GraphemeWidth)
			m.layout()
			return m.reader().refreshDetail(false)
		}
		return nil
	case tea.BackgroundColorMsg:
		if m.env.opts.Theme == "" || m.env.opts.Theme == "auto" {
			m.look.dark = msg.IsDark()
			m.applyTheme()
			return m.reader().refreshDetail(false)
		}
		return nil
	case live.Frame:
		cmd := m.loader().onFrame(msg)
		m.changer().conflictNote()
		return cmd
	case dialog.PlanMsg:
		if m.dlg.confirm == nil {
			return nil // closed meanwhile
		}
		return m.route(m.dlg.confirm, msg)
	case dialog.FormEditedMsg:
		return m.changer().onFormEdited(msg)
	case loadedMsg:
		return m.loader().onLoaded(msg)
	case loadTickMsg:
		return m.loader().onLoadTick()
	case glimpseMsg:
		return m.loader().onGlimpse(msg)
	case wholeMsg:
		return m.loader().onWhole(msg)
	case loadRetryMsg:
		return m.loader().onLoadRetry(msg)
	case proofRenderedMsg:
		if m.detail.rendered(msg) {
			return m.reader().refreshDetail(false)
		}
		return nil
	case flashTickMsg:
		now := m.now()
		for id, until := range m.status.flash {
			if !now.Before(until) {
				delete(m.status.flash, id)
			}
		}
		return nil
	case skillDoneMsg:
		return m.route(m.writes, msg)
	case editorDoneMsg:
		return m.changer().editorDone(msg)
	case historyMsg, historyMadeMsg, historyWantedMsg, changesFilledMsg:
		return m.route(m.bg.changes, msg)
	case olderMsg:
		return m.supervisor().onOlder(msg)
	case extrasTickMsg, extrasMsg:
		return m.route(m.bg.extras, msg)
	case proofReadMsg:
		if r, ok := m.tree.Selected(); ok && r.ID == msg.id {
			return m.reader().refreshDetail(false)
		}
		return nil
	case similarMsg:
		return m.route(m.bg.similar, msg)
	case searchFoundMsg:
		return m.route(m.search, msg)
	case travelMsg, diffMsg:
		if m.travel == nil {
			return nil // returned to now meanwhile
		}
		return m.route(m.travel, msg)
	case rewindPlanMsg:
		return m.changer().onRewindPlan(msg)
	case runsMsg, runsTickMsg:
		return m.route(m.runs, msg)
	case sessionsMsg, attributionMsg:
		return m.route(m.bg.sess, msg)
	case tea.MouseClickMsg:
		if m.feed.loading != nil {
			return nil
		}
		return m.mouseClick(msg)
	case tea.MouseWheelMsg:
		m.mouseWheel(msg)
		return nil
	case tea.KeyPressMsg:
		return m.key(msg)
	}
	// Other messages (cursor blink) go to whatever input is focused.
	switch {
	case m.dlg.form != nil:
		return m.route(m.dlg.form, msg)
	case m.dlg.picker != nil:
		return m.route(m.dlg.picker, msg)
	case m.search.Typing():
		return m.route(m.search, msg)
	case m.activity.filtering:
		return m.route(m.activity, msg)
	}
	return nil
}

// key routes a key press: the modal layer on top gets it first.
func (m *Model) key(msg tea.KeyPressMsg) tea.Cmd {
	k := msg.String()
	if k == "ctrl+c" {
		return m.quit()
	}
	switch {
	case m.dlg.notice != nil:
		return m.route(m.dlg.notice, msg)
	case m.dlg.confirm != nil:
		return m.route(m.dlg.confirm, msg)
	case m.dlg.decide != nil:
		return m.route(m.dlg.decide, msg)
	case m.dlg.form != nil:
		return m.route(m.dlg.form, msg)
	case m.dlg.picker != nil:
		return m.route(m.dlg.picker, msg)
	case m.search.Typing():
		return m.route(m.search, msg)
	case m.feed.loading != nil:
		return m.loader().keyWhileLoading(msg)
	case m.feed.head.Partial():
		return m.loader().keyWhilePartial(msg)
	}
	m.status.message = ""
	// The focused pane first; a key it does not take goes to the key table (the
	// detail's links, > < enter, are the key table's).
	var pane component = m.detail
	switch {
	case m.lay.focus == focusTree:
		pane = m.tree
	case m.lay.side == sideActivity:
		pane = m.activity
	case k == ">" || k == "<" || k == "enter":
		pane = nil
	}
	if pane != nil {
		cmd, out := pane.Update(m.common(), msg)
		if _, no := out.(common.Unhandled); !no {
			return tea.Batch(m.answer(out), cmd)
		}
	}
	b, ok := bindingFor(msg)
	if !ok {
		return nil
	}
	return m.runBinding(b)
}

// layout sizes the panes for the window.
func (m *Model) layout() {
	tw, dw, ph := m.paneSizes()
	m.tree.SetSize(max(tw-2, 0), max(ph-2, 0))
	m.detail.SetSize(max(dw-2, 0), max(ph-2, 0))
	m.activity.SetSize(max(dw-2, 0), max(ph-2, 0))
	m.sizeDialog()
	m.search.SetSize(max(m.lay.width-20, 10), 1)
}

// sizeDialog gives the open dialogs their body's size.
func (m *Model) sizeDialog() {
	w, h := m.dialogWidth()-4, m.dialogHeight()-2
	if m.dlg.notice != nil {
		m.dlg.notice.SetSize(w, h)
	}
	if m.dlg.confirm != nil {
		m.dlg.confirm.SetSize(w, h)
	}
	if m.dlg.decide != nil {
		m.dlg.decide.SetSize(w, h)
	}
	if m.dlg.form != nil {
		m.dlg.form.SetSize(w, h)
	}
	if m.dlg.picker != nil {
		m.dlg.picker.SetSize(w, h)
	}
}

// paneSizes: tree width, detail width, pane height. Below 60 columns, or zoomed (z),
// only the focused pane shows.
func (m *Model) paneSizes() (tw, dw, ph int) {
	ph = max(m.lay.height-2, 0)
	switch {
	case m.lay.width < 60 || m.lay.zoomed:
		if m.lay.focus == focusTree {
			return m.lay.width, 0, ph
		}
		return 0, m.lay.width, ph
	case m.lay.width < 100:
		tw = m.lay.width * 9 / 20
	default:
		tw = min(max(m.lay.width*2/5, 40), 80)
	}
	return tw, m.lay.width - tw, ph
}

func (m *Model) dialogWidth() int {
	if m.lay.width < 14 {
		return max(m.lay.width, 0)
	}
	return min(m.lay.width-4, 96)
}

func (m *Model) dialogHeight() int {
	if m.lay.height < 7 {
		return max(m.lay.height, 0)
	}
	return m.lay.height - 4
}

func (m *Model) toggleFocus() tea.Cmd {
	if m.lay.focus == focusTree {
		m.lay.focus = focusDetail
	} else {
		m.lay.focus = focusTree
	}
	return m.relayout()
}

// relayout sizes the panes again after the focus or the zoom moved them, and rebuilds
// the detail when it got a new width (its text is wrapped to its width), as a resize of
// the window does.
func (m *Model) relayout() tea.Cmd {
	was := m.detail.width
	m.layout()
	if m.detail.width == was || m.detail.width == 0 {
		return nil
	}
	return m.reader().refreshDetail(false)
}

// enter opens: on the tree it shows the node in the detail pane (a group folds or
// unfolds); in the detail it follows the link under the link cursor.
func (m reader) enter() tea.Cmd {
	if m.lay.focus == focusDetail {
		links := m.detail.doc.Links
		if m.detail.sel.link >= 0 && m.detail.sel.link < len(links) && m.lay.side != sideDetail {
			m.supervisor().jumpTo(links[m.detail.sel.link].ID)
		} else if m.detail.sel.link >= 0 && m.detail.sel.link < len(links) {
			m.reader().follow(links[m.detail.sel.link].ID)
		} else if len(links) > 0 {
			m.status.info("choose a link with > and < first")
		}
		return nil
	}
	r, ok := m.tree.Selected()
	if !ok {
		return nil
	}
	if r.Kind == live.RowGroup || r.Kind == live.RowBroken {
		m.tree.SetOpen(r.Path, !r.Open)
		return nil
	}
	m.lay.focus = focusDetail
	m.layout()
	return nil
}

// back closes what is open: the search, then the jump history, then the detail focus.
func (m reader) back() {
	switch {
	case m.lay.side == sideDiff:
		// The diff is what is open on top of the tree: esc closes it first, whatever
		// has the focus and whether a search is in force.
		if m.travel != nil {
			m.travel.diff = diffOff
		}
		m.supervisor().setSide(sideDetail)
		m.layout()
		m.reader().rebuildDetail()
		m.status.info("diff closed")
	case m.search.Query() != "":
		m.search.Clear()
		m.status.info("search cleared")
	case m.lay.side != sideDetail && m.lay.focus == focusDetail:
		if m.lay.side == sideDiff {
			m.travel.diff = diffOff
		}
		m.supervisor().setSide(sideDetail)
		m.layout()
		m.reader().rebuildDetail()
	case len(m.detail.sel.history) > 0:
		p := m.detail.sel.history[len(m.detail.sel.history)-1]
		m.detail.sel.history = m.detail.sel.history[:len(m.detail.sel.history)-1]
		m.tree.Reveal(p)
	case m.lay.focus == focusDetail:
		m.lay.focus = focusTree
		m.layout()
	}
}

// follow jumps to an object, remembering where we were (esc goes back).
func (m reader) follow(id string) {
	if m.shown.forest == nil {
		return
	}
	p := m.shown.forest.Canon(id)
	if p == "" {
		m.status.error(id + " is not in the tree (it does not exist)")
		return
	}
	m.detail.sel.history = append(m.detail.sel.history, m.tree.Cursor())
	if len(m.detail.sel.history) > 100 {
		m.detail.sel.history = m.detail.sel.history[1:]
	}
	m.tree.Reveal(p)
}

func (m reader) moveLink(d int) {
	n := len(m.detail.doc.Links)
	if n == 0 {
		return
	}
	m.detail.sel.link = ((m.detail.sel.link+d)%n + n) % n
	if m.detail.sel.link < 0 {
		m.detail.sel.link = 0
	}
	m.reader().rebuildDetail()
	l := m.detail.doc.Links[m.detail.sel.link]
	m.detail.ScrollTo(l.Line, l.Line)
}

// refreshDetail rebuilds the detail pane for the selection. With reset (the selection
// changed) the sentence and issue cursors start over: on the first open issue's
// sentence when there is one. It returns the markdown rendering to run, if any.
func (m reader) refreshDetail(reset bool) tea.Cmd {
	if m.shown.snap == nil {
		return nil
	}
	r, _ := m.tree.Selected()
	if r.Path != m.detail.sel.path {
		reset = true
	}
	if reset && (m.lay.side == sideRuns || m.lay.side == sideGraveyard || m.lay.side == sideActivity) {
		// The pane shown does not follow the tree: keep its place.
		m.detail.sel.path, m.detail.sel.id = r.Path, r.ID
		m.detail.sel.sentence, m.detail.sel.issue = 0, -1
		return m.reader().rebuildDetail()
	}
	if reset {
		m.detail.sel.path, m.detail.sel.id = r.Path, r.ID
		m.detail.sel.sentence, m.detail.sel.issue, m.detail.sel.link = 0, -1, -1
		m.detail.offset = 0
		if st := m.shown.snap.Statements.Get(r.ID); st != nil && r.Kind == live.RowStatement {
			if open := model.Unanswered(st.Issues, st.Responses); len(open) > 0 {
				threads, _ := model.Threads(st.Issues, st.Responses)
				for i, t := range threads {
					if t.Issue.Number == open[0] {
						m.detail.sel.issue = i
						if idx, _ := model.LocateSentence(model.SplitSentences(proofText(st)), t.Issue.Sentence, t.Issue.SentenceText); idx >= 0 {
							m.detail.sel.sentence = idx
						}
						break
					}
				}
			}
		}
	}
	cmd := m.reader().rebuildDetail()
	if reset && m.detail.sel.issue >= 0 {
		m.reader().scrollToSentence()
	}
	return cmd
}

// rebuildDetail renders the detail doc for the current state (no reset).
func (m reader) rebuildDetail() tea.Cmd {
	r, ok := m.tree.Selected()
	w := m.detail.width
	if doc, cmd, side := m.supervisor().sideDoc(w); side && w > 0 {
		m.detail.SetDoc(doc)
		return cmd
	}
	if !ok || w <= 0 {
		m.detail.SetDoc(views.Doc{ProofStart: -1})
		return nil
	}
	var cmd tea.Cmd
	state := views.DetailState{Sentence: m.detail.sel.sentence, Issue: m.detail.sel.issue, Link: m.detail.sel.link, Broken: m.shown.snap.Broken, Math: m.look.math}
	var doc views.Doc
	switch r.Kind {
	case live.RowStatement:
		if st := m.shown.snap.Statements.Get(r.ID); st != nil && !st.Proof.Blank() && !st.Proof.Ready() {
			// A long proof left in its file: read in a command, shown when it arrives.
			cmd = readProof(r.ID, st)
		} else if st != nil && !st.Proof.Blank() {
			state.ProofText, state.ProofErr = st.Proof.Text()
			if changed := (*model.ChangedError)(nil); errors.As(state.ProofErr, &changed) {
				state.ProofErr = m.reader().changedSince(changed.Path)
			}
			if state.ProofErr == nil {
				state.Proof, cmd = m.reader().proofFor(state.ProofText, w-2)
				m.detail.sel.sentence = min(max(m.detail.sel.sentence, 0), max(len(state.Proof.Sentences)-1, 0))
				state.Sentence = m.detail.sel.sentence
			}
		}
		if ex := m.bg.extras.shown; ex != nil {
			var similar tea.Cmd
			state.Similar, similar = m.bg.similar.To(ex, r.ID)
			state.Retreads = ex.retreads[r.ID]
			cmd = tea.Batch(cmd, similar)
		}
		state.Why, state.WhyOpen = m.bg.sess.Why(r.ID), m.bg.sess.whyOpen
		doc = views.StatementDetail(m.look.st, m.shown.snap, m.shown.g, r.ID, state, w)
	case live.RowProblem:
		k := laidKey{path: r.Path, width: w, sentence: state.Sentence, issue: state.Issue, link: state.Link, math: state.Math, st: m.look.st}
		var ok bool
		if doc, ok = m.detail.laidOut(k, m.shown.snap, m.shown.g); !ok {
			doc = views.ProblemDetail(m.look.st, m.shown.snap, m.shown.g, r.ID, state, w)
			m.detail.keepLaid(k, doc)
		}
	case live.RowGroup:
		members := m.shown.forest.Children(r)
		switch r.ID {
		case live.GroupPremises:
			doc = views.GroupDetail(m.look.st, m.shown.snap, m.shown.g, "Premises of "+live.ParentID(r.Path), "The statements this one rests on (usually assumptions, true from the start).", members, state, w)
		case live.GroupUnattached:
			doc = views.GroupDetail(m.look.st, m.shown.snap, m.shown.g, "Unattached", "Objects nothing leads to from a problem: created but never linked (an agent may have died between its two commands), or a cycle nothing enters.", members, state, w)
		case live.GroupBroken:
			doc = views.BrokenDetail(m.look.st, m.shown.forest.BrokenOrphans(), w)
		}
	case live.RowBroken:
		doc = views.BrokenDetail(m.look.st, m.shown.forest.BrokenOrphans(), w)
	case live.RowMissing:
		doc = views.MissingDetail(m.look.st, m.shown.g, r.ID, w)
	case live.RowCycle:
		doc = views.GroupDetail(m.look.st, m.shown.snap, m.shown.g, "Cycle at "+r.ID, r.ID+" is already above this point: following it again would loop, so the tree stops here.", []string{r.ID}, state, w)
	}
	m.detail.SetDoc(doc)
	return cmd
}

// proofFor is the detail's rendering of a proof at a width, in the styles and math
// shown (proofRenderings.get).
func (m reader) proofFor(proof string, width int) (*views.RenderedProof, tea.Cmd) {
	return m.detail.get(proof, width, m.look.st.MarkdownStyle(), m.look.math)
}

// proofRenderedMsg carries a markdown rendering made in a command.
type proofRenderedMsg struct {
	key string
	rp  *views.RenderedProof
}

func renderProof(render func(string, int, string, mathtext.Mode) (*views.RenderedProof, error), key, proof string, width int, style string, math mathtext.Mode) tea.Cmd {
	return func() tea.Msg {
		rp, err := render(proof, width, style, math)
		if err != nil {
			return proofRenderedMsg{key: key}
		}
		return proofRenderedMsg{key: key, rp: rp}
	}
}

// changedSince says that a proof's file changed since the shown snapshot was read, and
// how to see the new version.
func (m reader) changedSince(path string) error {
	switch {
	case m.travel != nil:
		return fmt.Errorf("%s has changed since the folder was loaded: t returns to now and shows it", path)
	case m.feed.paused:
		return fmt.Errorf("%s has changed since this paused view was loaded: p resumes and shows it", path)
	}
	return fmt.Errorf("%s has changed since it was loaded: the new version is on its way", path)
}

// proofReadMsg says a statement's proof text has been read from its file.
type proofReadMsg struct{ id string }

// readProof reads a lean statement's proof text off the UI goroutine (Proof.Text keeps
// it: the detail then takes it at once).
func readProof(id string, st *model.Statement) tea.Cmd {
	return func() tea.Msg {
		_, _ = st.Proof.Text()
		return proofReadMsg{id: id}
	}
}

// proofText is a statement's proof text, or "" when it cannot be read: the detail pane
// says why (a snapshot reads a long proof from its file when it is first shown).
func proofText(st *model.Statement) string {
	text, _ := st.Proof.Text()
	return text
}

// moveSentence moves the sentence cursor and keeps the sentence in view.
func (m reader) moveSentence(d int) {
	st := m.reader().selectedStatement()
	if st == nil {
		return
	}
	// The sentences of the layout at hand, not split again: a proof of 100,000
	// sentences took 0.15–0.7 s a key.
	rp, _ := m.reader().proofFor(proofText(st), m.detail.width-2)
	n := len(rp.Sentences)
	if n == 0 {
		return
	}
	m.detail.sel.sentence = min(max(m.detail.sel.sentence+d, 0), n-1)
	m.reader().rebuildDetail()
	m.reader().scrollToSentence()
}

func (m reader) scrollToSentence() {
	r, ok := m.tree.Selected()
	if !ok {
		return
	}
	st := m.shown.snap.Statements.Get(r.ID)
	if st == nil || m.detail.doc.ProofStart < 0 {
		return
	}
	rp, _ := m.reader().proofFor(proofText(st), m.detail.width-2)
	first, last := rp.SentenceLines(m.detail.sel.sentence)
	if first < 0 {
		return
	}
	m.detail.ScrollTo(m.detail.doc.ProofStart+first, m.detail.doc.ProofStart+last)
}

// nextIssue moves the issue cursor to the next thread and the sentence cursor to the
// sentence it points at.
func (m reader) nextIssue() {
	st := m.reader().selectedStatement()
	if st == nil || len(st.Issues) == 0 {
		return
	}
	threads, _ := model.Threads(st.Issues, st.Responses)
	m.detail.sel.issue = (m.detail.sel.issue + 1) % len(threads)
	t := threads[m.detail.sel.issue]
	if idx, _ := model.LocateSentence(model.SplitSentences(proofText(st)), t.Issue.Sentence, t.Issue.SentenceText); idx >= 0 {
		m.detail.sel.sentence = idx
	}
	m.reader().rebuildDetail()
	m.reader().scrollToSentence()
	if m.detail.sel.issue < len(m.detail.doc.IssueLines) && m.detail.doc.ProofStart < 0 {
		l := m.detail.doc.IssueLines[m.detail.sel.issue]
		m.detail.ScrollTo(l, l+3)
	}
	label := fmt.Sprintf("issue %d of %d", m.detail.sel.issue+1, len(threads))
	if t.Issue.Number > 0 {
		label = fmt.Sprintf("issue #%d (%d of %d)", t.Issue.Number, m.detail.sel.issue+1, len(threads))
	}
	m.status.info(label + fmt.Sprintf(": sentence %d, %s", m.detail.sel.sentence+1, model.SanitizeLine(t.Issue.ErrorType)))
}

// next walks the review queue: the statements a reviewer can take up (awaiting check, a
// gap, a decision) before the agent the orchestrator would run, what holds up the
// most of the root first (model.ReviewOrder). It always does, searching or not (search
// has its own keys), and says when it wraps.
func (m reader) next(d int) {
	if m.shown.forest == nil {
		return
	}
	list := m.reader().reviewOrder()
	if len(list) == 0 {
		m.status.info("the review queue is empty: no statement awaits a check, a fix or a decision")
		return
	}
	cur, _ := m.tree.Selected()
	target, wrapped := list[0], false
	switch i := slices.Index(list, cur.ID); {
	case i >= 0:
		target, wrapped = stepWrap(list, i, d)
	case d < 0:
		target = list[len(list)-1] // not on one: the queue starts with what holds up the most
	}
	m.tree.Reveal(m.shown.forest.Canon(target))
	at := slices.Index(list, target) + 1
	// The words of the row's badge and the detail's "next", so that the two never disagree.
	msg := fmt.Sprintf("%s: %s", target, m.shown.g.Phase.Get(target))
	if next := m.shown.g.Next.Get(target); next != "" {
		msg += ", next " + next
	}
	if st := m.shown.snap.Statements.Get(target); st != nil && model.ProposalOpen(st) {
		msg += ", a proposed modification (H decides)"
	}
	msg += fmt.Sprintf(" (%d of %d in the review queue)", at, len(list))
	if wrapped {
		msg = fmt.Sprintf("wrapped to %d of %d · ", at, len(list)) + msg
	}
	if n := len(model.Above(m.shown.g, target)); n > 0 {
		msg += fmt.Sprintf(" · holds up %d", n)
	}
	m.status.info(msg)
}

// stepWrap is the item d steps from index i of list, and whether it went past an end.
func stepWrap(list []string, i, d int) (string, bool) {
	j := i + d
	n := len(list)
	return list[((j%n)+n)%n], j < 0 || j >= n

}

// reviewOrder is the review queue of the shown snapshot: the extras' when they are
// built for it, else worked out here once for that snapshot (n pressed just after a
// write, before its extras came).
func (m reader) reviewOrder() []string {
	if ex := m.bg.extras.shown; ex != nil && ex.snap == m.shown.snap {
		return ex.review
	}
	if q := &m.bg.extras.queue; q.snap != m.shown.snap {
		q.snap, q.order = m.shown.snap, model.ReviewOrder(m.shown.snap, m.shown.g)
	}
	return m.bg.extras.queue.order
}

// error says something went wrong, on the status line.
func (s *status) error(text string) { s.message, s.messageOK = text, false }

// info says something, on the status line.
func (s *status) info(text string) { s.message, s.messageOK = text, true }

// openForm shows a form.
func (m changer) openForm(f *dialog.Form) tea.Cmd {
	m.dlg.form = f
	f.SetDark(m.look.dark)
	f.SetSize(m.dialogWidth()-4, m.dialogHeight()-2)
	return f.Focus()
}

func (m changer) undoDisabled() string {
	if s := m.env.opts.Seat; s != nil && s.ReadOnly {
		return readOnlyReason(s.Name)
	}
	if why := m.travel.ReadOnly(); why != "" {
		return why
	}
	if _, ok := m.writes.Last(); !ok {
		return "cannot undo: no change was made in this session"
	}
	return ""
}
