package tui

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"referee/internal/testutil"
)

// A long proof is read from its file when its statement is first shown; a fault in it is
// shown in the detail pane, in place of the proof, and nothing else breaks.
func TestAProofThatCannotBeReadIsSaidSo(t *testing.T) {
	dir := testutil.Demo(t)
	path := filepath.Join(dir, "statement", "s-015.json")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	full := bytes.Index(data, []byte(`"full": "`))
	data[full+40] = 0x01 // a raw control character: not valid JSON
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	m := openTestModel(t, dir, 160, 40)
	if len(m.shown.snap.Broken) > 0 {
		t.Fatalf("the load lists %v", m.shown.snap.Broken)
	}
	keys(t, m, "n", "n") // s-015, as in TestGapOpensOnTheFlaggedSentence
	if selectedID(m) != "s-015" {
		t.Fatalf("on %s", selectedID(m))
	}
	keys(t, m, "]", "[", "i")
	got := strings.Join(strings.Fields(ansi.Strip(strings.Join(m.detail.doc.Lines, "\n"))), " ")
	want := fmt.Sprintf("Proof cites s-011 cannot show the proof: statement/s-015.json: proof.full: line %d (byte %d): control character inside a string",
		1+bytes.Count(data[:full+40], []byte("\n")), full+40)
	if !strings.Contains(got, want) {
		t.Fatalf("the screen does not say %q:\n%s", want, screen(m))
	}
}

// Paused, the view keeps the snapshot it had: a proof whose file changed since is not
// mixed in, and the pane says how to see it.
func TestAProofChangedWhilePausedIsNotMixedIn(t *testing.T) {
	dir := testutil.Demo(t)
	m := openTestModel(t, dir, 160, 40)
	keys(t, m, "p")
	path := filepath.Join(dir, "statement", "s-016.json")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, bytes.Replace(data, []byte("We compare"), []byte("We now compare"), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	keys(t, m, "/")
	typeText(t, m, "s-016")
	keys(t, m, "enter")
	if selectedID(m) != "s-016" {
		t.Fatalf("on %s", selectedID(m))
	}
	got := strings.Join(strings.Fields(ansi.Strip(strings.Join(m.detail.doc.Lines, "\n"))), " ")
	want := "cannot show the proof: statement/s-016.json has changed since this paused view was loaded: p resumes and shows it"
	if !strings.Contains(got, want) {
		t.Fatalf("the detail does not say %q:\n%s", want, got)
	}
}

// A change listed provisionally (store.Change.Provisional: a file it touched changed
// before it could be read again) is listed again, with those after it, for the next
// snapshot; the others are kept.
func TestProvisionalChangesAreListedAgain(t *testing.T) {
	m, _ := newTestModel(t, 160, 40)
	keys(t, m, "a")
	if len(m.bg.changes.list) != 38 {
		t.Fatalf("%d changes listed", len(m.bg.changes.list))
	}
	listed := slices.Clone(m.bg.changes.list) // as if listed so, while s-017 changed
	listed[35].Skill = "(kept)"               // a listing from further back would write over it
	listed[36].Provisional = true
	listed[36].Skill = "(listed provisionally)"
	m.route(m.bg.changes, historyMsg{snap: m.bg.changes.listedOf, h: m.bg.changes.hist, from: -1, changes: listed})
	m.bg.changes.listedOf = nil // as when a newer snapshot arrives
	runCmds(t, m, m.supervisor().supervise())
	if len(m.bg.changes.list) != 38 || m.bg.changes.list[36].Provisional || m.bg.changes.list[36].Skill != "prob-wrapup-statement" || m.bg.changes.list[37].ID != "l-038" {
		t.Fatalf("after the relisting: %d changes, l-037 %+v", len(m.bg.changes.list), m.bg.changes.list[36])
	}
	if m.bg.changes.list[35].Skill != "(kept)" {
		t.Fatal("the changes before the provisional one were listed again too")
	}
}
