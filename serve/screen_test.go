package serve

import (
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/colorprofile"
	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"
	"github.com/hinshun/vt10x"
	gossh "golang.org/x/crypto/ssh"
)

// term is a screen drawn into a terminal emulator, with the bytes of the last drawing.
type term struct {
	s    *screen
	vt   vt10x.Terminal
	out  bytes.Buffer
	w, h int
}

func newTerm(w, h int) *term {
	t := &term{vt: vt10x.New(vt10x.WithSize(w, h)), w: w, h: h}
	t.s = newScreen(&t.out, []string{"TERM=xterm-256color"}, colorprofile.TrueColor)
	t.s.resize(w, h)
	return t
}

// draw draws content and returns the bytes it sent.
func (t *term) draw(content string) string {
	t.out.Reset()
	v := tea.NewView(content)
	v.AltScreen, v.MouseMode = true, tea.MouseModeCellMotion
	t.s.draw(v)
	_, _ = t.vt.Write(onlcr(t.out.Bytes()))
	return t.out.String()
}

// onlcr sends "\n" as "\r\n", as the SSH server's emulated pseudo-terminal does.
func onlcr(b []byte) []byte { return bytes.ReplaceAll(b, []byte("\n"), []byte("\r\n")) }

// cells is the emulator's screen: each cell's character, colours and attributes.
func (t *term) cells() string {
	var b strings.Builder
	for y := range t.h {
		for x := range t.w {
			g := t.vt.Cell(x, y)
			fmt.Fprintf(&b, "%c%d/%d/%d ", g.Char, g.FG, g.BG, g.Mode)
		}
		b.WriteByte('\n')
	}
	return b.String()
}

func (t *term) text() string {
	var b strings.Builder
	for y := range t.h {
		for x := range t.w {
			b.WriteRune(t.vt.Cell(x, y).Char)
		}
		b.WriteString("|\n")
	}
	return b.String()
}

// A drawing sends the lines that changed and nothing of the others, and the terminal
// shows the whole new screen.
func TestScreenSendsOnlyTheChangedLines(t *testing.T) {
	tm := newTerm(30, 4)
	bold := lipgloss.NewStyle().Bold(true)
	first := strings.Join([]string{bold.Render("Tree · 3 rows"), "alpha", "beta", "last: l-001"}, "\n")
	if out := tm.draw(first); !strings.Contains(out, ansi.SetModeAltScreenSaveCursor) || !strings.Contains(out, "alpha") {
		t.Fatalf("the first drawing: %q", out)
	}
	out := tm.draw(strings.Join([]string{bold.Render("Tree · 3 rows"), "alpha", "beta", "last: l-002"}, "\n"))
	if strings.Contains(out, "alpha") || strings.Contains(out, "beta") || strings.Contains(out, "Tree") || !strings.Contains(out, "2") {
		t.Fatalf("the second drawing sent %q", out)
	}
	want := "Tree · 3 rows                 |\nalpha                         |\nbeta                          |\nlast: l-002                   |\n"
	if got := tm.text(); got != want {
		t.Fatalf("the screen:\n%s\nwant:\n%s", got, want)
	}
	if out := tm.draw(strings.Join([]string{bold.Render("Tree · 3 rows"), "alpha", "beta", "last: l-002"}, "\n")); out != "" {
		t.Fatalf("the same screen again sent %q", out)
	}
	// Changes further right on the lines below (the cursor goes down by line feeds,
	// which the SSH server's pseudo-terminal sends as "\r\n").
	tm.draw(strings.Join([]string{bold.Render("Tree · 3 rows"), "aXpha", "beta      beta", "last: l-002  bench"}, "\n"))
	want = "Tree · 3 rows                 |\naXpha                         |\nbeta      beta                |\nlast: l-002  bench            |\n"
	if got := tm.text(); got != want {
		t.Fatalf("the screen:\n%s\nwant:\n%s", got, want)
	}
}

// A line that starts in a style the line above left open is drawn in it, and drawn
// again when the line above changes what it leaves open.
func TestScreenKeepsAStyleAcrossLines(t *testing.T) {
	tm := newTerm(12, 3)
	tm.draw("\x1b[31mred\nstill\x1b[m\nplain")
	if g := tm.vt.Cell(0, 1); g.Char != 's' || g.FG != 1 {
		t.Fatalf("the second line's first cell %q fg %d, want red (1)", g.Char, g.FG)
	}
	tm.draw("\x1b[31mred\nSTILL\x1b[m\nplain")
	if g := tm.vt.Cell(0, 1); g.Char != 'S' || g.FG != 1 {
		t.Fatalf("after its change, the second line's first cell %q fg %d, want red (1)", g.Char, g.FG)
	}
	tm.draw("red\nSTILL\x1b[m\nplain")
	if g := tm.vt.Cell(0, 1); g.Char != 'S' || g.FG == 1 {
		t.Fatalf("with the first line reset, the second line's first cell %q is still red", g.Char)
	}
}

