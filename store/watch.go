package store

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/fsnotify/fsnotify"
)

// WatchOptions tune a Watcher. Zero (or negative) fields take their defaults.
type WatchOptions struct {
	// Debounce is the quiet time that ends a batch: events are collected until this long
	// passes without a new one. Default 20ms.
	Debounce time.Duration
	// MaxDelay bounds how long a batch is held while events keep coming: it is flushed
	// this long after its first event even if the folder never goes quiet. Default 150ms.
	MaxDelay time.Duration
	// Poll is the polling interval used when inotify cannot be used (watch or instance
	// limit reached). It is also how often the folder's identity is checked, to notice a
	// deleted-and-recreated folder whose deletion event went missing. Default 2s.
	Poll time.Duration
	// Backups also reports the backups written into history/l-*/, with a watch on each of
	// those folders. Off by default: no snapshot is made of backups, and a long run has
	// tens of thousands of change folders — as many inotify watches, enough to exhaust
	// the limit and fall back to polling.
	Backups bool
	// HistoryLater watches history/ from the watcher's own goroutine, after Watch returns
	// (Watcher.Ready says when): the kernel walks a folder's cached entries when a watch
	// is added, one per change in history/, and a first load reads the log only after
	// the object files, so it can read those beside that walk.
	HistoryLater bool

	// addHook, when set (tests), runs before every watch is added; an error it returns is
	// treated as the error of the add (relative path, "." for the folder itself).
	addHook func(rel string) error
}

const (
	// Every agent's write waits this long before it is shown (it is most of the 10k
	// write → frame p99); 20ms still takes a file written in chunks, or a skill call's
	// several files, as one batch, and writes 20–30ms apart, now a batch each, cost ~4ms.
	defaultDebounce = 20 * time.Millisecond
	defaultMaxDelay = 150 * time.Millisecond
	defaultPoll     = 2 * time.Second
	// maxRecoverEvery bounds how often a vanished folder is looked for.
	maxRecoverEvery = 500 * time.Millisecond
)

// Batch is one coalesced set of changes.
type Batch struct {
	Paths  []string // changed files, relative to the folder, forward slashes, sorted, deduplicated
	Rescan bool     // events were lost (overflow, a folder appeared/disappeared, the folder was deleted/recreated): reload everything
	Err    error    // a watch problem to show in the status bar (e.g. "inotify watch limit reached; polling every 2s")
}

// Merge returns the union of two batches: paths merged (sorted, deduplicated), Rescan if
// either asks for it, and both errors (joined when they differ). Neither input is changed.
func (b Batch) Merge(o Batch) Batch {
	out := Batch{Rescan: b.Rescan || o.Rescan, Err: joinErr(b.Err, o.Err)}
	if n := len(b.Paths) + len(o.Paths); n > 0 {
		out.Paths = make([]string, 0, n)
		out.Paths = append(out.Paths, b.Paths...)
		out.Paths = append(out.Paths, o.Paths...)
		slices.Sort(out.Paths)
		out.Paths = slices.Clip(slices.Compact(out.Paths))
	}
	return out
}

func (b Batch) empty() bool { return len(b.Paths) == 0 && !b.Rescan && b.Err == nil }

func joinErr(a, b error) error {
	switch {
	case a == nil:
		return b
	case b == nil || a == b || a.Error() == b.Error():
		return a
	}
	return errors.Join(a, b)
}

// Watcher watches a contents folder and delivers coalesced batches of changed paths.
//
// It watches the folder, problem/, statement/, experience/, history/ and, with
// WatchOptions.Backups, every history/l-*/ (inotify is not recursive), adding watches as
// those folders appear. When
// inotify runs out of watches or instances it falls back to polling file sizes and
// modification times. Batches are delivered on an unbuffered channel; while the
// consumer is not receiving, new batches are merged into the one waiting, so the
// watcher never blocks and the consumer gets one coalesced batch when it comes back.
type Watcher struct {
	ready     chan struct{} // closed once every folder is watched (WatchOptions.HistoryLater)
	out       chan Batch
	done      chan struct{}
	exited    chan struct{}
	closeOnce sync.Once
	loop      *watchLoop
	made      atomic.Int64 // batches made ready for delivery (tests)
}

