package prelist

import (
	"cmp"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
	"unsafe"

	"referee/internal/timeline"
)

// listing is the listing under way or done (nil once taken, or when none started).
var listing struct {
	sync.Mutex
	l *lister
}

type lister struct {
	dir     string
	state   atomic.Int32  // running, then listed (the listings are Take's) or dropped (not listed in time: the goroutine drops them)
	listed  chan struct{} // closed once the object folders are listed
	done    chan struct{} // closed once history/ is watched too: the goroutine has ended
	watches int           // the inotify instance, -1 if none
	folders map[string]*folder
	byWatch map[int32]string
}

const (
	running int32 = iota
	listed
	dropped
)

// folder is one object folder as listed: the folder opened (its device and inode, so a
// folder put in its place since is not taken for it) and its entries sorted by name.
type folder struct {
	dev, ino uint64
	list     *entries
}

// Start lists dir's object folders on a goroutine of its own until Take (a second Start
// replaces the first, whose listings are dropped).
func Start(dir string) {
	l := &lister{dir: filepath.Clean(dir), listed: make(chan struct{}), done: make(chan struct{}), watches: -1, folders: map[string]*folder{}, byWatch: map[int32]string{}}
	listing.Lock()
	old := listing.l
	listing.l = l
	listing.Unlock()
	if old != nil {
		old.finish(false)
	}
	go l.run()
}

// Take calls use with each listing of dir's object folders that nothing has changed
// the entries of since it was made (sub, and its entries sorted by name as store lists
// them); a folder it does not give is the caller's to list. The entries are valid during
// the call only (their strings for good). Only the first Take after Start gives them,
// and only if the listing is made by then: it never waits for one. Call it once the
// caller's own watch on the folders is in place.
func Take(dir string, use func(sub string, entries []Entry)) {
	listing.Lock()
	l := listing.l
	listing.l = nil
	listing.Unlock()
	if l == nil {
		return
	}
	if l.state.CompareAndSwap(running, dropped) {
		// Not listed yet: the core it runs on was not idle (it yields to any other
		// thread, runLowly). The caller lists the folders itself, as without it.
		timeline.Mark("predropped")
		return // the goroutine ends its watch and gives its memory back
	}
	if l.state.Load() != listed {
		return // it could not watch (no inotify): it listed nothing
	}
	defer l.finish(true)
	defer keep(l)
	<-l.listed
	if filepath.Clean(dir) != l.dir || l.watches < 0 || !l.drain() {
		return
	}
	for _, sub := range Folders {
		f := l.folders[sub]
		if f == nil {
			continue
		}
		var st syscall.Stat_t
		if syscall.Lstat(filepath.Join(l.dir, sub), &st) != nil || uint64(st.Dev) != f.dev || st.Ino != f.ino {
			continue // gone, or another folder (or a link) in its place
		}
		use(sub, f.list.all)
	}
}

// Wait blocks until the listing under way, if any, has ended, history/'s watch added
// (for tests).
func Wait() {
	listing.Lock()
	l := listing.l
	listing.Unlock()
	if l != nil {
		<-l.done
	}
}

// finish gives back the listings' memory once the listing has ended, and ends the
// watch unless keep.
func (l *lister) finish(keep bool) {
	if l.state.CompareAndSwap(running, dropped) || l.state.Load() != listed {
		return // the goroutine ends its watch and gives its memory back
	}
	<-l.listed
	for _, f := range l.folders {
		f.list.free()
	}
	l.folders = nil
	if keep {
		return
	}
	l.closeWatch()
}

// closeWatch ends the watch. The close is left to a goroutine: the kernel waits for a
// grace period before it gives an inotify instance back (tens of milliseconds here),
// which the load must not wait for.
func (l *lister) closeWatch() {
	if fd := l.watches; fd >= 0 {
		l.watches = -1
		go func() {
			<-l.done // not while history/'s watch is being added to it
			syscall.Close(fd)
		}()
	}
}

// kept is the watch of the listing last taken, until Close.
var kept struct {
	sync.Mutex
	l *lister
}

// keepFor is how long Take keeps the watch when Close is not called.
const keepFor = 10 * time.Second

