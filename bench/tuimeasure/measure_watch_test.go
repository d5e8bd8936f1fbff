package tuimeasure

import (
	"os"
	"path/filepath"
	"testing"

	"referee/internal/testutil"
)

// WatchedWriteCase replaces the middle statement's file each time and waits for the
// watcher: the workbench shows each version (the snapshot has it and it flashes), the
// listen chain goes on from the snapshot shown, and no temporary file is left.
func TestWatchedWriteCaseShowsEachVersion(t *testing.T) {
	dir := testutil.Demo(t)
	c, err := NewWatchedWriteCase(dir, 120, 40, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if c.rel != "statement/s-009.json" || c.id != "s-009" {
		t.Fatalf("writes %s (%s), want statement/s-009.json", c.rel, c.id)
	}
	path := filepath.Join(dir, "statement", "s-009.json")
	orig, _ := os.ReadFile(path)
	versions := []string{c.p.Shown().Versions.Get("s-009")}
	for i, want := range [][]byte{flipped(t, orig), orig} {
		if d, err := c.Write(); err != nil || d <= 0 {
			t.Fatalf("write %d: %v, %v", i+1, d, err)
		}
		checkWritten(t, i+1, path, want)
		v := c.p.Shown().Versions.Get("s-009")
		if v == versions[len(versions)-1] || c.p.Head().Snapshot() != c.p.Shown() {
			t.Errorf("write %d: the workbench shows version %s (was %s), latest shown %v", i+1, v, versions[len(versions)-1], c.p.Head().Snapshot() == c.p.Shown())
		}
		versions = append(versions, v)
		if !c.p.Flashing("s-009") {
			t.Errorf("write %d: s-009 does not flash", i+1)
		}
	}
	if versions[2] != versions[0] {
		t.Errorf("the original bytes back: version %s, want %s", versions[2], versions[0])
	}
	p99, mean, err := c.Run(3, 0)
	if err != nil || p99 <= 0 || mean <= 0 || mean > p99 {
		t.Errorf("Run: p99 %v, mean %v, %v", p99, mean, err)
	}
}
