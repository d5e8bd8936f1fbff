package store

import (
	"errors"

	"golang.org/x/sys/unix"
)

// renameat2 is unix.Renameat2; tests replace it to take the fallback path.
var renameat2 = unix.Renameat2

func renameNoReplaceAt(from, to string) error {
	err := renameat2(unix.AT_FDCWD, from, unix.AT_FDCWD, to, unix.RENAME_NOREPLACE)
	// EINVAL: the filesystem does not take the flag; ENOSYS: the kernel has no renameat2.
	if errors.Is(err, unix.EINVAL) || errors.Is(err, unix.ENOSYS) || errors.Is(err, unix.EOPNOTSUPP) {
		return errUnsupported
	}
	return err
}
