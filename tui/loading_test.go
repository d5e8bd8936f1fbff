package tui

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"runtime/debug"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"referee/gen"
	"referee/internal/testutil"
	"referee/store"
)

func screenLine(t *testing.T, m *Model, contains string) string {
	t.Helper()
	for _, l := range strings.Split(ansi.Strip(m.Render()), "\n") {
		for _, cell := range strings.Split(l, "│") {
			if strings.Contains(cell, contains) {
				return strings.TrimSpace(cell)
			}
		}
	}
	t.Fatalf("no line with %q on the screen:\n%s", contains, ansi.Strip(m.Render()))
	return ""
}

// New returns before reading the objects; the frame says the folder is loading and
// which keys work; the loaded frame is the very one a synchronous load shows.
func TestStreamedLoadShowsProgressThenTheSameTree(t *testing.T) {
	dir := testutil.Demo(t)
	m := openModel(t, dir, Options{NoWatch: true}, 200, 40)
	if m.shown.snap != nil || m.shown.forest != nil {
		t.Fatal("New read the folder")
	}
	if got := screenLine(t, m, "loading "); got != "loading contents/ … listing the files" {
		t.Fatalf("loading line %q", got)
	}
	if lines := strings.Split(ansi.Strip(m.Render()), "\n"); strings.TrimSpace(lines[38]) != "referee contents │ ◌ loading" {
		t.Fatalf("status line %q", lines[38])
	}
	if lines := strings.Split(ansi.Strip(m.Render()), "\n"); strings.TrimSpace(lines[39]) != "? help  q quit" {
		t.Fatalf("hints %q", lines[39])
	}
	if got := screenLine(t, m, "q quits"); got != "q quits · ? help · the other keys wait for the tree" {
		t.Fatalf("hints %q", got)
	}

	load := loadCmdOf(m)
	msg := load().(loadedMsg)
	if m.Update(loadTickMsg{}); m.feed.loading.shownStep != stepDerive { // a tick between the read and the message
		t.Fatalf("step %d after the read", m.feed.loading.shownStep)
	}
	if got := screenLine(t, m, "loading "); got != "loading contents/ … 20 files read; building the tree" {
		t.Fatalf("loading line after the read %q", got)
	}
	m.feed.loading.shownStep = stepRead
	m.feed.loading.done = 7
	if got := screenLine(t, m, "loading "); got != "loading contents/ … 7 of 20 files" {
		t.Fatalf("loading line while reading %q", got)
	}

	send(t, m, msg)
	if m.feed.loading != nil || m.shown.snap == nil {
		t.Fatal("the snapshot was not taken")
	}
	want := openTestModel(t, testutil.Demo(t), 200, 40)
	if got, exp := ansi.Strip(m.Render()), ansi.Strip(want.Render()); got != exp {
		t.Fatalf("streamed load shows\n%s\nsynchronous load shows\n%s", got, exp)
	}
	if m.tree.Cursor() != want.tree.Cursor() {
		t.Fatalf("cursor %q, want %q", m.tree.Cursor(), want.tree.Cursor())
	}
}

// While loading, q quits and ? opens help; the keys that need the tree say so.
func TestKeysWhileLoading(t *testing.T) {
	m := openModel(t, testutil.Demo(t), Options{NoWatch: true}, 120, 40)
	for _, k := range []string{"j", "C", ":", "tab", "/"} {
		send(t, m, keyMsg(k))
		if want := "still loading contents/: " + k + " waits for the tree (q quits, ? help)"; m.status.message != want {
			t.Fatalf("after %s: message %q, want %q", k, m.status.message, want)
		}
		if m.search.Typing() || m.dlg.picker != nil || m.dlg.form != nil || m.lay.focus != focusTree {
			t.Fatalf("%s acted while loading", k)
		}
	}
	send(t, m, keyMsg("?"))
	if m.dlg.picker == nil || m.dlg.picker.Title() != "Help" {
		t.Fatal("? did not open help")
	}
	send(t, m, keyMsg("esc"))
	if m.dlg.picker != nil {
		t.Fatal("esc did not close help")
	}
	_, cmd := m.Update(keyMsg("q"))
	if cmd == nil {
		t.Fatal("q did nothing")
	}
	if !containsQuit(cmd()) {
		t.Fatal("q did not quit")
	}
}

func containsQuit(msg tea.Msg) bool {
	switch msg := msg.(type) {
	case tea.QuitMsg:
		return true
	case tea.BatchMsg:
		for _, c := range msg {
			if c != nil && containsQuit(c()) {
				return true
			}
		}
	}
	return false
}

