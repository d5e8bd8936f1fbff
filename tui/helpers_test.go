package tui

import (
	"os"
	"runtime"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"referee/internal/testutil"
	"referee/themes"
)

var fixedNow = time.Date(2026, 11, 21, 9, 0, 0, 0, time.UTC)

// newTestModel opens a copy of the demo fixture at a size, without a watcher, with a
// fixed clock and synchronous markdown rendering.
func newTestModel(t testing.TB, w, h int) (*Model, string) {
	t.Helper()
	dir := testutil.Demo(t)
	return openTestModel(t, dir, w, h), dir
}

func openTestModel(t testing.TB, dir string, w, h int) *Model {
	t.Helper()
	return openModel(t, dir, Options{NoWatch: true, SyncLoad: true}, w, h)
}

// openModel is openTestModel with options (the theme, actor and clock are set here).
func openModel(t testing.TB, dir string, opts Options, w, h int) *Model {
	t.Helper()
	opts.Theme, opts.Actor, opts.Now = "dark", "human", func() time.Time { return fixedNow }
	m, err := New(dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	m.detail.syncRender = true
	t.Cleanup(m.Close)
	send(t, m, tea.WindowSizeMsg{Width: w, Height: h})
	return m
}

// send delivers a message and runs the commands it returns, synchronously, feeding
// their messages back (batches expanded). A command that does not answer quickly (a
// timer) is dropped.
func send(t testing.TB, m *Model, msg tea.Msg) {
	t.Helper()
	_, cmd := m.Update(msg)
	runCmds(t, m, cmd)
}

func runCmds(t testing.TB, m *Model, cmd tea.Cmd) {
	t.Helper()
	queue := []tea.Cmd{cmd}
	for len(queue) > 0 {
		c := queue[0]
		queue = queue[1:]
		if c == nil {
			continue
		}
		done := make(chan tea.Msg, 1)
		id := make(chan string, 1)
		go func() { id <- goroutineID(); done <- c() }()
		if msg, ok := awaitCmd(done, <-id); ok {
			switch msg := msg.(type) {
			case nil:
			case tea.BatchMsg:
				queue = append(queue, msg...)
			case tea.QuitMsg:
			default:
				_, next := m.Update(msg)
				queue = append(queue, next)
			}
		}
	}
}

// awaitCmd waits for a command's message. A command still waiting after a moment on a
// timer or a channel (a flash expiry, a tick, the live room's listener) is not part of
// this step and is left; one still working (running, in a system call, on a lock: a
// write's fsyncs on a loaded machine) is waited for, however long it takes: the tests
// assert what a step does, never how fast.
func awaitCmd(done <-chan tea.Msg, id string) (tea.Msg, bool) {
	for {
		select {
		case msg := <-done:
			return msg, true
		case <-time.After(500 * time.Millisecond): // timers shorter than this fire, as ever
			if waitingOnTime(id) {
				return nil, false
			}
		}
	}
}

// goroutineID is the calling goroutine's number, as runtime.Stack prints it.
func goroutineID() string {
	buf := make([]byte, 64)
	buf = buf[:runtime.Stack(buf, false)]
	f := strings.Fields(string(buf))
	if len(f) < 2 {
		return ""
	}
	return f[1]
}

// waitingOnTime reports whether goroutine id is parked on a timer or a channel, not
// working (a goroutine that is gone has delivered its message: not waiting).
func waitingOnTime(id string) bool {
	buf := make([]byte, 1<<20)
	for {
		n := runtime.Stack(buf, true)
		if n < len(buf) {
			buf = buf[:n]
			break
		}
		buf = make([]byte, 2*len(buf))
	}
	head := "goroutine " + id + " ["
	i := strings.Index(string(buf), head)
	if id == "" || i < 0 {
		return false
	}
	block, _, _ := strings.Cut(string(buf[i:]), "\n\n")
	if strings.Contains(block, "referee/tui.inBackground") {
		return false // waiting for work on the thread of its own (the extras): working
	}
	state, _, _ := strings.Cut(string(buf[i+len(head):]), "]")
	state, _, _ = strings.Cut(state, ",")
	switch state {
	case "sleep", "chan receive", "chan send", "select", "select (no cases)", "chan receive (nil chan)", "chan send (nil chan)":
		return true
	}
	return false
}

// keys sends key presses: single characters as typed, names ("enter", "esc", "tab",
// "up", "down", "ctrl+s") as special keys.
func keys(t testing.TB, m *Model, ks ...string) {
	t.Helper()
	for _, k := range ks {
		send(t, m, keyMsg(k))
	}
}

func keyMsg(k string) tea.KeyPressMsg {
	switch k {
	case "enter":
		return tea.KeyPressMsg{Code: tea.KeyEnter}
	case "esc":
		return tea.KeyPressMsg{Code: tea.KeyEscape}
	case "tab":
		return tea.KeyPressMsg{Code: tea.KeyTab}
	case "shift+tab":
		return tea.KeyPressMsg{Code: tea.KeyTab, Mod: tea.ModShift}
	case "up":
		return tea.KeyPressMsg{Code: tea.KeyUp}
	case "down":
		return tea.KeyPressMsg{Code: tea.KeyDown}
	case "left":
		return tea.KeyPressMsg{Code: tea.KeyLeft}
	case "right":
		return tea.KeyPressMsg{Code: tea.KeyRight}
	case "space":
		return tea.KeyPressMsg{Code: tea.KeySpace, Text: " "}
	case "ctrl+s":
		return tea.KeyPressMsg{Code: 's', Mod: tea.ModCtrl}
	case "backspace":
		return tea.KeyPressMsg{Code: tea.KeyBackspace}
	case "pgdown":
		return tea.KeyPressMsg{Code: tea.KeyPgDown}
	case "pgup":
		return tea.KeyPressMsg{Code: tea.KeyPgUp}
	case "home":
		return tea.KeyPressMsg{Code: tea.KeyHome}
	case "end":
		return tea.KeyPressMsg{Code: tea.KeyEnd}
	}
	if c, ok := strings.CutPrefix(k, "ctrl+"); ok && len(c) == 1 {
		return tea.KeyPressMsg{Code: rune(c[0]), Mod: tea.ModCtrl}
	}
	r := []rune(k)[0]
	return tea.KeyPressMsg{Code: r, Text: k}
}

// typeText types a string character by character.
func typeText(t testing.TB, m *Model, s string) {
	t.Helper()
	for _, r := range s {
		if r == ' ' {
			send(t, m, keyMsg("space"))
			continue
		}
		send(t, m, tea.KeyPressMsg{Code: r, Text: string(r)})
	}
}

// screen is the rendered screen without escapes.
func screen(m *Model) string { return ansi.Strip(m.Render()) }

// selectedID is the object under the tree cursor.
func selectedID(m *Model) string {
	r, _ := m.tree.Selected()
	return r.ID
}

func readFile(t testing.TB, p string) string {
	t.Helper()
	testutil.Need(t, p)
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return lines[len(lines)-1]
}

func newTestStyles() *themes.Styles { return themes.New(themes.Dark()) }

// A command waiting for work on the extras' thread (inBackground) is working, not
// waiting on a timer: the step waits for its message however long the work takes (on a
// loaded machine the extras of the demo took longer than awaitCmd's moment, and the
// golden screens came without their similar statements).
func TestRunCmdsWaitsForBackgroundWork(t *testing.T) {
	done := make(chan string, 1)
	cmd := func() tea.Msg {
		return inBackground(func() tea.Msg {
			time.Sleep(700 * time.Millisecond) // longer than awaitCmd's moment
			done <- "done"
			return nil
		})
	}
	m, _ := newTestModel(t, 80, 24)
	runCmds(t, m, cmd)
	select {
	case <-done:
	default:
		t.Fatal("the step left a command waiting for background work")
	}
}
