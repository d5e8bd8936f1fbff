package tui

import (
	"os"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"referee/internal/timeline"
	"referee/live"
	"referee/mathtext"
	"referee/model"
	"referee/store"
	"referee/themes"
	"referee/tui/common"
	"referee/tui/dialog"
	"referee/views"
)

// Opening a folder streams: New only checks that the folder is usable and returns; Init
// starts the watcher and the load in a command (off the UI goroutine), and a tick copies
// the load's progress into the frame until the snapshot, its graph and its tree arrive.
// At 10k statements the watcher takes tens of milliseconds (it lists history/, one
// folder per change) and the load a hundred: a frame that says so comes first.

// loadStep is what the load command is doing.
type loadStep int32

const (
	stepWatch  loadStep = iota // starting the watcher, before the load so no change is missed
	stepRead                   // listing and reading the object files
	stepDerive                 // building the graph and the tree
)

// firstRows is how many rows of the tree the first frame lays out (live.LoadFirst):
// more than a terminal shows. The rest of the tree follows (wholeMsg).
const firstRows = 256

// glimpseRows is how many rows a glimpse reads (live.NewGlimpse): a tall terminal's
// tree pane. A taller one shows the glimpse's rows and blank ones below, for the
// moment until the load's frame.
const glimpseRows = 96

// loadTickEvery is how often the frame shows the load's progress while it runs.
const loadTickEvery = 40 * time.Millisecond

// loading is the Model's state while the folder is being read (nil once shown).
type loading struct {
	progress store.Progress // counted by the load command
	step     atomic.Int32   // a loadStep, set by the load command

	// As last copied by a tick, on the UI goroutine: View draws these only.
	shownStep   loadStep
	done, total int64
	err         error // the load failed: shown until a change in the folder retries it

	// The watcher, made by the load command: Close stops it if the program ends before
	// Update took it from loadedMsg.
	mu     sync.Mutex
	feed   frameSource
	closed bool

	early        chan tea.Msg // the load begun before Init (Begin), until Init's command takes it
	earlyGlimpse tea.Cmd      // and the command that waits for its glimpse

	// glimpse is the top of the tree read before the folder (live.Glimpse), shown
	// until the load's frame; nil until it comes, and when the folder gave none.
	glimpse *live.Glimpse
	// glimpseDrawn is its rows as last drawn, for what they were drawn at: the load's
	// tick redraws the frame, and drawing every row again took a core from the read.
	glimpseDrawn struct {
		key   glimpseKey
		lines []string
	}
}

// showsGlimpse says whether the frame shows the glimpse (not why the load failed).
func (ls *loading) showsGlimpse() bool { return ls.glimpse != nil && ls.err == nil }

// glimpseKey is what a glimpse's rows are drawn at.
type glimpseKey struct {
	w, rows int
	focused bool
	st      *themes.Styles
	math    mathtext.Mode
}

func newLoading(watch bool) *loading {
	ls := &loading{shownStep: stepRead}
	if watch {
		ls.shownStep = stepWatch
	}
	ls.step.Store(int32(ls.shownStep))
	return ls
}

// loadedMsg is the result of the load command: the first frame (its LoadErr: the folder
// could not be read).
type loadedMsg struct {
	live.Frame
	feed     frameSource // started by this command (nil if it was running already)
	watchErr error
	resume   func() // turns the collector back on, off since the load (live.LoadFirst)
}

type loadTickMsg struct{}

// glimpseMsg is the top of the tree, read before the folder (live.NewGlimpse).
type glimpseMsg struct{ glimpse *live.Glimpse }

// wholeMsg is the whole tree of the first frame, whose tree held only its first rows.
type wholeMsg struct{ first, whole *live.Forest }

// loadRetryMsg: the folder changed after a failed load.
type loadRetryMsg struct{ closed bool }

// startLoad is the load command and the first progress tick. A load begun early
// (Begin) is waited for, not started again.
func (m loader) startLoad() tea.Cmd {
	ls := m.feed.loading
	if ls != nil && ls.early != nil {
		early, glimpse := ls.early, ls.earlyGlimpse
		ls.early, ls.earlyGlimpse = nil, nil
		return tea.Batch(func() tea.Msg { return <-early }, glimpse, loadTick())
	}
	load, glimpse := m.loader().loadCmd()
	return tea.Batch(load, glimpse, loadTick())
}