// Watch starts watching the contents folder dir. It fails when dir is not a readable
// folder; losing inotify later is not an error (it polls and says so in a Batch.Err).
// Call it before Load: a change made between the two is then reported, not missed.
func Watch(dir string, opts WatchOptions) (*Watcher, error) {
	if opts.Debounce <= 0 {
		opts.Debounce = defaultDebounce
	}
	if opts.MaxDelay <= 0 {
		opts.MaxDelay = defaultMaxDelay
	}
	if opts.Poll <= 0 {
		opts.Poll = defaultPoll
	}
	root := filepath.Clean(dir)
	info, err := os.Stat(root)
	if err != nil {
		return nil, fmt.Errorf("contents folder %s: %w", dir, unwrapPath(err))
	}
	if !info.IsDir() {
		return nil, fmt.Errorf("contents folder %s: not a directory", dir)
	}
	w := &Watcher{
		ready:  make(chan struct{}),
		out:    make(chan Batch),
		done:   make(chan struct{}),
		exited: make(chan struct{}),
	}
	l := newWatchLoop(root, info, opts, &w.made)
	if opts.HistoryLater {
		l.later = HistoryDir
	}
	if err := l.start(); err != nil {
		l.stop()
		return nil, fmt.Errorf("contents folder %s: %w", dir, err)
	}
	w.loop = l
	go func() {
		defer close(w.exited)
		l.run(w.out, w.done, w.ready)
	}()
	return w, nil
}

// Ready is closed once every folder the watcher watches at its start is watched: at
// once, or with WatchOptions.HistoryLater once history/ is. A read of the log waits
// for it, so that a change logged after that read is reported.
func (w *Watcher) Ready() <-chan struct{} { return w.ready }

// Batches delivers the batches. It is closed by Close.
func (w *Watcher) Batches() <-chan Batch { return w.out }

// Close stops the watcher and waits for its goroutines to end; the Batches channel is
// closed and undelivered changes are dropped. It may be called more than once.
func (w *Watcher) Close() error {
	w.closeOnce.Do(func() { close(w.done) })
	<-w.exited
	return w.loop.closeErr
}

// pollingError says inotify could not be used and the watcher polls instead.
type pollingError struct {
	what  string
	every time.Duration
	cause error
}

func (e *pollingError) Error() string { return fmt.Sprintf("%s; polling every %s", e.what, e.every) }
func (e *pollingError) Unwrap() error { return e.cause }

// watchLoop is the state of the watcher goroutine; only that goroutine touches it
// (start runs before it is launched, closeErr is read after it ended).
type watchLoop struct {
	root     string
	opts     WatchOptions
	rootInfo os.FileInfo // the folder as first seen, to notice it being replaced
	made     *atomic.Int64

	fsn        *fsnotify.Watcher // nil when polling
	watched    map[string]bool   // relative folders with a watch ("." is the folder itself)
	polling    bool              // fell back to polling; for good
	lost       bool              // the folder is gone; looking for it to reappear
	recoverErr string            // the last error reported while looking for it
	running    bool              // run has started (set-up in start needs no rescan)
	later      string            // a top folder start leaves for run to watch (HistoryLater)
	files      map[string]stamp  // polling: what the last scan saw
	dirs       map[string]bool   // polling: which top-level folders the last scan saw

	// The batch being collected, and the one waiting for the consumer.
	pending    map[string]struct{}
	pendRescan bool
	pendErr    error
	first      time.Time // first event of the pending batch
	timer      *time.Timer
	ready      Batch

	ticker    *time.Ticker
	tickEvery time.Duration
	closeErr  error
}

func newWatchLoop(root string, info os.FileInfo, opts WatchOptions, made *atomic.Int64) *watchLoop {
	l := &watchLoop{
		root:      root,
		opts:      opts,
		rootInfo:  info,
		made:      made,
		watched:   map[string]bool{},
		pending:   map[string]struct{}{},
		timer:     time.NewTimer(time.Hour),
		ticker:    time.NewTicker(opts.Poll),
		tickEvery: opts.Poll,
	}
	l.timer.Stop()
	return l
}

// start sets up inotify (or polling) before the goroutine runs.
func (l *watchLoop) start() error {
	fsn, err := fsnotify.NewWatcher()
	if err != nil {
		l.fallback(err)
		return nil
	}
	l.fsn = fsn
	if err := l.addRaw("."); err != nil {
		if isLimit(err) {
			l.fallback(err)
			return nil
		}
		return unwrapPath(err)
	}
	l.syncWatches()
	return nil
}

