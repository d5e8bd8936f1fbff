package store

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"referee/model"
	"referee/model/pyjson"
)

// A reload of statements shares the problems map with the snapshot before it (the map
// is never written then); a reload of a problem, or of a file whose ID the map holds,
// builds on a copy and leaves the snapshot before it as it was.
func TestReloadSharesTheProblemsMapWhenNoProblemChanged(t *testing.T) {
	dir := t.TempDir()
	for _, sub := range []string{ProblemDir, StatementDir} {
		if err := os.MkdirAll(filepath.Join(dir, sub), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	put := func(rel string, doc pyjson.Value) {
		if err := os.WriteFile(filepath.Join(dir, rel), pyjson.EncodeIndent(doc), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	put("problem/p-001.json", model.NewProblem("p-001", []string{"(s-001) h"}, []string{"o"}, "unresolved", "", ""))
	put("statement/s-001.json", model.NewStatement("s-001", "normal", []string{"c"}, nil, "pending"))
	put("statement/s-002.json", model.NewStatement("s-002", "normal", []string{"c"}, nil, "pending"))
	snap, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	same := func(a, b map[string]*model.Problem) bool {
		return reflect.ValueOf(a).UnsafePointer() == reflect.ValueOf(b).UnsafePointer()
	}

	put("statement/s-001.json", model.NewStatement("s-001", "normal", []string{"c"}, nil, "true"))
	next := Reload(dir, snap, []string{"statement/s-001.json"})
	if !same(next.Problems, snap.Problems) || next.Problems["p-001"] != snap.Problems["p-001"] {
		t.Error("a reload of a statement copied the problems map")
	}
	if next.Statements.Get("s-001").Status != "true" {
		t.Errorf("s-001 reloaded as %q", next.Statements.Get("s-001").Status)
	}
	os.Remove(filepath.Join(dir, "statement", "s-002.json"))
	gone := Reload(dir, next, []string{"statement/s-002.json"})
	if !same(gone.Problems, snap.Problems) || gone.Statements.Has("s-002") || len(gone.Problems) != 1 {
		t.Errorf("a removed statement: shared %v, s-002 still there %v, %d problems", same(gone.Problems, snap.Problems), gone.Statements.Has("s-002"), len(gone.Problems))
	}

	put("problem/p-001.json", model.NewProblem("p-001", []string{"(s-001) h"}, []string{"o"}, "solved", "", ""))
	solved := Reload(dir, gone, []string{"problem/p-001.json"})
	if same(solved.Problems, gone.Problems) || solved.Problems["p-001"].Status != "solved" || gone.Problems["p-001"].Status != "unresolved" {
		t.Error("a reload of a problem wrote into the map of the snapshot before it")
	}
}