// Begin starts reading the folder at once, before the program that will show it has
// set the terminal up (Run): the first frame's read then runs beside that set-up
// instead of after it, and Init's load command waits for it. A Model that is never run
// must still be closed (Close stops the watcher the load made).
func (m *Model) Begin() {
	ls := m.feed.loading
	if ls == nil || ls.early != nil || ls.err != nil {
		return
	}
	early := make(chan tea.Msg, 1)
	load, glimpse := m.loader().loadCmd()
	go func() { early <- load() }()
	ls.early, ls.earlyGlimpse = early, glimpse
}

// loadCmd starts the watcher (store.Watch: a change made during the load is then in
// its first batch, which listen applies to the loaded snapshot) unless it runs already
// or is off, then loads the folder and derives its graph and tree. The watch on
// history/ is added beside the read of the object files (HistoryLater), and the log
// read after it.
//
// Beside the watcher's start it reads a glimpse of the tree (live.NewGlimpse), which
// glimpse, the second command, brings to Update: the read of the whole folder waits
// for it, so that the few files the glimpse reads are not queued behind every other.
func (m loader) loadCmd() (load, glimpse tea.Cmd) {
	ls, dir := m.feed.loading, m.env.dir
	watch := !m.env.opts.NoWatch && m.feed.src == nil
	glimpsed := make(chan *live.Glimpse, 1)
	glimpse = func() tea.Msg {
		if gl := <-glimpsed; gl != nil {
			return glimpseMsg{gl}
		}
		return nil
	}
	load = func() tea.Msg {
		timeline.Mark("load")
		glimpseRead := make(chan struct{})
		go func() {
			defer close(glimpseRead)
			gl, _ := live.NewGlimpse(dir, glimpseRows) // none: the load's frame is the first
			glimpsed <- gl
		}()
		var msg loadedMsg
		var logReady <-chan struct{}
		if watch {
			ls.step.Store(int32(stepWatch))
			opts := watchOptions
			opts.HistoryLater = true
			feed, err := live.Watch(dir, opts)
			if err != nil {
				msg.watchErr = err
			} else {
				ls.mu.Lock()
				if ls.closed {
					ls.mu.Unlock()
					_ = feed.Close()
					return nil // the program ended meanwhile
				}
				ls.feed, msg.feed = feed, feed
				ls.mu.Unlock()
				logReady = feed.Ready()
			}
		}
		timeline.Mark("watched")
		<-glimpseRead
		ls.step.Store(int32(stepRead))
		var resume func()
		msg.Frame, resume = live.LoadFirst(dir, &ls.progress, func() {
			timeline.Mark("read")
			ls.step.Store(int32(stepDerive))
		}, firstRows, logReady)
		timeline.Mark("derived")
		if msg.Forest.Partial() {
			msg.resume = resume // once the whole tree is built (onLoaded)
		} else {
			resume()
		}
		return msg
	}
	return load, glimpse
}

func loadTick() tea.Cmd {
	return tea.Tick(loadTickEvery, func(time.Time) tea.Msg { return loadTickMsg{} })
}

// onLoadTick copies the load's progress for the frame, and ticks again while it runs.
func (m loader) onLoadTick() tea.Cmd {
	ls := m.feed.loading
	if ls == nil || ls.err != nil {
		return nil
	}
	ls.shownStep = loadStep(ls.step.Load())
	ls.done, ls.total = ls.progress.Done.Load(), ls.progress.Total.Load()
	return loadTick()
}

