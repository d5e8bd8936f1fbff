package live

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"referee/gen"
	"referee/internal/testutil"
	"referee/model"
	"referee/store"
)

// A glimpse is the whole tree's start, read from a few files: the same rows (paths,
// depths, kinds, open marks, group labels), none marked shared, each row's phase and
// next agent Derive's. Checked on the demo, a generated run, the shapes people make
// (chains, citations, fan-out) and the agents' runs, at limits from one row to past
// the roots' trees, where it refuses.
func TestGlimpseIsTheStartOfTheTree(t *testing.T) {
	folders := treeFolders(t, gen.Config{Statements: 3000, Problems: 30, Seed: 3}, true)
	glimpses := map[string]int{}
	for name, dir := range folders {
		snap, err := store.Load(dir)
		if err != nil {
			t.Fatal(err)
		}
		g := model.Derive(snap)
		rows := newForest(snap, g).Flatten(map[string]bool{})
		for _, limit := range []int{1, 2, 7, 40, 250, rootRows(rows), rootRows(rows) + 3} {
			gl, err := NewGlimpse(dir, limit)
			if limit >= rootRows(rows) {
				if err == nil {
					t.Errorf("%s: a glimpse of %d rows where the roots' trees have %d", name, limit, rootRows(rows))
				}
				continue
			}
			if err != nil {
				t.Errorf("%s, limit %d: %v", name, limit, err)
				continue
			}
			glimpses[name]++
			if len(gl.Rows) != limit {
				t.Fatalf("%s, limit %d: %d rows", name, limit, len(gl.Rows))
			}
			for i, r := range gl.Rows {
				want := rows[i]
				want.Shared = false
				if r != want {
					t.Fatalf("%s, limit %d: row %d is %+v, the whole tree's %+v", name, limit, i, r, rows[i])
				}
				if r.Kind != RowProblem && r.Kind != RowStatement {
					continue
				}
				if gl.Graph.Phase.Get(r.ID) != g.Phase.Get(r.ID) || gl.Graph.Next.Get(r.ID) != g.Next.Get(r.ID) {
					t.Fatalf("%s: %s phase %v next %q, Derive's %v %q", name, r.ID, gl.Graph.Phase.Get(r.ID), gl.Graph.Next.Get(r.ID), g.Phase.Get(r.ID), g.Next.Get(r.ID))
				}
				if gl.Snap.Statements.Get(r.ID) == nil && gl.Snap.Problems[r.ID] == nil {
					t.Fatalf("%s: %s is a row but was not read", name, r.ID)
				}
			}
			if name == "generated" && limit <= 40 && gl.Snap.Statements.Len() > 400 {
				t.Errorf("%s: %d rows read %d statements of %d", name, limit, gl.Snap.Statements.Len(), snap.Statements.Len())
			}
		}
	}
	for name := range folders { // each folder's tree is longer than a few rows
		if glimpses[name] == 0 {
			t.Errorf("%s: %d glimpses made", name, glimpses[name])
		}
	}
}

// A glimpse guesses nothing: a file among those it reads that does not parse, or an
// object folder that is a link, ends it (the load lists them as broken); a reference to
// an object with no file is a missing row, as in the whole tree.
func TestGlimpseRefusesWhatTheLoadListsAsBroken(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "run")
	if err := gen.Generate(dir, gen.Config{Statements: 400, Problems: 4, Seed: 9}); err != nil {
		t.Fatal(err)
	}
	gl, err := NewGlimpse(dir, 20)
	if err != nil {
		t.Fatal(err)
	}
	var first string // the first statement row: its file is read by any glimpse of 20 rows
	for _, r := range gl.Rows {
		if r.Kind == RowStatement {
			first = r.ID
			break
		}
	}
	if first == "" {
		t.Fatal("no statement among the first rows")
	}
	path := filepath.Join(dir, store.StatementDir, first+".json")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, data[:len(data)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := NewGlimpse(dir, 20); err == nil || !strings.Contains(err.Error(), first) {
		t.Fatalf("a half-written %s: %v", first, err)
	}
	// Gone: a missing row where it was, as the whole tree shows it.
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	gl, err = NewGlimpse(dir, 20)
	if err != nil {
		t.Fatal(err)
	}
	snap, err := store.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	rows := newForest(snap, model.Derive(snap)).Flatten(map[string]bool{})
	missing := 0
	for i, r := range gl.Rows {
		want := rows[i]
		want.Shared = false
		if r != want {
			t.Fatalf("row %d is %+v, the whole tree's %+v", i, r, rows[i])
		}
		if r.Kind == RowMissing && r.ID == first {
			missing++
		}
	}
	if missing == 0 {
		t.Fatalf("%s gone is no missing row: %+v", first, gl.Rows)
	}
	// An object folder that is a link.
	moved := filepath.Join(t.TempDir(), "statement")
	if err := os.Rename(filepath.Join(dir, store.StatementDir), moved); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(moved, filepath.Join(dir, store.StatementDir)); err != nil {
		t.Fatal(err)
	}
	if _, err := NewGlimpse(dir, 20); err == nil || !strings.Contains(err.Error(), "link") {
		t.Fatalf("statement/ a link: %v", err)
	}
}

