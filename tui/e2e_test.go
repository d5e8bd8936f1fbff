package tui

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/creack/pty"
	"github.com/hinshun/vt10x"

	"referee/internal/testutil"
	"referee/model"
)

// vtScreen runs a program in a real pseudo-terminal and keeps a VT emulator's view of
// what it drew.
type vtScreen struct {
	t    *testing.T
	pty  *os.File
	term vt10x.Terminal
	done chan struct{}
}

func startVT(t *testing.T, cmd *exec.Cmd, cols, rows int) *vtScreen {
	t.Helper()
	f, err := pty.StartWithSize(cmd, &pty.Winsize{Cols: uint16(cols), Rows: uint16(rows)})
	if err != nil {
		t.Skipf("no pseudo-terminal here: %v", err)
	}
	s := &vtScreen{t: t, pty: f, done: make(chan struct{})}
	s.term = vt10x.New(vt10x.WithWriter(f), vt10x.WithSize(cols, rows))
	go func() {
		defer close(s.done)
		buf := make([]byte, 32<<10)
		var pending []byte
		for {
			n, err := f.Read(buf)
			if n > 0 {
				pending = append(pending, buf[:n]...)
				// Hand the emulator whole UTF-8 sequences only.
				cut := len(pending)
				for i := max(0, cut-3); i < cut; i++ {
					if pending[i]&0xC0 != 0x80 && !utf8.FullRune(pending[i:cut]) {
						cut = i
						break
					}
				}
				_, _ = s.term.Write(pending[:cut])
				pending = append(pending[:0], pending[cut:]...)
			}
			if err != nil {
				return
			}
		}
	}()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = f.Close()
		_ = cmd.Wait()
	})
	return s
}

func (s *vtScreen) String() string { return s.term.String() }

func (s *vtScreen) send(keys string) {
	s.t.Helper()
	if _, err := s.pty.Write([]byte(keys)); err != nil {
		s.t.Fatal(err)
	}
	time.Sleep(150 * time.Millisecond)
}

func (s *vtScreen) waitFor(what string, ok func(string) bool) string {
	s.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if scr := s.String(); ok(scr) {
			return scr
		}
		time.Sleep(50 * time.Millisecond)
	}
	s.t.Fatalf("timed out waiting for %s; the screen is:\n%s", what, s.String())
	return ""
}

func (s *vtScreen) waitText(text string) string {
	s.t.Helper()
	return s.waitFor(strings.TrimSpace(text), func(scr string) bool { return strings.Contains(scr, text) })
}

// refereeBinary builds the real binary into a folder of t's, for the tests that drive it
// as users start it.
func refereeBinary(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "referee")
	if out, err := exec.Command("go", "build", "-o", bin, "referee/cmd/referee").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// TestEndToEnd builds the real binary and drives it in a pseudo-terminal at 120×40:
// open the demo, move, search, see an outside change, confirm a proof with C then y.
func TestEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	if runtime.GOOS == "windows" {
		t.Skip("needs a pseudo-terminal")
	}
	bin := refereeBinary(t)
	dir := testutil.Demo(t)
	cmd := exec.Command(bin, "--contents", dir, "--theme", "dark")
	cmd.Env = append(os.Environ(), "TERM=xterm-256color", "REFEREE_ACTOR=", "NO_COLOR=")
	vt := startVT(t, cmd, 120, 40)

	// Open: the tree, the detail of the first problem, the status bar.
	vt.waitText("p-001 · problem")
	scr := vt.waitText("● live")
	if !strings.Contains(scr, "◆ solved    p-001") {
		t.Fatalf("the tree is not drawn:\n%s", scr)
	}

	// Move.
	vt.send("j")
	vt.waitText("s-004 · statement")

	// Search: an exact ID goes straight to it.
	vt.send("/")
	vt.send("s-016")
	vt.send("\r")
	vt.waitText("s-016 · statement")

	// A change from outside appears on screen.
	p := filepath.Join(dir, "statement/s-017.json")
	data := strings.Replace(readFile(t, p), `"status": "pending"`, `"status": "abandoned"`, 1)
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	vt.waitText("⊘ abandoned s-017")

	// n reaches the proof waiting for verification; C shows what will be written; y writes it.
	vt.send("\x1b") // esc clears the search: n then steps through what waits for a human
	vt.waitText("search cleared")
	vt.send("g")
	vt.send("n")
	vt.waitText("s-014 · statement")
	vt.send("C")
	vt.waitText("Proof checked and confirmed.")
	vt.send("\r")
	vt.waitText("will write:")
	vt.send("y")
	vt.waitText("check-confirm-proof by human")
	vt.waitFor("s-014 true in the tree", func(s string) bool { return strings.Contains(s, "✓ true      s-014") })

	st := model.StatementFrom(mustParse(t, readFile(t, filepath.Join(dir, "statement/s-014.json"))))
	if st.Status != "true" || st.Reliability != 1 {
		t.Fatalf("s-014 on disk: status %q reliability %v", st.Status, st.Reliability)
	}
	e := model.ParseLogLine(1, lastLine(readFile(t, filepath.Join(dir, "history/log.jsonl"))))
	if e.By != "human" || e.Skill != "check-confirm-proof" || len(e.Modification) != 1 || e.Modification[0] != "s-014" {
		t.Fatalf("log entry: %+v", e)
	}

	vt.send("q")
	select {
	case <-vt.done:
	case <-time.After(5 * time.Second):
		t.Fatal("q did not quit")
	}
}
