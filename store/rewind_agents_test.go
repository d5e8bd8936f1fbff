package store

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"referee/internal/testutil"
)

// The agents' own scripts (Ranch0o0/MRA-v1 at d8d7638, read from the local mirror, never
// copied into the project) on a folder referee rewound: current.py reads it, and their
// rewind.py, asked to go back to before referee's rewind, restores every object byte for
// byte from the backups the rewind made, and leaves history/branches/ alone. Skipped
// without python3 or the mirror.
const agentsMirror = "/work/.mirror/Ranch0o0+MRA-v1/repo"

func agentsScript(t *testing.T, root, name string) {
	t.Helper()
	out, err := exec.Command("git", "-C", agentsMirror, "show", "HEAD:src/"+name).Output()
	if err != nil {
		t.Skipf("the agents' mirror is not readable: %v", err)
	}
	if err := os.WriteFile(filepath.Join(root, "src", name), out, 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestAgentsScriptsReadARewind(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 is not installed")
	}
	if _, err := os.Stat(agentsMirror); err != nil {
		t.Skip("the agents' mirror is absent")
	}
	root := t.TempDir()
	if err := os.Mkdir(filepath.Join(root, "src"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"utils.py", "current.py", "rewind.py"} {
		agentsScript(t, root, name)
	}
	dir := filepath.Join(root, "contents")
	if err := os.Rename(testutil.Copy(t, fixtureDir), dir); err != nil {
		t.Fatal(err)
	}
	before := tracked(t, dir)
	if _, err := BranchSave(dir, "x", Options{Now: pinned}); err != nil { // l-007
		t.Fatal(err)
	}
	r, err := Rewind(dir, "l-001", false, Options{Now: pinned}) // l-008
	if err != nil {
		t.Fatal(err)
	}
	if r.Change != "l-008" {
		t.Fatalf("the rewind is %s", r.Change)
	}
	run := func(script, stdin string) string {
		cmd := exec.Command(py, filepath.Join(root, "src", script))
		cmd.Dir = root
		cmd.Stdin = strings.NewReader(stdin)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s: %v\n%s", script, err, out)
		}
		return string(out)
	}
	if out := run("current.py", ""); !strings.Contains(out, "=== Actionable Problems ===") {
		t.Errorf("current.py after the rewind:\n%s", out)
	}
	// Their rewind, to l-007 (before referee's): edit its target as their README says.
	src := filepath.Join(root, "src", "rewind.py")
	code, _ := os.ReadFile(src)
	edited := strings.Replace(string(code), `targeted_log_id = "l-000"`, `targeted_log_id = "l-007"`, 1)
	if edited == string(code) {
		t.Fatal("rewind.py has no targeted_log_id to set")
	}
	os.WriteFile(src, []byte(edited), 0o644)
	out := run("rewind.py", "y\n")
	if !strings.Contains(out, "Restored: s-007 from l-008") || !strings.Contains(out, "Rewind complete.") {
		t.Errorf("rewind.py:\n%s", out)
	}
	after := tracked(t, dir)
	for path, data := range before {
		if path != ConfigFile && !bytes.Equal(after[path], data) {
			t.Errorf("after their rewind past referee's, %s is not as it was", path)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, filepath.FromSlash(manifestRel("x")))); err != nil {
		t.Errorf("their rewind removed the branch store: %v", err)
	}
	run("current.py", "")
	agentsRead(t, dir)
}
