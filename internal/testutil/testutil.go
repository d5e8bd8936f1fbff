// Package testutil holds the helpers the tests of every package share: finding the
// module root and the shared fixtures beside it (skipping, saying why, when they are not
// there), the bundled demo, copying a folder into a temporary one the test removes, and
// reading a folder's files to compare before and after. Only tests import it.
package testutil

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// LockFile is the store's lock file (store.LockFile), which Files leaves out: taking the
// lock is not a change.
const LockFile = ".referee.lock"

// JournalMark is the store's journal mark (store's journalMark): the last change that
// wrote a journal, which even a refused change leaves (bookkeeping, as the lock).
const JournalMark = ".journal-mark"

// DemoMarker is the file by which the workbench recognises the bundled demo (tui.DemoMarker).
const DemoMarker = ".referee-demo"

// DemoDir is the absolute path of the bundled demo, the repository's contents/ (regenerated
// by tools/demo/mkdemo.py). Tests only read it; Demo gives a copy to change.
func DemoDir() string {
	return filepath.Join(Root(), "contents")
}

// Demo copies the bundled demo into a temporary folder the test removes and returns the
// copy's path (…/contents). The copy has no DemoMarker, so the workbench opens it in place
// as any folder.
func Demo(tb testing.TB) string {
	tb.Helper()
	dst := Copy(tb, DemoDir())
	if err := os.Remove(filepath.Join(dst, DemoMarker)); err != nil && !os.IsNotExist(err) {
		tb.Fatal(err)
	}
	return dst
}

// Copy copies the folder src into a temporary folder the test removes and returns the
// copy's path (…/contents). It skips the test when src lies in a shared folder that is not
// there (Need).
func Copy(tb testing.TB, src string) string {
	tb.Helper()
	dst := filepath.Join(tb.TempDir(), "contents")
	CopyTree(tb, src, dst)
	return dst
}

// CopyTree copies the folder src to dst (made if missing): folders 0755, files 0644 with
// their bytes. It skips the test when src lies in a shared folder that is not there.
func CopyTree(tb testing.TB, src, dst string) {
	tb.Helper()
	Need(tb, src)
	err := filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
	if err != nil {
		tb.Fatal(err)
	}
}

// Files is every file under dir but referee's bookkeeping (the lock file and the
// journal mark), by slash-separated path, with its bytes: to show that a folder did
// not change, or how.
func Files(tb testing.TB, dir string) map[string]string {
	tb.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && d.Name() != LockFile && d.Name() != JournalMark {
			rel, _ := filepath.Rel(dir, path)
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			out[filepath.ToSlash(rel)] = string(data)
		}
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	return out
}

// Subtests runs subtests of t and, when every one of them skipped, skips t too, saying
// so (a parent whose subtests all skipped tested nothing).
type Subtests struct {
	t      *testing.T
	ran    int
	reason string
}

// NewSubtests starts counting t's subtests.
func NewSubtests(t *testing.T) *Subtests { return &Subtests{t: t} }

// Run runs f as the subtest name of t, noting whether it skipped.
func (s *Subtests) Run(name string, f func(t *testing.T)) bool {
	return s.t.Run(name, func(t *testing.T) {
		defer func() {
			if !t.Skipped() {
				s.ran++
			} else if s.reason == "" {
				s.reason = "every subtest skipped: " + Missing
			}
		}()
		f(t)
	})
}

// Done skips t when subtests ran and every one of them skipped.
func (s *Subtests) Done() {
	s.t.Helper()
	if s.ran == 0 && s.reason != "" {
		s.t.Skip(s.reason)
	}
}
