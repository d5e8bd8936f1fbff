package store

import (
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"testing"

	"referee/gen"
	"referee/internal/prefetch"
	"referee/model"
)

// TestLoadTakesWhatWasReadAhead: a load takes the files the process read ahead
// (internal/prefetch) in place of reading them, and reads again those touched since:
// its snapshot is the one a load without it makes, on a generated folder with a file
// that does not parse, a link and a file written after the read ahead. A file written
// where the folder's watch cannot see it (through a hard link elsewhere) shows that the
// bytes read ahead were the ones parsed.
func TestLoadTakesWhatWasReadAhead(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reads ahead on Linux only")
	}
	dir := filepath.Join(t.TempDir(), "contents")
	if err := gen.Generate(dir, gen.Config{Statements: 60, Problems: 2, Seed: 3}); err != nil {
		t.Fatal(err)
	}
	st := filepath.Join(dir, StatementDir)
	if err := os.WriteFile(filepath.Join(st, "s-900.json"), []byte(`{"id": "s-900", `), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("s-001.json", filepath.Join(st, "s-901.json")); err != nil {
		t.Fatal(err)
	}
	outside := filepath.Join(t.TempDir(), "s-002.json")
	if err := os.Link(filepath.Join(st, "s-002.json"), outside); err != nil {
		t.Fatal(err)
	}
	want, err := LoadNoLog(dir)
	if err != nil {
		t.Fatal(err)
	}

	prefetch.Start(dir)
	prefetch.Wait()
	// Written after the read ahead, as the agents write: the load reads it again.
	written, err := os.ReadFile(filepath.Join(st, "s-003.json"))
	if err != nil {
		t.Fatal(err)
	}
	written = append(written, '\n')
	if err := os.WriteFile(filepath.Join(st, "s-003.json"), written, 0o644); err != nil {
		t.Fatal(err)
	}
	want.Versions.Set("s-003", model.Version(written))
	// Unseen by the watch: the load parses what was read ahead.
	if err := os.WriteFile(outside, []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := LoadNoLog(dir)
	if err != nil {
		t.Fatal(err)
	}
	if g, w := maps.Collect(got.Versions.All()), maps.Collect(want.Versions.All()); !reflect.DeepEqual(g, w) {
		t.Errorf("versions differ:\n got %v\nwant %v", g, w)
	}
	if !reflect.DeepEqual(got.Broken, want.Broken) {
		t.Errorf("broken files:\n got %v\nwant %v", got.Broken, want.Broken)
	}
	for id, w := range want.Statements.All() {
		g := got.Statements.Get(id)
		if g == nil || g.Status != w.Status || !reflect.DeepEqual(g.Conclusion, w.Conclusion) || !reflect.DeepEqual(g.Preliminaries, w.Preliminaries) {
			t.Errorf("%s: got %+v, want %+v", id, g, w)
		}
	}
	if got.Statements.Len() != want.Statements.Len() || len(got.Problems) != len(want.Problems) {
		t.Errorf("%d statements and %d problems, want %d and %d", got.Statements.Len(), len(got.Problems), want.Statements.Len(), len(want.Problems))
	}
	// The next load reads the folder itself: the bytes written through the link.
	again, err := LoadNoLog(dir)
	if err != nil {
		t.Fatal(err)
	}
	if again.Statements.Has("s-002") || len(again.Broken) != len(want.Broken)+1 {
		t.Errorf("the load after the first read s-002 from what was read ahead, not from its file: %v", again.Broken)
	}
}
