package live

import (
	"fmt"
	"path/filepath"
	"testing"
	"unsafe"

	"referee/gen"
	"referee/model"
	"referee/store"
)

// A premises group's label counts its premises; the labels of the usual counts are one
// string each, shared by every group with that count, not a string per group.
func TestPremisesLabelsAreShared(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "contents")
	if err := gen.Generate(dir, gen.Config{Statements: 300, Problems: 3, Seed: 5}); err != nil {
		t.Fatal(err)
	}
	snap, err := store.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	f := newForest(snap, model.Derive(snap))
	first := map[string]*byte{}
	shared := 0
	for _, r := range f.Flatten(map[string]bool{}) {
		if r.Kind != RowGroup || r.ID != GroupPremises {
			continue
		}
		var n int
		if _, err := fmt.Sscanf(r.Label, "premises (%d)", &n); err != nil || r.Label != fmt.Sprintf("premises (%d)", n) {
			t.Fatalf("row %s: label %q", r.Path, r.Label)
		}
		if p, ok := first[r.Label]; ok {
			if p != unsafe.StringData(r.Label) {
				t.Fatalf("two groups labelled %q hold two strings", r.Label)
			}
			shared++
		} else {
			first[r.Label] = unsafe.StringData(r.Label)
		}
	}
	if shared == 0 {
		t.Fatal("no two premises groups with the same count: the test shows nothing")
	}
}
