//go:build !linux

package store

func renameNoReplaceAt(from, to string) error { return errUnsupported }
