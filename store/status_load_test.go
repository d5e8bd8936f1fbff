package store

import (
	"maps"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"runtime/debug"
	"slices"
	"strings"
	"testing"

	"referee/gen"
	"referee/model"
)

// TestLoadStatusMakesRoom: status runs near a memory limit with the collector off; a
// skimmed load raises a limit set below what its files need (so the collector does not
// run again and again for nothing), never lowers one, and leaves one set by hand.
func TestLoadStatusMakesRoom(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "contents")
	if err := gen.Generate(dir, gen.Config{Statements: 300, Problems: 3, Seed: 2}); err != nil {
		t.Fatal(err)
	}
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(-1))
	const files = 300 + 3
	for _, c := range []struct {
		env        string
		set, after int64
	}{
		{"", 1 << 18, files * statusBytesPerObject},
		{"", 1 << 30, 1 << 30},
		{"", math.MaxInt64, math.MaxInt64},
		{"1MiB", 1 << 20, 1 << 20},
	} {
		t.Setenv("GOMEMLIMIT", c.env)
		debug.SetMemoryLimit(c.set)
		if _, err := LoadStatus(dir); err != nil {
			t.Fatal(err)
		}
		if got := debug.SetMemoryLimit(-1); got != c.after {
			t.Errorf("GOMEMLIMIT %q, limit %d: after a skimmed load of %d files the limit is %d, want %d", c.env, c.set, files, got, c.after)
		}
	}
}

// TestLoadStatusAsLoadNoLog: LoadStatus keeps its statements as a list under one index
// of IDs, not a map, and no versions; the statements are what LoadNoLog's map holds
// (every statement, none of the other kinds), beside the same problems,
// experiences, broken files and vocabulary: on a generated folder with files a load
// refuses (bad JSON, a bad name, a folder for a file) and one gone from its listing.
func TestLoadStatusAsLoadNoLog(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "contents")
	if err := gen.Generate(dir, gen.Config{Statements: 1100, Problems: 15, Seed: 6}); err != nil {
		t.Fatal(err)
	}
	write := func(rel, body string) {
		if err := os.WriteFile(filepath.Join(dir, rel), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("statement/s-002.json", `{"id": "s-002", "status": "true", "conclusion": ["x\q"]}`)
	write("statement/s-1.json", `{}`)
	// faults in the texts status drops: found by its own pass, reported by the parser's
	usual := `{"id": "s-003", "type": "normal", "conclusion": ["c"], "hypothesis": [], "preliminaries": [], "status": "true", "reliability": 1.0, "stats": {"count_usage": 0}, "progresses": ["p"], "proof": {"cot": ["c"], "full": "", "ref": []}, "validation": {"issues": ["i"], "responses": []}}`
	write("statement/s-003.json", strings.Replace(usual, `["i"]`, `["a \q"]`, 1))
	write("statement/s-004.json", strings.Replace(strings.Replace(usual, "s-003", "s-004", 1), `["p"]`, "[\"a\x01\"]", 1))
	write("statement/s-005.json", strings.Replace(usual, "s-003", "s-005", 1)[:150])
	write("problem/p-002.json", `[`)
	if err := os.MkdirAll(filepath.Join(dir, "experience"), 0o755); err != nil {
		t.Fatal(err)
	}
	write("experience/e-001.json", `{"id": "e-001", "content": "c"}`)
	if err := os.Mkdir(filepath.Join(dir, "statement", "s-zz001.json"), 0o755); err != nil {
		t.Fatal(err)
	}
	status, err := LoadStatus(dir)
	if err != nil {
		t.Fatal(err)
	}
	whole, err := LoadNoLog(dir)
	if err != nil {
		t.Fatal(err)
	}
	if status.Versions.Len() != 0 || whole.Versions.Len() < 1000 {
		t.Errorf("versions: %d from LoadStatus (it keeps none), %d from LoadNoLog", status.Versions.Len(), whole.Versions.Len())
	}
	if status.Statements.Len() != whole.Statements.Len() || status.Statements.Len() < 1000 {
		t.Errorf("%d statements from LoadStatus, %d from LoadNoLog", status.Statements.Len(), whole.Statements.Len())
	}
	for id, st := range whole.Statements.All() {
		if got := status.Statements.Get(id); got == nil || got.Status != st.Status || !slices.Equal(got.Preliminaries, st.Preliminaries) {
			t.Fatalf("%s: LoadStatus has %+v", id, got)
		}
	}
	for _, id := range []string{"p-001", "e-001", "s-002", "s-003", "s-004", "s-005", "s-1", "s-zz001", ""} {
		if status.Statements.Has(id) != whole.Statements.Has(id) {
			t.Errorf("Statements.Has(%q): %v from LoadStatus", id, status.Statements.Has(id))
		}
	}
	if !slices.Equal(slices.Sorted(maps.Keys(status.Problems)), slices.Sorted(maps.Keys(whole.Problems))) ||
		!slices.Equal(slices.Sorted(maps.Keys(status.Experiences)), slices.Sorted(maps.Keys(whole.Experiences))) ||
		len(status.Experiences) != 1 {
		t.Errorf("problems or experiences differ: %d, %d", len(status.Problems), len(status.Experiences))
	}
	if !slices.Equal(status.Broken, whole.Broken) || len(status.Broken) != 7 {
		t.Errorf("broken: %v from LoadStatus, %v from LoadNoLog", status.Broken, whole.Broken)
	}
	if status.Vocab != whole.Vocab {
		t.Errorf("vocabulary %v from LoadStatus, %v from LoadNoLog", status.Vocab, whole.Vocab)
	}
}

// TestLoadStatusReadsNoFileBack: a status load keeps no file for its statements to be
// read again from (nor the version to check one against): a statement's document and a
// long proof text fail, naming why, rather than answer empty or unchecked, for a
// statement of the usual shape and for one read by the parser.
func TestLoadStatusReadsNoFileBack(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "contents")
	if err := gen.Generate(dir, gen.Config{Statements: 40, Problems: 2, Seed: 3}); err != nil {
		t.Fatal(err)
	}
	odd := `{"id": "s-001", "status": "true", "conclusion": ["c"], "proof": {"full": "` + strings.Repeat("x", 5000) + `"}}`
	if err := os.WriteFile(filepath.Join(dir, "statement", "s-001.json"), []byte(odd), 0o644); err != nil {
		t.Fatal(err)
	}
	snap, err := LoadStatus(dir)
	if err != nil {
		t.Fatal(err)
	}
	long := 0
	for id, st := range snap.Statements.All() {
		if _, err := st.Document(); err == nil || !strings.Contains(err.Error(), "not kept by a status load") {
			t.Errorf("%s: Document: %v", id, err)
		}
		if st.Proof.Body != nil {
			long++
			if _, err := st.Proof.Text(); err == nil {
				t.Errorf("%s: a long proof's text read back", id)
			}
		}
	}
	if long == 0 || !snap.Statements.Has("s-001") {
		t.Fatalf("no long proof among %d statements", snap.Statements.Len())
	}
}

