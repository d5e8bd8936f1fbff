package store

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"referee/model"
)

// ReadBounded reads up to its limit and refuses one byte more, naming the input.
func TestReadBounded(t *testing.T) {
	if got, err := ReadBounded(strings.NewReader("abcd"), 4, "x"); err != nil || string(got) != "abcd" {
		t.Fatalf("at the limit: %q, %v", got, err)
	}
	_, err := ReadBounded(strings.NewReader("abcde"), 4, "--params")
	if err == nil || err.Error() != "--params is more than 4 bytes (the limit)" {
		t.Fatalf("past the limit: %v", err)
	}
}

// A config.json past the object size is a broken file saying so, not read (a sparse
// file: nothing is written).
func TestConfigBound(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, ConfigFile), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(filepath.Join(dir, ConfigFile), MaxObjectSize+1); err != nil {
		t.Fatal(err)
	}
	snap, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := model.BrokenFile{Path: ConfigFile, Reason: fmt.Sprintf("is %d bytes, more than the %d an object file may have", MaxObjectSize+1, MaxObjectSize)}
	if !slices.Contains(snap.Broken, want) {
		t.Fatalf("broken: %+v", snap.Broken)
	}
}
