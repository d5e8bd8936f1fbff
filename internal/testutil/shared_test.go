package testutil

import (
	"os"
	"path/filepath"
	"testing"
)

func TestHas(t *testing.T) {
	dir := t.TempDir()
	there := filepath.Join(dir, "shared")
	if err := os.Mkdir(there, 0o755); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(dir, "nowhere", "shared")
	for _, c := range []struct {
		path, shared string
		want         bool
	}{
		{filepath.Join(there, "fixtures", "x"), there, true},
		{filepath.Join(missing, "x"), missing, false},
		{missing, missing, false},
		{filepath.Join(dir, "notshared", "x"), missing, true},
		{missing + "x", missing, true},
		{"testdata/demo", missing, true},
	} {
		if got := has(c.path, c.shared); got != c.want {
			t.Errorf("has(%q, %q) = %v, want %v", c.path, c.shared, got, c.want)
		}
	}
}

// The module root is found from any folder below it; Path lies beside it.
func TestRootFromBelow(t *testing.T) {
	dir := t.TempDir()
	deep := filepath.Join(dir, "mod", "a", "b")
	if err := os.MkdirAll(deep, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "mod", "go.mod"), []byte("module x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, want := findRoot(deep), filepath.Join(dir, "mod"); got != want {
		t.Errorf("findRoot = %q, want %q", got, want)
	}
	if got := findRoot(dir); got != "" && filepath.Dir(got) == dir {
		t.Errorf("findRoot above the module = %q", got)
	}
	if got, want := Root(), filepath.Dir(filepath.Dir(mustWd(t))); got != want {
		t.Errorf("Root() = %q, want %q", got, want)
	}
	if got, want := Path("fixtures/x"), filepath.Join(filepath.Dir(Root()), "shared", "fixtures", "x"); got != want {
		t.Errorf("Path = %q, want %q", got, want)
	}
}

func mustWd(t *testing.T) string {
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	return wd
}
