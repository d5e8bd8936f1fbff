package store

import (
	"math"
	"path/filepath"
	"runtime/debug"
	"testing"

	"referee/gen"
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
