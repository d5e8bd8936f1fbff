package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"referee/internal/testutil"
)

// In the agents' own repository: a dry run prints the diffs and writes nothing; install
// and uninstall give back every file byte for byte; every referee call written into their
// SKILL.md files is one the CLI takes (run on the knights run, it is done or refused by a
// precondition, never a bad command).
func TestSkillsInstallInTheAgentsRepository(t *testing.T) {
	repo := testutil.AgentsRepo(t)
	before := testutil.Files(t, repo)

	o := referee(t, repo, "", "skills", "install", "--dry-run", "--agent-command", "referee")
	if o.code != 0 || !strings.Contains(o.stdout, "\n+referee skill prob-core-statement \\\n") ||
		!strings.Contains(o.stdout, "would be merged .claude/skills/prob-core-statement/SKILL.md: 2 script call(s) now call referee\n") ||
		!strings.Contains(o.stdout, "\n(dry run: nothing written)\n") {
		t.Errorf("dry run: %d\n%s\n%s", o.code, o.stdout, o.stderr)
	}
	sameTree(t, testutil.Files(t, repo), before)

	o = referee(t, repo, "", "skills", "install", "--agent-command", "referee")
	if o.code != 0 || strings.Contains(o.stdout, "warning:") {
		t.Errorf("install: %d\n%s\n%s", o.code, o.stdout, o.stderr)
	}

	root := copyFixture(t)
	skills, _ := filepath.Glob(filepath.Join(repo, ".claude", "skills", "*", "SKILL.md"))
	// Their eleven, abandon, and decide-modification (the orchestrator's, or a human's).
	if len(skills) != 13 {
		t.Fatalf("%d skills installed, want 13", len(skills))
	}
	calls := 0
	for _, path := range skills {
		for _, cmd := range refereeBlocks(readFile(t, path)) {
			calls++
			code, out := shell(t, root, cmd)
			if code != 0 && code != 1 {
				t.Errorf("%s: exit %d: %s\n%s", filepath.Base(filepath.Dir(path)), code, out, cmd)
			}
		}
	}
	if calls != 19 { // their 17 samples (a create-then-link pair is one call now), abandon's and decide-modification's
		t.Errorf("%d referee calls in the SKILL.md files, want 19", calls)
	}

	o = referee(t, repo, "", "skills", "uninstall")
	if o.code != 0 || strings.Contains(o.stdout, "kept") {
		t.Errorf("uninstall: %d\n%s\n%s", o.code, o.stdout, o.stderr)
	}
	sameTree(t, testutil.Files(t, repo), before)
	if _, err := os.Stat(filepath.Join(repo, ".referee")); err == nil {
		t.Errorf("uninstall left .referee")
	}
}

// refereeBlocks are the code blocks of a SKILL.md that call referee.
func refereeBlocks(doc string) []string {
	var out []string
	for i, part := range strings.Split(doc, "```") {
		if i%2 == 0 {
			continue // outside the fences
		}
		_, body, ok := strings.Cut(part, "\n")
		if ok && strings.HasPrefix(body, "referee skill ") {
			out = append(out, body)
		}
	}
	return out
}

// shell runs a script as an agent would, with this referee first on the PATH, in dir; it
// returns the exit code and what the script printed.
func shell(t *testing.T, dir, script string) (int, []byte) {
	t.Helper()
	cmd := exec.Command("sh", "-c", script)
	cmd.Dir = dir
	cmd.Env = []string{"PATH=" + filepath.Dir(binary) + ":" + os.Getenv("PATH"), "REFEREE_NOW=" + now}
	out, err := cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode(), out
	} else if err != nil {
		t.Fatal(err)
	}
	return 0, out
}
