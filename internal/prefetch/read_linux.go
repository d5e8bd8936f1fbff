package prefetch

import (
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"unsafe"
)

// reading is the read under way (nil once taken, or when none started).
var reading struct {
	sync.Mutex
	r *reader
}

type reader struct {
	slab    []byte // what the files are read into, outside the Go heap (nil: none mapped)
	used    int
	dir     string
	stop    atomic.Bool
	done    chan struct{}
	watches int // the inotify instance, -1 if none
	wd      map[int32]string
	folders map[string]*Folder
}

// Start reads dir's object files on a goroutine of its own until Take (a second Start
// replaces the first, whose files are dropped).
func Start(dir string) {
	r := &reader{dir: filepath.Clean(dir), done: make(chan struct{}), watches: -1, wd: map[int32]string{}, folders: map[string]*Folder{}}
	reading.Lock()
	old := reading.r
	reading.r = r
	reading.Unlock()
	if old != nil {
		old.finish()
	}
	go r.run()
}

// Take stops the read and gives what it read of dir and nothing has touched since, by
// folder (nil: nothing, or another folder was read). Only the first Take after Start
// gets it. Call it once the caller's own watch on the folders is in place, and Release
// it once nothing reads its files' bytes.
func Take(dir string) *Taken {
	reading.Lock()
	r := reading.r
	reading.r = nil
	reading.Unlock()
	if r == nil {
		return nil
	}
	r.stop.Store(true)
	<-r.done
	defer r.finish()
	if filepath.Clean(dir) != r.dir || r.watches < 0 || !r.drain() {
		r.unmap()
		return nil
	}
	t := &Taken{folders: r.folders, slab: r.slab}
	r.slab = nil
	return t
}

// Taken is what Take gave: the files' bytes, held outside the Go heap (the collector
// neither counts nor scans them, and a process's start does not collect for them) until
// Release.
type Taken struct {
	folders map[string]*Folder
	slab    []byte
}

// Release gives the files' memory back: their bytes must not be read after.
func (t *Taken) Release() {
	if t != nil && t.slab != nil {
		syscall.Munmap(t.slab)
		t.slab, t.folders = nil, nil
	}
}

// unmap gives back the memory of files never taken.
func (r *reader) unmap() {
	if r.slab != nil {
		syscall.Munmap(r.slab)
		r.slab = nil
	}
}

// Wait blocks until the read under way, if any, has read all it will (for tests).
func Wait() {
	reading.Lock()
	r := reading.r
	reading.Unlock()
	if r != nil {
		<-r.done
	}
}

// For is the files read of the folder sub, if the folder open as fd is the one read.
func (t *Taken) For(sub string, fd int) map[string][]byte {
	if t == nil || t.folders[sub] == nil {
		return nil
	}
	f := t.folders[sub]
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil || uint64(st.Dev) != f.Dev || st.Ino != f.Ino {
		return nil
	}
	return f.Files
}

// finish closes the watch of a read that has stopped.
func (r *reader) finish() {
	r.stop.Store(true)
	<-r.done
	if r.watches >= 0 {
		syscall.Close(r.watches)
		r.watches = -1
	}
}

// watchMask is every change to a folder's entries, or to a file's bytes or mode, and
// the folder's own end.
const watchMask = syscall.IN_MODIFY | syscall.IN_ATTRIB | syscall.IN_CLOSE_WRITE | syscall.IN_MOVED_FROM |
	syscall.IN_MOVED_TO | syscall.IN_CREATE | syscall.IN_DELETE | syscall.IN_DELETE_SELF | syscall.IN_MOVE_SELF | syscall.IN_ONLYDIR

func (r *reader) run() {
	defer close(r.done)
	fd, err := syscall.InotifyInit1(syscall.IN_NONBLOCK | syscall.IN_CLOEXEC)
	if err != nil {
		return
	}
	r.watches = fd
	// Reserved, not committed: pages are used as files are read into them.
	if r.slab, err = syscall.Mmap(-1, 0, MaxBytes, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON|syscall.MAP_NORESERVE); err != nil {
		r.slab = nil
		return
	}
	// Huge pages where the kernel gives them: a fault per 4 KiB page of the files read
	// cost more than their reads (a virtual machine's faults are slow).
	_ = syscall.Madvise(r.slab, madvHugePage)
	buf := make([]byte, 16<<10) // the folder's entries, a batch at a time
	for _, sub := range Folders {
		if r.stop.Load() {
			return
		}
		dfd, err := syscall.Open(filepath.Join(r.dir, sub), syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_NOFOLLOW|syscall.O_CLOEXEC, 0)
		if err != nil {
			continue // missing, a link, not a folder: the load says so
		}
		if !r.readFolder(sub, dfd, buf) {
			syscall.Close(dfd)
			return
		}
		syscall.Close(dfd)
	}
}

