package live

import (
	"slices"
	"sync"

	"referee/store"
)

// Hub is one watched folder shared by many screens (referee serve): one watcher, one
// reload chain, one snapshot and derivation per batch, fanned out to every subscriber.
// A subscriber that does not take its frames never holds the others or the chain up:
// the frames it has not taken are merged into one (the newest snapshot, the union of
// the paths), so what it holds is bounded by one frame.
type Hub struct {
	feed *Feed

	mu   sync.Mutex
	cur  Frame // the newest frame with a snapshot
	subs map[*Sub]struct{}
	done chan struct{}
}

// NewHub watches dir, loads it and starts the reload chain; it fails when the folder
// cannot be watched or read. Close stops it.
func NewHub(dir string, opts store.WatchOptions) (*Hub, error) {
	feed, err := Watch(dir, opts)
	if err != nil {
		return nil, err
	}
	first := Load(dir, nil, nil)
	if first.LoadErr != nil {
		_ = feed.Close()
		return nil, first.LoadErr
	}
	h := &Hub{feed: feed, cur: first, subs: map[*Sub]struct{}{}, done: make(chan struct{})}
	go h.run(first.Forest)
	return h, nil
}

func (h *Hub) run(head *Forest) {
	defer close(h.done)
	for {
		fr := h.feed.Next(head)
		if fr.Snap != nil {
			head = fr.Forest
		}
		h.publish(fr)
		if fr.Closed {
			return
		}
	}
}

func (h *Hub) publish(fr Frame) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if fr.Snap != nil {
		h.cur = Frame{Snap: fr.Snap, Graph: fr.Graph, Forest: fr.Forest}
	}
	for s := range h.subs {
		s.put(fr)
	}
}

// Current is the newest frame with a snapshot.
func (h *Hub) Current() Frame {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.cur
}

// Subscribers is how many subscriptions are open.
func (h *Hub) Subscribers() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.subs)
}

// Subscribe opens a subscription: its Current is the newest frame now, and Next gives
// every frame made after it (merged when not taken in time).
func (h *Hub) Subscribe() *Sub {
	h.mu.Lock()
	defer h.mu.Unlock()
	s := &Sub{hub: h, first: h.cur, ready: make(chan struct{}, 1)}
	select {
	case <-h.done:
		s.closed = true
	default:
		h.subs[s] = struct{}{}
	}
	return s
}

// Close stops the watcher; every subscription gets a closed frame.
func (h *Hub) Close() error {
	err := h.feed.Close()
	<-h.done
	return err
}

// Sub is one screen's subscription to a Hub.
type Sub struct {
	hub   *Hub
	first Frame
	ready chan struct{}

	mu      sync.Mutex
	pending *Frame
	closed  bool
}

// Current is the hub's newest frame when the subscription opened: the first to show.
func (s *Sub) Current() Frame { return s.first }

// put queues fr, merged with a frame not yet taken; it never blocks.
func (s *Sub) put(fr Frame) {
	s.mu.Lock()
	if s.pending == nil {
		s.pending = &fr
	} else {
		s.pending = merge(*s.pending, fr)
	}
	if fr.Closed {
		s.closed = true
	}
	s.mu.Unlock()
	select {
	case s.ready <- struct{}{}:
	default:
	}
}

// merge is one frame saying what a and then b said: b's snapshot (a's if b has none),
// the paths of both, a rescan or a stop if either.
func merge(a, b Frame) *Frame {
	out := b
	if b.Snap == nil {
		out.Snap, out.Graph, out.Forest = a.Snap, a.Graph, a.Forest
	}
	if len(a.Paths) > 0 {
		out.Paths = append(slices.Clone(a.Paths), b.Paths...)
		slices.Sort(out.Paths)
		out.Paths = slices.Compact(out.Paths)
	}
	out.Rescan = a.Rescan || b.Rescan
	out.Closed = a.Closed || b.Closed
	if out.WatchErr == nil {
		out.WatchErr = a.WatchErr
	}
	return &out
}

// Next waits for the next frame (head is ignored: the hub owns the chain). After Close,
// or when the hub stopped, it returns a closed frame.
func (s *Sub) Next(*Forest) Frame {
	for {
		s.mu.Lock()
		if p := s.pending; p != nil {
			s.pending = nil
			s.mu.Unlock()
			return *p
		}
		if s.closed {
			s.mu.Unlock()
			return Frame{Closed: true}
		}
		s.mu.Unlock()
		<-s.ready
	}
}

// Wait waits for the next frame and drops it; false when the subscription ended.
func (s *Sub) Wait() bool { return !s.Next(nil).Closed }

// Close ends the subscription: a Next waiting returns a closed frame. It may be called
// more than once.
func (s *Sub) Close() error {
	s.hub.mu.Lock()
	delete(s.hub.subs, s)
	s.hub.mu.Unlock()
	s.mu.Lock()
	s.closed = true
	s.mu.Unlock()
	select {
	case s.ready <- struct{}{}:
	default:
	}
	return nil
}
