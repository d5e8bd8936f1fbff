package store

import (
	"path/filepath"

	"referee/internal/prelist"
	"referee/internal/timeline"
)

// listedAhead is the first load's listings of dir's object folders made while the
// workbench's process started (internal/prelist), by folder: those whose entries nothing
// has changed since. The workbench's watcher is in place before its first load, as
// prelist.Take asks; in any other process there are none.
func listedAhead(dir string) map[string][]listed {
	var out map[string][]listed
	timeline.Mark("listing")
	prelist.Take(dir, func(sub string, entries []prelist.Entry) {
		l := make([]listed, len(entries))
		for i, e := range entries {
			l[i] = listed{name: e.Name, path: e.Path, regular: e.Regular}
		}
		if out == nil {
			out = map[string][]listed{}
		}
		out[sub] = l
	})
	timeline.Mark("taken")
	return out
}

// listObjects lists the object folder sub of dir as listFolder does, or gives its
// listing made ahead.
func listObjects(dir, sub string, ahead map[string][]listed) ([]listed, error) {
	if entries, ok := ahead[sub]; ok {
		return entries, nil
	}
	return listFolder(filepath.Join(dir, sub), sub)
}