// An unusable folder fails New with the error store.Load gives (the CLI prints it and
// exits 1).
func TestNewFailsOnAnUnusableFolder(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, dir := range []string{filepath.Join(t.TempDir(), "missing"), file} {
		_, want := store.Load(dir)
		_, err := New(dir, Options{})
		if err == nil || want == nil || err.Error() != want.Error() {
			t.Fatalf("New(%s): %v, want %v", dir, err, want)
		}
	}
}

// A folder that goes away between New and the load: the frame says why it cannot be
// read; a change in the folder (it is back) reads it again.
func TestLoadErrorIsShownAndRetried(t *testing.T) {
	t.Chdir(filepath.Dir(testutil.Demo(t)))
	dir := "contents" // relative: the error fits the pane
	m := openModel(t, dir, Options{NoWatch: true}, 120, 40)
	moved := dir + ".away"
	if err := os.Rename(dir, moved); err != nil {
		t.Fatal(err)
	}
	send(t, m, loadCmdOf(m)())
	var shown []string
	for _, l := range strings.Split(ansi.Strip(m.Render()), "\n")[1:3] {
		shown = append(shown, strings.TrimSpace(strings.Split(l, "│")[1]))
	}
	if got, want := strings.Join(shown, " "), "cannot read contents/: contents folder contents: no such file or directory"; got != want {
		t.Fatalf("error lines %q, want %q", shown, want)
	}
	if !strings.Contains(ansi.Strip(m.Render()), "read again when the folder changes · q quits") {
		t.Fatal("no word on what happens next")
	}
	send(t, m, keyMsg("j"))
	if m.status.message != "cannot read the folder: contents folder "+dir+": no such file or directory" {
		t.Fatalf("message %q", m.status.message)
	}
	if err := os.Rename(moved, dir); err != nil {
		t.Fatal(err)
	}
	send(t, m, loadRetryMsg{})
	if m.feed.loading != nil || m.shown.snap == nil || m.shown.snap.Statements.Len() == 0 {
		t.Fatal("the retry did not load the folder")
	}
}

// The watcher starts before the load: a change made after the files were read but
// before the snapshot reached the UI is applied to it (the listen chain starts from the
// loaded snapshot).
func TestChangeDuringTheLoadIsApplied(t *testing.T) {
	dir := testutil.Demo(t)
	m := openModel(t, dir, Options{}, 120, 40)
	msg := loadCmdOf(m)().(loadedMsg)
	if msg.feed == nil {
		t.Fatalf("no watcher: %v", msg.watchErr)
	}
	p := filepath.Join(dir, "statement/s-017.json")
	data := strings.Replace(readFile(t, p), `"status": "pending"`, `"status": "abandoned"`, 1)
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := msg.Snap.Statements.Get("s-017").Status; got != "pending" {
		t.Fatalf("the load saw %q", got)
	}
	send(t, m, msg) // runs the listen command: the watcher's batch arrives within its wait
	if got := m.shown.snap.Statements.Get("s-017").Status; got != "abandoned" {
		t.Fatalf("s-017 is %q after the batch", got)
	}
	if m.feed.src == nil {
		t.Fatal("the watcher was not taken")
	}
}

