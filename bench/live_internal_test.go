package bench

import (
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
