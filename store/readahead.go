package store

import "referee/internal/prefetch"

// readAhead gives a load's object folders the files the workbench's process read while
// it started (internal/prefetch), if it read this folder and these very folders: the
// first load of the process takes them, and a file touched since it was read is not
// among them. The workbench's watcher is in place before its first load, as Take asks.
// release gives their memory back, once the load's reads are parsed.
func readAhead(dir string, folders map[string]folder) (release func()) {
	taken := prefetch.Take(dir)
	if taken == nil {
		return func() {}
	}
	for sub, f := range folders {
		if f.err == nil {
			f.ahead = taken.For(sub, f.fd)
			folders[sub] = f
		}
	}
	return taken.Release
}