func (l *watchLoop) run(out chan<- Batch, done <-chan struct{}, ready chan<- struct{}) {
	defer close(out)
	defer l.stop()
	l.running = true
	if l.later != "" {
		// As start would have, before any event is taken; running already: a load may
		// be reading, so a fall back to polling now asks for a rescan.
		l.later = ""
		if l.fsn != nil {
			l.syncWatches()
		}
	}
	close(ready)
	for {
		var (
			events <-chan fsnotify.Event
			errs   <-chan error
			send   chan<- Batch
		)
		if l.fsn != nil {
			events, errs = l.fsn.Events, l.fsn.Errors
		}
		if !l.ready.empty() {
			send = out
		}
		select {
		case <-done:
			return
		case ev, ok := <-events:
			if !ok {
				l.fallback(errors.New("inotify stopped"))
				continue
			}
			l.handle(ev)
		case err, ok := <-errs:
			if !ok {
				l.fallback(errors.New("inotify stopped"))
				continue
			}
			l.watchError(err)
		case <-l.timer.C:
			l.flush()
		case <-l.ticker.C:
			l.tick()
		case send <- l.ready:
			l.ready = Batch{}
		}
	}
}

func (l *watchLoop) stop() {
	l.timer.Stop()
	l.ticker.Stop()
	if l.fsn != nil {
		l.closeErr = l.fsn.Close()
		l.fsn = nil
	}
}

// --- collecting and flushing ---

// touch (re)arms the flush timer: Debounce after this event, but no later than
// MaxDelay after the batch's first event.
func (l *watchLoop) touch() {
	now := time.Now()
	if l.first.IsZero() {
		l.first = now
	}
	d := min(l.opts.Debounce, l.opts.MaxDelay-now.Sub(l.first))
	l.timer.Reset(max(d, 0))
}

func (l *watchLoop) addPath(rel string) {
	l.pending[rel] = struct{}{}
	l.touch()
}

func (l *watchLoop) rescan() {
	l.pendRescan = true
	l.touch()
}

func (l *watchLoop) report(err error) {
	l.pendErr = joinErr(l.pendErr, err)
	l.touch()
}

// flush moves the pending batch into the one waiting for the consumer.
func (l *watchLoop) flush() {
	l.timer.Stop()
	l.first = time.Time{}
	if len(l.pending) == 0 && !l.pendRescan && l.pendErr == nil {
		return
	}
	b := Batch{Rescan: l.pendRescan, Err: l.pendErr}
	if len(l.pending) > 0 {
		b.Paths = slices.Sorted(maps.Keys(l.pending))
	}
	clear(l.pending)
	l.pendRescan, l.pendErr = false, nil
	l.ready = l.ready.Merge(b)
	l.made.Add(1)
}

// --- inotify ---

// Folder kinds the watcher keeps a watch on.
const (
	notWatched = iota
	topFolder  // problem/, statement/, experience/, history/
	backupFolder
)

var topFolders = []string{ProblemDir, StatementDir, ExperienceDir, HistoryDir}

func (l *watchLoop) folderKind(rel string) int {
	if slices.Contains(topFolders, rel) {
		return topFolder
	}
	if dir, name := path.Split(rel); l.opts.Backups && dir == HistoryDir+"/" && strings.HasPrefix(name, "l-") {
		return backupFolder
	}
	return notWatched
}

// ignored tells the files that are never reported: temp files (ours are
// ".<name>.tmp-<random>"), hidden files, and the writers' lock.
func ignored(rel string) bool {
	name := path.Base(rel)
	return rel == LockFile || strings.HasPrefix(name, ".") || strings.Contains(name, ".tmp-")
}

func isLimit(err error) bool {
	return errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EMFILE) || errors.Is(err, syscall.ENFILE)
}

func (l *watchLoop) abs(rel string) string { return filepath.Join(l.root, filepath.FromSlash(rel)) }

func (l *watchLoop) rel(name string) (string, bool) {
	r, err := filepath.Rel(l.root, name)
	if err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
		return "", false
	}
	return filepath.ToSlash(r), true
}

func (l *watchLoop) addRaw(rel string) error {
	if l.opts.addHook != nil {
		if err := l.opts.addHook(rel); err != nil {
			return err
		}
	}
	if err := l.fsn.Add(l.abs(rel)); err != nil {
		return err
	}
	l.watched[rel] = true
	return nil
}

// watch adds a watch on the folder rel and reports whether it did. A watch limit switches
// to polling (l.polling is then set and the caller must stop); a folder already gone is
// skipped silently (its removal is seen as an event); anything else is reported.
func (l *watchLoop) watch(rel string) bool {
	err := l.addRaw(rel)
	switch {
	case err == nil:
		return true
	case isLimit(err):
		l.fallback(err)
	case errors.Is(err, fs.ErrNotExist), errors.Is(err, syscall.ENOTDIR):
	default:
		l.report(fmt.Errorf("cannot watch %s: %w", rel, unwrapPath(err)))
	}
	return false
}

