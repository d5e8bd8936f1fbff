package testshared

import (
	"os"
	"path/filepath"
	"testing"
)

func TestHas(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "shared"), 0o755); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]bool{
		filepath.Join(dir, "shared", "fixtures", "x"): true,
		filepath.Join(dir, "nowhere", "shared", "x"):  false,
		filepath.Join(dir, "notshared", "x"):          true,
		"testdata/demo":                               true,
	} {
		if got := Has(path); got != want {
			t.Errorf("Has(%q) = %v, want %v", path, got, want)
		}
	}
}
