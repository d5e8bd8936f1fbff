package store

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"referee/internal/testutil"
	"referee/skill"
)

// A writer finds an interrupted change's journal by name — the change journalMark
// names, config.json's last change and the one after it — and lists history/ only when
// there is no mark it can read.
func TestJournalFoundByName(t *testing.T) {
	dir := testutil.Demo(t)
	if j := pendingJournal(dir); j != "" {
		t.Fatalf("the demo has no journal; found %q", j)
	}
	reject := skill.Args{"statement_id": "s-014", "sentence_number": 1, "sentence_text": "We factor out the common square $\\frac{(n+1)^2}{4}$.",
		"error_type": "gap", "explanation": "e", "suggested_fix": "f"}
	mustRun(t, dir, "check-reject-proof", reject)
	if got := read(t, dir, journalMark); got != "l-039\n" {
		t.Fatalf("%s after l-039: %q", journalMark, got)
	}
	for _, c := range []struct {
		name, mark, journal string
		found               bool
	}{
		{"no journal", "l-039\n", "", false},
		{"the change the mark names", "l-039\n", "l-039", true},
		{"config's last change (a referee without marks wrote it)", "l-012\n", "l-039", true},
		{"the change after config's last", "l-012\n", "l-040", true},
		{"a journal the mark names with no other", "l-012\n", "l-012", true},
		{"a mark that is no change's ID: history/ listed", "garbage\n", "l-020", true},
		{"a mark without its newline (torn): history/ listed", "l-03", "l-020", true},
		{"no mark: history/ listed", "", "l-021", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			os.Remove(filepath.Join(dir, journalMark))
			if c.mark != "" {
				write(t, dir, journalMark, c.mark)
			}
			if c.journal != "" {
				write(t, dir, journalFile(c.journal), "{}")
				defer os.Remove(filepath.Join(dir, journalFile(c.journal)))
			}
			want := ""
			if c.found {
				want = journalFile(c.journal)
			}
			if got := pendingJournal(dir); got != want {
				t.Fatalf("pendingJournal: %q, want %q", got, want)
			}
			if !c.found {
				return // the write above was made with no journal left
			}
			_, err := run(t, dir, "check-reject-proof", reject)
			var busy *BusyError
			if !errors.As(err, &busy) || !strings.Contains(err.Error(), want+" is left") {
				t.Fatalf("a skill with %q left: %v", want, err)
			}
		})
	}
}

// A change asked of a folder without config.json is refused and leaves the folder as it
// was: not even the lock's history/ is made in it.
func TestChangeInAFolderWithoutConfigLeavesNothing(t *testing.T) {
	dir := t.TempDir()
	want := dir + " has no config.json: not a contents folder (run referee init)"
	_, err := run(t, dir, "prob-wrapup-statement", skill.Args{"problem_id": "p-001", "claim": []string{"c"}})
	if err == nil || err.Error() != want {
		t.Errorf("skill: %v, want %q", err, want)
	}
	if _, err := Rewind(dir, "l-001", false, Options{}); err == nil || err.Error() != want {
		t.Errorf("rewind: %v, want %q", err, want)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("the folder holds %v", entries)
	}
}
