package tui

import (
	"bytes"
	"path/filepath"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"referee/internal/testutil"
	"referee/model"
)

// TestFlowOpenMoveSearchConfirm drives the whole program (with its live watcher)
// through teatest: open, move, search, C then y on a statement awaiting verification.
func TestFlowOpenMoveSearchConfirm(t *testing.T) {
	dir := testutil.Demo(t)
	m, err := New(dir, Options{Theme: "dark"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(m.Close)
	tm := teatest.NewTestModel(t, m,
		teatest.WithInitialTermSize(120, 40),
		teatest.WithProgramOptions(tea.WithColorProfile(colorprofile.Ascii)),
	)
	wait := func(s string) {
		t.Helper()
		teatest.WaitFor(t, tm.Output(), func(b []byte) bool { return bytes.Contains(b, []byte(s)) },
			teatest.WithDuration(5*time.Second), teatest.WithCheckInterval(20*time.Millisecond))
	}
	wait("p-001")
	tm.Type("j")
	tm.Type("/")
	tm.Type("s-014")
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
	wait(`match 1 of 1 for "s-014"`)
	tm.Type("C")
	wait("Proof checked and confirmed.")
	tm.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
	wait("will write:")
	tm.Type("y")
	wait("check-confirm-proof by human")
	tm.Type("q")
	fm := tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second)).(*Model)
	if selectedID(fm) != "s-014" {
		t.Fatalf("cursor on %q", selectedID(fm))
	}
	st := model.StatementFrom(mustParse(t, readFile(t, filepath.Join(dir, "statement/s-014.json"))))
	if st.Status != "true" {
		t.Fatalf("s-014 is %q on disk", st.Status)
	}
	e := model.ParseLogLine(1, lastLine(readFile(t, filepath.Join(dir, "history/log.jsonl"))))
	if e.By != "human" || e.Skill != "check-confirm-proof" {
		t.Fatalf("log entry %+v", e)
	}
}
