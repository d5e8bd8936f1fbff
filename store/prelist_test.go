package store

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"referee/gen"
	"referee/internal/prelist"
	"referee/model"
)

// TestFirstLoadTakesTheListingAhead: the workbench's first load takes the listings made
// while the process started (internal/prelist) and loads what a load without them
// loads, with files added and removed after they were listed, in a folder untouched
// since, and in one whose object folder is a link.
func TestFirstLoadTakesTheListingAhead(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("lists ahead on Linux only")
	}
	for _, c := range []struct {
		name   string
		change func(t *testing.T, dir string)
	}{
		{"untouched", func(*testing.T, string) {}},
		{"files added and removed", func(t *testing.T, dir string) {
			data, err := os.ReadFile(filepath.Join(dir, "statement", "s-001.json"))
			if err != nil {
				t.Fatal(err)
			}
			write(t, dir, "statement/s-900.json", strings.Replace(string(data), `"s-001"`, `"s-900"`, 1))
			if err := os.Remove(filepath.Join(dir, "statement", "s-002.json")); err != nil {
				t.Fatal(err)
			}
			write(t, dir, "problem/p-900.json", "not json")
		}},
		{"statement/ a link", func(t *testing.T, dir string) {
			if err := os.Rename(filepath.Join(dir, "statement"), filepath.Join(dir, "elsewhere")); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink("elsewhere", filepath.Join(dir, "statement")); err != nil {
				t.Fatal(err)
			}
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "contents")
			if err := gen.Generate(dir, gen.Config{Statements: 60, Problems: 3, Seed: 27}); err != nil {
				t.Fatal(err)
			}
			prelist.Start(dir)
			prelist.Wait()
			c.change(t, dir)
			got, err := LoadFirstThen(dir, nil, nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			prelist.Take(dir, func(sub string, _ []prelist.Entry) {
				t.Errorf("the load left the listing ahead of %s/ untaken", sub)
			})
			want, err := LoadFirstThen(dir, nil, nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			if g, w := loaded(got), loaded(want); g != w {
				t.Errorf("with the listings ahead the load gave\n%s\nwithout\n%s", g, w)
			}
		})
	}
}

// loaded is what a load read: its objects' IDs and versions, and its broken files.
func loaded(snap *model.Snapshot) string {
	var lines []string
	for id, v := range snap.Versions.All() {
		lines = append(lines, id+" "+v)
	}
	for id := range snap.Problems {
		lines = append(lines, "problem "+id)
	}
	for id := range snap.Statements.Keys() {
		lines = append(lines, "statement "+id)
	}
	slices.Sort(lines)
	for _, b := range snap.Broken {
		lines = append(lines, fmt.Sprintf("broken %s: %s", b.Path, b.Reason))
	}
	return strings.Join(lines, "\n")
}