// Close ends the watch Take kept: call it once the caller's own watch of history/ is in
// place (its watch then found the kernel's walk of that folder's entries made). Take's
// watch ends by itself a while after Take if Close is not called.
func Close() {
	kept.Lock()
	defer kept.Unlock()
	if kept.l != nil {
		kept.l.closeWatch()
		kept.l = nil
	}
}

// keep holds l's watch until Close, or keepFor.
func keep(l *lister) {
	kept.Lock()
	old := kept.l
	kept.l = l
	kept.Unlock()
	if old != nil {
		old.closeWatch()
	}
	time.AfterFunc(keepFor, func() {
		kept.Lock()
		defer kept.Unlock()
		if kept.l == l {
			l.closeWatch()
			kept.l = nil
		}
	})
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
	runLowly()
	fd, err := syscall.InotifyInit1(syscall.IN_NONBLOCK | syscall.IN_CLOEXEC)
	if err != nil {
		l.state.CompareAndSwap(running, dropped)
		return
	}
	l.watches = fd
	l.listAll()
	if !l.state.CompareAndSwap(running, listed) {
		for _, f := range l.folders { // dropped meanwhile
			f.list.free()
		}
		syscall.Close(fd)
		return
	}
	timeline.Mark("prelisted")
	close(l.listed) // Take goes on while history/ is watched
	l.watchHistory(fd)
	timeline.Mark("prewatched")
}

// runLowly gives the goroutine a thread of its own at the lowest priority (nice 19),
// which ends with it: the listing is worth making only on a core nothing else wants,
// the one package initialisation leaves idle. Where another process holds that core, it
// would take its time from initialisation instead (measured: main came later by more
// than the listing saved), and Take drops a listing not made in time.
func runLowly() {
	runtime.LockOSThread() // never unlocked: the thread exits with the goroutine
	syscall.Setpriority(syscall.PRIO_PROCESS, syscall.Gettid(), 19)
}