// Whatever is done to the files a glimpse reads (cut short, removed, made a folder or a
// link, rewritten with other references, a stray file beside them), a glimpse is the
// tree's start or no glimpse: never rows the load would show otherwise.
func TestGlimpseIsRightOrRefuses(t *testing.T) {
	base := filepath.Join(t.TempDir(), "base")
	if err := gen.Generate(base, gen.Config{Statements: 250, Problems: 3, Seed: 4, Backups: 1}); err != nil {
		t.Fatal(err)
	}
	first, err := NewGlimpse(base, 30)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string // the objects of the glimpse's rows and the rest it read
	for id := range first.Snap.Statements.Keys() {
		ids = append(ids, id)
	}
	for id := range first.Snap.Problems {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	faults := []func(path string) error{
		func(p string) error { return os.Truncate(p, 40) },
		os.Remove,
		func(p string) error { return errors.Join(os.Remove(p), os.Mkdir(p, 0o755)) },
		func(p string) error { return errors.Join(os.Rename(p, p+".real"), os.Symlink(p+".real", p)) },
		func(p string) error { // another statement's references: the tree changes shape
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			return os.WriteFile(p, []byte(strings.Replace(string(data), `"preliminaries": [`, `"preliminaries": ["s-001", `, 1)), 0o644)
		},
		func(p string) error {
			return os.WriteFile(filepath.Join(filepath.Dir(p), "notes.json"), []byte("{}"), 0o644)
		},
		func(p string) error { return os.WriteFile(p+".swp", []byte("x"), 0o644) },
	}
	right, refused := 0, 0
	for i := range 4 * len(faults) {
		dir := filepath.Join(t.TempDir(), "run")
		if err := os.CopyFS(dir, os.DirFS(base)); err != nil {
			t.Fatal(err)
		}
		id := ids[(i*7)%len(ids)]
		kindDir := store.StatementDir
		if model.KindOf(id) == model.KindProblem {
			kindDir = store.ProblemDir
		}
		if err := faults[i%len(faults)](filepath.Join(dir, kindDir, id+".json")); err != nil {
			t.Fatal(err)
		}
		gl, err := NewGlimpse(dir, 30)
		if err != nil {
			refused++
			continue
		}
		snap, err := store.Load(dir)
		if err != nil {
			t.Fatal(err)
		}
		g := model.Derive(snap)
		rows := newForest(snap, g).Flatten(map[string]bool{})
		for j, r := range gl.Rows {
			want := rows[j]
			want.Shared = false
			if r != want {
				t.Fatalf("fault %d on %s: row %d is %+v, the whole tree's %+v", i%len(faults), id, j, r, rows[j])
			}
			if (r.Kind == RowProblem || r.Kind == RowStatement) && (gl.Graph.Phase.Get(r.ID) != g.Phase.Get(r.ID) || gl.Graph.Next.Get(r.ID) != g.Next.Get(r.ID)) {
				t.Fatalf("fault %d on %s: %s's phase or next differs", i%len(faults), id, r.ID)
			}
		}
		right++
	}
	if right < 10 || refused < 10 {
		t.Fatalf("%d glimpses right, %d refused: the faults tell too little", right, refused)
	}
}

// treeFolders are the folders a tree is checked on: the demo, a generated run (cfg),
// the shapes people make (chains, citations, fan-out) and, with agents, the agents'
// runs when ../shared is there.
func treeFolders(t *testing.T, cfg gen.Config, agents bool) map[string]string {
	folders := map[string]string{"demo": testutil.Demo(t)}
	tmp := t.TempDir()
	run := filepath.Join(tmp, "run")
	if err := gen.Generate(run, cfg); err != nil {
		t.Fatal(err)
	}
	folders["generated"] = run
	for _, sh := range []gen.Shape{gen.ShapeChain, gen.ShapeCitations, gen.ShapeFanout} {
		dir := filepath.Join(tmp, string(sh))
		if err := gen.WriteShape(dir, sh, 300); err != nil {
			t.Fatal(err)
		}
		folders[string(sh)] = dir
	}
	if agents {
		more, _ := filepath.Glob(filepath.Join(testutil.Path("fixtures"), "*", "contents"))
		for _, d := range more {
			folders[filepath.Base(filepath.Dir(d))] = d
		}
	}
	return folders
}
