package live

import (
	"math"
	"runtime/debug"
	"slices"
	"sync"

	"referee/model"
	"referee/store"
)

// Frame is what the live room hands the tui: a snapshot with its graph and its tree,
// and what brought it. Nothing in it is changed once made (snapshots, graphs and trees
// share their unchanged parts with the frames before them, copy on write), so the tui
// may hold frames, show an older one and keep a newer one waiting.
type Frame struct {
	// Snap, Graph and Forest belong together (Forest.Snapshot() is Snap); all nil when
	// the batch brought nothing to show (only temporary files or backups changed, the
	// folder could not be read, the watcher stopped).
	Snap   *model.Snapshot
	Graph  *model.Graph
	Forest *Forest

	Paths    []string // the files the watcher's batch named, contents-relative (ChangedIDs: their objects)
	Rescan   bool     // the watcher lost track: the folder was read again in full
	WatchErr error    // a watch problem to show
	Full     bool     // a full reload, asked for (ReloadAll: after a conflict, or without a watcher)
	Closed   bool     // the watcher stopped: no frame follows
	LoadErr  error    // the folder could not be read
}

// Feed is a watched contents folder: the watcher, and the reload chain that turns its
// batches into frames.
type Feed struct {
	dir string
	w   *store.Watcher
}

// Watch starts watching a contents folder (store.Watch). Changes made from then on are
// in the feed's batches, so a load started after Watch misses none.
func Watch(dir string, opts store.WatchOptions) (*Feed, error) {
	w, err := store.Watch(dir, opts)
	if err != nil {
		return nil, err
	}
	return &Feed{dir: dir, w: w}, nil
}

// Ready is closed once the watcher watches every folder (store.Watcher.Ready): a
// first load started with WatchOptions.HistoryLater reads the log after it.
func (f *Feed) Ready() <-chan struct{} { return f.w.Ready() }

// Close stops the watcher; a Next waiting returns a closed frame. It may be called
// more than once.
func (f *Feed) Close() error { return f.w.Close() }

// Next waits for the watcher's next batch, coalesces whatever else is already queued,
// reads only the changed files again from head's snapshot (store.Reload: a half-written
// file keeps its last good version) and derives the frame from head's tree
// (DeriveFrom). It blocks: the tui runs it in a command, one at a time, each from the
// newest frame it took (head), so the chain has a single owner and frames arrive in
// order.
func (f *Feed) Next(head *Forest) Frame {
	b, ok := f.Batch()
	if !ok {
		return Frame{Closed: true}
	}
	return apply(f.dir, head, b)
}

// Batch waits for the watcher's next batch and coalesces whatever else is already
// queued, without reading anything: for an owner of the chain that applies batches
// itself (Apply), among other updates; false when the watcher stopped.
func (f *Feed) Batch() (store.Batch, bool) {
	ch := f.w.Batches()
	b, ok := <-ch
	if !ok {
		return b, false
	}
	for {
		select {
		case more, ok := <-ch:
			if !ok {
				return b, true
			}
			b = b.Merge(more)
		default:
			return b, true
		}
	}
}

// Wait waits for the watcher's next batch and drops it (after a failed load, any change
// is worth a new try); false when the watcher stopped.
func (f *Feed) Wait() bool {
	_, ok := <-f.w.Batches()
	return ok
}

// Reload is the frame Next makes of a batch that names paths: those files read again
// from head's snapshot, the graph and the tree updated from head's.
func Reload(dir string, head *Forest, paths []string) Frame {
	return apply(dir, head, store.Batch{Paths: paths})
}

// ReloadAll reads the whole folder again and derives it anew (a full frame).
func ReloadAll(dir string) Frame {
	snap, err := store.LoadTail(dir, nil)
	if err != nil {
		return Frame{LoadErr: err, Full: true}
	}
	g, f := Derive(snap)
	return Frame{Snap: snap, Graph: g, Forest: f, Full: true}
}

// Apply is the frame Next makes of a batch: what it changed read again from head's
// snapshot (the whole folder on a rescan), the graph and the tree updated from head's.
func Apply(dir string, head *Forest, b store.Batch) Frame { return apply(dir, head, b) }

