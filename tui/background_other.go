//go:build !linux

package tui

// lowerPriority does nothing where a thread's priority cannot be set apart.
func lowerPriority() {}
