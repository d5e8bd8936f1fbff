package mcpserver

import (
	"context"
	"sync"

	"referee/live"
	"referee/model"
	"referee/model/similar"
	"referee/store"
)

// engine keeps the folder's current snapshot, graph and derived answers for the read
// tools, as the workbench keeps its frames: the folder is read once, then kept up to date
// by the watcher (live.Feed) and, before each answer, from the log: a skill's change (by
// this server, the CLI or the agents' scripts) always appends a log line, so a stat of
// the log tells whether one came since, and the objects its lines name are read again
// at once — an agent that writes and then reads sees its own change. Edits that log
// nothing reach it through the watcher, tens of milliseconds later.
type engine struct {
	dir string

	loaded chan struct{} // closed once the first read is done (head or err set)

	mu   sync.Mutex // guards everything below; the frames themselves are immutable
	head *live.Forest
	err  error // the folder could not be read (first load); the next call tries again

	status    *store.Status
	statusFor *live.Forest
	history   *store.History

	simMu   sync.Mutex // the similarity index is updated in place: held while it is read
	similar *similar.Index
}

// startEngine reads dir in the background and follows it until ctx is done.
func startEngine(ctx context.Context, dir string) *engine {
	e := &engine{dir: dir, loaded: make(chan struct{})}
	feed, err := live.Watch(dir, store.WatchOptions{})
	go func() {
		fr := live.Load(dir, nil, nil)
		e.mu.Lock()
		e.head, e.err = fr.Forest, fr.LoadErr
		e.mu.Unlock()
		close(e.loaded)
		if fr.Forest != nil { // what an agent asks first, ready before it asks
			e.statusOf(fr.Forest)
			e.historyOf(fr.Forest.Snapshot())
		}
		if err != nil {
			return // no watcher: the log check alone keeps up (unlogged edits are missed)
		}
		go func() {
			<-ctx.Done()
			feed.Close()
		}()
		for {
			b, ok := feed.Batch()
			if !ok {
				return
			}
			e.mu.Lock()
			e.apply(b)
			e.mu.Unlock()
		}
	}()
	return e
}

// apply brings head up to date with a batch of changed files (under mu).
func (e *engine) apply(b store.Batch) {
	if e.head == nil {
		if fr := live.ReloadAll(e.dir); fr.Forest != nil {
			e.head, e.err = fr.Forest, nil
		}
		return
	}
	if fr := live.Apply(e.dir, e.head, b); fr.Forest != nil {
		e.head = fr.Forest
	}
}

// ready says the first read is done: frame waits for nothing else.
func (e *engine) ready() bool {
	select {
	case <-e.loaded:
		return true
	default:
		return false
	}
}

// frame is the current frame, brought up to date with the log first.
func (e *engine) frame(ctx context.Context) (*live.Forest, error) {
	select {
	case <-e.loaded:
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.current()
}

// frameNow is frame when it can be had without waiting for the first read or for a batch
// being applied; ok is false otherwise. The stdio guard answers kept answers on the
// goroutine that reads the client's messages, which must not wait behind a reload.
func (e *engine) frameNow() (f *live.Forest, ok bool, err error) {
	if !e.ready() || !e.mu.TryLock() {
		return nil, false, nil
	}
	defer e.mu.Unlock()
	f, err = e.current()
	return f, true, err
}

// current is head brought up to date with the log (under mu).
func (e *engine) current() (*live.Forest, error) {
	if e.head == nil {
		fr := live.ReloadAll(e.dir)
		if fr.Forest == nil {
			return nil, fr.LoadErr
		}
		e.head, e.err = fr.Forest, nil
	}
	if paths, rescan := store.LoggedSince(e.dir, e.head.Snapshot()); paths != nil || rescan {
		e.apply(store.Batch{Paths: paths, Rescan: rescan})
	}
	return e.head, nil
}

// reread reads one file again (a lazily read proof found changed), without waiting for
// the watcher.
func (e *engine) reread(rel string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.head != nil {
		e.apply(store.Batch{Paths: []string{rel}})
	}
}

// statusOf is the status of f, worked out once per frame (outside the lock: a call that
// needs only the frame does not wait for it).
func (e *engine) statusOf(f *live.Forest) *store.Status {
	e.mu.Lock()
	if e.statusFor == f {
		defer e.mu.Unlock()
		return e.status
	}
	e.mu.Unlock()
	st := store.StatusOf(f.Snapshot(), f.Graph())
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.statusFor == nil || e.statusFor == f || e.head == f {
		e.status, e.statusFor = st, f
	}
	return st
}

// similarity runs read on the similarity index brought up to date with snap (it follows
// the claims that changed, as the workbench's does; built on first use).
func (e *engine) similarity(snap *model.Snapshot, read func(*similar.Index)) {
	e.simMu.Lock()
	defer e.simMu.Unlock()
	if e.similar == nil {
		e.similar = similar.NewIndex(snap)
	} else {
		e.similar.Update(snap)
	}
	read(e.similar)
}

// historyOf is the History of snap, sharing the log index of the Histories before it.
func (e *engine) historyOf(snap *model.Snapshot) *store.History {
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.history == nil {
		e.history = store.NewHistory(e.dir, snap)
	} else {
		e.history = e.history.With(snap)
	}
	return e.history
}
