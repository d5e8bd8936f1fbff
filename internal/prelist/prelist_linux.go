package prelist

import (
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"unsafe"
)

// listing is the listing under way or done (nil once taken, or when none started).
var listing struct {
	sync.Mutex
	l *lister
}

type lister struct {
	dir     string
	done    chan struct{}
	watches int // the inotify instance, -1 if none
	folders map[string]*folder
	byWatch map[int32]string
}

// folder is one object folder as listed: the folder opened (its device and inode, so a
// folder put in its place since is not taken for it) and its entries sorted by name.
type folder struct {
	dev, ino uint64
	entries  []Entry
}

// Start lists dir's object folders on a goroutine of its own until Take (a second Start
// replaces the first, whose listings are dropped).
func Start(dir string) {
	l := &lister{dir: filepath.Clean(dir), done: make(chan struct{}), watches: -1, folders: map[string]*folder{}, byWatch: map[int32]string{}}
	listing.Lock()
	old := listing.l
	listing.l = l
	listing.Unlock()
	if old != nil {
		old.finish()
	}
	go l.run()
}

// Take gives the listings of dir's object folders that nothing has changed the entries
// of since they were listed, by folder (sub → entries sorted by name, as store lists
// them); a folder not in it is the caller's to list. Only the first Take after Start
// gets them; it waits for the listing to end. Call it once the caller's own watch on the
// folders is in place.
func Take(dir string) map[string][]Entry {
	listing.Lock()
	l := listing.l
	listing.l = nil
	listing.Unlock()
	if l == nil {
		return nil
	}
	defer l.finish()
	<-l.done
	if filepath.Clean(dir) != l.dir || l.watches < 0 || !l.drain() {
		return nil
	}
	out := map[string][]Entry{}
	for sub, f := range l.folders {
		var st syscall.Stat_t
		if syscall.Lstat(filepath.Join(l.dir, sub), &st) != nil || uint64(st.Dev) != f.dev || st.Ino != f.ino {
			continue // gone, or another folder (or a link) in its place
		}
		out[sub] = f.entries
	}
	return out
}

// Wait blocks until the listing under way, if any, has ended (for tests).
func Wait() {
	listing.Lock()
	l := listing.l
	listing.Unlock()
	if l != nil {
		<-l.done
	}
}

// finish ends the watch once the listing has ended. The close is left to a goroutine:
// the kernel waits for a grace period before it gives an inotify instance back
// (tens of milliseconds here), which the load must not wait for.
func (l *lister) finish() {
	<-l.done
	if fd := l.watches; fd >= 0 {
		l.watches = -1
		go syscall.Close(fd)
	}
}

// changed are the events that change a folder's entries (or end the folder). The
// folder's files' own events (IN_MODIFY) are asked for too, though dropped: a watch
// that asks for its files' events makes the kernel mark every cached entry of the
// folder when it is added (at 10k statements a few milliseconds), and the workbench's
// own watch, added next, then finds them marked. That walk is here on an idle core.
const (
	changed   = syscall.IN_CREATE | syscall.IN_DELETE | syscall.IN_MOVED_FROM | syscall.IN_MOVED_TO | syscall.IN_DELETE_SELF | syscall.IN_MOVE_SELF
	watchMask = changed | syscall.IN_MODIFY | syscall.IN_ONLYDIR
)

func (l *lister) run() {
	defer close(l.done)
	fd, err := syscall.InotifyInit1(syscall.IN_NONBLOCK | syscall.IN_CLOEXEC)
	if err != nil {
		return
	}
	l.watches = fd
	buf := make([]byte, 256<<10)
	for _, sub := range Folders {
		dfd, err := syscall.Open(filepath.Join(l.dir, sub), syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_NOFOLLOW|syscall.O_CLOEXEC, 0)
		if err != nil {
			continue // missing, a link, not a folder: the load says so
		}
		if f := l.list(sub, dfd, buf); f != nil {
			l.folders[sub] = f
		}
		syscall.Close(dfd)
	}
}

// list watches the folder open as dfd (the very folder, through its descriptor), then
// lists it; nil if it could not.
func (l *lister) list(sub string, dfd int, buf []byte) *folder {
	var st syscall.Stat_t
	if syscall.Fstat(dfd, &st) != nil {
		return nil
	}
	wd, err := syscall.InotifyAddWatch(l.watches, "/proc/self/fd/"+strconv.Itoa(dfd), watchMask)
	if err != nil {
		return nil
	}
	l.byWatch[int32(wd)] = sub
	f := &folder{dev: uint64(st.Dev), ino: st.Ino}
	f.entries = make([]Entry, 0, min(max(st.Size/24, 64), 1<<22)) // ext4 gives ~32 bytes an entry
	var slab []byte                                               // the paths are parts of it; bytes once cut are never written over
	for {
		n, err := syscall.Getdents(dfd, buf)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			return nil
		}
		if n <= 0 {
			break
		}
		for b := buf[:n]; len(b) >= 19; { // struct linux_dirent64: ino, off, reclen, type, name
			reclen := int(*(*uint16)(unsafe.Pointer(&b[16])))
			if reclen < 19 || reclen > len(b) {
				return nil
			}
			ino, typ, name := *(*uint64)(unsafe.Pointer(&b[0])), b[18], b[19:reclen]
			for i, c := range name {
				if c == 0 {
					name = name[:i]
					break
				}
			}
			b = b[reclen:]
			if ino == 0 || string(name) == "." || string(name) == ".." {
				continue
			}
			size := len(sub) + 1 + len(name)
			if cap(slab)-len(slab) < size {
				slab = make([]byte, 0, max(size, 64<<10))
			}
			at := len(slab)
			slab = append(append(append(slab, sub...), '/'), name...)
			p := unsafe.String(&slab[at], size)
			f.entries = append(f.entries, Entry{Name: p[len(sub)+1:], Path: p, Regular: typ == syscall.DT_REG})
		}
	}
	slices.SortFunc(f.entries, func(a, b Entry) int { return strings.Compare(a.Name, b.Name) })
	return f
}

// drain drops the listings of folders whose entries the watch saw changed; false: it
// cannot say which (the queue overflowed, the watch cannot be read).
func (l *lister) drain() bool {
	buf := make([]byte, 64<<10)
	for {
		n, err := syscall.Read(l.watches, buf)
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
			at += syscall.SizeofInotifyEvent + int(ev.Len)
			if ev.Mask&syscall.IN_Q_OVERFLOW != 0 {
				return false
			}
			if ev.Mask&(changed|syscall.IN_IGNORED|syscall.IN_UNMOUNT) != 0 {
				delete(l.folders, l.byWatch[ev.Wd])
			}
		}
	}
}
