package testutil

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// A parent whose subtests all skipped skips; one subtest that ran keeps it running.
func TestSubtestsSkipTheParent(t *testing.T) {
	parent := func(subs ...func(t *testing.T)) (skipped bool) {
		t.Run("parent", func(t *testing.T) {
			defer func() { skipped = t.Skipped() }()
			s := NewSubtests(t)
			for _, f := range subs {
				s.Run("sub", f)
			}
			s.Done()
		})
		return skipped
	}
	skip := func(t *testing.T) { t.Skip("nothing to test here") }
	run := func(t *testing.T) {}
	if !parent(skip, skip) {
		t.Error("every subtest skipped, the parent did not")
	}
	if parent(skip, run) {
		t.Error("a subtest ran, yet the parent skipped")
	}
}

// A copy holds the same files; Files leaves the lock out; Demo's copy lacks the marker.
func TestCopyAndFiles(t *testing.T) {
	src := t.TempDir()
	if err := os.MkdirAll(filepath.Join(src, "statement"), 0o755); err != nil {
		t.Fatal(err)
	}
	for rel, data := range map[string]string{"config.json": "{}", "statement/s-001.json": "x", LockFile: ""} {
		if err := os.WriteFile(filepath.Join(src, rel), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want := map[string]string{"config.json": "{}", "statement/s-001.json": "x"}
	if got := Files(t, Copy(t, src)); !reflect.DeepEqual(got, want) {
		t.Errorf("Files(Copy) = %v, want %v", got, want)
	}
	demo := Demo(t)
	if _, err := os.Stat(filepath.Join(demo, DemoMarker)); !os.IsNotExist(err) {
		t.Errorf("the demo's copy has its marker: %v", err)
	}
	if _, err := os.Stat(filepath.Join(DemoDir(), DemoMarker)); err != nil {
		t.Errorf("the bundled demo lacks its marker: %v", err)
	}
	if len(Files(t, demo)) != len(Files(t, DemoDir()))-1 {
		t.Error("the demo's copy is not the demo without its marker")
	}
}
