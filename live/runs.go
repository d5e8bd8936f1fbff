package live

import (
	"referee/agents"
	"sync"
	"time"
)

// RunsReading is one reading of the agents' run-state files and the folder's last
// activity (agents.FindRuns, agents.LastActivity).
type RunsReading struct {
	Runs []agents.AgentRun
	Err  error
	Last time.Time
	What string
	Seq  uint64 // readings are numbered from 1
}

// RunsPoller reads the run-state files of one folder every interval, once for every
// screen that shows them (referee serve: one poll for all the sessions, not one each).
// A reading is handed out as is: nothing in it is changed after.
type RunsPoller struct {
	dir   string
	opts  agents.RunsOptions
	every time.Duration

	mu      sync.Mutex
	cur     RunsReading
	changed chan struct{} // closed when a newer reading (or the end) comes
	closed  bool
	stop    chan struct{}
	done    chan struct{}
}

// NewRunsPoller starts reading the run-state files of the contents folder dir now and
// then every interval, until Close.
func NewRunsPoller(dir string, opts agents.RunsOptions, every time.Duration) *RunsPoller {
	p := &RunsPoller{dir: dir, opts: opts, every: every, changed: make(chan struct{}),
		stop: make(chan struct{}), done: make(chan struct{})}
	go p.run()
	return p
}

func (p *RunsPoller) run() {
	defer close(p.done)
	t := time.NewTicker(p.every)
	defer t.Stop()
	for {
		runs, err := agents.FindRuns(p.dir, p.opts)
		last, what := agents.LastActivity(p.dir, runs)
		p.mu.Lock()
		p.cur = RunsReading{Runs: runs, Err: err, Last: last, What: what, Seq: p.cur.Seq + 1}
		close(p.changed)
		p.changed = make(chan struct{})
		p.mu.Unlock()
		select {
		case <-p.stop:
			return
		case <-t.C:
		}
	}
}

// Next waits for a reading newer than the one numbered after (0: any) and returns it;
// after Close it returns the newest reading at once, with ok false.
func (p *RunsPoller) Next(after uint64) (r RunsReading, ok bool) {
	for {
		p.mu.Lock()
		cur, ch, closed := p.cur, p.changed, p.closed
		p.mu.Unlock()
		if closed {
			return cur, false
		}
		if cur.Seq > after {
			return cur, true
		}
		<-ch
	}
}

// Close stops the polling; a Next waiting returns. It may be called more than once.
func (p *RunsPoller) Close() {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return
	}
	p.closed = true
	close(p.stop)
	close(p.changed)
	p.changed = make(chan struct{})
	p.mu.Unlock()
	<-p.done
}
