package store

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// readNoFollowFast is readNoFollow in five system calls (lstat, open, fstat, one read,
// close) instead of os.File's eleven or so for a small file: no poller registration, and
// one read into a buffer sized from fstat. A rewind deep into a big run reads tens of
// thousands of files, so the calls are most of its time. ok is false when it cannot
// tell (the caller then reads the usual way).
func readNoFollowFast(path string, limit int64) (data []byte, err error, ok bool) {
	before, err := os.Lstat(path)
	if err != nil {
		return nil, err, true
	}
	if err := regular(before); err != nil {
		return nil, err, true
	}
	var fd int
	for {
		// O_NOFOLLOW: a link swapped in since the Lstat is refused; O_NONBLOCK: a FIFO
		// swapped in does not block the open.
		fd, err = unix.Open(path, unix.O_RDONLY|unix.O_NONBLOCK|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
		if !errors.Is(err, unix.EINTR) {
			break
		}
	}
	if errors.Is(err, unix.ELOOP) {
		return nil, errLink, true
	}
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: path, Err: err}, true
	}
	defer unix.Close(fd)
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return nil, &fs.PathError{Op: "stat", Path: path, Err: err}, true
	}
	sys, isStat := before.Sys().(*syscall.Stat_t)
	if !isStat {
		return nil, nil, false
	}
	if st.Mode&unix.S_IFMT != unix.S_IFREG || st.Dev != uint64(sys.Dev) || st.Ino != uint64(sys.Ino) {
		return nil, errLink, true
	}
	// The size first: a 2 GiB file is refused without a byte read or allocated.
	if limit >= 0 && st.Size > limit {
		return nil, &fs.PathError{Op: "read", Path: path, Err: sizeError(st.Size, limit)}, true
	}
	// One byte more than the size: a short read then says the end was reached (a file
	// that grows meanwhile is read on until it ends, as io.ReadAll would).
	buf := make([]byte, 0, st.Size+512)
	for {
		n, err := unix.Read(fd, buf[len(buf):cap(buf)])
		if errors.Is(err, unix.EINTR) || errors.Is(err, unix.EAGAIN) {
			continue
		}
		if err != nil {
			return nil, &fs.PathError{Op: "read", Path: path, Err: err}, true
		}
		if n == 0 {
			return buf, nil, true
		}
		buf = buf[:len(buf)+n]
		if len(buf) < cap(buf) {
			return buf, nil, true
		}
		if limit >= 0 && int64(len(buf)) > limit {
			return nil, &fs.PathError{Op: "read", Path: path, Err: fmt.Errorf("grew to more than the %d bytes an object file may have", limit)}, true
		}
		buf = append(buf, 0)[:len(buf)] // grow
	}
}