// readFolder watches the folder open as dfd (the very folder: through its descriptor),
// then reads its files until told to stop or the slab is full (false: stop there).
func (r *reader) readFolder(sub string, dfd int, buf []byte) bool {
	var st syscall.Stat_t
	if syscall.Fstat(dfd, &st) != nil {
		return true
	}
	wd, err := syscall.InotifyAddWatch(r.watches, "/proc/self/fd/"+strconv.Itoa(dfd), watchMask)
	if err != nil {
		return true
	}
	r.wd[int32(wd)] = sub
	f := &Folder{Dev: uint64(st.Dev), Ino: st.Ino, Files: map[string][]byte{}}
	r.folders[sub] = f
	var names []string
	var types []byte
	for {
		n, err := syscall.ReadDirent(dfd, buf)
		if err == syscall.EINTR {
			continue
		}
		if err != nil || n <= 0 {
			break
		}
		names, types = entries(buf[:n], names, types)
	}
	for i, name := range names {
		if r.stop.Load() {
			return false
		}
		if !strings.HasSuffix(name, ".json") || types[i] != syscall.DT_REG && types[i] != syscall.DT_UNKNOWN {
			continue
		}
		// Into the slab's free end, one byte more than a file may have.
		into := r.slab[r.used:min(len(r.slab), r.used+MaxFile+1)]
		n, ok := readFile(dfd, name, types[i] == syscall.DT_REG, into)
		if ok && n < len(into) && n <= MaxFile {
			f.Files[name] = into[:n:n]
			r.used += n
		} else if ok && len(into) <= MaxFile {
			return false // the slab is full
		}
	}
	return true
}

// entries appends the names and types (DT_REG, …) of the entries in buf, a batch of
// getdents64's, but for . and ...
func entries(buf []byte, names []string, types []byte) ([]string, []byte) {
	const nameAt = 19 // ino 8, off 8, reclen 2, type 1
	for len(buf) >= nameAt {
		reclen := int(buf[16]) | int(buf[17])<<8
		if reclen < nameAt || reclen > len(buf) {
			break
		}
		name := buf[nameAt:reclen]
		if i := strings.IndexByte(string(name), 0); i >= 0 {
			name = name[:i]
		}
		if n := string(name); n != "." && n != ".." {
			names, types = append(names, n), append(types, buf[18])
		}
		buf = buf[reclen:]
	}
	return names, types
}

// readFile reads the file name in the folder dfd into into, to its end or into's, and
// says how much (not ok: a link, a FIFO, a fault: the load reads it again and judges
// it). listedRegular: the listing said a regular file, so it is read without a stat
// first: a file swapped for something else since the listing, or written while read, is
// one the folder's watch saw touched, and Take drops it. A short read of a regular file
// is its end.
func readFile(dfd int, name string, listedRegular bool, into []byte) (int, bool) {
	fd, err := syscall.Openat(dfd, name, syscall.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOFOLLOW|syscall.O_NOCTTY|syscall.O_CLOEXEC, 0)
	if err != nil {
		return 0, false
	}
	defer syscall.Close(fd)
	if !listedRegular {
		var st syscall.Stat_t
		if syscall.Fstat(fd, &st) != nil || st.Mode&syscall.S_IFMT != syscall.S_IFREG {
			return 0, false
		}
	}
	n := 0
	for n < len(into) {
		// A window at a time: asked for all of into at once, the kernel touched every page
		// of it, in memory not yet used, at every file.
		end := min(len(into), n+readWindow)
		m, err := syscall.Read(fd, into[n:end])
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return 0, false
		}
		n += m
		if m == 0 || n < end {
			break // its end
		}
	}
	return n, true
}

// madvHugePage is MADV_HUGEPAGE (the syscall package does not name it).
const madvHugePage = 14

// readWindow is how much one read asks for: more than most object files hold.
const readWindow = 64 << 10

// drain drops the files the watch saw touched since it was added; false: it cannot say
// which (the queue overflowed, a folder went, the watch cannot be read).
func (r *reader) drain() bool {
	buf := make([]byte, 64<<10)
	for {
		n, err := syscall.Read(r.watches, buf)
		if err == syscall.EINTR {
			continue
		}
		if err == syscall.EAGAIN {
			return true
		}
		if err != nil || n <= 0 {
			return false
		}
		for at := 0; at+syscall.SizeofInotifyEvent <= n; {
			ev := (*syscall.InotifyEvent)(unsafe.Pointer(&buf[at]))
			nameAt := at + syscall.SizeofInotifyEvent
			at = nameAt + int(ev.Len)
			if ev.Mask&(syscall.IN_Q_OVERFLOW|syscall.IN_IGNORED|syscall.IN_DELETE_SELF|syscall.IN_MOVE_SELF|syscall.IN_UNMOUNT) != 0 {
				return false
			}
			f := r.folders[r.wd[ev.Wd]]
			if f == nil || at > n {
				return false
			}
			name := strings.TrimRight(string(buf[nameAt:at]), "\x00")
			if name == "" {
				return false // an event on the folder itself, not one of its files
			}
			delete(f.Files, name)
		}
	}
}