// listAll lists the object folders.
func (l *lister) listAll() {
	buf, err := syscall.Mmap(-1, 0, 256<<10, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
	if err != nil {
		return
	}
	defer syscall.Munmap(buf)
	slab := &offHeap{}
	for _, sub := range Folders {
		if l.state.Load() == dropped {
			return
		}
		dfd, err := syscall.Open(filepath.Join(l.dir, sub), syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_NOFOLLOW|syscall.O_CLOEXEC, 0)
		if err != nil {
			continue // missing, a link, not a folder: the load says so
		}
		if f := l.list(sub, dfd, buf, slab); f != nil {
			l.folders[sub] = f
		}
		syscall.Close(dfd)
	}
}

// watchHistory watches history/ on the instance fd, only for the kernel's walk of its
// entries (one per change) that the workbench's watch of it would make (Close). Its
// events are never read as a folder's (it has no listing).
func (l *lister) watchHistory(fd int) {
	if dfd, err := syscall.Open(filepath.Join(l.dir, History), syscall.O_RDONLY|syscall.O_DIRECTORY|syscall.O_NOFOLLOW|syscall.O_CLOEXEC, 0); err == nil {
		syscall.InotifyAddWatch(fd, "/proc/self/fd/"+strconv.Itoa(dfd), syscall.IN_MODIFY|syscall.IN_ONLYDIR)
		syscall.Close(dfd)
	}
}

// list watches the folder open as dfd (the very folder, through its descriptor), then
// lists it; nil if it could not.
//
// What it lists is kept outside the Go heap (offHeap): it runs while chroma's tables are
// built, and a megabyte more on the heap then made the collector run once more during
// initialisation, slowing that down by more than the listing took.
func (l *lister) list(sub string, dfd int, buf []byte, slab *offHeap) *folder {
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
	entries := newEntries(int(min(max(st.Size/24, 64), 1<<22))) // ext4 gives ~32 bytes an entry
	if entries == nil {
		return nil
	}
	for {
		if l.state.Load() == dropped {
			entries.free()
			return nil
		}
		n, err := syscall.Getdents(dfd, buf)
		if err == syscall.EINTR {
			continue
		}
		if err != nil {
			entries.free()
			return nil
		}
		if n <= 0 {
			break
		}
		for b := buf[:n]; len(b) >= 19; { // struct linux_dirent64: ino, off, reclen, type, name
			reclen := int(*(*uint16)(unsafe.Pointer(&b[16])))
			if reclen < 19 || reclen > len(b) {
				entries.free()
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
			p := slab.path(sub, name)
			if p == "" || !entries.add(Entry{Name: p[len(sub)+1:], Path: p, Regular: typ == syscall.DT_REG}) {
				entries.free()
				return nil
			}
		}
	}
	f.list = entries
	if !sortByName(entries.all) {
		entries.free()
		return nil
	}
	return f
}

// sortByName sorts es by name, as strings.Compare orders them: by each name's first
// eight bytes as a number, then (those alike) by the names, which was a third of the
// time comparing the names alone took. false: no memory for it.
func sortByName(es []Entry) bool {
	type keyed struct {
		key uint64 // the first eight bytes, big-endian, zeros after a shorter name
		at  int32
	}
	mem, err := syscall.Mmap(-1, 0, len(es)*int(unsafe.Sizeof(keyed{}))+len(es)*int(unsafe.Sizeof(Entry{}))+1, syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
	if err != nil {
		return false
	}
	defer syscall.Munmap(mem)
	keys := unsafe.Slice((*keyed)(unsafe.Pointer(&mem[0])), len(es))
	for i, e := range es {
		var k uint64
		for j := range 8 {
			k <<= 8
			if j < len(e.Name) {
				k |= uint64(e.Name[j])
			}
		}
		keys[i] = keyed{k, int32(i)}
	}
	slices.SortFunc(keys, func(a, b keyed) int {
		if a.key != b.key {
			return cmp.Compare(a.key, b.key)
		}
		return strings.Compare(es[a.at].Name, es[b.at].Name)
	})
	sorted := unsafe.Slice((*Entry)(unsafe.Pointer(&mem[len(es)*int(unsafe.Sizeof(keyed{}))])), len(es))
	for i, k := range keys {
		sorted[i] = es[k.at]
	}
	copy(es, sorted)
	return true
}

// offHeap is memory mapped outside the Go heap that the paths are cut from: the paths
// end up in the load's snapshot (its IDs are parts of them), so it is never unmapped,
// as a heap slab they were cut from would be held by them.
type offHeap struct{ free []byte }

// path is sub/name, in the mapped memory; "" if none could be mapped.
func (o *offHeap) path(sub string, name []byte) string {
	size := len(sub) + 1 + len(name)
	if len(o.free) < size {
		b, err := syscall.Mmap(-1, 0, max(size, 1<<20), syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
		if err != nil {
			return ""
		}
		o.free = b
	}
	n := copy(o.free, sub)
	o.free[n] = '/'
	copy(o.free[n+1:], name)
	p := unsafe.String(&o.free[0], size)
	o.free = o.free[size:]
	return p
}

// entries is a listing in mapped memory (its entries hold no pointer into the heap),
// given back by free once Take's caller has copied it (Release).
type entries struct {
	mem []byte
	all []Entry
}

func newEntries(n int) *entries {
	e := &entries{}
	if !e.grow(n) {
		return nil
	}
	return e
}

func (e *entries) grow(n int) bool {
	mem, err := syscall.Mmap(-1, 0, n*int(unsafe.Sizeof(Entry{})), syscall.PROT_READ|syscall.PROT_WRITE, syscall.MAP_PRIVATE|syscall.MAP_ANON)
	if err != nil {
		return false
	}
	all := unsafe.Slice((*Entry)(unsafe.Pointer(&mem[0])), n)[:len(e.all)]
	copy(all, e.all)
	e.free()
	e.mem, e.all = mem, all
	return true
}

func (e *entries) add(x Entry) bool {
	if len(e.all) == cap(e.all) && !e.grow(2*cap(e.all)) {
		return false
	}
	e.all = append(e.all, x)
	return true
}

func (e *entries) free() {
	if e.mem != nil {
		syscall.Munmap(e.mem)
	}
	e.mem, e.all = nil, nil
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
			if f := l.folders[l.byWatch[ev.Wd]]; f != nil && ev.Mask&(changed|syscall.IN_IGNORED|syscall.IN_UNMOUNT) != 0 {
				f.list.free()
				delete(l.folders, l.byWatch[ev.Wd])
			}
		}
	}
}
