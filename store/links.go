package store

// A contents folder is written by agents, so it may hold symbolic links planted to make
// referee read or write elsewhere (statement/ -> /etc, history/log.jsonl -> ~/.bashrc).
// referee follows no link inside the folder: not an object file, not an object folder,
// not history/, config.json, the log, the lock or a backup. The folder itself may be a
// link: the user named it.

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// linkReason is what Load and check say about a link in the folder.
const linkReason = "is a symbolic link (links are not followed)"

// errLink is returned when a path that referee reads or writes is a link.
var errLink = errors.New(linkReason)

// isLink reports whether rel (forward slashes, relative to dir) is a symbolic link.
func isLink(dir, rel string) bool {
	info, err := os.Lstat(filepath.Join(dir, filepath.FromSlash(rel)))
	return err == nil && info.Mode()&fs.ModeSymlink != 0
}

// refuseUnsafe fails with a LinkError naming the first path a change batch would
// write through that is a link, or (for config, log and lock) not a plain file. begin
// calls it before anything is written, so nothing is written through a link.
func refuseUnsafe(dir string) error {
	for _, rel := range []string{HistoryDir, ProblemDir, StatementDir, ExperienceDir, ConfigFile, LogFile, LockFile} {
		info, err := os.Lstat(filepath.Join(dir, filepath.FromSlash(rel)))
		if err != nil {
			continue // absent: created as a plain file or folder; other errors surface on use
		}
		if info.Mode()&fs.ModeSymlink != 0 {
			return linkf("%s %s; referee does not read or write through links in a contents folder", rel, linkReason)
		}
		if strings.Contains(rel, ".") && !info.Mode().IsRegular() {
			return linkf("%s %s", rel, regular(info))
		}
	}
	return nil
}

// readNoFollow reads a regular file and fails with errLink when path is a link. It never
// opens a FIFO or device (which could block or never end), and it compares the file it
// opened with what Lstat saw, so a link or FIFO swapped in between is refused too.
// A file over MaxObjectSize (every object, backup and config.json) is refused from its
// size, before anything is read.
func readNoFollow(path string) ([]byte, error) { return readNoFollowLimit(path, MaxObjectSize) }

// readLogNoFollow is readNoFollow for the change log, which has no size limit.
func readLogNoFollow(path string) ([]byte, error) { return readNoFollowLimit(path, -1) }

func readNoFollowLimit(path string, limit int64) ([]byte, error) {
	if data, err, ok := readNoFollowFast(path, limit); ok {
		return data, err
	}
	f, err := openNoFollow(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if limit < 0 {
		return io.ReadAll(f)
	}
	if info, err := f.Stat(); err == nil && info.Size() > limit {
		return nil, &fs.PathError{Op: "read", Path: path, Err: sizeError(info.Size(), limit)}
	}
	return ReadBounded(f, limit, path)
}

// sizeError is the loader's words for a file over the limit.
func sizeError(size, limit int64) error {
	return fmt.Errorf("is %d bytes, more than the %d an object file may have", size, limit)
}

// openNoFollow opens a regular file for reading with readNoFollow's checks.
func openNoFollow(path string) (*os.File, error) {
	before, err := os.Lstat(path)
	if err != nil {
		return nil, err
	}
	if err := regular(before); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	opened, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !os.SameFile(before, opened) {
		f.Close()
		return nil, errLink
	}
	return f, nil
}

// regular says why a file referee reads or writes is not a plain file, or nil.
func regular(info fs.FileInfo) error {
	switch {
	case info.Mode()&fs.ModeSymlink != 0:
		return errLink
	case info.IsDir():
		return errors.New("is a directory, expected a file")
	case !info.Mode().IsRegular():
		return errors.New("is not a regular file")
	}
	return nil
}

// ReadBounded reads r to its end, but no more than limit bytes: past it, an error that
// names the input (what) and the limit. Every input referee reads whole goes through a
// bound like this one: /dev/zero as --params once grew the process to 23 GB.
func ReadBounded(r io.Reader, limit int64, what string) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("%s is more than %d bytes (the limit)", what, limit)
	}
	return data, nil
}

// readFileBounded is os.ReadFile with ReadBounded's limit.
func readFileBounded(path string, limit int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadBounded(f, limit, path)
}

// errBackupFolderLink says a change's backup folder history/l-…/ is a link: its backups
// would be read from wherever it points.
var errBackupFolderLink = errors.New("its folder is a link or not a folder (links are not followed)")

// readBackup reads a backup history/<change>/<id>.json (path is absolute) as readNoFollow
// does, and refuses it too when its folder is a link.
func readBackup(path string) ([]byte, error) {
	if err := backupFolderOK(path); err != nil {
		return nil, err
	}
	return readNoFollow(path)
}

// backupFolderOK refuses a backup whose folder is not a plain folder.
func backupFolderOK(path string) error {
	info, err := os.Lstat(filepath.Dir(path))
	if err == nil && (info.Mode()&fs.ModeSymlink != 0 || !info.IsDir()) {
		return errBackupFolderLink
	}
	return nil
}

// RefuseLinks fails, as a change would, when a folder or file of dir that referee reads
// (statement/, history/, config.json…) is a link or not what it should be: a read then
// refuses with the reason instead of showing an empty folder.
func RefuseLinks(dir string) error { return refuseUnsafe(dir) }
