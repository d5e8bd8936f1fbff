package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// C on a proof whose opening does not say its direction ("PROOF:" over a disproof's
// sentence) asks for it instead of guessing (issue 21); the choice is what is written.
func TestConfirmAsksForTheDirectionWhenTheOpeningIsAmbiguous(t *testing.T) {
	_, dir := newTestModel(t, 120, 40)
	p := filepath.Join(dir, "statement/s-014.json")
	data := strings.Replace(readFile(t, p), `"full": "We factor out`, `"full": "PROOF: This statement is wrong. We disprove as follows. We factor out`, 1)
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	m := openTestModel(t, dir, 120, 40)
	keys(t, m, "n", "C")
	if m.dlg.confirm != nil || m.dlg.form == nil {
		t.Fatalf("C did not ask for the direction (confirm %v, message %q)", m.dlg.confirm != nil, m.status.message)
	}
	if func() bool { _, _, ok := m.dlg.form.FieldKind("direction"); return !ok }() {
		t.Fatal("the form has no direction field")
	}
	if scr := screen(m); !strings.Contains(scr, "direction cannot be read") {
		t.Fatalf("the form does not say why it asks:\n%s", scr)
	}
	m.dlg.form.SetValue("direction", "disproof")
	keys(t, m, "ctrl+s", "y")
	if got := readFile(t, p); !strings.Contains(got, `"status": "false"`) || !strings.Contains(got, "DISPROOF VERIFIED: ") {
		t.Fatalf("after choosing disproof: %q\n%s", m.status.message, got)
	}
}
