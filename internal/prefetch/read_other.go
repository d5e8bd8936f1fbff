//go:build !linux

package prefetch

// Start does nothing here: the read ahead watches with inotify.
func Start(dir string) {}

// Take gives nothing here.
func Take(dir string) *Taken { return nil }

// Taken is never made here.
type Taken struct{}

// Release does nothing here.
func (t *Taken) Release() {}

// For gives nothing here.
func (t *Taken) For(sub string, fd int) map[string][]byte { return nil }

// Wait does nothing here.
func Wait() {}