// unwatch drops the watch on rel and on every watched folder below it.
func (l *watchLoop) unwatch(rel string) {
	for k := range l.watched {
		if k == rel || strings.HasPrefix(k, rel+"/") {
			_ = l.fsn.Remove(l.abs(k)) // usually gone already: the kernel drops it with the folder
			delete(l.watched, k)
		}
	}
}

// syncWatches makes the watch set match the folders on disk (the folder itself is
// watched already). It may switch to polling.
func (l *watchLoop) syncWatches() {
	for _, sub := range topFolders {
		if sub == l.later {
			continue
		}
		if isDir(l.abs(sub)) {
			if !l.watched[sub] && !l.watch(sub) && l.polling {
				return
			}
		} else if l.watched[sub] {
			l.unwatch(sub)
		}
	}
	if !l.opts.Backups || !l.watched[HistoryDir] {
		return
	}
	backups := map[string]bool{}
	for _, name := range subfolders(l.abs(HistoryDir)) {
		rel := HistoryDir + "/" + name
		if l.folderKind(rel) != backupFolder {
			continue
		}
		backups[rel] = true
		if !l.watched[rel] && !l.watch(rel) && l.polling {
			return
		}
	}
	for rel := range l.watched {
		if l.folderKind(rel) == backupFolder && !backups[rel] {
			l.unwatch(rel)
		}
	}
}

func (l *watchLoop) handle(ev fsnotify.Event) {
	if l.fsn == nil || l.lost {
		return // stale: queued before the folder was lost
	}
	rel, ok := l.rel(ev.Name)
	if !ok {
		return
	}
	gone := ev.Has(fsnotify.Remove) || ev.Has(fsnotify.Rename)
	if rel == "." {
		if gone {
			l.lose()
		}
		return
	}
	if ignored(rel) {
		return
	}
	if ev.Has(fsnotify.Create) {
		if kind := l.folderKind(rel); kind != notWatched {
			if isDir(l.abs(rel)) {
				if l.watched[rel] {
					l.unwatch(rel) // replaced before we saw it go
				}
				if !l.watch(rel) && l.polling {
					return
				}
				if kind == backupFolder {
					// Files written before the watch was in place: report them all.
					for _, name := range fileNames(l.abs(rel)) {
						if p := rel + "/" + name; !ignored(p) {
							l.addPath(p)
						}
					}
				} else {
					l.syncWatches() // history/ with its l-* folders
					l.rescan()
				}
				return
			}
			if kind == topFolder {
				l.rescan() // came and went, or a file took its name
				return
			}
		} else if isDir(l.abs(rel)) {
			return // a folder nobody reads
		}
	}
	if l.watched[rel] {
		if gone {
			l.unwatch(rel)
			l.rescan()
		}
		return // a watched folder's own attributes
	}
	l.addPath(rel)
}

func (l *watchLoop) watchError(err error) {
	if errors.Is(err, fsnotify.ErrEventOverflow) {
		l.rescan()
		l.syncWatches() // folders created while events were lost
		return
	}
	l.report(fmt.Errorf("watching %s: %w", l.root, err))
	l.rescan()
}

// --- losing and finding the folder ---

func (l *watchLoop) recoverEvery() time.Duration { return min(l.opts.Poll, maxRecoverEvery) }

func (l *watchLoop) setTick(d time.Duration) {
	if d != l.tickEvery {
		l.tickEvery = d
		l.ticker.Reset(d)
	}
}

func (l *watchLoop) goneErr() error {
	return fmt.Errorf("contents folder %s is gone; waiting for it to reappear", l.root)
}

// lose drops every watch after the folder itself was deleted, moved or replaced, and
// starts looking for it.
func (l *watchLoop) lose() {
	for k := range l.watched {
		_ = l.fsn.Remove(l.abs(k))
	}
	clear(l.watched)
	l.lost = true
	l.recoverErr = ""
	if !l.recover() {
		l.report(l.goneErr())
		l.setTick(l.recoverEvery())
	}
}

// recover re-watches the folder if it is back, and asks for a rescan.
func (l *watchLoop) recover() bool {
	info, err := os.Stat(l.root)
	if err != nil || !info.IsDir() {
		return false
	}
	if err := l.addRaw("."); err != nil {
		switch {
		case isLimit(err):
			l.fallback(err)
			return true
		case errors.Is(err, fs.ErrNotExist):
		case unwrapPath(err).Error() != l.recoverErr: // say it once, keep trying
			l.recoverErr = unwrapPath(err).Error()
			l.report(fmt.Errorf("cannot watch %s: %w", l.root, unwrapPath(err)))
		}
		return false
	}
	l.rootInfo = info
	l.lost = false
	l.setTick(l.opts.Poll)
	l.syncWatches()
	l.rescan()
	return true
}

