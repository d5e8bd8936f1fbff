package live

import (
	"slices"
	"sync"
	"time"

	"referee/agents"
	"referee/store"
)

// Hub is one watched folder shared by many screens (referee serve): one watcher, one
// reload chain, one snapshot and derivation per batch, fanned out to every subscriber.
// A subscriber that does not take its frames never holds the others or the chain up:
// the frames it has not taken are merged into one (the newest snapshot, the union of
// the paths), so what it holds is bounded by one frame.
type Hub struct {
	feed *Feed
	dir  string

	mu    sync.Mutex
	cur   Frame // the newest frame with a snapshot
	subs  map[*Sub]struct{}
	done  chan struct{}
	pace  func() time.Duration
	runs  map[agents.RunsOptions]*RunsPoller
	close sync.Once
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
	h := &Hub{feed: feed, dir: dir, cur: first, subs: map[*Sub]struct{}{}, done: make(chan struct{}),
		runs: map[agents.RunsOptions]*RunsPoller{}}
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

// SetPace makes the subscriptions opened from now on hand out at most one frame per
// interval: the frames that come sooner wait, merged into one (the newest snapshot).
// A screen then takes, reads and draws one frame per interval however fast the run
// writes, and a frame after a quiet spell still comes at once. 0: every frame.
func (h *Hub) SetPace(every time.Duration) {
	h.SetPaceFunc(func() time.Duration { return every })
}

// SetPaceFunc is SetPace with an interval asked again before each frame is handed out
// (referee serve's grows with the sessions open).
func (h *Hub) SetPaceFunc(every func() time.Duration) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.pace = every
}

// Runs is the hub's one poll of the agents' run-state files with these options (made on
// first use, read every interval; stopped by Close): every screen takes its readings.
func (h *Hub) Runs(opts agents.RunsOptions, every time.Duration) *RunsPoller {
	h.mu.Lock()
	defer h.mu.Unlock()
	p := h.runs[opts]
	if p == nil {
		p = NewRunsPoller(h.dir, opts, every)
		select {
		case <-h.done:
			p.Close() // the hub stopped: readings end at once
		default:
			h.runs[opts] = p
		}
	}
	return p
}

// Subscribe opens a subscription: its Current is the newest frame now, and Next gives
// every frame made after it (merged when not taken in time).
func (h *Hub) Subscribe() *Sub {
	h.mu.Lock()
	defer h.mu.Unlock()
	s := &Sub{hub: h, first: h.cur, ready: make(chan struct{}, 1), pace: h.pace}
	select {
	case <-h.done:
		s.closed = true
	default:
		h.subs[s] = struct{}{}
	}
	return s
}

// Close stops the watcher and the polls; every subscription gets a closed frame. It may
// be called more than once.
func (h *Hub) Close() error {
	err := h.feed.Close()
	<-h.done
	h.close.Do(func() {
		h.mu.Lock()
		runs := h.runs
		h.runs = map[agents.RunsOptions]*RunsPoller{}
		h.mu.Unlock()
		for _, p := range runs {
			p.Close()
		}
	})
	return err
}

// Sub is one screen's subscription to a Hub.
type Sub struct {
	hub   *Hub
	first Frame
	ready chan struct{}
	pace  func() time.Duration // at most one frame per pace (Hub.SetPace); nil: every frame

	mu      sync.Mutex
	pending *Frame
	closed  bool
	given   time.Time // when Next last handed out a frame
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

// Next waits for the next frame (head is ignored: the hub owns the chain), no sooner
// than the pace after the one before. After Close, or when the hub stopped, it returns
// a closed frame.
func (s *Sub) Next(*Forest) Frame {
	for {
		s.mu.Lock()
		if p := s.pending; p != nil {
			var pace time.Duration
			if s.pace != nil {
				pace = s.pace()
			}
			if wait := pace - time.Since(s.given); wait > 0 && !s.closed {
				// Too soon after the last: later frames merge into this one meanwhile.
				s.mu.Unlock()
				t := time.NewTimer(wait)
				select {
				case <-t.C:
				case <-s.ready: // a newer frame or Close: look again
					t.Stop()
				}
				continue
			}
			s.pending = nil
			s.given = time.Now()
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
