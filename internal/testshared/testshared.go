// Package testshared lets the tests that read ../shared (the real run and conformance
// fixtures, the format's reference) skip, saying what they need, in a checkout that has
// no ../shared next to it: `go test ./...` then passes on what the repository holds.
package testshared

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Missing is the message a test skips with.
const Missing = "needs ../shared next to the repository (the fixtures mra-knights and mra-conformance and the format's reference); without it these tests are skipped"

// Need skips the test when path lies in a shared folder that is not there.
func Need(t testing.TB, path string) {
	t.Helper()
	if !Has(path) {
		t.Skip(Missing)
	}
}

// Has reports whether path is usable: it is not in ../shared, or ../shared is there.
func Has(path string) bool {
	slash := filepath.ToSlash(path)
	i := strings.Index(slash, "shared/")
	if i < 0 || (i > 0 && slash[i-1] != '/') {
		return true
	}
	_, err := os.Stat(filepath.FromSlash(slash[:i+len("shared")]))
	return err == nil
}
