package tui

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"referee/internal/testutil"
)

// TestTmuxAskedOnce: inside tmux the workbench asks `tmux info` for the colour profile
// once (lipgloss's detection when the process starts), not again when Bubble Tea starts
// beside the first frame's load.
func TestTmuxAskedOnce(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	if runtime.GOOS == "windows" {
		t.Skip("needs a pseudo-terminal")
	}
	bin, tmp := refereeBinary(t), t.TempDir()
	// A tmux that notes each call and knows nothing (a profile of 256 colours).
	fake, calls := filepath.Join(tmp, "bin"), filepath.Join(tmp, "calls")
	if err := os.Mkdir(fake, 0o755); err != nil {
		t.Fatal(err)
	}
	script := "#!/bin/sh\necho \"$*\" >> '" + calls + "'\n"
	if err := os.WriteFile(filepath.Join(fake, "tmux"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	env := slices.DeleteFunc(os.Environ(), func(v string) bool {
		name, _, _ := strings.Cut(v, "=")
		return slices.Contains([]string{"COLORTERM", "NO_COLOR", "CLICOLOR", "CLICOLOR_FORCE", "TTY_FORCE", "TMUX", "TERM", "PATH"}, name)
	})
	cmd := exec.Command(bin, "--contents", testutil.Demo(t), "--theme", "dark")
	cmd.Env = append(env, "TERM=xterm-256color", "TMUX=/nonexistent/tmux-0/default,1,0", "REFEREE_ACTOR=",
		"PATH="+fake+string(os.PathListSeparator)+os.Getenv("PATH"))
	vt := startVT(t, cmd, 120, 40)
	vt.waitText("p-001 · problem")
	data, err := os.ReadFile(calls)
	if err != nil {
		t.Fatalf("tmux was never asked: %v", err)
	}
	if got := strings.Split(strings.TrimSpace(string(data)), "\n"); !slices.Equal(got, []string{"info"}) {
		t.Errorf("tmux was asked %q, want [info] once", got)
	}
}