// atOnce draws content as Bubble Tea's renderer does: the whole string parsed into a
// new cell buffer, drawn by a new terminal renderer.
func atOnce(content string, w, h int) *term {
	t := &term{vt: vt10x.New(vt10x.WithSize(w, h)), w: w, h: h}
	buf := uv.NewScreenBuffer(w, h)
	buf.Method = ansi.GraphemeWidth
	uv.NewStyledString(content).Draw(buf, buf.Bounds())
	r := uv.NewTerminalRenderer(&t.out, []string{"TERM=xterm-256color"})
	r.SetColorProfile(colorprofile.TrueColor)
	r.SetFullscreen(true)
	r.SetRelativeCursor(false)
	r.Erase()
	r.Render(buf.RenderBuffer)
	_ = r.Flush()
	_, _ = t.vt.Write(t.out.Bytes())
	return t
}

// Drawn step by step, the screen is cell for cell what Bubble Tea's renderer shows:
// random changes of lines made of styled pieces, some left open across lines.
func TestScreenStepByStepIsTheWholeScreen(t *testing.T) {
	const w, h = 24, 8
	rng := rand.New(rand.NewPCG(1, 2))
	styles := []lipgloss.Style{
		lipgloss.NewStyle(),
		lipgloss.NewStyle().Bold(true),
		lipgloss.NewStyle().Foreground(lipgloss.Color("2")),
		lipgloss.NewStyle().Background(lipgloss.Color("4")).Foreground(lipgloss.Color("7")),
	}
	words := []string{"alpha", "β", "漢字", "gap", "s-015", "·", "👍", "  "}
	line := func() string {
		var b strings.Builder
		for range rng.IntN(5) {
			b.WriteString(styles[rng.IntN(len(styles))].Render(words[rng.IntN(len(words))]))
		}
		switch rng.IntN(6) {
		case 0:
			b.WriteString("\x1b[1;35m") // left open for the lines below
		case 1:
			b.WriteString("\x1b[m")
		}
		return b.String()
	}
	lines := make([]string, h)
	for i := range lines {
		lines[i] = line()
	}
	step := newTerm(w, h)
	for i := range 300 {
		for range 1 + rng.IntN(3) {
			lines[rng.IntN(h)] = line()
		}
		if rng.IntN(10) == 0 {
			lines = lines[:h-1+rng.IntN(2)] // sometimes a screen a line short
		}
		for len(lines) < h {
			lines = append(lines, line())
		}
		content := strings.Join(lines, "\n")
		step.draw(content)
		whole := atOnce(content, w, h)
		if got, want := step.cells(), whole.cells(); got != want {
			t.Fatalf("step %d, %q:\nstep by step:\n%s\nat once:\n%s", i, content, step.text(), whole.text())
		}
	}
}

// A new size draws every line again; the end gives the terminal back (main screen,
// cursor, no mouse or paste reports, no title) and draws nothing after.
func TestScreenResizeAndClose(t *testing.T) {
	tm := newTerm(10, 2)
	tm.draw("one\ntwo")
	tm.vt.Resize(12, 3)
	tm.w, tm.h = 12, 3
	tm.s.resize(12, 3)
	if out := tm.draw("one\ntwo\nthree"); !strings.Contains(out, "one") || !strings.Contains(out, "two") {
		t.Fatalf("after a resize: %q", out)
	}
	if got, want := tm.text(), "one         |\ntwo         |\nthree       |\n"; got != want {
		t.Fatalf("after a resize:\n%s\nwant:\n%s", got, want)
	}
	tm.out.Reset()
	tm.s.close()
	out := tm.out.String()
	for _, want := range []string{ansi.ResetModeAltScreenSaveCursor, ansi.SetModeTextCursorEnable, ansi.ResetModeMouseButtonEvent, ansi.ResetModeBracketedPaste} {
		if !strings.Contains(out, want) {
			t.Errorf("the end sent %q, without %q", out, want)
		}
	}
	if out := tm.draw("four"); out != "" {
		t.Fatalf("drawn after the end: %q", out)
	}
}

// sshTerm is a workbench over SSH in a terminal emulator, with every byte it was sent.
type sshTerm struct {
	mu    sync.Mutex
	vt    vt10x.Terminal
	raw   bytes.Buffer
	carry []byte
}

