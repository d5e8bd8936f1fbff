//go:build !linux

package prelist

// Start lists nothing here: the listing ahead is Linux's (inotify).
func Start(string) {}

// Take gives nothing here.
func Take(string, func(string, []Entry)) {}

// Wait returns at once here.
func Wait() {}

// Close does nothing here.
func Close() {}