// onLoaded shows the loaded folder as New used to (cursor on the first row, default
// folds) and starts listening from that snapshot; or shows why it could not be read.
func (m loader) onLoaded(msg loadedMsg) tea.Cmd {
	ls := m.feed.loading
	if ls == nil {
		return nil
	}
	if msg.feed != nil {
		m.feed.src = msg.feed
	}
	if msg.watchErr != nil {
		m.feed.watchNote = "not watching: " + msg.watchErr.Error()
	}
	if msg.LoadErr != nil {
		ls.glimpse, m.feed.held = nil, nil // the keys pressed over the glimpse wait for nothing now
		ls.err = msg.LoadErr
		ls.progress.Done.Store(0)
		ls.progress.Total.Store(0)
		m.status.error("cannot read the folder: " + msg.LoadErr.Error())
		return m.loader().retryOnChange()
	}
	m.feed.loading = nil
	m.feed.setHead(msg.Forest)
	show := m.loader().setSnapshot(msg.Snap, msg.Graph, msg.Forest, nil)
	timeline.Mark("shown") // the next View draws it
	// What the first frame does not draw starts now, the extras once it is drawn.
	m.bg.extras.afterFrame = true
	// i30s: the collector's lower percentage from the load on, not only after the first
	// extras build, whose garbage made the workbench's peak (memlimit.go). (A soft limit
	// over that build cut the peak further but doubled the CPU to rest at 100k.)
	lower := m.bg.extras.limit && os.Getenv("GOGC") == ""
	if f := msg.Forest; f.Partial() {
		// The rest of the tree is built now, the collector still off (live.LoadFirst);
		// the chain waits for it (its frames derive from the whole tree), and so do the
		// keys (keyWhilePartial), the agents' runs and sessions (they took the cores
		// from the first frame and the tree).
		resume := msg.resume
		if resume == nil {
			resume = func() {}
		}
		m.feed.resume = resume // Close turns the collector on if the program ends first
		return tea.Batch(show, func() tea.Msg {
			w := f.Whole()
			timeline.Mark("whole")
			resume()
			if lower {
				debug.SetGCPercent(GCPercent)
			}
			return wholeMsg{first: f, whole: w}
		})
	}
	if lower {
		debug.SetGCPercent(GCPercent)
	}
	// The chain goes on from the loaded frame; the keys pressed over the glimpse run.
	cmds := []tea.Cmd{show, m.feed.listen(), m.runs.Poll(true), m.supervisor().watchSessions(nil)}
	return tea.Batch(append(cmds, m.loader().runHeld()...)...)
}

// onGlimpse shows the top of the tree while the folder loads.
func (m loader) onGlimpse(msg glimpseMsg) tea.Cmd {
	if ls := m.feed.loading; ls != nil && ls.err == nil {
		ls.glimpse = msg.glimpse
		timeline.Mark("glimpse") // the next View draws it
	}
	return nil
}

// onWhole shows the whole tree in place of the first frame's, the cursor where it was,
// starts the live chain from it and reads the agents' runs and sessions, and gives the
// tree the keys pressed meanwhile.
func (m loader) onWhole(msg wholeMsg) tea.Cmd {
	if m.feed.head != msg.first {
		return nil
	}
	m.feed.setHead(msg.whole)
	m.feed.resume = nil
	var cmds []tea.Cmd
	if m.shown.forest == msg.first {
		// Its snapshot holds the log's tail, read since (live.LoadFirst).
		cmds = append(cmds, m.loader().setSnapshot(msg.whole.Snapshot(), m.shown.g, msg.whole, nil))
	}
	cmds = append(cmds, m.feed.listen(), m.runs.Poll(true), m.supervisor().watchSessions(nil))
	return tea.Batch(append(cmds, m.loader().runHeld()...)...)
}

// runHeld runs the keys held over a glimpse or a first frame's tree, in the order
// pressed, now that the tree they were aimed at is in.
func (m loader) runHeld() []tea.Cmd {
	held := m.feed.held
	m.feed.held = nil
	cmds := make([]tea.Cmd, 0, len(held))
	for _, k := range held {
		cmds = append(cmds, m.key(k))
	}
	return cmds
}

// keyWhilePartial: q quits and ? shows help at once; the other keys wait for the whole
// tree (a few frames), then run in the order pressed.
func (m loader) keyWhilePartial(msg tea.KeyPressMsg) tea.Cmd {
	if b, ok := bindingFor(msg); ok && (b.name == "quit" || b.name == "help") {
		return b.run(m.Model)
	}
	m.feed.held = append(m.feed.held, msg)
	return nil
}

// retryOnChange waits for the watcher's next batch after a failed load (the folder
// came back, or was made usable), then loads again.
func (m loader) retryOnChange() tea.Cmd {
	if m.feed.src == nil {
		return nil
	}
	feed := m.feed.src
	return func() tea.Msg { return loadRetryMsg{closed: !feed.Wait()} }
}

func (m loader) onLoadRetry(msg loadRetryMsg) tea.Cmd {
	if m.feed.loading == nil {
		return nil
	}
	if msg.closed {
		m.feed.watchNote = "watching stopped"
		m.feed.src = nil
		return nil
	}
	m.feed.loading.err = nil
	m.status.message = ""
	return m.loader().startLoad()
}

// closeLoading stops a watcher the load command made that Update never took.
func (m loader) closeLoading() {
	ls := m.feed.loading
	if ls == nil {
		return
	}
	ls.mu.Lock()
	defer ls.mu.Unlock()
	ls.closed = true
	if ls.feed != nil && ls.feed != m.feed.src {
		_ = ls.feed.Close()
	}
	ls.feed = nil
}

