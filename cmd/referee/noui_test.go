package main

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"referee/store"
)

// The build without the UI (-tags noui) is the fast one for agents: it must do every CLI
// command the same, and say what it is when asked for the UI.
func TestBuildWithoutUI(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	bin := filepath.Join(t.TempDir(), "referee-noui")
	if out, err := exec.Command("go", "build", "-tags", "noui", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build -tags noui: %v\n%s", err, out)
	}
	deps, err := exec.Command("go", "list", "-tags", "noui", "-deps", ".").Output()
	if err != nil {
		t.Fatal(err)
	}
	for _, dep := range strings.Fields(string(deps)) {
		if dep == "referee/tui" || strings.HasPrefix(dep, "charm.land/glamour") {
			t.Errorf("the noui build still links %s", dep)
		}
	}
	out, err := exec.Command(bin, "--contents", "../../contents").Output()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(out), "contents: ../../contents (P014 vocabulary)\n") ||
		!strings.HasSuffix(string(out), "\n(This referee was built without the terminal UI (-tags noui); this is `referee status`.)\n") {
		t.Errorf("bare referee without the UI printed:\n%s", out)
	}
	list, err := exec.Command(bin, "skills", "list").Output()
	if err != nil || !strings.Contains(string(list), "check-confirm-proof") {
		t.Errorf("skills list: %v\n%s", err, list)
	}
	// This is the build the note of `skills install` recommends: it does not repeat it.
	install, err := exec.Command(bin, "skills", "install", "--dir", t.TempDir(), "--mcp-config", filepath.Join(t.TempDir(), ".mcp.json")).Output()
	if err != nil || strings.Count(string(install), "\n") != len(store.Skills)+1 || strings.Contains(string(install), "note:") {
		t.Errorf("skills install: %v\n%s", err, install)
	}
	if help, err := exec.Command(bin, "mcp", "--help").Output(); err != nil || !strings.Contains(string(help), "--http") {
		t.Errorf("mcp --help: %v\n%s", err, help)
	}
	// bench times the UI too, so this build has none; it says so.
	var stderr strings.Builder
	bench := exec.Command(bin, "bench")
	bench.Stderr = &stderr
	if err := bench.Run(); bench.ProcessState.ExitCode() != 2 ||
		stderr.String() != "referee: this referee was built without the terminal UI (-tags noui), and bench times the UI too; run bench from the default build (go build ./cmd/referee)\n" {
		t.Errorf("bench: %v, stderr %q", err, stderr.String())
	}
}
