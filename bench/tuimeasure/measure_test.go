package tuimeasure

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"referee/internal/testutil"
	"referee/tui"
)

// KeypressCase moves the tree cursor one row per key and, when a key does not move it
// (the bottom), back to the top.
func TestKeypressCaseMovesDownAndWraps(t *testing.T) {
	c, err := NewKeypressCase(testutil.Demo(t), 120, 40)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	top := c.p.Cursor()
	n := c.p.Rows()
	if n < 3 || top == "" {
		t.Fatalf("cursor %q on %d rows", top, n)
	}
	seen := map[string]bool{top: true}
	for i := 1; i < n; i++ {
		if c.Press() <= 0 {
			t.Fatal("no time")
		}
		if got := c.p.Cursor(); seen[got] {
			t.Fatalf("key %d: cursor %q again, want a row below", i, got)
		}
		seen[c.p.Cursor()] = true
	}
	c.Press()
	if got := c.p.Cursor(); got != top {
		t.Errorf("after the bottom: cursor %q, want the top %q", got, top)
	}
}

// WriteCase replaces the middle statement's file with its other version each time (no
// temporary file left, the original bytes back every second write), and the workbench
// shows each: the snapshot has the new version and the statement flashes.
func TestWriteCaseShowsEachVersion(t *testing.T) {
	dir := testutil.Demo(t)
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
	seen := map[string]bool{c.p.Shown().Versions.Get("s-009"): true}
	for i, want := range [][]byte{flipped(t, orig), orig} {
		if d, err := c.Write(); err != nil || d <= 0 {
			t.Fatalf("write %d: %v, %v", i+1, d, err)
		}
		checkWritten(t, i+1, path, want)
		v := c.p.Shown().Versions.Get("s-009")
		if seen[v] && i == 0 {
			t.Errorf("write %d: the workbench still shows version %s", i+1, v)
		}
		seen[v] = true
		if !c.p.Flashing("s-009") {
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
	if cmd := c.p.ShowProof(c.proof, ProofWidth); c.p.Renders() != 1 || cmd != nil {
		t.Fatalf("%d renderings, cached: %v", c.p.Renders(), cmd == nil)
	}
	if d, err := c.Cached(10); err != nil || d <= 0 {
		t.Fatalf("cached: %v, %v", d, err)
	}
	if _, err := c.Cold(); err != nil || c.p.Renders() != 2 || !c.OffUIGoroutine || !c.RenderedOnce {
		t.Errorf("%d renderings (want 2), off the UI goroutine %v, once %v, %v", c.p.Renders(), c.OffUIGoroutine, c.RenderedOnce, err)
	}
	c.Close()
	if _, err := os.Stat(empty); !os.IsNotExist(err) {
		t.Errorf("%s is left: %v", empty, err)
	}
	sync, err := newProofCase(2, tui.ProbeOptions{Extras: true, SyncRender: true})
	if err != nil {
		t.Fatal(err)
	}
	defer sync.Close()
	if _, err := sync.Cold(); err != nil || sync.OffUIGoroutine {
		t.Errorf("rendering in Update not noticed (%v)", err)
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

// flipped is the file with its status flipped, as the write cases write it; the test
// fails if the status did not change.
func flipped(t *testing.T, file []byte) []byte {
	t.Helper()
	out, err := flipStatus(file)
	if err != nil {
		t.Fatal(err)
	}
	was, is := statusField.FindSubmatch(file)[1], statusField.FindSubmatch(out)[1]
	if bytes.Equal(was, is) || !bytes.Equal(bytes.Replace(out, is, was, 1), file) {
		t.Fatalf("flipStatus: %q → %q changes more than the status", was, is)
	}
	return out
}