func (s *sshTerm) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.raw.Write(p)
	s.carry = append(s.carry, p...)
	cut := len(s.carry)
	for cut > 0 && cut > len(s.carry)-4 && !utf8.Valid(s.carry[:cut]) {
		cut--
	}
	_, _ = s.vt.Write(s.carry[:cut])
	s.carry = append(s.carry[:0], s.carry[cut:]...)
	return len(p), nil
}

// waitFor waits until ok holds for the emulator's screen.
func (s *sshTerm) waitFor(t *testing.T, what string, ok func(vt vt10x.Terminal) bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		s.mu.Lock()
		done, text := ok(s.vt), s.vt.String()
		s.mu.Unlock()
		if done {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the screen never showed %s:\n%s", what, text)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Over SSH the workbench is drawn by the session's screen: whole at first, again whole
// at a new size (the right border where the new width ends, nothing left where the old
// one did), and q gives the terminal back (the main screen, the cursor, no mouse).
func TestWorkbenchOverSSHResizesAndQuits(t *testing.T) {
	addr, _, _, keys := startServer(t)
	c, err := gossh.Dial("tcp", addr, &gossh.ClientConfig{User: "alice", Auth: []gossh.AuthMethod{gossh.PublicKeys(keys["alice"])},
		HostKeyCallback: gossh.InsecureIgnoreHostKey()})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	sess, err := c.NewSession()
	if err != nil {
		t.Fatal(err)
	}
	defer sess.Close()
	term := &sshTerm{vt: vt10x.New(vt10x.WithSize(100, 30))}
	if err := sess.RequestPty("xterm-256color", 30, 100, gossh.TerminalModes{}); err != nil {
		t.Fatal(err)
	}
	in, err := sess.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	sess.Stdout = term
	if err := sess.Shell(); err != nil {
		t.Fatal(err)
	}
	corner := func(w int) func(vt10x.Terminal) bool {
		return func(vt vt10x.Terminal) bool {
			return vt.Cell(0, 0).Char == '╭' && vt.Cell(w-1, 0).Char == '╮' && strings.Contains(vt.String(), "● live")
		}
	}
	term.waitFor(t, "the workbench at 100 columns", corner(100))

	term.mu.Lock()
	term.vt.Resize(130, 40)
	term.mu.Unlock()
	if err := sess.WindowChange(40, 130); err != nil {
		t.Fatal(err)
	}
	term.waitFor(t, "the workbench at 130 columns", func(vt vt10x.Terminal) bool {
		if !corner(130)(vt) || vt.Cell(99, 0).Char == '╮' {
			return false
		}
		for y := 0; y < 40; y++ { // the status bar on the last lines, not where it was
			if strings.Contains(line(vt, y), "● live") {
				return y >= 37
			}
		}
		return false
	})

	if _, err := io.WriteString(in, "q"); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- sess.Wait() }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("q did not end the session")
	}
	term.mu.Lock()
	raw := term.raw.String()
	term.mu.Unlock()
	last := strings.LastIndex(raw, ansi.ResetModeAltScreenSaveCursor)
	if last < 0 {
		t.Fatalf("the main screen was never given back: %q", raw[max(len(raw)-300, 0):])
	}
	for _, want := range []string{ansi.SetModeTextCursorEnable, ansi.ResetModeMouseButtonEvent} {
		if !strings.Contains(raw[last:], want) {
			t.Errorf("the end %q has no %q", raw[last:], want)
		}
	}
}

func line(vt vt10x.Terminal, y int) string {
	var b strings.Builder
	w, _ := vt.Size()
	for x := range w {
		b.WriteRune(vt.Cell(x, y).Char)
	}
	return b.String()
}

// A line drawn the same as before that leaves a style open still opens it for a
// changed line below (what a line leaves open is kept with it, not scanned again).
func TestScreenKeepsWhatAnUnchangedLineLeavesOpen(t *testing.T) {
	tm := newTerm(12, 3)
	tm.draw("a\x1b[31m\nx\nplain")
	tm.draw("a\x1b[31m\ny\nplain")
	if g := tm.vt.Cell(0, 1); g.Char != 'y' || g.FG != 1 {
		t.Fatalf("the changed second line's first cell %q fg %d, want red (1)", g.Char, g.FG)
	}
	tm.draw("a\x1b[m\ny\nplain")
	if g := tm.vt.Cell(0, 1); g.Char != 'y' || g.FG == 1 {
		t.Fatalf("with the first line reset, the second line's first cell %q is still red", g.Char)
	}
}
