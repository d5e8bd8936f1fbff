package tui

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"referee/agents"
	"referee/internal/testutil"
)

// The demo run with the transcripts the agents package wrote for it.
func sessionsModel(t *testing.T) *Model {
	t.Helper()
	claude, err := filepath.Abs(filepath.Join(testutil.Root(), "agents/testdata/claude"))
	if err != nil {
		t.Fatal(err)
	}
	dir := testutil.Copy(t, testutil.DemoDir())
	m := openModel(t, dir, Options{NoWatch: true, SyncLoad: true,
		Sessions: &agents.Options{ClaudeDir: claude, Project: "/work/mra-demo"}}, 160, 60)
	runCmds(t, m, m.supervisor().watchSessions(nil))
	if !m.bg.sess.read || len(m.bg.sess.atts) != 35 {
		t.Fatalf("read %v, %d changes attributed", m.bg.sess.read, len(m.bg.sess.atts))
	}
	return m
}

func TestRunsPaneShowsSessions(t *testing.T) {
	m := sessionsModel(t)
	keys(t, m, "r")
	scr := screen(m)
	for _, want := range []string{"Claude Code sessions (2)", "orchestrator 7f3c2a10 s-014  idle while running Task: agent-check s-014",
		"agent-check a3f1a18 s-013 s-011 s-012  finished · REJECTED at sentence 4", "agent-check a3f1fff s-014  idle while running Read: /work/mra-demo/contents/statement/s-0"} {
		if !strings.Contains(scr, want) {
			t.Errorf("runs pane lacks %q:\n%s", want, scr)
		}
	}
}

// The demo's last checker has been silent for hours while work waits: the status bar
// shows the alarm, armed by the sessions alone (no state file, no change seen).
func TestSilentTranscriptsRaiseTheAlarm(t *testing.T) {
	m := sessionsModel(t)
	runCmds(t, m, m.runs.Poll(false))
	if !m.runs.Stalled() || !strings.HasPrefix(m.runs.stall.Reason, "stalled: the transcripts fell silent") {
		t.Fatalf("stalled %v: %q", m.runs.Stalled(), m.runs.stall.Reason)
	}
}

func TestActivityNamesTheAgent(t *testing.T) {
	m := sessionsModel(t)
	keys(t, m, "a")
	if scr := screen(m); !strings.Contains(scr, "check-reject-proof ⚙ agent-check a3f1a18") {
		t.Errorf("activity lacks the agent of l-026:\n%s", scr)
	}
}

func TestDetailShowsTheTextBehindAnIssue(t *testing.T) {
	m := sessionsModel(t)
	m.supervisor().jumpTo("s-013")
	runCmds(t, m, m.reader().rebuildDetail())
	scr := screen(m)
	if !strings.Contains(scr, "▸ agent-check a3f1a18 (l-026): VERDICT: INVALID at sentence 4 (+9 lines, w unfolds)") {
		t.Fatalf("folded note missing:\n%s", scr)
	}
	keys(t, m, "w")
	scr = screen(m)
	if !strings.Contains(scr, "▾ agent-check a3f1a18 (l-026) wrote before the call:") || !strings.Contains(scr, "VERDICT: INVALID at sentence 4") {
		t.Fatalf("unfolded note missing:\n%s", scr)
	}
}

func TestInstructComposesAndCopies(t *testing.T) {
	m := sessionsModel(t)
	m.supervisor().jumpTo("s-013")
	runCmds(t, m, m.reader().rebuildDetail())
	m.detail.sel.sentence = 3
	cmd := m.supervisor().instruct()
	if cmd == nil {
		t.Fatal("no clipboard command")
	}
	want := `/instruct agent-check: please check statement (s-013), sentence 4 "By s-011, it also equals $\left(\frac{n(n+1)}{2}\right)^2$.": <your note>`
	if got := fmt.Sprint(cmd()); got != want {
		t.Fatalf("copied %q\nwant   %q", got, want)
	}
	if m.status.message != "copied: "+want {
		t.Fatalf("shown %q", m.status.message)
	}
}

// The checker behind l-015 wrote an OSC 52 clipboard write, a screen clear, colours and
// a right-to-left override: the detail of s-009 shows them as inert stand-ins.
func TestHostileTranscriptTextIsInert(t *testing.T) {
	m := sessionsModel(t)
	m.supervisor().jumpTo("s-009")
	m.bg.sess.whyOpen = true
	runCmds(t, m, m.reader().rebuildDetail())
	raw := m.Render()
	for _, bad := range []string{"\x1b]52", "\x1b[2J", "\x07", "\u202e"} {
		if strings.Contains(raw, bad) {
			t.Errorf("the screen carries %q from a transcript", bad)
		}
	}
	if !strings.Contains(screen(m), "␛]52;c;cm0gLXJmIH4=␇␛[2J␛[31mred␛[0m <U+202E>detalumis<U+202C>") {
		t.Errorf("the hostile line is not shown inert:\n%s", screen(m))
	}
}
