package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// `referee bench` runs referee-bench beside the binary on this binary, every argument
// passed on and its exit code kept; without referee-bench (and outside referee's source
// tree) it says how to get it.
func TestBenchRunsRefereeBench(t *testing.T) {
	dir := t.TempDir()
	self := filepath.Join(dir, "referee")
	data, err := os.ReadFile(binary)
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, self, string(data))
	if err := os.Chmod(self, 0o755); err != nil {
		t.Fatal(err)
	}
	run := func(args ...string) outcome {
		t.Helper()
		saved := binary
		binary = self
		defer func() { binary = saved }()
		return referee(t, dir, "", args...)
	}
	run("bench", "--sizes", "10").want(t, 2, "", "referee: bench runs referee-bench, found neither beside "+self+
		" nor on $PATH: install it from referee's source with `go install ./cmd/referee-bench`, or run `referee bench` in that source folder\n")
	writeFile(t, filepath.Join(dir, "referee-bench"), "#!/bin/sh\necho \"referee-bench $*\"\nexit 3\n")
	if err := os.Chmod(filepath.Join(dir, "referee-bench"), 0o755); err != nil {
		t.Fatal(err)
	}
	run("bench", "--sizes", "10", "--table=false").want(t, 3, "referee-bench --binary "+self+" --sizes 10 --table=false\n", "")
	run("bench", "--binary", "/other/referee", "--help").want(t, 3, "referee-bench --binary /other/referee --help\n", "")
	if out := run("--help"); !strings.Contains(out.stdout, "bench ") {
		t.Errorf("help lists no bench:\n%s", out.stdout)
	}
}
