package mcpserver

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"time"

	"referee/internal/testutil"
)

var freshStart = testutil.Path("fixtures/mra-conformance/fresh/start")

// testNow pins the time of the changes the tests make.
var testNow = func() time.Time { return time.Date(2026, 1, 8, 12, 0, 0, 0, time.UTC) }

// freshFolder copies the agents' fresh start folder (six true statements, an open
// problem) to a temporary folder.
func freshFolder(t testing.TB) string {
	t.Helper()
	testutil.Need(t, freshStart)
	dst := filepath.Join(t.TempDir(), "contents")
	err := filepath.WalkDir(freshStart, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(freshStart, path)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

func sameFiles(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}
