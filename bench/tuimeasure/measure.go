// Package tuimeasure measures the workbench's speed goals (a keypress, an agent's write
// reaching the screen, the first frame, a transcript line reaching the runs pane, proof
// rendering) by driving package tui as the program drives it, through its measuring seam
// (tui.Probe). `referee-bench` prints these figures beside the engine's, and the
// benchmarks here (go test -bench) run the same code. The product never imports it.
package tuimeasure

import (
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"referee/live"
	"referee/model"
	"referee/store"
	"referee/tui"
)

// open opens a folder the way the program does, but loaded at once and without a
// watcher, at a terminal size, with its extras (similarity index, re-treads, graveyard,
// review order) built as the background would build them, so that every frame draws
// what the program draws. Later builds are not started: they run off the UI goroutine
// and are no part of a frame.
func open(dir string, width, height int) (*tui.Probe, error) {
	return tui.OpenProbe(dir, width, height, tui.ProbeOptions{Extras: true})
}

// KeypressCase is a workbench moving down its tree one key (j) at a time: the work of
// the UI goroutine between a keypress and the terminal write, Update plus View. The
// commands a key returns (the markdown of a newly shown proof) run elsewhere and are
// not part of it.
type KeypressCase struct {
	p *tui.Probe
}

// NewKeypressCase opens a folder at a terminal size.
func NewKeypressCase(dir string, width, height int) (*KeypressCase, error) {
	p, err := open(dir, width, height)
	if err != nil {
		return nil, err
	}
	return &KeypressCase{p: p}, nil
}

var keyDown = tea.KeyPressMsg{Code: 'j', Text: "j"}

// Press sends one j and draws the frame, and returns how long that took. When the key
// did not move (the bottom of the tree) it goes back to the top (g, not timed).
func (c *KeypressCase) Press() time.Duration {
	before := c.p.Cursor()
	start := time.Now()
	c.p.Update(keyDown)
	_ = c.p.View()
	d := time.Since(start)
	if c.p.Cursor() == before {
		c.p.Update(tea.KeyPressMsg{Code: 'g', Text: "g"})
	}
	return d
}

// Mean presses n keys and returns the mean time of one.
func (c *KeypressCase) Mean(n int) time.Duration {
	var total time.Duration
	for range n {
		total += c.Press()
	}
	return total / time.Duration(max(n, 1))
}

// Close stops the workbench.
func (c *KeypressCase) Close() { c.p.Close() }

// WriteCase is an agent writing one statement file again and again, and the workbench
// showing each version: what the program does with the watcher's batch (the live
// room's Next: store.Reload of that file, the graph and the tree derived off the UI
// goroutine; then the frame through Update) and the next frame. The watcher's quiet time
// (store.WatchOptions.Debounce) comes before it and is not part of it.
type WriteCase struct {
	p        *tui.Probe
	dir      string
	rel      string // the statement file written, relative to dir
	versions [2][]byte
	turn     int
}

// NewWriteCase opens a folder at a terminal size to write in it. The folder is changed:
// pass a copy. The file is replaced (written beside and renamed, as referee and careful
// agents do), never written in place, so a copy made of hard links is safe.
func NewWriteCase(dir string, width, height int) (*WriteCase, error) {
	p, err := open(dir, width, height)
	if err != nil {
		return nil, err
	}
	c, err := newWriteCase(p, dir)
	if err != nil {
		p.Close()
	}
	return c, err
}

// newWriteCase picks the middle statement in ID order; its versions are the file as
// it is and the same object with its status changed, as an agent's check or gap would
// ("true", or "pending" when it was true): the graph's phases, next agents, fully
// proved and stale marks move with it.
func newWriteCase(p *tui.Probe, dir string) (*WriteCase, error) {
	ids := slices.Sorted(p.Head().Snapshot().Statements.Keys())
	if len(ids) == 0 {
		return nil, fmt.Errorf("%s: no statements to write", dir)
	}
	rel := store.StatementDir + "/" + ids[len(ids)/2] + ".json"
	orig, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(rel)))
	if err != nil {
		return nil, err
	}
	flipped, err := flipStatus(orig)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", rel, err)
	}
	return &WriteCase{p: p, dir: dir, rel: rel, versions: [2][]byte{orig, flipped}}, nil
}

// statusField is a statement file's status (the agents write `"status": "…"`).
var statusField = regexp.MustCompile(`"status":\s*"([^"\\]*)"`)

// flipStatus is the file with its status set to "true", or "pending" when it was true.
func flipStatus(file []byte) ([]byte, error) {
	m := statusField.FindSubmatchIndex(file)
	if m == nil {
		return nil, errors.New("no status field")
	}
	to := "true"
	if string(file[m[2]:m[3]]) == "true" {
		to = "pending"
	}
	return slices.Concat(file[:m[2]], []byte(to), file[m[3]:]), nil
}

