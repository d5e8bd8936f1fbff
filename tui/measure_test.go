package tui

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"referee/views"
)

// KeypressCase moves the tree cursor one row per key and, when a key does not move it
// (the bottom), back to the top.
func TestKeypressCaseMovesDownAndWraps(t *testing.T) {
	c, err := NewKeypressCase(copyDir(t, "testdata/demo"), 120, 40)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	var paths []string
	for _, r := range c.m.tree.Rows() {
		paths = append(paths, r.Path)
	}
	if len(paths) < 3 || c.m.tree.Cursor() != paths[0] {
		t.Fatalf("cursor %q on rows %q", c.m.tree.Cursor(), paths)
	}
	for i := 1; i < len(paths); i++ {
		if c.Press() <= 0 {
			t.Fatal("no time")
		}
		if got := c.m.tree.Cursor(); got != paths[i] {
			t.Fatalf("key %d: cursor %q, want %q", i, got, paths[i])
		}
	}
	c.Press()
	if got := c.m.tree.Cursor(); got != paths[0] {
		t.Errorf("after the bottom: cursor %q, want the top %q", got, paths[0])
	}
}

// WriteCase replaces the middle statement's file with its other version each time (no
// temporary file left, the original bytes back every second write), and the workbench
// shows each: the snapshot has the new version and the statement flashes.
func TestWriteCaseShowsEachVersion(t *testing.T) {
	dir := copyDir(t, "testdata/demo")
	c, err := NewWriteCase(dir, 120, 40)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if c.rel != "statement/s-009.json" {
		t.Fatalf("writes %s, want the middle of 17 statements, statement/s-009.json", c.rel)
	}
	path := filepath.Join(dir, "statement", "s-009.json")
	orig, _ := os.ReadFile(path)
	seen := map[string]bool{c.m.snap.Versions.Get("s-009"): true}
	for i, want := range [][]byte{append(bytes.Clone(orig), '\n'), orig} {
		if d, err := c.Write(); err != nil || d <= 0 {
			t.Fatalf("write %d: %v, %v", i+1, d, err)
		}
		checkWritten(t, i+1, path, want)
		v := c.m.snap.Versions.Get("s-009")
		if seen[v] && i == 0 {
			t.Errorf("write %d: the workbench still shows version %s", i+1, v)
		}
		seen[v] = true
		if _, ok := c.m.flash["s-009"]; !ok {
			t.Errorf("write %d: s-009 does not flash", i+1)
		}
	}
	p99, mean, err := c.Run(3, 0)
	if err != nil || p99 <= 0 || mean <= 0 || mean > p99 {
		t.Errorf("Run: p99 %v, mean %v, %v", p99, mean, err)
	}
}

// ProofCase renders a proof's markdown in a command (cold), keeps it (cached: no
// rendering again) and notices a workbench that renders in Update.
func TestProofCaseRendersOffTheUIGoroutineOnce(t *testing.T) {
	c, err := NewProofCase(2)
	if err != nil {
		t.Fatal(err)
	}
	empty := c.empty
	if n := c.Len(); n < 1800 || n > 2048 {
		t.Errorf("a 2 KB proof is %d bytes", n)
	}
	if d, err := c.Cold(); err != nil || d <= 0 {
		t.Fatalf("cold: %v, %v", d, err)
	}
	key := views.ProofKey(c.proof, ProofWidth, c.m.st.MarkdownStyle(), c.m.math)
	if c.renders != 1 || c.m.proofs[key] == nil {
		t.Fatalf("%d renderings, cached: %v", c.renders, c.m.proofs[key] != nil)
	}
	if d, err := c.Cached(10); err != nil || d <= 0 {
		t.Fatalf("cached: %v, %v", d, err)
	}
	if _, err := c.Cold(); err != nil || c.renders != 2 || !c.OffUIGoroutine || !c.RenderedOnce {
		t.Errorf("%d renderings (want 2), off the UI goroutine %v, once %v, %v", c.renders, c.OffUIGoroutine, c.RenderedOnce, err)
	}
	c.m.syncRender = true
	if _, err := c.Cold(); err != nil || c.OffUIGoroutine {
		t.Errorf("rendering in Update not noticed (%v)", err)
	}
	c.Close()
	if _, err := os.Stat(empty); !os.IsNotExist(err) {
		t.Errorf("%s is left: %v", empty, err)
	}
}

// checkWritten checks write n left exactly want at path and no temporary file beside it.
func checkWritten(t *testing.T, n int, path string, want []byte) {
	t.Helper()
	if got, _ := os.ReadFile(path); !bytes.Equal(got, want) {
		t.Errorf("write %d: the file is %q…, want %q…", n, got[:20], want[:20])
	}
	if _, err := os.Stat(path + ".tmp"); !os.IsNotExist(err) {
		t.Errorf("write %d: %s.tmp left: %v", n, path, err)
	}
}
