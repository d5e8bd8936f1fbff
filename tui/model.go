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
package tui

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"time"
	"unsafe"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"referee/agents"
	"referee/cells"
	"referee/live"
	"referee/mathtext"
	"referee/model"
	"referee/store"
	"referee/themes"
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

// Model is the workbench state.
type Model struct {
	dir   string
	name  string
	opts  Options
	actor string

	st   *themes.Styles
	dark bool

	// What the tree and detail show: a frame's snapshot, graph and tree (live.Frame).
	snap    *model.Snapshot
	g       *model.Graph
	forest  *live.Forest
	loading *loading // the folder is being read (loading.go); nil once shown

	// The live room's side (live.go): the feed of frames, the head of its reload chain
	// (may be ahead of what is shown when paused; latest is its snapshot), and the
	// newest frame held back while paused or travelling.
	feed         frameSource
	head         *live.Forest
	latest       *model.Snapshot
	watchNote    string
	paused       bool
	pending      *live.Frame
	pendingCount int

	tree   *Tree
	detail *Detail
	focus  focus
	width  int
	height int

	sel      selection
	proofs   map[string]*views.RenderedProof
	inflight map[string]bool
	// lastProof remembers the hash of the last long proof keyed (proofKey).
	lastProof struct {
		data *byte
		n    int
		key  string
	}

	search *Search

	// overlays
	form    *Form
	confirm *Confirm
	decide  *Decide // the decision of a proposed modification (H)
	notice  *Notice
	picker  *Picker

	flash     map[string]time.Time
	message   string
	messageOK bool

	// others are the people at the other workbenches on this folder (serve; presence.go).
	others []Presence

	writes *Writes
	// zoomed: the focused pane takes the whole width (z).
	zoomed bool
	// crumb is the detail title's breadcrumb for crumbKey (path, width, forest).
	crumb, crumbKey string
	// drafts are forms closed with esc, by skill and target: the same key brings the
	// typed text back (drafts.go).
	drafts map[string]*Form

	supervision

	// syncRender renders markdown in Update instead of a command (tests: deterministic).
	syncRender bool
	// renderMarkdown is views.RenderProofMarkdown (tests count the calls through it).
	renderMarkdown func(proof string, width int, style string, math mathtext.Mode) (*views.RenderedProof, error)
	// math is how proofs show their math: readable (the zero value) or raw (key m).
	math mathtext.Mode
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
		dir: dir, name: filepath.Base(abs), opts: opts, actor: actor,
		tree: newTree(), detail: newDetail(), search: newSearch(true), supervision: supervision{activity: newActivity()},
		proofs: map[string]*views.RenderedProof{}, inflight: map[string]bool{},
		flash: map[string]time.Time{}, sel: selection{issue: -1, link: -1},
		dark: true, renderMarkdown: views.RenderProofMarkdown,
	}
	m.runs = newRuns(dir, m.name, opts.Runs, opts.StallAfter, m)
	m.changes = newChanges(dir, m)
	m.extras = &Extras{limit: opts.LimitMemory}
	m.similar = newSimilar(m)
	m.sess = newSessions(opts.Sessions, m)
	m.writes = newWrites(dir, actor)
	if opts.Seat != nil && opts.Seat.ReadOnly {
		m.writes.readOnly = readOnlyReason(opts.Seat.Name)
	}
	m.applyTheme()
	if opts.DemoOf != "" {
		m.flashInfo("the bundled demo: changes go to a scratch copy (" + dir + "); " + opts.DemoOf + " stays as it is")
	}
	if opts.Shared != nil {
		m.openShared(opts.Shared)
		return m, nil
	}
	if !opts.SyncLoad {
		m.loading = newLoading(!opts.NoWatch)
		return m, nil
	}
	if !opts.NoWatch { // before the load: a change made during it is reported, not missed
		feed, err := live.Watch(dir, store.WatchOptions{})
		if err != nil {
			m.watchNote = "not watching: " + err.Error()
		} else {
			m.feed = feed
		}
	}
	snap, err := store.LoadTail(dir, nil)
	if err != nil {
		m.Close()
		return nil, err
	}
	g, f := live.Derive(snap)
	m.setHead(f)
	m.setSnapshot(snap, g, f, nil)
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
	m.closeLoading()
	if m.feed != nil {
		_ = m.feed.Close()
		m.feed = nil
	}
}

