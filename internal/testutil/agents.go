package testutil

import (
	"archive/tar"
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// AgentsCommit is the commit of the agents' repository (github.com/Ranch0o0/MRA-v1) the
// installer is tested on.
const AgentsCommit = "d8d7638"

// MissingAgents is the message a test needing the agents' repository skips with.
const MissingAgents = "needs a git copy of the agents' repository Ranch0o0/MRA-v1 holding commit " + AgentsCommit +
	" ($REFEREE_AGENTS_REPO, ../shared/fixtures/mra-knights/Ranch0o0+MRA-v1, or /work/.mirror/Ranch0o0+MRA-v1/repo) and git; without it these tests are skipped"

// AgentsRepo extracts the agents' repository at AgentsCommit into a new temporary folder
// and returns its path, or skips the test saying what it needs. Their files are taken
// at test time and never enter this repository.
func AgentsRepo(t testing.TB) string {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip(MissingAgents)
	}
	var candidates []string
	if env := os.Getenv("REFEREE_AGENTS_REPO"); env != "" {
		candidates = append(candidates, env)
	}
	if Root() != "" {
		candidates = append(candidates, Path("fixtures/mra-knights/Ranch0o0+MRA-v1"))
	}
	candidates = append(candidates, "/work/.mirror/Ranch0o0+MRA-v1/repo")
	for _, c := range candidates {
		if _, err := os.Stat(c); err != nil {
			continue
		}
		out, err := exec.Command("git", "-C", c, "archive", AgentsCommit).Output()
		if err != nil {
			continue
		}
		dir := t.TempDir()
		if err := untar(out, dir); err != nil {
			t.Fatalf("extracting the agents' repository from %s: %v", c, err)
		}
		return dir
	}
	t.Skip(MissingAgents)
	return ""
}

func untar(data []byte, dir string) error {
	r := tar.NewReader(bytes.NewReader(data))
	for {
		h, err := r.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		name := filepath.FromSlash(h.Name)
		if strings.HasPrefix(filepath.Clean(name), "..") || filepath.IsAbs(name) {
			return errors.New("a path outside the archive: " + h.Name)
		}
		path := filepath.Join(dir, name)
		switch h.Typeflag {
		case tar.TypeDir:
			if err := os.MkdirAll(path, 0o755); err != nil {
				return err
			}
		case tar.TypeReg:
			if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
				return err
			}
			b, err := io.ReadAll(r)
			if err != nil {
				return err
			}
			if err := os.WriteFile(path, b, os.FileMode(h.Mode).Perm()); err != nil {
				return err
			}
		}
	}
}
