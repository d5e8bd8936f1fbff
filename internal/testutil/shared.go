package testutil

// The tests that read ../shared (the real run and conformance fixtures, the format's
// reference) find it from the module root, whatever the package's folder, and skip, saying
// what they need, in a checkout that has no ../shared next to it: `go test ./...` then
// passes on what the repository holds.

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// Missing is the message a test skips with.
const Missing = "needs ../shared next to the repository (the fixtures mra-knights and mra-conformance and the format's reference); without it these tests are skipped"

var (
	rootOnce sync.Once
	root     string
)

// Root is the module root: the nearest folder holding go.mod, from the working directory
// (a package's folder under `go test`) upward. It is "" when there is none.
func Root() string {
	rootOnce.Do(func() {
		dir, err := os.Getwd()
		if err != nil {
			return
		}
		root = findRoot(dir)
	})
	return root
}

func findRoot(dir string) string {
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir
		}
		up := filepath.Dir(dir)
		if up == dir {
			return ""
		}
		dir = up
	}
}

// Shared is the absolute path of the shared folder: "shared" beside the module root.
func Shared() string {
	r := Root()
	if r == "" {
		return ""
	}
	return filepath.Join(filepath.Dir(r), "shared")
}

// Path is the absolute path of rel (slash-separated) inside the shared folder, whether or
// not it is there; Dir or Need skip a test when it is not.
func Path(rel string) string {
	s := Shared()
	if s == "" {
		return filepath.FromSlash("../shared/" + rel)
	}
	return filepath.Join(s, filepath.FromSlash(rel))
}

// Dir returns Path(rel), skipping the test when it is not there.
func Dir(t testing.TB, rel string) string {
	t.Helper()
	p := Path(rel)
	if _, err := os.Stat(p); err != nil {
		t.Skip(Missing)
	}
	return p
}

// Need skips the test when path lies in the shared folder and that is not there.
func Need(t testing.TB, path string) {
	t.Helper()
	if !Has(path) {
		t.Skip(Missing)
	}
}

// Has reports whether path is usable: it is not in the shared folder, or that is there.
func Has(path string) bool {
	return has(path, Shared())
}

func has(path, shared string) bool {
	if shared == "" {
		return true
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return true
	}
	if abs != shared && !strings.HasPrefix(abs, shared+string(filepath.Separator)) {
		return true
	}
	_, err = os.Stat(shared)
	return err == nil
}
