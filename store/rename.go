package store

import (
	"errors"
	"os"
)

// Renames that never replace a file: the agents create objects and backups in place,
// without a lock, so a file can appear where referee checked there was none. A change
// publishes its new objects, its backup files (and makes its backup folder) only where
// nothing is; a clash makes it take the next free ID and run again (see retrying).

// errUnsupported is what renameNoReplaceAt returns where the system has no
// RENAME_NOREPLACE (or the filesystem refuses it): linkRename stands in.
var errUnsupported = errors.New("rename without replacing is not supported here")

// renameNoReplace moves from to to, failing with an error that matches fs.ErrExist when
// to exists. It uses renameat2(RENAME_NOREPLACE) where the filesystem has it, else a
// hard link (which never replaces either) and the removal of from.
func renameNoReplace(from, to string) error {
	err := renameNoReplaceAt(from, to)
	if errors.Is(err, errUnsupported) {
		return linkRename(from, to)
	}
	if err != nil {
		return &os.LinkError{Op: "rename", Old: from, New: to, Err: err}
	}
	return nil
}

// linkRename is renameNoReplace by link and unlink. A crash between the two leaves the
// temp name as a second link to the file, which repair removes as a leftover temp file.
func linkRename(from, to string) error {
	if err := os.Link(from, to); err != nil {
		return err
	}
	return os.Remove(from)
}