// keyWhileLoading: q quits and ? shows help; the other keys need the tree. Over a
// glimpse they wait for it, as over a first frame's tree (keyWhilePartial), and run in
// the order pressed: the glimpse's rows are the tree's, so a key moves where it was
// aimed.
func (m loader) keyWhileLoading(msg tea.KeyPressMsg) tea.Cmd {
	if m.feed.loading.showsGlimpse() {
		return m.keyWhilePartial(msg)
	}
	k := msg.String()
	if b, ok := bindingFor(msg); ok && (b.name == "quit" || b.name == "help") {
		return b.run(m.Model)
	}
	if m.feed.loading.err != nil {
		m.status.error("cannot read the folder: " + m.feed.loading.err.Error())
		return nil
	}
	m.status.info("still loading " + m.env.name + "/: " + k + " waits for the tree (q quits, ? help)")
	return nil
}

// loadingView is the tree pane while the folder loads: what is being done, how far it
// is, and which keys work.
func (m loader) loadingView(w, h int) string {
	if w <= 0 || h <= 0 {
		return ""
	}
	st, ls := m.look.st, m.feed.loading
	var lines []string
	add := func(style lipgloss.Style, text string) { // wrapped: a narrow pane shows it all
		for _, l := range dialog.WrapLines(style, text, w) {
			lines = append(lines, fitWidth(l, w))
		}
	}
	if ls.err != nil {
		add(st.Error, "cannot read "+model.SanitizeLine(m.env.name)+"/: "+model.SanitizeLine(ls.err.Error()))
		lines = append(lines, "")
		add(st.Muted, "read again when the folder changes · q quits")
	} else {
		add(st.Bold, m.loader().loadingLine())
		// A bar of the files read (bubbles' progress would add a module for one line).
		full := 0
		if ls.total > 0 {
			full = int(int64(w) * ls.done / ls.total)
		}
		lines = append(lines, st.Accent.Render(strings.Repeat("█", full))+st.Faint.Render(strings.Repeat("░", w-full)), "")
		add(st.Muted, "q quits · ? help · the other keys wait for the tree")
	}
	lines = lines[:min(len(lines), h)]
	for len(lines) < h {
		lines = append(lines, strings.Repeat(" ", w))
	}
	return strings.Join(lines, "\n")
}

// glimpseView is the tree pane over a glimpse: its rows as the tree draws them, the
// first selected (where the cursor will be), and below them, when no detail pane is
// there to show the load's progress, the line that says how far it is.
func (m loader) glimpseView(com common.Common, w, h int, withProgress bool) []string {
	ls, st := m.feed.loading, com.Styles
	rows := h
	if withProgress {
		rows = max(h-2, 0)
	}
	key := glimpseKey{w, rows, com.Focused, st, m.tree.math}
	if d := &ls.glimpseDrawn; d.lines == nil || d.key != key {
		d.key, d.lines = key, make([]string, 0, rows)
		for i, r := range ls.glimpse.Rows[:min(rows, len(ls.glimpse.Rows))] {
			var info views.RowInfo
			if r.Kind == live.RowStatement || r.Kind == live.RowProblem {
				info = views.InfoFor(ls.glimpse.Snap, ls.glimpse.Graph, r.ID, nil, m.tree.math)
			}
			d.lines = append(d.lines, views.TreeLine(st, r, info, w, i == 0, com.Focused))
		}
		for len(d.lines) < rows {
			d.lines = append(d.lines, strings.Repeat(" ", w))
		}
	}
	lines := ls.glimpseDrawn.lines
	if withProgress && h >= 2 {
		lines = append(slices.Clip(lines), strings.Repeat(" ", w), fitWidth(st.Muted.Render(m.loadingLine()), w))
	}
	return lines
}

// loadingLine says what the load is doing, e.g. "loading contents/ … 4,312 of 10,000
// files".
func (m loader) loadingLine() string {
	ls := m.feed.loading
	s := "loading " + model.SanitizeLine(m.env.name) + "/ … "
	switch {
	case ls.shownStep == stepWatch:
		return s + "starting to watch it for changes"
	case ls.shownStep == stepDerive:
		return s + thousands(ls.total) + " files read; building the tree"
	case ls.total == 0:
		return s + "listing the files"
	}
	return s + thousands(ls.done) + " of " + thousands(ls.total) + " files"
}

// thousands writes n with commas: 10,000.
func thousands(n int64) string {
	s := strconv.FormatInt(n, 10)
	if n < 0 {
		return "-" + thousands(-n)
	}
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
