package live

import (
	"os"
	"path/filepath"
	"reflect"
	"runtime/debug"
	"slices"
	"strings"
	"testing"

	"referee/gen"
	"referee/internal/testutil"
	"referee/model"
	"referee/store"
)

// A first frame's tree is the whole tree's start: the same rows (paths, depths, kinds,
// shared and open marks, group labels) under the default folds, the same canonical
// places for the objects it shows; Whole is the whole tree. Checked on the bundled demo,
// a generated run, and the shapes people make (chains, citations, fan-out), at limits
// from one row to past the end.
func TestFirstForestIsTheStartOfTheTree(t *testing.T) {
	folders := treeFolders(t, gen.Config{Statements: 600, Problems: 6, Seed: 3}, false)
	for name, dir := range folders {
		snap, err := store.Load(dir)
		if err != nil {
			t.Fatal(err)
		}
		g := model.Derive(snap)
		whole := newForest(snap, g)
		rows := whole.Flatten(map[string]bool{})
		partials := 0
		for _, limit := range []int{1, 2, 7, 40, 250, len(rows) - 1, len(rows), len(rows) + 5} {
			f := firstForest(snap, g, limit)
			if f == nil {
				if limit < rootRows(rows) {
					t.Errorf("%s: no first tree at %d of %d rows", name, limit, len(rows))
				}
				continue
			}
			partials++
			if !f.Partial() || limit >= len(rows) {
				t.Fatalf("%s: a partial tree of %d rows at limit %d", name, len(rows), limit)
			}
			got := f.Flatten(map[string]bool{"anything": true})
			if !slices.Equal(got, rows[:limit]) {
				for i := range got {
					if got[i] != rows[i] {
						t.Fatalf("%s, limit %d: row %d is %+v, the whole tree's %+v", name, limit, i, got[i], rows[i])
					}
				}
				t.Fatalf("%s, limit %d: %d rows", name, limit, len(got))
			}
			for _, r := range got {
				if r.Kind == RowProblem || r.Kind == RowStatement {
					if f.Canon(r.ID) != whole.Canon(r.ID) || f.CanonDir(r.ID) != whole.CanonDir(r.ID) {
						t.Fatalf("%s: %s placed at %q under %q, whole at %q under %q", name, r.ID, f.Canon(r.ID), f.CanonDir(r.ID), whole.Canon(r.ID), whole.CanonDir(r.ID))
					}
				}
			}
			w := f.Whole()
			if w.Partial() || !slices.Equal(w.Flatten(map[string]bool{}), rows) || !slices.Equal(w.Order(), whole.Order()) {
				t.Fatalf("%s: Whole is not the whole tree", name)
			}
		}
		if partials == 0 {
			t.Errorf("%s: never a partial tree", name)
		}
	}
}

// rootRows counts the rows of the roots' trees: those before the unattached or broken
// group, where a first tree stops.
func rootRows(rows []TreeRow) int {
	if i := slices.IndexFunc(rows, func(r TreeRow) bool {
		return r.Kind == RowGroup && (r.ID == GroupUnattached || r.ID == GroupBroken)
	}); i >= 0 {
		return i
	}
	return len(rows)
}

// A tree that fits in its first rows is built whole at once.
func TestFirstForestOfAShortTreeIsWhole(t *testing.T) {
	snap, _ := chainSnapshot(5)
	g := model.Derive(snap)
	if f := firstForest(snap, g, 6); f != nil {
		t.Fatalf("a tree of 6 rows, limit 6: partial %v", f.Partial())
	}
	f := firstForest(snap, g, 3)
	if !f.Partial() || len(f.Flatten(nil)) != 3 || f.Canon("s-004") != "" || f.Canon("s-002") != "@s-002" {
		t.Fatalf("limit 3: %+v", f.Flatten(nil))
	}
	if w := f.Whole(); w.Partial() || len(w.Flatten(map[string]bool{})) != 6 || w.Whole() != w {
		t.Fatal("Whole")
	}
}

