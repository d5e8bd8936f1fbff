package bench

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The live rows read the screen: the tree is shown once a row names an object, the
// status bar's last change is found, quantiles are of the sorted figures.
func TestLiveScreenReading(t *testing.T) {
	screen := []string{"╭─ Tree · 3 rows ─╮", "│▾ ◆ solved    p-001 Prove…│", "", " referee demo │ ● live │ last: l-a012 state-complete-proof · agent-prove", " hints"}
	if !treeShown(screen) || treeShown([]string{"loading 10%", "", "", ""}) {
		t.Fatal("treeShown")
	}
	if m := lastShown.FindStringSubmatch(screen[3]); m == nil || m[1] != "l-a012" {
		t.Fatalf("last change: %v", m)
	}
	ds := []time.Duration{5, 1, 4, 2, 3}
	if quantile(ds, 0.5) != 3 || quantile(ds, 0.99) != 5 || quantile(nil, 0.5) != 0 || ds[0] != 5 {
		t.Fatal("quantile")
	}
}

// The live rows' kept folder is generated once and then reused as it is (the rows'
// changes stay in it); an interrupted generation leaves nothing taken for a folder.
func TestLiveFolderIsKept(t *testing.T) {
	tmp := t.TempDir()
	dir, err := LiveFolder(tmp, 120, 3)
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Join(tmp, "referee-bench-live-120-3", "contents"); dir != want {
		t.Fatalf("folder %s, want %s", dir, want)
	}
	mark := filepath.Join(dir, "kept-mark")
	if err := os.WriteFile(mark, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	again, err := LiveFolder(tmp, 120, 3)
	if err != nil || again != dir {
		t.Fatalf("second call: %s, %v", again, err)
	}
	if _, err := os.Stat(mark); err != nil {
		t.Fatalf("the kept folder was generated again: %v", err)
	}
	entries, _ := os.ReadDir(tmp)
	if len(entries) != 1 {
		t.Fatalf("left beside the folder: %v", entries)
	}
}

// Openings are reported per binary, failures named, the ratio taken pair by pair.
func TestWriteOpens(t *testing.T) {
	ms := func(v ...int) []time.Duration {
		var out []time.Duration
		for _, x := range v {
			out = append(out, time.Duration(x)*time.Millisecond)
		}
		return out
	}
	var b strings.Builder
	WriteOpens(&b, 10000, []OpenReport{
		{Binary: "a", First: ms(10, 12, 11), Tree: ms(100, 200, 150), TreeCPU: ms(300, 310, 320), Loaded: ms(100, 200, 150)},
		{Binary: "b", First: ms(10, 12, 11), Tree: ms(50, 100, 150), TreeCPU: ms(200, 210, 220), Loaded: ms(230, 220, 240)},
		{Binary: "c", Err: errors.New("no tree | here\nmore")},
	})
	for _, want := range []string{"| a (3 runs) | 11.0 ms | 150.0 ms (100.0 ms–200.0 ms) | 310.0 ms | 1.00× | 150.0 ms |",
		"| b (3 runs) | 11.0 ms | 100.0 ms (50.0 ms–150.0 ms) | 210.0 ms | 0.50× | 230.0 ms |", "| c | failed: no tree / here | | | | |"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("missing %q in\n%s", want, b.String())
		}
	}
}
