package store

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"referee/skill"
	"testing"

	"golang.org/x/sys/unix"
)

// Where the filesystem refuses RENAME_NOREPLACE, a link and an unlink do the same.
func TestRenameNoReplaceFallback(t *testing.T) {
	saved := renameat2
	calls := 0
	renameat2 = func(int, string, int, string, uint) error { calls++; return unix.EINVAL }
	defer func() { renameat2 = saved }()
	dir := t.TempDir()
	write(t, dir, "a", "new")
	write(t, dir, "b", "theirs")
	if err := renameNoReplace(filepath.Join(dir, "a"), filepath.Join(dir, "b")); !errors.Is(err, fs.ErrExist) {
		t.Fatalf("fallback over an existing file: %v", err)
	}
	if read(t, dir, "b") != "theirs" || read(t, dir, "a") != "new" {
		t.Error("a refused fallback changed a file")
	}
	if err := renameNoReplace(filepath.Join(dir, "a"), filepath.Join(dir, "c")); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(filepath.Join(dir, "a")); !errors.Is(err, fs.ErrNotExist) || read(t, dir, "c") != "new" {
		t.Error("the fallback did not move the file")
	}
	// A whole change through the fallback.
	folder := openFolder(t)
	mustRun(t, folder, "prob-wrapup-statement", skill.Args{"problem_id": "p-001", "claim": []string{"c"}})
	if calls != 4 || statement(t, folder, "s-008") == nil {
		t.Errorf("%d renames without replacing (want 4: two above, s-008 and the backup of p-001)", calls)
	}
}