// Shared objects and references to missing ones are marked in a first tree as in the
// whole: s-003 is under s-001 and s-002, s-009 (missing) under p-001 and s-003, a cycle
// runs s-005 → s-006 → s-005.
func TestFirstForestMarksSharedAndMissing(t *testing.T) {
	s := &model.Snapshot{Problems: map[string]*model.Problem{}, Statements: model.ObjectsOf(map[string]*model.Statement{})}
	s.Problems["p-001"] = &model.Problem{ID: "p-001", Status: "unresolved", Preliminaries: []string{"s-001", "s-002", "s-009"}}
	s.Problems["p-002"] = &model.Problem{ID: "p-002", Status: "unresolved", Preliminaries: []string{"s-004", "s-005"}}
	under := map[string][]string{"s-001": {"s-003"}, "s-002": {"s-003"}, "s-003": {"s-009"}, "s-005": {"s-006"}, "s-006": {"s-005"}}
	for _, id := range []string{"s-001", "s-002", "s-003", "s-004", "s-005", "s-006"} {
		s.Statements.Set(id, &model.Statement{ID: id, Type: "normal", Status: "pending", Conclusion: []string{"c"}, Preliminaries: under[id]})
	}
	g := model.Derive(s)
	rows := newForest(s, g).Flatten(map[string]bool{})
	marks := 0
	for _, r := range rows {
		if r.Shared || r.Kind == RowMissing || r.Kind == RowCycle {
			marks++
		}
	}
	if marks < 4 {
		t.Fatalf("the case marks too little: %+v", rows)
	}
	for limit := 1; limit < len(rows); limit++ {
		f := firstForest(s, g, limit)
		if f == nil {
			t.Fatalf("limit %d: no first tree", limit)
		}
		if got := f.Flatten(nil); !slices.Equal(got, rows[:limit]) {
			t.Fatalf("limit %d:\n%+v\nwant\n%+v", limit, got, rows[:limit])
		}
	}
}

// LoadFirst gives a first frame's tree for a folder whose tree is longer than the rows
// asked for, the whole tree otherwise; a frame derived from a first tree is whole. The
// collector stays off until resume, which puts back what was set before.
func TestLoadFirst(t *testing.T) {
	dir := testutil.Demo(t)
	whole := Load(dir, nil, nil)
	rows := whole.Forest.Flatten(map[string]bool{})
	before := debug.SetGCPercent(77)
	defer debug.SetGCPercent(before)
	fr, resume := LoadFirst(dir, nil, nil, 3, nil)
	if fr.LoadErr != nil || !fr.Forest.Partial() || !slices.Equal(fr.Forest.Flatten(nil), rows[:3]) {
		t.Fatalf("first frame: %v, %+v", fr.LoadErr, fr.Forest.Flatten(nil))
	}
	if got := debug.SetGCPercent(-1); got != -1 {
		t.Fatalf("the collector at %d%% before resume", got)
	}
	// The first frame's snapshot holds the log's last change (what the status bar
	// shows), the whole tree's the log's tail, as Load's.
	last := whole.Snap.Log[len(whole.Snap.Log)-1]
	last.Line = 0
	if len(whole.Snap.Log) < 2 || !reflect.DeepEqual(fr.Snap.Log, []model.LogEntry{last}) {
		t.Fatalf("the first frame's log: %+v, want the last change %+v", fr.Snap.Log, last)
	}
	w := fr.Forest.Whole()
	if ws := w.Snapshot(); ws == fr.Snap || !reflect.DeepEqual(ws.Log, whole.Snap.Log) || ws.LogHead != whole.Snap.LogHead ||
		ws.Statements.Len() != whole.Snap.Statements.Len() || !slices.Equal(w.Flatten(map[string]bool{}), rows) {
		t.Fatalf("the whole tree's snapshot holds %d log entries, want %d", len(ws.Log), len(whole.Snap.Log))
	}
	resume()
	resume()
	if got := debug.SetGCPercent(77); got != 77 {
		t.Fatalf("the collector at %d%% after resume, want 77", got)
	}
	all, resume := LoadFirst(dir, nil, nil, len(rows)+1, nil)
	resume()
	if all.Forest.Partial() || !slices.Equal(all.Forest.Flatten(map[string]bool{}), rows) || !reflect.DeepEqual(all.Snap.Log, whole.Snap.Log) {
		t.Fatal("a tree shorter than the rows asked for is not whole, with the log's tail")
	}
	_, f := DeriveFrom(fr.Forest, whole.Snap, nil)
	if f.Partial() || !slices.Equal(f.Flatten(map[string]bool{}), rows) {
		t.Fatal("derived from a first tree: not whole")
	}
}

// A log that cannot be read is a row of the broken group in the whole tree built from a
// first frame, as in a whole load's.
func TestWholeOfAFirstFrameListsABrokenLog(t *testing.T) {
	dir := testutil.Demo(t)
	log := filepath.Join(dir, store.LogFile)
	if err := os.Remove(log); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(log, 0o755); err != nil {
		t.Fatal(err)
	}
	whole := Load(dir, nil, nil)
	rows := whole.Forest.Flatten(map[string]bool{})
	if !slices.ContainsFunc(rows, func(r TreeRow) bool { return strings.Contains(r.Label+r.ID+r.Path, store.LogFile) }) {
		t.Fatalf("no row names the log: %+v", rows)
	}
	fr, resume := LoadFirst(dir, nil, nil, 3, nil)
	defer resume()
	w := fr.Forest.Whole()
	if !fr.Forest.Partial() || !slices.Equal(w.Flatten(map[string]bool{}), rows) || !slices.Equal(w.Snapshot().Broken, whole.Snap.Broken) {
		t.Fatalf("the whole tree of a first frame: %+v\nwant %+v", w.Flatten(map[string]bool{}), rows)
	}
}
