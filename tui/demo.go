package tui

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// DemoMarker is the file that marks a folder as referee's bundled demo: the workbench
// opens a scratch copy of such a folder, so that trying keys never changes the
// checkout. Any other folder (a real run's) is always opened in place.
const DemoMarker = ".referee-demo"

// IsDemo reports whether dir is the bundled demo.
func IsDemo(dir string) bool {
	_, err := os.Stat(filepath.Join(dir, DemoMarker))
	return err == nil
}

// ScratchCopy copies a folder into a new temporary folder and returns the copy's path
// (…/contents, so the workbench's title reads the same); remove its parent when done.
func ScratchCopy(dir string) (string, error) {
	root, err := os.MkdirTemp("", "referee-demo-")
	if err != nil {
		return "", err
	}
	dst := filepath.Join(root, "contents")
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
	if err != nil {
		_ = os.RemoveAll(root)
		return "", fmt.Errorf("cannot make a scratch copy of the demo %s: %w", dir, err)
	}
	return dst, nil
}
