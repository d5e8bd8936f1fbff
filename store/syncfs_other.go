//go:build !linux

package store

// syncFS is syncfs(2) where there is one; elsewhere each file is fsynced.
func syncFS(string) bool { return false }
