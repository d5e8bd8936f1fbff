package tui

import (
	"testing"

	"referee/live"
	"referee/model"
)

// ternaryTree is n statements under one problem, statement i the parent of 3i+1…3i+3,
// with extra more statements listed first under the first statement (rows that come
// above most others).
func ternaryTree(n, extra int) *live.Forest {
	snap := &model.Snapshot{Problems: map[string]*model.Problem{}, Statements: model.ObjectsOf(map[string]*model.Statement{}), Versions: model.ObjectsOf(map[string]string{})}
	p := &model.Problem{ID: "p-001", Status: "unresolved", Objectives: []string{"tree"}}
	snap.Problems["p-001"] = p
	cur := "s-000"
	var ids []string
	for range n + extra {
		cur, _ = model.NextID(cur)
		ids = append(ids, cur)
	}
	for i, sid := range ids[:n] {
		st := &model.Statement{ID: sid, Status: "pending", Conclusion: []string{"claim " + sid}}
		if i == 0 {
			st.Preliminaries = append(st.Preliminaries, ids[n:]...)
		}
		for c := 3*i + 1; c <= 3*i+3 && c < n; c++ {
			st.Preliminaries = append(st.Preliminaries, ids[c])
		}
		snap.Statements.Set(sid, st)
	}
	for _, sid := range ids[n:] {
		snap.Statements.Set(sid, &model.Statement{ID: sid, Status: "pending", Conclusion: []string{"claim " + sid}})
	}
	p.Progresses = []string{ids[0]}
	_, f := live.Derive(snap)
	return f
}

// When a rebuild moves the cursor's row by a few rows (a statement added above it), the
// cursor is found near where it was, without the index of every row; moved farther, the
// index finds it.
func TestRebuildFindsTheCursorNearWithoutTheIndex(t *testing.T) {
	tr := newTree()
	tr.SetSize(60, 40)
	tr.SetForest(ternaryTree(3000, 0))
	tr.moveTo(1500)
	path := tr.Cursor()

	tr.SetForest(ternaryTree(3000, 1))
	if tr.Cursor() != path || tr.cur != 1501 {
		t.Fatalf("cursor at row %d on %q, want row 1501 on %q", tr.cur, tr.Cursor(), path)
	}
	if tr.index != nil {
		t.Error("the index of every row was made for a cursor one row off")
	}

	tr.SetForest(ternaryTree(3000, 2+nearRows))
	if tr.Cursor() != path || tr.cur != 1500+2+nearRows {
		t.Fatalf("cursor at row %d on %q, want row %d on %q", tr.cur, tr.Cursor(), 1500+2+nearRows, path)
	}
}