func (l *watchLoop) tick() {
	switch {
	case l.polling:
		l.poll()
	case l.lost:
		l.recover()
	default:
		// Deleting a folder does not always deliver its own deletion event (for one, not
		// while a process still has it open): check it is still the folder we watch.
		info, err := os.Stat(l.root)
		if err != nil || !os.SameFile(info, l.rootInfo) {
			l.lose()
		}
	}
}

// --- polling ---

// stamp is what polling compares to tell a file changed.
type stamp struct {
	size int64
	mod  int64
	mode fs.FileMode
}

// fallback closes inotify for good and polls instead. Once running, it asks the consumer
// to reload, since events may have been missed while switching.
func (l *watchLoop) fallback(cause error) {
	if l.fsn != nil {
		_ = l.fsn.Close()
		l.fsn = nil
	}
	clear(l.watched)
	l.polling = true
	what := "cannot use inotify"
	switch {
	case errors.Is(cause, syscall.ENOSPC):
		what = "inotify watch limit reached"
	case errors.Is(cause, syscall.EMFILE), errors.Is(cause, syscall.ENFILE):
		what = "inotify instance limit reached"
	}
	l.report(&pollingError{what: what, every: l.opts.Poll, cause: cause})
	var err error
	l.files, l.dirs, err = l.scanTree()
	l.lost = err != nil
	if l.lost {
		l.report(l.goneErr())
		l.setTick(l.recoverEvery())
	} else {
		l.setTick(l.opts.Poll)
	}
	if l.running {
		l.rescan()
	}
}

func (l *watchLoop) poll() {
	files, dirs, err := l.scanTree()
	if err != nil {
		if !l.lost {
			l.lost = true
			l.report(l.goneErr())
			l.setTick(l.recoverEvery())
		}
		return
	}
	if l.lost {
		l.lost = false
		l.files, l.dirs = files, dirs
		l.setTick(l.opts.Poll)
		l.rescan()
		return
	}
	for rel, s := range files {
		if old, ok := l.files[rel]; !ok || old != s {
			l.addPath(rel)
		}
	}
	for rel := range l.files {
		if _, ok := files[rel]; !ok {
			l.addPath(rel)
		}
	}
	if !maps.Equal(dirs, l.dirs) {
		l.rescan()
	}
	l.files, l.dirs = files, dirs
}

// scanTree stamps every file the watcher would report, and tells which top-level folders
// exist. It fails when the folder itself is unusable.
func (l *watchLoop) scanTree() (map[string]stamp, map[string]bool, error) {
	root := l.root
	info, err := os.Stat(root)
	if err != nil {
		return nil, nil, err
	}
	if !info.IsDir() {
		return nil, nil, fmt.Errorf("%s: not a directory", root)
	}
	files := map[string]stamp{}
	dirs := map[string]bool{}
	scan := func(rel string) (subdirs []string, ok bool) {
		entries, err := os.ReadDir(filepath.Join(root, filepath.FromSlash(rel)))
		if err != nil {
			return nil, false
		}
		for _, e := range entries {
			p := path.Join(rel, e.Name())
			if ignored(p) {
				continue
			}
			if e.IsDir() {
				subdirs = append(subdirs, e.Name())
				continue
			}
			fi, err := e.Info()
			if err != nil {
				continue // gone since the listing
			}
			files[p] = stamp{size: fi.Size(), mod: fi.ModTime().UnixNano(), mode: fi.Mode()}
		}
		return subdirs, true
	}
	scan(".")
	for _, sub := range topFolders {
		subdirs, ok := scan(sub)
		if !ok {
			continue
		}
		dirs[sub] = true
		if sub != HistoryDir {
			continue
		}
		for _, name := range subdirs {
			if rel := sub + "/" + name; l.folderKind(rel) == backupFolder {
				scan(rel)
			}
		}
	}
	return files, dirs, nil
}

// --- small file-system helpers ---

func isDir(p string) bool {
	info, err := os.Stat(p) // a linked folder is read by Load too, and inotify follows links
	return err == nil && info.IsDir()
}

func subfolders(dir string) []string {
	entries, _ := os.ReadDir(dir)
	var out []string
	for _, e := range entries {
		if e.IsDir() {
			out = append(out, e.Name())
		}
	}
	return out
}

func fileNames(dir string) []string {
	entries, _ := os.ReadDir(dir)
	var out []string
	for _, e := range entries {
		if !e.IsDir() {
			out = append(out, e.Name())
		}
	}
	return out
}
