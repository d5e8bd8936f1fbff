package store

import (
	"path/filepath"

	"referee/internal/prelist"
)

// listedAhead is the first load's listings of dir's object folders made while the
// workbench's process started (internal/prelist), by folder: those whose entries nothing
// has changed since. The workbench's watcher is in place before its first load, as
// prelist.Take asks; in any other process there are none.
func listedAhead(dir string) map[string][]prelist.Entry { return prelist.Take(dir) }

// listObjects lists the object folder sub of dir as listFolder does, or gives its
// listing made ahead.
func listObjects(dir, sub string, ahead map[string][]prelist.Entry) ([]listed, error) {
	entries, ok := ahead[sub]
	if !ok {
		return listFolder(filepath.Join(dir, sub), sub)
	}
	out := make([]listed, len(entries))
	for i, e := range entries {
		out[i] = listed{name: e.Name, path: e.Path, regular: e.Regular}
	}
	return out, nil
}
