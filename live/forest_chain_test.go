package live

import (
	"reflect"
	"slices"
	"testing"

	"referee/model"
)

// chainSnapshot is p-001 → s-001 → s-002 → … (n statements), each the sub-statement
// of the one before, and their IDs in order.
func chainSnapshot(n int) (*model.Snapshot, []string) {
	ids := make([]string, n)
	last := "s-000"
	for i := range ids {
		last, _ = model.NextID(last)
		ids[i] = last
	}
	s := &model.Snapshot{Problems: map[string]*model.Problem{}, Statements: model.ObjectsOf(map[string]*model.Statement{})}
	s.Problems["p-001"] = &model.Problem{ID: "p-001", Status: "unresolved", Preliminaries: ids[:1]}
	for i, id := range ids {
		st := &model.Statement{ID: id, Type: "normal", Status: "pending", Conclusion: []string{"c"}}
		if i+1 < n {
			st.Preliminaries = ids[i+1 : i+2]
		}
		s.Statements.Set(id, st)
	}
	return s, ids
}

// A deep chain costs memory linear in its length: every row's path is short, and the
// rows above the deepest are found from it.
func TestForestChainPathsStayShort(t *testing.T) {
	n := 3000
	snap, ids := chainSnapshot(n)
	f := newForest(snap, model.Derive(snap))
	rows := f.Flatten(map[string]bool{})
	if len(rows) != n+1 {
		t.Fatalf("%d rows, want %d: %+v … %+v", len(rows), n+1, rows[:2], rows[len(rows)-2:])
	}
	total := 0
	for _, r := range rows {
		total += len(r.Path)
	}
	for _, p := range f.canon {
		total += len(p)
	}
	if total > 20*(n+1) {
		t.Fatalf("paths take %d bytes for %d rows: not linear", total, n+1)
	}
	last := rows[len(rows)-1]
	if last.Path != "@"+ids[n-1] || last.Depth != n {
		t.Fatalf("the deepest row: %q at depth %d", last.Path, last.Depth)
	}
	up := f.Ancestors(last.Path)
	if len(up) != n || up[0] != "@p-001" || up[n-1] != "@"+ids[n-2] || !slices.Equal(up[1:3], []string{"@s-001", "@s-002"}) {
		t.Fatalf("ancestors of the deepest: %d, from %q to %q", len(up), up[0], up[len(up)-1])
	}
	if near, more := f.NearestAncestors(last.Path, 3); !more || !slices.Equal(near, up[n-3:]) {
		t.Fatalf("the 3 nearest ancestors: %q (more %v), want %q", near, more, up[n-3:])
	}
	if all, more := f.NearestAncestors(last.Path, n); more || !slices.Equal(all, up) {
		t.Fatalf("the %d nearest ancestors of %d: %d (more %v)", n, n, len(all), more)
	}
	if !f.onPath(last.Path, ids[0]) || f.onPath("@"+ids[4], ids[8]) {
		t.Fatal("onPath does not follow the chain up")
	}
}

// Kept makes a value once per key for a tree, and a tree with the next snapshot (with)
// starts again: the values derive from the snapshot.
func TestForestKeptOncePerTree(t *testing.T) {
	snap, _ := chainSnapshot(3)
	f := newForest(snap, model.Derive(snap))
	made := 0
	draw := func() any { made++; return made }
	if a, b, c := f.Kept("x", draw), f.Kept("x", draw), f.Kept("y", draw); a != 1 || b != 1 || c != 2 {
		t.Fatalf("Kept = %v, %v, %v, want 1, 1, 2", a, b, c)
	}
	next := f.with(snap, f.g)
	if v := next.Kept("x", draw); v != 3 {
		t.Fatalf("the next tree's Kept = %v, want 3 (made again)", v)
	}
	none := &Forest{shape: &shape{}}
	if v, w := none.Kept("x", draw), none.Kept("x", draw); v != 4 || w != 5 {
		t.Fatalf("a tree without a store: Kept = %v, %v, want 4, 5 (made each time)", v, w)
	}
}

// A file that does not parse at all (a writer's half-written new file, a torn log) comes
// and goes without the tree being built again: the next tree keeps the links' maps and
// shows the broken group as the last row of the top level, and the flattened rows follow.
func TestForestBrokenFilesKeepTheShape(t *testing.T) {
	snap, _ := chainSnapshot(3)
	f := newForest(snap, model.Derive(snap))
	before := f.Flatten(nil)
	torn := *snap
	torn.Broken = []model.BrokenFile{{Path: "statement/s-009.json", Reason: "unexpected end of JSON input"}}
	g := f.with(&torn, f.g)
	if g.shape == f.shape || !sameMap(g.canon, f.canon) || !sameMap(g.kids, f.kids) {
		t.Fatal("the tree with a broken file did not share the links' maps")
	}
	rows := g.Flatten(nil)
	if len(rows) != len(before)+2 || !slices.Equal(rows[:len(before)], before) {
		t.Fatalf("rows %+v, want %+v and the broken group", rows, before)
	}
	if grp, file := rows[len(rows)-2], rows[len(rows)-1]; grp.ID != GroupBroken || grp.Label != "files that do not parse (1)" ||
		!grp.Open || file.Kind != RowBroken || file.ID != "statement/s-009.json" || file.Depth != 1 {
		t.Fatalf("broken rows %+v, %+v", grp, file)
	}
	if got := g.Children(rows[len(rows)-2]); !slices.Equal(got, []string{"statement/s-009.json"}) {
		t.Fatalf("the group's children %q", got)
	}
	h := g.with(snap, f.g)
	if got := h.Flatten(nil); !slices.Equal(got, before) || len(h.BrokenOrphans()) != 0 {
		t.Fatalf("after the file parsed again: %+v, broken %v", got, h.BrokenOrphans())
	}
}

// sameMap says whether two maps are the same map (not equal ones).
func sameMap[M ~map[K]V, K comparable, V any](a, b M) bool {
	return reflect.ValueOf(a).UnsafePointer() == reflect.ValueOf(b).UnsafePointer()
}