func (m *Model) now() time.Time { return m.opts.Now() }

func (m *Model) applyTheme() {
	noColor := m.opts.NoColor || themes.NoColorEnv()
	m.st = themes.New(themes.Resolve(m.opts.Theme, m.dark, noColor))
	m.search.SetDark(m.dark)
	m.activity.filter.SetStyles(inputStyles(m.dark))
}

// Init asks the terminal for its background and starts loading the folder, or (loaded
// in New) listening to it.
func (m *Model) Init() tea.Cmd {
	if m.loading != nil {
		// The agents' runs and sessions wait for the tree (onLoaded): on two cores they
		// took CPU from the load of the first frame.
		return tea.Batch(tea.RequestBackgroundColor, m.startLoad(), m.listenRoom())
	}
	return tea.Batch(tea.RequestBackgroundColor, m.listen(), m.refreshDetail(false), m.runs.Poll(true), m.watchSessions(nil), m.listenRoom())
}

// Update handles one message.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if cmd, ok := m.onRoom(msg); ok {
		return m, cmd
	}
	cmd := m.update(msg)
	// Whatever moved the tree cursor, the detail follows.
	if m.tree.Cursor() != m.sel.path {
		cmd = tea.Batch(cmd, m.refreshDetail(true))
	}
	m.sitAt()
	return m, tea.Batch(cmd, m.supervise())
}

