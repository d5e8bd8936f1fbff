package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"referee/internal/testutil"
)

// TestDemoOpensAScratchCopy: the bundled demo is recognised by its marker and worked on
// in a scratch copy, said on screen; a change there leaves the checkout as it is.
func TestDemoOpensAScratchCopy(t *testing.T) {
	if !IsDemo(testutil.DemoDir()) {
		t.Fatalf("../contents lacks %s: the bundled demo would be opened in place", DemoMarker)
	}
	if IsDemo(testutil.Demo(t)) {
		t.Fatal("a folder without the marker counts as the demo")
	}
	demo := testutil.Copy(t, testutil.DemoDir()) // stands for the checkout
	scratch, err := ScratchCopy(demo)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(filepath.Dir(scratch)) })
	before := readFile(t, filepath.Join(demo, "statement/s-014.json"))
	m := openModel(t, scratch, Options{NoWatch: true, SyncLoad: true, DemoOf: demo}, 120, 40)
	if !strings.Contains(screen(m), "(demo: scratch copy)") || !strings.Contains(m.status.message, "stays as it is") {
		t.Fatalf("the screen does not say the demo is a scratch copy:\n%s", screen(m))
	}
	keys(t, m, "n", "C", "enter", "y")
	if len(m.writes.done) != 1 {
		t.Fatalf("C y did not write: %q", m.status.message)
	}
	if readFile(t, filepath.Join(demo, "statement/s-014.json")) != before {
		t.Fatal("a change on the demo reached the checkout")
	}
	if !strings.Contains(readFile(t, filepath.Join(scratch, "statement/s-014.json")), `"true"`) {
		t.Fatal("the change did not reach the scratch copy")
	}
}

// TestEmptyFolderSuggestsInit: an empty folder says how to start.
func TestEmptyFolderSuggestsInit(t *testing.T) {
	for _, sz := range [][2]int{{80, 24}, {120, 40}} {
		m := openTestModel(t, t.TempDir(), sz[0], sz[1])
		if got := screen(m); !strings.Contains(got, "referee init --contents") {
			t.Fatalf("%dx%d: an empty folder does not suggest referee init:\n%s", sz[0], sz[1], got)
		}
	}
}
