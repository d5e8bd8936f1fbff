package store

import (
	"path/filepath"
	"slices"
	"syscall"
	"testing"

	"referee/internal/testutil"
)

// FIFOs in the folders referee lists are noted and skipped: no read blocks on one, and
// a FIFO named like a backup folder is not taken for one.
func TestSpecialFilesSkippedWithANote(t *testing.T) {
	dir := testutil.Copy(t, fixtureDir)
	for _, rel := range []string{"statement/fifo", "history/l-099", "history/l-003/s-001.json"} {
		if err := syscall.Mkfifo(filepath.Join(dir, filepath.FromSlash(rel)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	findings, err := Check(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range findings {
		got = append(got, f.Severity+": "+f.String())
	}
	want := []string{
		"warning: history/l-099: a FIFO, not a backup folder or a file referee uses: skipped",
		"warning: statement/fifo: a FIFO, not an object file: skipped",
	}
	if !slices.Equal(got, want) {
		t.Errorf("check:\n%q\nwant\n%q", got, want)
	}
	if _, err := Load(dir); err != nil {
		t.Fatal(err)
	}
	if rep, err := Repair(dir, true); err != nil || len(rep.Refused) > 0 {
		t.Errorf("repair --dry-run: %v %v", rep, err)
	}
	snap, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := NewHistory(dir, snap).At("l-002"); err != nil {
		t.Errorf("show --at: %v", err)
	}
}