func (m *Model) update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
		m.layout()
		return m.refreshDetail(false)
	case tea.ModeReportMsg:
		// The terminal counts by grapheme (mode 2027): so does the renderer, and so must
		// the views (cells). Bubble Tea turns the mode on for the same answers.
		// Over SSH (a seat) the method is the process's, shared by every terminal: it stays.
		if m.opts.Seat == nil && msg.Mode == ansi.ModeUnicodeCore && (msg.Value == ansi.ModeSet || msg.Value == ansi.ModeReset || msg.Value == ansi.ModePermanentlySet) {
			cells.SetMethod(ansi.GraphemeWidth)
			m.layout()
			return m.refreshDetail(false)
		}
		return nil
	case tea.BackgroundColorMsg:
		if m.opts.Theme == "" || m.opts.Theme == "auto" {
			m.dark = msg.IsDark()
			m.applyTheme()
			return m.refreshDetail(false)
		}
		return nil
	case live.Frame:
		cmd := m.onFrame(msg)
		m.conflictNote()
		return cmd
	case planMsg:
		if m.confirm == nil {
			return nil // closed meanwhile
		}
		return m.route(m.confirm, msg)
	case formEditedMsg:
		return m.onFormEdited(msg)
	case loadedMsg:
		return m.onLoaded(msg)
	case loadTickMsg:
		return m.onLoadTick()
	case loadRetryMsg:
		return m.onLoadRetry(msg)
	case proofRenderedMsg:
		delete(m.inflight, msg.key)
		if msg.rp != nil {
			if len(m.proofs) > 256 {
				clear(m.proofs)
			}
			m.proofs[msg.key] = msg.rp
			return m.refreshDetail(false)
		}
		return nil
	case flashTickMsg:
		now := m.now()
		for id, until := range m.flash {
			if !now.Before(until) {
				delete(m.flash, id)
			}
		}
		return nil
	case skillDoneMsg:
		return m.route(m.writes, msg)
	case editorDoneMsg:
		return m.editorDone(msg)
	case historyMsg, historyMadeMsg, historyWantedMsg:
		return m.route(m.changes, msg)
	case olderMsg:
		return m.onOlder(msg)
	case extrasTickMsg, extrasMsg:
		return m.route(m.extras, msg)
	case proofReadMsg:
		if r, ok := m.tree.Selected(); ok && r.ID == msg.id {
			return m.refreshDetail(false)
		}
		return nil
	case similarMsg:
		return m.route(m.similar, msg)
	case searchFoundMsg:
		return m.route(m.search, msg)
	case travelMsg, diffMsg:
		if m.travel == nil {
			return nil // returned to now meanwhile
		}
		return m.route(m.travel, msg)
	case rewindPlanMsg:
		return m.onRewindPlan(msg)
	case runsMsg, runsTickMsg:
		return m.route(m.runs, msg)
	case sessionsMsg, attributionMsg:
		return m.route(m.sess, msg)
	case tea.MouseClickMsg:
		if m.loading != nil {
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
	case m.form != nil:
		return m.route(m.form, msg)
	case m.picker != nil:
		return m.route(m.picker, msg)
	case m.search.Typing():
		return m.route(m.search, msg)
	case m.activity.filtering:
		var cmd tea.Cmd
		m.activity.filter, cmd = m.activity.filter.Update(msg)
		return cmd
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
	case m.notice != nil:
		return m.route(m.notice, msg)
	case m.confirm != nil:
		return m.route(m.confirm, msg)
	case m.decide != nil:
		return m.route(m.decide, msg)
	case m.form != nil:
		return m.route(m.form, msg)
	case m.picker != nil:
		return m.route(m.picker, msg)
	case m.search.Typing():
		return m.route(m.search, msg)
	case m.loading != nil:
		return m.keyWhileLoading(msg)
	}
	m.message = ""
	if m.focus == focusTree {
		if m.tree.Update(msg) {
			return nil
		}
	} else if m.side == sideActivity {
		if cmd, ok, jump := m.activity.Update(msg); ok {
			m.jumpTo(jump)
			return cmd
		}
	} else {
		switch k {
		case ">", "<", "enter":
		default:
			if m.detail.Update(msg) {
				return nil
			}
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
	if m.form != nil {
		m.form.SetWidth(m.dialogWidth() - 4)
		m.form.SetHeight(m.dialogHeight() - 2)
	}
	if m.picker != nil {
		m.picker.SetSize(m.dialogWidth()-4, m.dialogHeight()-2)
	}
	m.search.SetSize(max(m.width-20, 10))
}

// paneSizes: tree width, detail width, pane height. Below 60 columns, or zoomed (z),
// only the focused pane shows.
func (m *Model) paneSizes() (tw, dw, ph int) {
	ph = max(m.height-2, 0)
	switch {
	case m.width < 60 || m.zoomed:
		if m.focus == focusTree {
			return m.width, 0, ph
		}
		return 0, m.width, ph
	case m.width < 100:
		tw = m.width * 9 / 20
	default:
		tw = min(max(m.width*2/5, 40), 80)
	}
	return tw, m.width - tw, ph
}

func (m *Model) dialogWidth() int {
	if m.width < 14 {
		return max(m.width, 0)
	}
	return min(m.width-4, 96)
}

func (m *Model) dialogHeight() int {
	if m.height < 7 {
		return max(m.height, 0)
	}
	return m.height - 4
}

func (m *Model) toggleFocus() {
	if m.focus == focusTree {
		m.focus = focusDetail
	} else {
		m.focus = focusTree
	}
	m.layout()
}

// enter opens: on the tree it shows the node in the detail pane (a group folds or
// unfolds); in the detail it follows the link under the link cursor.
func (m *Model) enter() tea.Cmd {
	if m.focus == focusDetail {
		links := m.detail.doc.Links
		if m.sel.link >= 0 && m.sel.link < len(links) && m.side != sideDetail {
			m.jumpTo(links[m.sel.link].ID)
		} else if m.sel.link >= 0 && m.sel.link < len(links) {
			m.follow(links[m.sel.link].ID)
		} else if len(links) > 0 {
			m.flashInfo("choose a link with > and < first")
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
	m.focus = focusDetail
	m.layout()
	return nil
}

// back closes what is open: the search, then the jump history, then the detail focus.
func (m *Model) back() {
	switch {
	case m.side == sideDiff:
		// The diff is what is open on top of the tree: esc closes it first, whatever
		// has the focus and whether a search is in force.
		if m.travel != nil {
			m.travel.diff = diffOff
		}
		m.setSide(sideDetail)
		m.layout()
		m.rebuildDetail()
		m.flashInfo("diff closed")
	case m.search.Query() != "":
		m.search.Clear()
		m.flashInfo("search cleared")
	case m.side != sideDetail && m.focus == focusDetail:
		if m.side == sideDiff {
			m.travel.diff = diffOff
		}
		m.setSide(sideDetail)
		m.layout()
		m.rebuildDetail()
	case len(m.sel.history) > 0:
		p := m.sel.history[len(m.sel.history)-1]
		m.sel.history = m.sel.history[:len(m.sel.history)-1]
		m.tree.Reveal(p)
	case m.focus == focusDetail:
		m.focus = focusTree
		m.layout()
	}
}

// follow jumps to an object, remembering where we were (esc goes back).
func (m *Model) follow(id string) {
	if m.forest == nil {
		return
	}
	p := m.forest.Canon(id)
	if p == "" {
		m.flashError(id + " is not in the tree (it does not exist)")
		return
	}
	m.sel.history = append(m.sel.history, m.tree.Cursor())
	if len(m.sel.history) > 100 {
		m.sel.history = m.sel.history[1:]
	}
	m.tree.Reveal(p)
}

func (m *Model) moveLink(d int) {
	n := len(m.detail.doc.Links)
	if n == 0 {
		return
	}
	m.sel.link = ((m.sel.link+d)%n + n) % n
	if m.sel.link < 0 {
		m.sel.link = 0
	}
	m.rebuildDetail()
	l := m.detail.doc.Links[m.sel.link]
	m.detail.ScrollTo(l.Line, l.Line)
}

// refreshDetail rebuilds the detail pane for the selection. With reset (the selection
// changed) the sentence and issue cursors start over: on the first open issue's
// sentence when there is one. It returns the markdown rendering to run, if any.
func (m *Model) refreshDetail(reset bool) tea.Cmd {
	if m.snap == nil {
		return nil
	}
	r, _ := m.tree.Selected()
	if r.Path != m.sel.path {
		reset = true
	}
	if reset && (m.side == sideRuns || m.side == sideGraveyard || m.side == sideActivity) {
		// The pane shown does not follow the tree: keep its place.
		m.sel.path, m.sel.id = r.Path, r.ID
		m.sel.sentence, m.sel.issue = 0, -1
		return m.rebuildDetail()
	}
	if reset {
		m.sel.path, m.sel.id = r.Path, r.ID
		m.sel.sentence, m.sel.issue, m.sel.link = 0, -1, -1
		m.detail.offset = 0
		if st := m.snap.Statements.Get(r.ID); st != nil && r.Kind == live.RowStatement {
			if open := model.Unanswered(st.Issues, st.Responses); len(open) > 0 {
				threads, _ := model.Threads(st.Issues, st.Responses)
				for i, t := range threads {
					if t.Issue.Number == open[0] {
						m.sel.issue = i
						if idx, _ := model.LocateSentence(model.SplitSentences(proofText(st)), t.Issue.Sentence, t.Issue.SentenceText); idx >= 0 {
							m.sel.sentence = idx
						}
						break
					}
				}
			}
		}
	}
	cmd := m.rebuildDetail()
	if reset && m.sel.issue >= 0 {
		m.scrollToSentence()
	}
	return cmd
}

// rebuildDetail renders the detail doc for the current state (no reset).
func (m *Model) rebuildDetail() tea.Cmd {
	r, ok := m.tree.Selected()
	w := m.detail.width
	if doc, cmd, side := m.sideDoc(w); side && w > 0 {
		m.detail.SetDoc(doc)
		return cmd
	}
	if !ok || w <= 0 {
		m.detail.SetDoc(views.Doc{ProofStart: -1})
		return nil
	}
	var cmd tea.Cmd
	state := views.DetailState{Sentence: m.sel.sentence, Issue: m.sel.issue, Link: m.sel.link, Broken: m.snap.Broken, Math: m.math}
	var doc views.Doc
	switch r.Kind {
	case live.RowStatement:
		if st := m.snap.Statements.Get(r.ID); st != nil && !st.Proof.Blank() && !st.Proof.Ready() {
			// A long proof left in its file: read in a command, shown when it arrives.
			cmd = readProof(r.ID, st)
		} else if st != nil && !st.Proof.Blank() {
			state.ProofText, state.ProofErr = st.Proof.Text()
			if changed := (*model.ChangedError)(nil); errors.As(state.ProofErr, &changed) {
				state.ProofErr = m.changedSince(changed.Path)
			}
			if state.ProofErr == nil {
				state.Proof, cmd = m.proofFor(state.ProofText, w-2)
				m.sel.sentence = min(max(m.sel.sentence, 0), max(len(state.Proof.Sentences)-1, 0))
				state.Sentence = m.sel.sentence
			}
		}
		if ex := m.extras.shown; ex != nil {
			var similar tea.Cmd
			state.Similar, similar = m.similar.To(ex, r.ID)
			state.Retreads = ex.retreads[r.ID]
			cmd = tea.Batch(cmd, similar)
		}
		state.Why, state.WhyOpen = m.sess.Why(r.ID), m.sess.whyOpen
		doc = views.StatementDetail(m.st, m.snap, m.g, r.ID, state, w)
	case live.RowProblem:
		doc = views.ProblemDetail(m.st, m.snap, m.g, r.ID, state, w)
	case live.RowGroup:
		members := m.forest.Children(r)
		switch r.ID {
		case live.GroupPremises:
			doc = views.GroupDetail(m.st, m.snap, m.g, "Premises of "+live.ParentID(r.Path), "The statements this one rests on (usually assumptions, true from the start).", members, state, w)
		case live.GroupUnattached:
			doc = views.GroupDetail(m.st, m.snap, m.g, "Unattached", "Objects nothing leads to from a problem: created but never linked (an agent may have died between its two commands), or a cycle nothing enters.", members, state, w)
		case live.GroupBroken:
			doc = views.BrokenDetail(m.st, m.forest.BrokenOrphans(), w)
		}
	case live.RowBroken:
		doc = views.BrokenDetail(m.st, m.forest.BrokenOrphans(), w)
	case live.RowMissing:
		doc = views.MissingDetail(m.st, m.g, r.ID, w)
	case live.RowCycle:
		doc = views.GroupDetail(m.st, m.snap, m.g, "Cycle at "+r.ID, r.ID+" is already above this point: following it again would loop, so the tree stops here.", []string{r.ID}, state, w)
	}
	m.detail.SetDoc(doc)
	return cmd
}

// proofFor returns the best rendering at hand (markdown if cached, else the plain
// fallback) and the command that renders the markdown when it is not cached.
func (m *Model) proofFor(proof string, width int) (*views.RenderedProof, tea.Cmd) {
	style := m.st.MarkdownStyle()
	key := m.proofKey(proof, width, style)
	if rp, ok := m.proofs[key]; ok {
		return rp, nil
	}
	plainKey := m.proofKey(proof, width, "plain")
	rp, ok := m.proofs[plainKey]
	if !ok && len(proof) > largeProof && !m.syncRender {
		// Laid out off the UI goroutine too: a 100,000-sentence proof took 0.5 s.
		rp = views.RenderProofPlain(fmt.Sprintf("(laying out a proof of %d KB …)", len(proof)>>10), width, m.math)
		if m.inflight[plainKey] {
			return rp, nil
		}
		m.inflight[plainKey] = true
		plain := func(p string, w int, _ string, math mathtext.Mode) (*views.RenderedProof, error) {
			return views.RenderProofPlain(p, w, math), nil
		}
		return rp, renderProof(plain, plainKey, proof, width, "plain", m.math)
	}
	if !ok {
		rp = views.RenderProofPlain(proof, width, m.math)
		m.proofs[plainKey] = rp
	}
	if m.syncRender {
		if md, err := m.renderMarkdown(proof, width, style, m.math); err == nil {
			m.proofs[key] = md
			return md, nil
		}
	}
	if m.inflight[key] {
		return rp, nil
	}
	m.inflight[key] = true
	return rp, renderProof(m.renderMarkdown, key, proof, width, style, m.math)
}

// largeProof is the size past which a proof's plain layout is made in a command.
const largeProof = 128 << 10

// proofKey is views.ProofKey, remembering the last proof's hash: hashing a proof of
// megabytes on every rebuild of the detail (each ] in it) cost more than the rest.
func (m *Model) proofKey(proof string, width int, style string) string {
	if len(proof) < largeProof {
		return views.ProofKey(proof, width, style, m.math)
	}
	if m.lastProof.data != unsafe.StringData(proof) || m.lastProof.n != len(proof) {
		m.lastProof.data, m.lastProof.n = unsafe.StringData(proof), len(proof)
		m.lastProof.key = views.ProofKey(proof, 0, "", m.math)
	}
	return fmt.Sprintf("%s/%d/%s/%d", m.lastProof.key, width, style, m.math)
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
func (m *Model) changedSince(path string) error {
	switch {
	case m.travel != nil:
		return fmt.Errorf("%s has changed since the folder was loaded: t returns to now and shows it", path)
	case m.paused:
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
func (m *Model) moveSentence(d int) {
	st := m.selectedStatement()
	if st == nil {
		return
	}
	// The sentences of the layout at hand, not split again: a proof of 100,000
	// sentences took 0.15–0.7 s a key.
	rp, _ := m.proofFor(proofText(st), m.detail.width-2)
	n := len(rp.Sentences)
	if n == 0 {
		return
	}
	m.sel.sentence = min(max(m.sel.sentence+d, 0), n-1)
	m.rebuildDetail()
	m.scrollToSentence()
}

func (m *Model) scrollToSentence() {
	r, ok := m.tree.Selected()
	if !ok {
		return
	}
	st := m.snap.Statements.Get(r.ID)
	if st == nil || m.detail.doc.ProofStart < 0 {
		return
	}
	rp, _ := m.proofFor(proofText(st), m.detail.width-2)
	first, last := rp.SentenceLines(m.sel.sentence)
	if first < 0 {
		return
	}
	m.detail.ScrollTo(m.detail.doc.ProofStart+first, m.detail.doc.ProofStart+last)
}

// nextIssue moves the issue cursor to the next thread and the sentence cursor to the
// sentence it points at.
func (m *Model) nextIssue() {
	st := m.selectedStatement()
	if st == nil || len(st.Issues) == 0 {
		return
	}
	threads, _ := model.Threads(st.Issues, st.Responses)
	m.sel.issue = (m.sel.issue + 1) % len(threads)
	t := threads[m.sel.issue]
	if idx, _ := model.LocateSentence(model.SplitSentences(proofText(st)), t.Issue.Sentence, t.Issue.SentenceText); idx >= 0 {
		m.sel.sentence = idx
	}
	m.rebuildDetail()
	m.scrollToSentence()
	if m.sel.issue < len(m.detail.doc.IssueLines) && m.detail.doc.ProofStart < 0 {
		l := m.detail.doc.IssueLines[m.sel.issue]
		m.detail.ScrollTo(l, l+3)
	}
	label := fmt.Sprintf("issue %d of %d", m.sel.issue+1, len(threads))
	if t.Issue.Number > 0 {
		label = fmt.Sprintf("issue #%d (%d of %d)", t.Issue.Number, m.sel.issue+1, len(threads))
	}
	m.flashInfo(label + fmt.Sprintf(": sentence %d, %s", m.sel.sentence+1, model.SanitizeLine(t.Issue.ErrorType)))
}

// next walks the review queue: the statements a reviewer can take up (awaiting check, a
// gap, a decision) before the agent the orchestrator would run, what holds up the
// most of the root first (model.ReviewOrder). It always does, searching or not (search
// has its own keys), and says when it wraps.
func (m *Model) next(d int) {
	if m.forest == nil {
		return
	}
	list := m.reviewOrder()
	if len(list) == 0 {
		m.flashInfo("the review queue is empty: no statement awaits a check, a fix or a decision")
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
	m.tree.Reveal(m.forest.Canon(target))
	at := slices.Index(list, target) + 1
	// The words of the row's badge and the detail's "next", so that the two never disagree.
	msg := fmt.Sprintf("%s: %s", target, m.g.Phase.Get(target))
	if next := m.g.Next.Get(target); next != "" {
		msg += ", next " + next
	}
	if st := m.snap.Statements.Get(target); st != nil && model.ProposalOpen(st) {
		msg += ", a proposed modification (H decides)"
	}
	msg += fmt.Sprintf(" (%d of %d in the review queue)", at, len(list))
	if wrapped {
		msg = fmt.Sprintf("wrapped to %d of %d · ", at, len(list)) + msg
	}
	if n := len(model.Above(m.g, target)); n > 0 {
		msg += fmt.Sprintf(" · holds up %d", n)
	}
	m.flashInfo(msg)
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
func (m *Model) reviewOrder() []string {
	if ex := m.extras.shown; ex != nil && ex.snap == m.snap {
		return ex.review
	}
	if q := &m.extras.queue; q.snap != m.snap {
		q.snap, q.order = m.snap, model.ReviewOrder(m.snap, m.g)
	}
	return m.extras.queue.order
}

func (m *Model) flashError(s string) {
	m.message, m.messageOK = s, false
}

func (m *Model) flashInfo(s string) {
	m.message, m.messageOK = s, true
}

// openForm shows a form.
func (m *Model) openForm(f *Form) tea.Cmd {
	m.form = f
	f.setDark(m.dark)
	f.SetWidth(m.dialogWidth() - 4)
	f.SetHeight(m.dialogHeight() - 2)
	return f.Focus()
}

func (m *Model) undoDisabled() string {
	if s := m.opts.Seat; s != nil && s.ReadOnly {
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
