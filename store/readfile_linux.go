package store

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"syscall"
	"unsafe"

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

// readFolder lists the folder at path, sub inside the contents folder, in the kernel's
// order: each entry but . and .. by name and path (sub/name), regular if the listing
// says it is a regular file. It reads the listing with getdents into one buffer and cuts
// every path from one slab, where os.File.ReadDir makes an entry, a name and (for the
// caller) a path per file: at 100k statements a tenth of status's memory, all garbage.
func readFolder(path, sub string) ([]listed, error) {
	var fd int
	var err error
	for {
		fd, err = unix.Open(path, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
		if !errors.Is(err, unix.EINTR) {
			break
		}
	}
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	defer unix.Close(fd)
	// Room for as many entries as the folder's size suggests (ext4 gives about 32
	// bytes an entry), then doubling: append's growth by a quarter at this size
	// allocated five times the listing.
	var st unix.Stat_t
	hint := 64
	if unix.Fstat(fd, &st) == nil {
		hint = int(min(max(st.Size/24, 64), 1<<22))
	}
	buf := make([]byte, 256<<10)
	out := make([]listed, 0, hint)
	var slab []byte // the paths are parts of it; bytes once cut are never written over
	for {
		n, err := unix.Getdents(fd, buf)
		if errors.Is(err, unix.EINTR) {
			continue
		}
		if err != nil {
			return nil, &fs.PathError{Op: "readdirent", Path: path, Err: err}
		}
		if n <= 0 {
			return out, nil
		}
		for b := buf[:n]; len(b) >= 19; { // struct linux_dirent64: ino, off, reclen, type, name
			reclen := int(binary.NativeEndian.Uint16(b[16:]))
			if reclen < 19 || reclen > len(b) {
				return nil, &fs.PathError{Op: "readdirent", Path: path, Err: unix.EIO}
			}
			ino, typ, name := binary.NativeEndian.Uint64(b), b[18], b[19:reclen]
			if i := bytes.IndexByte(name, 0); i >= 0 {
				name = name[:i]
			}
			b = b[reclen:]
			if ino == 0 || string(name) == "." || string(name) == ".." { // as os.File.ReadDir skips them
				continue
			}
			size := len(sub) + 1 + len(name)
			if cap(slab)-len(slab) < size {
				slab = make([]byte, 0, max(size, 64<<10))
			}
			at := len(slab)
			slab = append(append(append(slab, sub...), '/'), name...)
			p := unsafe.String(&slab[at], size)
			if len(out) == cap(out) {
				out = slices.Grow(out, len(out))
			}
			out = append(out, listed{name: p[len(sub)+1:], path: p, regular: typ == unix.DT_REG})
		}
	}
}
