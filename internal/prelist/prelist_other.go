//go:build !linux

package prelist

// Start lists nothing here: the listing ahead is Linux's (inotify).
func Start(string) {}

// Take gives nothing here.
func Take(string) map[string][]Entry { return nil }

// Wait returns at once here.
func Wait() {}