// replace writes the file's other version beside it and renames it over the file.
func (c *WriteCase) replace() error {
	c.turn ^= 1
	path := filepath.Join(c.dir, filepath.FromSlash(c.rel))
	if err := os.WriteFile(path+".tmp", c.versions[c.turn], 0o644); err != nil {
		return err
	}
	return os.Rename(path+".tmp", path)
}

// Write replaces the file with its other version and returns how long it took from the
// write to the frame that shows it.
func (c *WriteCase) Write() (time.Duration, error) {
	start := time.Now()
	if err := c.replace(); err != nil {
		return 0, err
	}
	fr := live.Reload(c.dir, c.p.Head(), []string{c.rel}) // as the live room's Next does
	if i := slices.IndexFunc(fr.Snap.Broken, func(b model.BrokenFile) bool { return b.Path == c.rel }); i >= 0 {
		return 0, fmt.Errorf("%s: %s", c.rel, fr.Snap.Broken[i].Reason)
	}
	c.p.Update(fr)
	_ = c.p.View()
	return time.Since(start), nil
}

// Run makes at least n writes, and more until budget has passed (at most 10n), and
// returns the 99th percentile and the mean of their times. The first write after the
// workbench opened is slower (caches fill): make it with Write before.
func (c *WriteCase) Run(n int, budget time.Duration) (p99, mean time.Duration, err error) {
	return runWrites(n, budget, c.Write)
}

func runWrites(n int, budget time.Duration, write func() (time.Duration, error)) (p99, mean time.Duration, err error) {
	n = max(n, 1)
	times := make([]time.Duration, 0, n)
	var total time.Duration
	deadline := time.Now().Add(budget)
	for len(times) < n || len(times) < 10*n && time.Now().Before(deadline) {
		d, err := write()
		if err != nil {
			return 0, 0, err
		}
		times = append(times, d)
		total += d
	}
	slices.Sort(times)
	return times[len(times)*99/100], total / time.Duration(len(times)), nil
}

// Close stops the workbench.
func (c *WriteCase) Close() { c.p.Close() }

// WatchedWriteCase is WriteCase through the watcher, the whole path an agent's write
// takes in the program: the file replaced, store.Watch's batch once the folder has been
// quiet for the debounce, the model's own listen command (the live room's Next:
// store.Reload of the batch, the graph and tree updated), its frame through Update, and
// View. The command runs
// here rather than on a goroutine of its own, which changes nothing in the time: the UI
// waits for its message either way.
type WatchedWriteCase struct {
	*WriteCase
	id      string
	next    tea.Cmd // listen: waits for the watcher's next batch
	timeout time.Duration
}

// NewWatchedWriteCase opens a folder at a terminal size, watching it with the given
// debounce (0: the watcher's default, as the program runs), to write in it. As with
// NewWriteCase the folder is changed: pass a copy.
func NewWatchedWriteCase(dir string, width, height int, debounce time.Duration) (*WatchedWriteCase, error) {
	p, err := open(dir, width, height)
	if err != nil {
		return nil, err
	}
	feed, err := live.Watch(dir, store.WatchOptions{Debounce: debounce})
	if err != nil {
		p.Close()
		return nil, err
	}
	next := p.WatchWith(feed) // Close stops it
	c, err := newWriteCase(p, dir)
	if err != nil {
		p.Close()
		return nil, err
	}
	id := strings.TrimSuffix(path.Base(c.rel), ".json")
	return &WatchedWriteCase{WriteCase: c, id: id, next: next, timeout: 5 * time.Second}, nil
}

// Write replaces the file with its other version and returns how long it took until a
// frame showed it: batches that do not bring it (only the temporary file) are taken
// through Update and View too, as the program would.
func (c *WatchedWriteCase) Write() (time.Duration, error) {
	was := c.p.Shown().Versions.Get(c.id)
	start := time.Now()
	if err := c.replace(); err != nil {
		return 0, err
	}
	for c.p.Shown().Versions.Get(c.id) == was {
		msg, err := c.wait()
		if err != nil {
			return 0, err
		}
		c.p.Update(msg)
		_ = c.p.View()
		if on, note := c.p.Watching(); !on {
			return 0, fmt.Errorf("%s: the watcher stopped (%s)", c.dir, note)
		}
		// What the frame returned among its commands: listen from the new head.
		c.next = c.p.Next()
	}
	return time.Since(start), nil
}

// wait runs the listen command, for at most the case's timeout.
func (c *WatchedWriteCase) wait() (tea.Msg, error) {
	got := make(chan tea.Msg, 1)
	go func(cmd tea.Cmd) { got <- cmd() }(c.next) // returns when the watcher closes at the latest
	select {
	case msg := <-got:
		return msg, nil
	case <-time.After(c.timeout):
		return nil, fmt.Errorf("%s: no batch from the watcher within %s of a write", c.rel, c.timeout)
	}
}