// apply reads what a batch changed, from head.
func apply(dir string, head *Forest, b store.Batch) Frame {
	b.Paths = slices.DeleteFunc(b.Paths, func(p string) bool { return !store.InSnapshot(p) })
	fr := Frame{Paths: b.Paths, Rescan: b.Rescan, WatchErr: b.Err}
	var prev *model.Snapshot
	if head != nil {
		prev = head.snap
	}
	base := head
	var snap *model.Snapshot
	if b.Rescan {
		s, err := store.LoadTail(dir, nil)
		if err != nil {
			fr.LoadErr = err
			snap = prev
		} else {
			snap, base = s, nil // every object read anew
		}
	} else if len(b.Paths) > 0 {
		snap = store.Reload(dir, prev, b.Paths)
	}
	if snap == nil {
		return fr // only backups, temp files or the lock: nothing to derive or show
	}
	fr.Snap = snap
	fr.Graph, fr.Forest = DeriveFrom(base, snap, b.Paths)
	return fr
}

// Load reads the whole folder, counting the files read in progress, and derives it: the
// first frame. deriving, when set, is called between the read and the derivation (the
// tui's frame of progress says which it is doing).
func Load(dir string, progress *store.Progress, deriving func()) Frame {
	// The collector stays off over the derivation too (the load turns it off over the
	// read): what is built is kept, so collecting in between only marks it again. A
	// soft limit bounds the garbage meanwhile instead (a large folder's read makes more
	// than it keeps: at 100k statements the heap passed a gigabyte before the first
	// collection).
	defer loadLimit()()
	defer store.PauseGC()()
	var g *model.Graph
	var f *Forest
	// The tree is derived while the config and the log's tail are read: the first frame
	// waits for the longer of the two, not for both in turn.
	snap, err := store.LoadTailThen(dir, progress, func(snap *model.Snapshot) {
		if deriving != nil {
			deriving()
		}
		g, f = Derive(snap)
	})
	if err != nil {
		return Frame{LoadErr: err}
	}
	// The derivation saw no broken config.json, log or history/ (read after it): they are
	// rows of the tree's broken group.
	return Frame{Snap: snap, Graph: g, Forest: f.with(snap, g)}
}

// LoadFirst is Load for a first frame: its tree holds only its first rows (at most
// rows; Forest.Partial) when it has more, so the first frame waits for the read and the
// graph, not for every row of the tree; the Forest's Whole is the rest, to build next.
// Its snapshot then holds only the log's last change (store.LoadFirstThen), the one the
// first frame shows, and Whole's holds the log's tail, as Load's. The collector stays
// off (under the load's soft limit) until resume is called, which the caller does once
// the whole tree is built: a collection started at the end of the load would count what
// Whole throws away as live, and let the heap grow by that much more before the next
// (at 100k statements, the peak of the first extras build). resume may be called more
// than once.
//
// logReady, when not nil, is waited for before the log is read (Feed.Ready).
func LoadFirst(dir string, progress *store.Progress, deriving func(), rows int, logReady <-chan struct{}) (fr Frame, resume func()) {
	restoreLimit := loadLimit()
	resumeGC := store.PauseGC()
	resume = sync.OnceFunc(func() {
		resumeGC()
		restoreLimit()
	})
	var g *model.Graph
	// The graph is derived while the config and the log's last change are read: a first
	// frame shows no more of the log, whose tail Whole reads.
	snap, err := store.LoadFirstThen(dir, progress, logReady, func(snap *model.Snapshot) {
		if deriving != nil {
			deriving()
		}
		g = model.Derive(snap)
	})
	if err != nil {
		resume()
		return Frame{LoadErr: err}, resume
	}
	// Laid out after the read of config.json and the log: a broken one is a row too.
	f := firstForest(snap, g, rows)
	if f == nil {
		// Shown whole at once: with the log's tail.
		snap = store.WithLogTail(dir, snap)
		f = newForest(snap, g)
	} else {
		f.logFrom = dir
	}
	return Frame{Snap: snap, Graph: g, Forest: f}, resume
}

// loadMemoryLimit is the soft memory limit while the first load runs, when none is set.
const loadMemoryLimit = 512 << 20

// loadLimit sets loadMemoryLimit unless a limit is set (GOMEMLIMIT, or by the program),
// and returns what puts the setting back.
func loadLimit() (restore func()) {
	if debug.SetMemoryLimit(-1) != math.MaxInt64 {
		return func() {}
	}
	debug.SetMemoryLimit(loadMemoryLimit)
	return func() { debug.SetMemoryLimit(math.MaxInt64) }
}