// TestLoadStatusNumbered: a status load numbers the objects from the folders' listing
// while it reads them, and that numbering derives what DeriveStatus derives; a folder
// with a file not read as listed (broken, or not an object's name) gets none.
func TestLoadStatusNumbered(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "contents")
	if err := gen.Generate(dir, gen.Config{Statements: 1500, Problems: 15, Seed: 8}); err != nil {
		t.Fatal(err)
	}
	snap, nb, err := LoadStatusNumbered(dir, true)
	if err != nil || nb == nil {
		t.Fatalf("a generated folder: numbering %v, %v", nb, err)
	}
	got, want := model.DeriveStatusNumbered(snap, nb), model.DeriveStatus(snap)
	next, scores := model.NextWithScores(snap, got)
	wantNext, wantScores := model.NextWithScores(snap, want)
	if !reflect.DeepEqual(got.Plain(), want.Plain()) || !slices.Equal(next, wantNext) || !slices.Equal(scores, wantScores) || len(next) == 0 {
		t.Error("the numbered derive differs from DeriveStatus")
	}
	for _, bad := range []struct{ rel, body string }{{"statement/s-002.json", "{"}, {"problem/p-1.json", "{}"}, {"statement/notes.txt", "x"}} {
		if err := os.WriteFile(filepath.Join(dir, bad.rel), []byte(bad.body), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, nb, err := LoadStatusNumbered(dir, true); err != nil || nb != nil {
			t.Errorf("with %s: numbering %v, %v; want none", bad.rel, nb, err)
		}
		if err := os.Remove(filepath.Join(dir, bad.rel)); err != nil { // the next case alone
			t.Fatal(err)
		}
	}
}