// A folder whose tree is longer than a first frame shows its first rows at once (no
// row count yet), holds the keys pressed meanwhile, then shows the whole tree and gives
// it those keys: the same tree as a synchronous load with the same keys.
func TestFirstFrameShowsTheTreesStartThenTheWhole(t *testing.T) {
	dir := longTreeFolder(t)
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	m := openModel(t, dir, Options{NoWatch: true}, 120, 40)
	msg := loadCmdOf(m)().(loadedMsg)
	if got := debug.SetGCPercent(-1); got != -1 {
		t.Fatalf("the collector at %d%% after the load, before the whole tree", got)
	}
	if !msg.Forest.Partial() || len(msg.Forest.Flatten(nil)) != firstRows {
		t.Fatalf("the first frame's tree: partial %v", msg.Forest.Partial())
	}
	_, cmd := m.Update(msg)
	first := ansi.Strip(m.Render())
	if strings.Contains(first, "Tree · ") || !strings.Contains(first, "p-001") || m.tree.Cursor() != "@p-001" {
		t.Fatalf("the first frame:\n%s", first)
	}
	// Its snapshot holds only the log's last change (live.LoadFirst): the status bar
	// names it as a whole load's does.
	synced := openTestModel(t, dir, 120, 40)
	if got, want := lastShown(first), lastShown(ansi.Strip(synced.Render())); got == "" || got != want || len(m.shown.snap.Log) != 1 {
		t.Fatalf("the first frame's last change %q, want %q", got, want)
	}
	for _, k := range []string{"j", "j", "l"} {
		m.Update(keyMsg(k))
	}
	if m.tree.Cursor() != "@p-001" || len(m.feed.held) != 3 {
		t.Fatalf("cursor %s, %d keys held", m.tree.Cursor(), len(m.feed.held))
	}
	if m.bg.extras.busy || m.bg.extras.wait || !m.bg.extras.afterFrame {
		t.Fatal("the extras were started before the whole tree")
	}
	runCmds(t, m, cmd)
	if got := debug.SetGCPercent(100); got != 100 {
		t.Fatalf("the collector at %d%% once the whole tree is in, want 100", got)
	}
	if m.feed.head.Partial() || m.shown.forest.Partial() || len(m.feed.held) != 0 {
		t.Fatal("the whole tree did not take the first's place")
	}
	if got, want := m.shown.snap.Log, synced.shown.snap.Log; len(want) < 2 || !reflect.DeepEqual(got, want) || m.feed.latest != m.shown.snap {
		t.Fatalf("the whole tree's snapshot holds %d log entries, want %d", len(got), len(want))
	}
	// The tree pane as a synchronous load with the same keys shows it (the detail pane
	// waits on commands of its own: proofs, similar statements).
	want := openTestModel(t, dir, 120, 40)
	keys(t, want, "j", "j", "l")
	if !slices.Equal(m.tree.Rows(), want.tree.Rows()) || m.tree.Cursor() != want.tree.Cursor() || m.tree.Cursor() == "@p-001" {
		t.Fatalf("cursor %s, want %s; %d rows, want %d", m.tree.Cursor(), want.tree.Cursor(), len(m.tree.Rows()), len(want.tree.Rows()))
	}
	title := fmt.Sprintf("Tree · %d rows", len(want.tree.Rows()))
	if got := ansi.Strip(m.Render()); !strings.Contains(got, title) {
		t.Fatalf("no %q on the screen:\n%s", title, got)
	}
}

// A workbench closed before its whole tree came turns the collector back on.
func TestCloseBeforeTheWholeTreeResumesTheCollector(t *testing.T) {
	dir := longTreeFolder(t)
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	m := openModel(t, dir, Options{NoWatch: true}, 120, 40)
	m.Update(loadCmdOf(m)().(loadedMsg))
	m.Close()
	if got := debug.SetGCPercent(100); got != 100 {
		t.Fatalf("the collector at %d%% after Close, want 100", got)
	}
}

// longTreeFolder is a generated folder whose tree is longer than a first frame's.
// lastShown is what the status bar says after "last: " on a screen.
func lastShown(screen string) string {
	_, after, ok := strings.Cut(screen, "last: ")
	if !ok {
		return ""
	}
	line, _, _ := strings.Cut(after, "\n")
	return strings.TrimSpace(line)
}

func longTreeFolder(t *testing.T) string {
	dir := filepath.Join(t.TempDir(), "contents")
	if err := gen.Generate(dir, gen.Config{Statements: 400, Problems: 4, Seed: 2}); err != nil {
		t.Fatal(err)
	}
	return dir
}

// A load begun before the program runs (Begin, as Run does) is the one Init's command
// delivers: the same tree as a load started by Init, its watcher taken, and no second
// load started.
func TestLoadBegunBeforeInitIsTheOneShown(t *testing.T) {
	dir := testutil.Demo(t)
	m := openModel(t, dir, Options{}, 120, 40)
	m.Begin()
	early := m.feed.loading.early
	if early == nil {
		t.Fatal("Begin started no load")
	}
	m.Begin() // a second call starts nothing more
	if m.feed.loading.early != early {
		t.Fatal("a second Begin started another load")
	}
	msg, ok := m.loader().startLoad()().(tea.BatchMsg)
	if !ok || len(msg) != 3 { // the load, its glimpse, the tick
		t.Fatalf("startLoad gave %T", msg)
	}
	if m.feed.loading.early != nil {
		t.Fatal("the early load is still waiting to be taken")
	}
	loaded, ok := msg[0]().(loadedMsg)
	if !ok || loaded.feed == nil {
		t.Fatalf("the early load gave %#v", loaded)
	}
	if g := msg[1](); g != nil { // the demo's tree is short: no glimpse
		t.Fatalf("the early load's glimpse gave %#v", g)
	}
	send(t, m, loaded)
	if m.feed.src != loaded.feed {
		t.Fatal("the early load's watcher was not taken")
	}
	want := openModel(t, testutil.Demo(t), Options{SyncLoad: true}, 120, 40)
	if got, exp := ansi.Strip(m.Render()), ansi.Strip(want.Render()); got != exp {
		t.Fatalf("the early load shows\n%s\na synchronous load shows\n%s", got, exp)
	}
}

// loadCmdOf is the model's load command without its glimpse.
func loadCmdOf(m *Model) tea.Cmd {
	load, _ := m.loader().loadCmd()
	return load
}
