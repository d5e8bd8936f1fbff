package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRewindFromTimeTravel: b in time travel shows the plan of a rewind to the change
// shown, y writes it and returns to now, u takes it back byte for byte.
func TestRewindFromTimeTravel(t *testing.T) {
	m, dir := openKnights(t, 120, 40)
	s007 := readFile(t, filepath.Join(dir, "statement/s-007.json"))
	p001 := readFile(t, filepath.Join(dir, "problem/p-001.json"))
	keys(t, m, "b")
	if m.dlg.confirm != nil || !strings.Contains(m.status.message, "not in time travel") {
		t.Fatalf("b outside time travel: confirm %v, message %q", m.dlg.confirm != nil, m.status.message)
	}
	keys(t, m, "t", ",", ",", ",", ",", ",")
	if m.travel == nil || m.travel.id != "l-001" {
		t.Fatalf("travel %+v, want l-001", m.travel)
	}
	keys(t, m, "b")
	if m.dlg.confirm == nil || m.dlg.confirm.Change().Rewind == nil {
		t.Fatalf("b did not open the confirmation (message %q)", m.status.message)
	}
	contains(t, "confirmation", screen(m), "rewind to l-001", "Set the folder back to right after l-001?",
		"remove (created later; backed up first) 1: s-007", "set back 1: p-001",
		"counters p-001 s-007 e-000 → p-001 s-006 e-000", "recorded as change l-007 (skill rewind) by human")
	if readFile(t, filepath.Join(dir, "statement/s-007.json")) != s007 {
		t.Fatal("the plan wrote")
	}
	keys(t, m, "y")
	if m.travel != nil {
		t.Errorf("still travelling after the rewind")
	}
	if _, err := os.Stat(filepath.Join(dir, "statement/s-007.json")); !os.IsNotExist(err) {
		t.Fatalf("s-007 after the rewind: %v (message %q)", err, m.status.message)
	}
	if !strings.Contains(m.status.message, "l-007 rewind by human") {
		t.Errorf("message %q", m.status.message)
	}
	keys(t, m, "u")
	contains(t, "undo confirmation", screen(m), "undo l-007")
	keys(t, m, "y")
	if readFile(t, filepath.Join(dir, "statement/s-007.json")) != s007 || readFile(t, filepath.Join(dir, "problem/p-001.json")) != p001 {
		t.Fatalf("undo of the rewind did not give the objects back (message %q)", m.status.message)
	}
}