// Run is WriteCase.Run through the watcher.
func (c *WatchedWriteCase) Run(n int, budget time.Duration) (p99, mean time.Duration, err error) {
	return runWrites(n, budget, c.Write)
}

// ProofWidth is the width proofs are measured at: the detail pane of a 120-column
// terminal.
const ProofWidth = 78

// ProofCase is a proof of some size shown in the detail pane: rendered with glamour by
// a command (cold), then taken from the workbench's cache of renderings (cached).
type ProofCase struct {
	p     *tui.Probe
	proof string
	empty string // the empty folder the workbench opened, removed by Close

	// OffUIGoroutine is false once showing a proof that is not cached rendered the
	// markdown in Update instead of returning a command for it.
	OffUIGoroutine bool
	// RenderedOnce is false once a cached proof was rendered again.
	RenderedOnce bool
}

// NewProofCase makes a proof of about kb KiB and a workbench (on an empty folder) to
// show it.
func NewProofCase(kb int) (*ProofCase, error) {
	return newProofCase(kb, tui.ProbeOptions{Extras: true})
}

func newProofCase(kb int, o tui.ProbeOptions) (*ProofCase, error) {
	empty, err := os.MkdirTemp("", "referee-measure-")
	if err != nil {
		return nil, err
	}
	p, err := tui.OpenProbe(empty, 120, 40, o)
	if err != nil {
		os.RemoveAll(empty)
		return nil, err
	}
	return &ProofCase{p: p, proof: ProofText(kb << 10), empty: empty, OffUIGoroutine: true, RenderedOnce: true}, nil
}

// ProofText is a proof of about n bytes: paragraphs of prose with inline math, a list
// and an aligned display with blank lines inside, as agents and mathematicians write
// them.
func ProofText(n int) string {
	para := "By induction, $f(x_k) \\le C \\cdot k^{-1/2}$ for all $k < n$, " +
		"and **Lemma 3** gives $\\sum_{i=1}^{n} a_i^2 \\le 1$. Hence the claim holds for $n$.\n\n" +
		"- first, the case $n = 1$ is immediate;\n- second, for $n > 1$ we split the sum:\n\n" +
		"$$\n\n\\begin{aligned}\n\\int_0^1 g &= \\lim_{m\\to\\infty} \\frac{1}{m}\\sum_{j=1}^m g(j/m) \\\\\n\n&\\le C.\n\\end{aligned}\n\n$$\n\n"
	return strings.Repeat(para, max(1, n/len(para)))
}

// Len is the proof's size in bytes.
func (c *ProofCase) Len() int { return len(c.proof) }

// Cold forgets the proof's markdown, shows the proof again and returns how long it took
// until the markdown was in the workbench's cache: the lookup and the command that
// renders it (run here, as the program runs it off the UI goroutine).
func (c *ProofCase) Cold() (time.Duration, error) {
	c.p.ForgetProof(c.proof, ProofWidth)
	before := c.p.Renders()
	start := time.Now()
	cmd := c.p.ShowProof(c.proof, ProofWidth)
	if cmd == nil || c.p.Renders() != before {
		c.OffUIGoroutine = false
	}
	if err := c.deliver(cmd); err != nil {
		return 0, err
	}
	return time.Since(start), nil
}

// deliver runs a rendering command and gives its message to the workbench.
func (c *ProofCase) deliver(cmd tea.Cmd) error {
	if cmd == nil {
		return nil
	}
	msg := cmd()
	if !tui.ProofRendered(msg) {
		return errors.New("the proof's markdown did not render")
	}
	c.p.Update(msg)
	return nil
}

// Cached shows the proof n times from the cache (rendering it first if it is not
// there) and returns the mean time of one.
func (c *ProofCase) Cached(n int) (time.Duration, error) {
	if cmd := c.p.ShowProof(c.proof, ProofWidth); cmd != nil {
		if err := c.deliver(cmd); err != nil {
			return 0, err
		}
	}
	before := c.p.Renders()
	n = max(n, 1)
	start := time.Now()
	for range n {
		cmd := c.p.ShowProof(c.proof, ProofWidth)
		if err := c.deliver(cmd); err != nil {
			return 0, err
		}
	}
	d := time.Since(start) / time.Duration(n)
	if c.p.Renders() != before {
		c.RenderedOnce = false
	}
	return d, nil
}

// Close stops the workbench and removes its folder.
func (c *ProofCase) Close() {
	c.p.Close()
	if c.empty != "" {
		os.RemoveAll(c.empty)
	}
}
