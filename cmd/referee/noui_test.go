package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"referee/internal/testutil"
	"referee/skill"
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
	out, err := exec.Command(bin, "--contents", testutil.DemoDir()).Output()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(out), "contents: "+testutil.DemoDir()+" (P014 vocabulary)\n") ||
		!strings.HasSuffix(string(out), "\n(This referee was built without the terminal UI (-tags noui); this is `referee status`.)\n") {
		t.Errorf("bare referee without the UI printed:\n%s", out)
	}
	list, err := exec.Command(bin, "skills", "list").Output()
	if err != nil || !strings.Contains(string(list), "check-confirm-proof") {
		t.Errorf("skills list: %v\n%s", err, list)
	}
	// This is the agent build `skills install` recommends: SKILL.md files calling it get no
	// note; ones calling the default build get the one command that builds this one.
	dir := t.TempDir()
	install := exec.Command(bin, "skills", "install", "--dir", filepath.Join(dir, "skills"), "--mcp-config", filepath.Join(dir, ".mcp.json"),
		"--backup-dir", filepath.Join(dir, "backup"), "--agent-command", bin)
	if out, err := install.Output(); err != nil || strings.Count(string(out), "\n") != len(skill.Skills)+2 || strings.Contains(string(out), "note:") ||
		!strings.Contains(readFile(t, filepath.Join(dir, "skills", "abandon", "SKILL.md")), "\n"+bin+" skill abandon \\\n") {
		t.Errorf("skills install: %v\n%s", err, out)
	}
	install = exec.Command(bin, "skills", "install", "--dir", filepath.Join(dir, "skills2"), "--mcp-config", "",
		"--backup-dir", filepath.Join(dir, "backup2"), "--agent-command", binary)
	if out, err := install.Output(); err != nil || !strings.Contains(string(out), "\nnote: the agents start `"+binary+" skill …` once per call;") ||
		!strings.Contains(string(out), " && CGO_ENABLED=0 go build -tags noui,nomcp -o "+filepath.Join(filepath.Dir(bin), "referee-agent")+" ./cmd/referee) && referee skills install --agent-command ") {
		t.Errorf("skills install with the default build as the agent command: %v\n%s", err, out)
	}
	// With no --agent-command, an agent build the shell finds as referee-agent is the one
	// the SKILL.md files call, and there is no note.
	onPath := t.TempDir()
	data, err := os.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(onPath, "referee-agent"), data, 0o755); err != nil {
		t.Fatal(err)
	}
	install = exec.Command(bin, "skills", "install", "--dir", filepath.Join(dir, "skills3"), "--mcp-config", "", "--backup-dir", filepath.Join(dir, "backup3"))
	install.Env = append(os.Environ(), "PATH="+onPath+string(filepath.ListSeparator)+os.Getenv("PATH"))
	if out, err := install.Output(); err != nil || strings.Contains(string(out), "note:") ||
		!strings.Contains(readFile(t, filepath.Join(dir, "skills3", "abandon", "SKILL.md")), "\nreferee-agent skill abandon \\\n") {
		t.Errorf("skills install with referee-agent on the PATH: %v\n%s", err, out)
	}
	if help, err := exec.Command(bin, "mcp", "--help").Output(); err != nil || !strings.Contains(string(help), "--http") {
		t.Errorf("mcp --help: %v\n%s", err, help)
	}
}
