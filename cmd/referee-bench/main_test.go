package main

import (
	"os/exec"
	"strings"
	"testing"
)

// --binary names the referee timed; a path that is not a program is refused before any
// folder is generated.
func TestBinaryFlag(t *testing.T) {
	var out, errs strings.Builder
	if code := run([]string{"--binary", "/nonexistent/referee"}, &out, &errs); code != 2 ||
		errs.String() != "referee-bench: --binary: /nonexistent/referee is not a program\n" || out.Len() != 0 {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out.String(), errs.String())
	}
	errs.Reset()
	if code := run([]string{"--shapes", "--shape", "spiral"}, &out, &errs); code != 2 || !strings.HasPrefix(errs.String(), `referee-bench: --shape: "spiral" is not a shape`) {
		t.Fatalf("exit %d, stderr %q", code, errs.String())
	}
}

// The product binary links none of the measuring code: it is this command's. (A
// pseudo-terminal package it may link: referee serve opens real ones for SSH sessions.)
func TestRefereeLinksNoMeasuringCode(t *testing.T) {
	out, err := goList("-deps", "referee/cmd/referee")
	if err != nil {
		t.Skip("go list: ", err)
	}
	for _, pkg := range []string{"referee/bench", "referee/bench/tuimeasure", "github.com/hinshun/vt10x"} {
		for _, line := range strings.Split(out, "\n") {
			if line == pkg {
				t.Errorf("cmd/referee links %s", pkg)
			}
		}
	}
}

func goList(args ...string) (string, error) {
	out, err := exec.Command("go", append([]string{"list"}, args...)...).Output()
	return string(out), err
}
