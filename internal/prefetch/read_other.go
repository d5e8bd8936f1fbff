//go:build !linux

package prefetch

// Start does nothing here: the read ahead watches with inotify.
func Start(dir string) {}

// Take gives nothing here.
func Take(dir string) map[string]*Folder { return nil }

// For gives nothing here.
func For(taken map[string]*Folder, sub string, fd int) map[string][]byte { return nil }

// Wait does nothing here.
func Wait() {}
