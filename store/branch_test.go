package store

import (
	"bytes"
	"errors"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"referee/skill"
	"slices"
	"strings"
	"testing"

	"referee/internal/testutil"
)

func objectsOnly(files map[string][]byte) map[string][]byte {
	out := maps.Clone(files)
	delete(out, ConfigFile)
	return out
}

func countStored(t testing.TB, dir string) int {
	t.Helper()
	n := 0
	err := filepath.WalkDir(filepath.Join(dir, BranchDir, "objects"), func(_ string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			n++
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func currentBranchOf(t testing.TB, dir string) string {
	t.Helper()
	return branchOf(ParseLog(read(t, dir, LogFile)))
}

// TestBranchesRoundTrip forks the fixture into two lines, changes one, switches back and
// forth, and checks each switch leaves the objects of the line byte for byte, that the
// store holds each file once, that diff names what differs, and that undo takes a
// switch back, line included.
func TestBranchesRoundTrip(t *testing.T) {
	dir := testutil.Copy(t, fixtureDir)
	base := tracked(t, dir)
	if got := currentBranchOf(t, dir); got != DefaultBranch {
		t.Fatalf("a fresh folder is on %q", got)
	}
	if _, err := BranchSave(dir, "fix", Options{Now: pinned}); err != nil {
		t.Fatal(err)
	}
	if got := currentBranchOf(t, dir); got != "fix" {
		t.Fatalf("after save the folder is on %q", got)
	}
	if n := countStored(t, dir); n != 8 {
		t.Errorf("two lines of the same 8 objects store %d files, want 8", n)
	}
	// Work on fix: set p-001 and s-007 back to l-002.
	if _, err := Rewind(dir, "l-002", false, Options{Now: pinned}); err != nil {
		t.Fatal(err)
	}
	agentsRead(t, dir)
	fix := tracked(t, dir)
	r, err := BranchSwitch(dir, "main", false, Options{Now: pinned})
	if err != nil {
		t.Fatal(err)
	}
	agentsRead(t, dir)
	if !slices.Equal(r.Modified, []string{"p-001", "s-007"}) || len(r.Created)+len(r.Removed) != 0 {
		t.Errorf("switch to main: %+v", r)
	}
	if !maps.EqualFunc(objectsOnly(tracked(t, dir)), objectsOnly(base), bytes.Equal) {
		t.Errorf("main's objects are not as saved")
	}
	if n := countStored(t, dir); n != 10 {
		t.Errorf("after fix changed 2 objects the store holds %d files, want 10", n)
	}
	ds, err := BranchDiff(dir, "main", "fix")
	if err != nil {
		t.Fatal(err)
	}
	want := []BranchDifference{{"p-001", "resolved", "unresolved"}, {"s-007", "true", "pending"}}
	if !slices.Equal(ds, want) {
		t.Errorf("diff main fix = %v, want %v", ds, want)
	}
	bs, size, err := BranchList(dir)
	if err != nil || len(bs) != 2 || !bs[1].Current || bs[1].Name != "main" || size == 0 {
		t.Errorf("list = %+v, %d, %v", bs, size, err)
	}
	// Back to fix, then undo the switch: main again, and the log says so.
	r2, err := BranchSwitch(dir, "fix", false, Options{Now: pinned})
	if err != nil {
		t.Fatal(err)
	}
	if !maps.EqualFunc(objectsOnly(tracked(t, dir)), objectsOnly(fix), bytes.Equal) {
		t.Errorf("fix's objects are not as saved")
	}
	if _, err := Undo(dir, r2.Change, Options{Now: pinned}); err != nil {
		t.Fatal(err)
	}
	if got := currentBranchOf(t, dir); got != "main" {
		t.Errorf("after undoing the switch the folder is on %q", got)
	}
	if !maps.EqualFunc(objectsOnly(tracked(t, dir)), objectsOnly(base), bytes.Equal) {
		t.Errorf("undoing the switch does not give main's objects back")
	}
	if findings, err := Check(dir); err != nil || len(findings) != 0 {
		t.Errorf("check: %v %v", findings, err)
	}
}

func TestBranchRefusals(t *testing.T) {
	dir := testutil.Copy(t, fixtureDir)
	for _, name := range []string{"", "../x", "objects", "a/b", ".hidden", "x.json"} {
		var ie *skill.InputError
		if _, err := BranchSave(dir, name, Options{}); !errors.As(err, &ie) {
			t.Errorf("save %q: %v", name, err)
		}
	}
	if _, err := BranchSwitch(dir, "nowhere", false, Options{}); err == nil || !strings.Contains(err.Error(), "no branch") {
		t.Errorf("switch to a missing branch: %v", err)
	}
	if _, err := BranchSave(dir, "a", Options{}); err != nil {
		t.Fatal(err)
	}
	if _, err := BranchSwitch(dir, "a", false, Options{}); err == nil || !strings.Contains(err.Error(), "already") {
		t.Errorf("switch to the current line: %v", err)
	}
	if _, err := BranchSave(dir, "main", Options{}); err == nil || !strings.Contains(err.Error(), "already") {
		t.Errorf("save over another line: %v", err)
	}
	// A branch store that is a link is neither read nor written.
	os.RemoveAll(filepath.Join(dir, BranchDir))
	if err := os.Symlink(t.TempDir(), filepath.Join(dir, BranchDir)); err != nil {
		t.Fatal(err)
	}
	if _, err := BranchSave(dir, "b", Options{}); err == nil || !strings.Contains(err.Error(), "links") {
		t.Errorf("save through a link: %v", err)
	}
	// A link planted in the store (objects/ab/) is neither written nor read through.
	dir = testutil.Copy(t, fixtureDir)
	outside := t.TempDir()
	h := contentHash([]byte(read(t, dir, "problem/p-001.json")))
	os.MkdirAll(filepath.Join(dir, BranchDir, "objects"), 0o755)
	if err := os.Symlink(outside, filepath.Join(dir, BranchDir, "objects", h[:2])); err != nil {
		t.Fatal(err)
	}
	if _, err := BranchSave(dir, "c", Options{}); err == nil || !strings.Contains(err.Error(), "not a folder") {
		t.Errorf("save through a planted link: %v", err)
	}
	if entries, _ := os.ReadDir(outside); len(entries) != 0 {
		t.Errorf("the save wrote outside the folder: %v", entries)
	}
	// A damaged stored object is refused, not written into the folder.
	dir = testutil.Copy(t, fixtureDir)
	if _, err := BranchSave(dir, "b", Options{}); err != nil {
		t.Fatal(err)
	}
	if _, err := Rewind(dir, "l-002", false, Options{}); err != nil {
		t.Fatal(err)
	}
	m, _ := readManifest(dir, "main")
	if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(objectStoreRel(m.Objects["p-001"]))), []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := BranchSwitch(dir, "main", false, Options{}); err == nil || !strings.Contains(err.Error(), "damaged") {
		t.Errorf("switch with a damaged store: %v", err)
	}
}
