package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"referee/internal/testutil"
)

// TestConflictKeepsTheDraft: R's form is filled in, the agent writes s-014 before y;
// the store refuses, and the form comes back with what was typed and what changed.
func TestConflictKeepsTheDraft(t *testing.T) {
	m, dir := newTestModel(t, 120, 40)
	keys(t, m, "n", "]", "R")
	typeText(t, m, "The identity is asserted")
	keys(t, m, "enter")
	typeText(t, m, "Expand both sides")
	keys(t, m, "ctrl+s")
	if m.dlg.confirm == nil || m.dlg.confirm.Checking() || m.dlg.confirm.Problem() != "" {
		t.Fatalf("no confirmation ready: %+v", m.dlg.confirm)
	}
	p := filepath.Join(dir, "statement/s-014.json")
	changed := strings.Replace(readFile(t, p), `"count_usage": 0`, `"count_usage": 1`, 1)
	if err := os.WriteFile(p, []byte(changed), 0o644); err != nil {
		t.Fatal(err)
	}
	keys(t, m, "y")
	if readFile(t, p) != changed {
		t.Fatal("the store wrote over the agent's version")
	}
	if m.dlg.form == nil {
		t.Fatalf("the form did not come back: %q", m.status.message)
	}
	if got := m.dlg.form.Value("explanation"); got != "The identity is asserted" {
		t.Fatalf("explanation after the conflict %q", got)
	}
	scr := screen(m)
	if !strings.Contains(scr, "s-014 changed since you read it") || !strings.Contains(scr, "status validating (unchanged)") {
		t.Fatalf("the reopened form does not say what changed:\n%s", scr)
	}
	// Checked again against the new version, it writes.
	keys(t, m, "ctrl+s", "y")
	if !strings.Contains(readFile(t, p), "The identity is asserted") {
		t.Fatalf("the draft was not written after the conflict: %q", m.status.message)
	}
}

// TestConfirmOffersNoYForAPlanThatCannotBeWritten: undo of a change a later change
// superseded is refused before y, with the whole reason.
func TestConfirmOffersNoYForAPlanThatCannotBeWritten(t *testing.T) {
	m, dir := newTestModel(t, 120, 40)
	keys(t, m, "n", "C", "enter", "y")
	if len(m.writes.done) != 1 {
		t.Fatalf("C y did not write: %q", m.status.message)
	}
	// Point the session's change at an old one that many later changes superseded.
	before := readFile(t, filepath.Join(dir, "history/log.jsonl"))
	m.writes.done[0].Change = "l-001"
	keys(t, m, "u")
	if m.dlg.confirm == nil || m.dlg.confirm.Checking() {
		t.Fatal("u did not open a checked confirmation")
	}
	if m.dlg.confirm.Problem() == "" || !strings.Contains(screen(m), "nothing can be written; no y") {
		t.Fatalf("a superseded undo offers y:\n%s", screen(m))
	}
	keys(t, m, "y")
	if m.dlg.confirm == nil {
		t.Fatal("y closed a confirmation that cannot be written")
	}
	if readFile(t, filepath.Join(dir, "history/log.jsonl")) != before {
		t.Fatal("y wrote a plan that cannot be written")
	}
}

// TestQuitWaitsForAWrite: q while a change is being written says so and quits once
// the write is done.
func TestQuitWaitsForAWrite(t *testing.T) {
	m, _ := newTestModel(t, 120, 40)
	keys(t, m, "n", "C", "enter")
	_, write := m.Update(keyMsg("y"))
	if m.writes.writing != 1 {
		t.Fatalf("writing %d", m.writes.writing)
	}
	_, cmd := m.Update(keyMsg("q"))
	if cmd != nil {
		if _, quit := cmd().(tea.QuitMsg); quit {
			t.Fatal("q quit while a change was being written")
		}
	}
	if !strings.Contains(m.status.message, "quits when it is done") {
		t.Fatalf("message %q", m.status.message)
	}
	done := write()
	_, after := m.Update(done)
	if !quits(after) {
		t.Fatal("the workbench did not quit once the write was done")
	}
}

func quits(cmd tea.Cmd) bool {
	if cmd == nil {
		return false
	}
	switch msg := cmd().(type) {
	case tea.QuitMsg:
		return true
	case tea.BatchMsg:
		for _, c := range msg {
			if quits(c) {
				return true
			}
		}
	}
	return false
}

// TestWindowTitleIsSanitised: a folder named with an OSC 52 sequence does not reach
// the window title (nor the status line) raw.
func TestWindowTitleIsSanitised(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "x\x1b]52;c;ZXZpbA==\x07y")
	if err := os.Rename(testutil.Demo(t), dir); err != nil {
		t.Fatal(err)
	}
	m := openTestModel(t, dir, 120, 40)
	v := m.View()
	for _, s := range []string{v.WindowTitle, m.Render()} {
		if strings.Contains(s, "\x1b]52") || strings.Contains(s, "\x07") {
			t.Fatalf("the folder name reached the terminal raw: %q", s)
		}
	}
}

// TestConflictFoundByTheDryRunKeepsTheDraft: the agent writes while the form is open;
// the confirmation's check finds it and the form comes back with the draft.
func TestConflictFoundByTheDryRunKeepsTheDraft(t *testing.T) {
	m, dir := newTestModel(t, 120, 40)
	keys(t, m, "n", "]", "R")
	typeText(t, m, "The identity is asserted")
	keys(t, m, "enter")
	typeText(t, m, "Expand both sides")
	p := filepath.Join(dir, "statement/s-014.json")
	changed := strings.Replace(readFile(t, p), `"count_usage": 0`, `"count_usage": 1`, 1)
	if err := os.WriteFile(p, []byte(changed), 0o644); err != nil {
		t.Fatal(err)
	}
	keys(t, m, "ctrl+s")
	if m.dlg.confirm != nil || m.dlg.form == nil || m.dlg.form.Value("explanation") != "The identity is asserted" {
		t.Fatalf("confirm %v form %v: the draft is not back", m.dlg.confirm != nil, m.dlg.form != nil)
	}
	if !strings.Contains(screen(m), "s-014 changed since you read it") {
		t.Fatalf("the form does not say why it is back:\n%s", screen(m))
	}
}
