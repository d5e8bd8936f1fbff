package bench

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/creack/pty"
	"github.com/hinshun/vt10x"

	"referee/gen"
	"referee/model"
	"referee/skill"
	"referee/store"
)

// The live rows time the program people run: the referee binary started in a
// pseudo-terminal, everything switched on (watcher, similarity extras, activity), read
// through a terminal emulator as a user's terminal would draw it. Nothing here reaches
// into the tui: only keys go in, only the screen comes out.

// Terminal is a referee process in a pseudo-terminal, its screen kept by vt10x.
type Terminal struct {
	cmd    *exec.Cmd
	pty    *os.File
	mu     sync.Mutex
	vt     vt10x.Terminal
	out    int64     // bytes read
	last   time.Time // when the last bytes came
	done   chan struct{}
	wrote  chan struct{} // a token when output came: waiters look at the screen then
	Start  time.Time
	width  int
	height int
}

// StartTerminal runs binary with args in a pseudo-terminal of a size.
func StartTerminal(binary string, args []string, width, height int) (*Terminal, error) {
	t := &Terminal{cmd: exec.Command(binary, args...), vt: vt10x.New(vt10x.WithSize(width, height)),
		done: make(chan struct{}), wrote: make(chan struct{}, 1), width: width, height: height}
	// The child's own profiles, if asked for (REFEREE_BENCH_PROFILE, REFEREE_BENCH_MEMPROFILE),
	// never the bench's.
	env := slices.DeleteFunc(os.Environ(), func(v string) bool {
		return strings.HasPrefix(v, "REFEREE_CPUPROFILE=") || strings.HasPrefix(v, "REFEREE_MEMPROFILE=")
	})
	if p := os.Getenv("REFEREE_BENCH_PROFILE"); p != "" {
		env = append(env, "REFEREE_CPUPROFILE="+p)
	}
	if p := os.Getenv("REFEREE_BENCH_MEMPROFILE"); p != "" {
		env = append(env, "REFEREE_MEMPROFILE="+p)
	}
	t.cmd.Env = append(env, "TERM=xterm-256color", "COLORTERM=truecolor")
	// The child's standard error in a file, if asked for (REFEREE_BENCH_STDERR): what
	// GODEBUG=gctrace=1 writes, say, without drawing it over the screen measured.
	if p := os.Getenv("REFEREE_BENCH_STDERR"); p != "" {
		ef, err := os.Create(p)
		if err != nil {
			return nil, err
		}
		defer ef.Close() // the child has its own copy once started
		t.cmd.Stderr = ef
	}
	t.Start = time.Now()
	f, err := pty.StartWithSize(t.cmd, &pty.Winsize{Cols: uint16(width), Rows: uint16(height)})
	if err != nil {
		return nil, err
	}
	t.pty = f
	go func() {
		defer close(t.done)
		buf := make([]byte, 64<<10)
		for {
			n, err := f.Read(buf)
			if n > 0 {
				t.mu.Lock()
				t.vt.Write(buf[:n])
				t.out += int64(n)
				t.last = time.Now()
				t.mu.Unlock()
				select {
				case t.wrote <- struct{}{}:
				default:
				}
			}
			if err != nil {
				return
			}
		}
	}()
	return t, nil
}

// Screen is the terminal's text, line by line.
func (t *Terminal) Screen() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return strings.Split(t.vt.String(), "\n")
}

// WaitFor looks at the screen each time output comes until ok says so, and returns
// when the bytes that made it so came (since Start). Polling every millisecond took
// CPU from the workbench it timed (two cores), and timed the bench's own wake-up.
func (t *Terminal) WaitFor(ok func(lines []string) bool, timeout time.Duration) (time.Duration, error) {
	deadline := time.After(timeout)
	for {
		t.mu.Lock()
		lines, at := strings.Split(t.vt.String(), "\n"), t.last
		t.mu.Unlock()
		if ok(lines) {
			return at.Sub(t.Start), nil
		}
		select {
		case <-t.wrote:
		case <-t.done:
			return 0, errors.New("the workbench exited")
		case <-deadline:
			return 0, fmt.Errorf("not on screen after %s:\n%s", timeout, strings.Join(t.Screen(), "\n"))
		}
	}
}

// Key types a key and returns how long until the screen's upper part (all but the two
// status lines) differs from what it was: the keypress's frame.
func (t *Terminal) Key(key string, timeout time.Duration) (time.Duration, error) {
	before := strings.Join(t.upper(), "\n")
	start := time.Now()
	if _, err := t.pty.Write([]byte(key)); err != nil {
		return 0, err
	}
	// Looked at when output comes (not polled: polling took a core from the workbench).
	deadline := time.After(timeout)
	for {
		select {
		case <-t.wrote:
		case <-deadline:
			return 0, fmt.Errorf("key %q changed nothing in %s", key, timeout)
		case <-t.done:
			return 0, errors.New("the workbench exited")
		}
		if strings.Join(t.upper(), "\n") != before {
			// When the bytes that changed it came (or later ones), not when this
			// goroutine got to look: on a loaded machine the bench's own wake-up is
			// no part of the workbench's frame.
			t.mu.Lock()
			at := t.last
			t.mu.Unlock()
			return at.Sub(start), nil
		}
	}
}

// upper is the screen's right half (the detail pane, which follows the cursor), without
// the status lines: what a keypress moving the cursor changes, and a write rarely does.
func (t *Terminal) upper() []string {
	lines := t.Screen()
	if len(lines) > 2 {
		lines = lines[:len(lines)-2]
	}
	out := make([]string, len(lines))
	for i, l := range lines {
		r := []rune(l)
		out[i] = string(r[min(len(r), t.width/3):])
	}
	return out
}

// CPU is the process's CPU time so far (user and system), from /proc.
func (t *Terminal) CPU() (time.Duration, error) { return procCPU(t.cmd.Process.Pid) }

// RSS is the process's resident memory high-water mark, in bytes.
func (t *Terminal) RSS() (uint64, error) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", t.cmd.Process.Pid))
	if err != nil {
		return 0, err
	}
	for _, l := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(l, "VmHWM:"); ok {
			kb, _ := strconv.ParseUint(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return kb << 10, nil
		}
	}
	return 0, errors.New("no VmHWM")
}

// Close quits the workbench (q, then a kill if it lingers).
func (t *Terminal) Close() {
	t.pty.Write([]byte("q"))
	select {
	case <-t.done:
	case <-time.After(2 * time.Second):
		t.cmd.Process.Kill()
	}
	t.cmd.Wait()
	t.pty.Close()
}

// procCPU reads utime+stime of a process (clock ticks of 10 ms on Linux).
func procCPU(pid int) (time.Duration, error) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, err
	}
	s := string(data)
	fields := strings.Fields(s[strings.LastIndexByte(s, ')')+2:])
	if len(fields) < 13 {
		return 0, errors.New("short /proc stat")
	}
	u, _ := strconv.ParseInt(fields[11], 10, 64)
	k, _ := strconv.ParseInt(fields[12], 10, 64)
	return time.Duration(u+k) * 10 * time.Millisecond, nil
}

// treeShown says the tree has rows: a statement or problem ID at the start of a row.
var treeRow = regexp.MustCompile(`[ps]-[a-z]*[0-9]{3}`)

func treeShown(lines []string) bool {
	for _, l := range lines[:max(len(lines)-2, 0)] {
		if treeRow.MatchString(l) {
			return true
		}
	}
	return false
}

func anyText(lines []string) bool {
	for _, l := range lines {
		if strings.TrimSpace(l) != "" {
			return true
		}
	}
	return false
}

// lastShown is the change the status bar names ("last: l-…").
var lastShown = regexp.MustCompile(`last: (l-[a-z]*[0-9]{3})`)

func (t *Terminal) lastChange() string {
	lines := t.Screen()
	for i := len(lines) - 1; i >= 0 && i >= len(lines)-3; i-- {
		if m := lastShown.FindStringSubmatch(lines[i]); m != nil {
			return m[1]
		}
	}
	return ""
}

// LiveOptions say what the live rows run.
type LiveOptions struct {
	Binary   string
	Dir      string        // a folder the rows may change (a private copy)
	Duration time.Duration // of the sustained load
	Calls    int           // skill calls per second
	Rewrites int           // in-place rewrites of statement files per second
	Keys     int           // keypresses per second while loaded
}

// LiveReport is what the sustained load measured.
type LiveReport struct {
	FirstFrame, TreeFrame time.Duration
	CPUMedian, CPUP90     float64 // share of one core, per second of load
	LagP50, LagP99        time.Duration
	KeyP50, KeyP99        time.Duration
	KeyIdleP50            time.Duration
	BusyAfter             time.Duration
	Calls, Rewrites, Keys int
	CallsMissed           int           // calls not made: every caller was still in a call
	CallP50, CallP99      time.Duration // a skill call's own time (store.Run)
	Shown                 int           // changes whose arrival on the status bar was timed
	PeakRSS               uint64
	RestRSS               uint64 // peak resident memory when the extras were built, before the writes
}

// liveCallers is how many skill callers the live rows run at once, each on its own
// statement.
const liveCallers = 4

// RunLive starts the workbench on o.Dir in a pseudo-terminal, times its first frames,
// keypresses at rest, then o.Duration of skill calls and in-place rewrites with
// keypresses, and how long it stays busy after.
func RunLive(o LiveOptions) (LiveReport, error) {
	var r LiveReport
	snap, err := store.Load(o.Dir)
	if err != nil {
		return r, err
	}
	cases, err := findSkillCases(snap, liveCallers)
	if err != nil {
		return r, err
	}
	loops := make([]*SkillLoop, len(cases))
	inLoop := map[string]bool{}
	for i, c := range cases {
		loops[i] = &SkillLoop{Dir: o.Dir, c: c, cleanup: func() {}}
		inLoop[c.id] = true
	}
	var targets []string
	for id, st := range snap.Statements.All() {
		if !inLoop[id] && (st.Status == "pending" || st.Status == "awaiting_verification") {
			targets = append(targets, id)
		}
	}
	slices.SortFunc(targets, model.CompareIDs)
	snap = nil

	t, err := StartTerminal(o.Binary, []string{"--contents", o.Dir}, frameWidth, frameHeight)
	if err != nil {
		return r, err
	}
	defer t.Close()
	if r.FirstFrame, err = t.WaitFor(anyText, 30*time.Second); err != nil {
		return r, err
	}
	if r.TreeFrame, err = t.WaitFor(treeShown, 60*time.Second); err != nil {
		return r, err
	}
	// Settle: the extras build in the background once; wait for the process to idle.
	if _, err := waitIdle(t, 120*time.Second); err != nil {
		return r, err
	}
	r.RestRSS, _ = t.RSS()
	var idleKeys []time.Duration
	for i := range 40 {
		d, err := t.Key([]string{"j", "k"}[i%2], 2*time.Second)
		if err != nil {
			return r, err
		}
		idleKeys = append(idleKeys, d)
		time.Sleep(20 * time.Millisecond)
	}
	r.KeyIdleP50 = quantile(idleKeys, 0.5)
	// A heap profile at rest, if one was asked for (REFEREE_BENCH_MEMPROFILE): the one the
	// workbench writes as it quits, less this one, is what the writes allocated.
	if os.Getenv("REFEREE_BENCH_MEMPROFILE") != "" {
		t.cmd.Process.Signal(syscall.SIGUSR1)
	}

	// The load: writers at their rates, a key now and then, the status bar watched.
	stop := make(chan struct{})
	var wg sync.WaitGroup
	var mu sync.Mutex
	written := map[string]time.Time{} // change → when its skill call returned
	var order []string
	var werr error
	fail := func(err error) {
		mu.Lock()
		if werr == nil {
			werr = err
		}
		mu.Unlock()
	}
	every := func(perSec int, f func(i int)) {
		if perSec <= 0 {
			return
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			tick := time.NewTicker(time.Second / time.Duration(perSec))
			defer tick.Stop()
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				case <-tick.C:
					f(i)
				}
			}
		}()
	}
	// The calls: each tick hands a call to a caller that is free (each works its own
	// statement, as separate agents do), so a call slower than the interval does not hold
	// the next back; a tick with every caller busy is counted as missed.
	calls := make(chan struct{})
	var callTimes []time.Duration
	for _, loop := range loops {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-stop:
					return
				case <-calls:
				}
				name, params := loop.Next()
				sk, _ := skill.Lookup(name)
				args, err := storeArgs(sk, params)
				if err != nil {
					fail(err)
					return
				}
				began := time.Now()
				res, err := store.Run(o.Dir, sk, args, store.Options{Actor: "bench"})
				if err != nil {
					fail(err)
					return
				}
				mu.Lock()
				written[res.Change] = time.Now()
				callTimes = append(callTimes, time.Since(began))
				order = append(order, res.Change)
				r.Calls++
				mu.Unlock()
			}
		}()
	}
	every(o.Calls, func(int) {
		select {
		case calls <- struct{}{}:
		default:
			mu.Lock()
			r.CallsMissed++
			mu.Unlock()
		}
	})
	every(o.Rewrites, func(i int) {
		if len(targets) == 0 {
			return
		}
		if err := rewriteInPlace(filepath.Join(o.Dir, store.StatementDir, targets[i%len(targets)]+".json")); err != nil {
			fail(err)
			return
		}
		mu.Lock()
		r.Rewrites++
		mu.Unlock()
	})
	// The status bar, polled: when each change (or a later one) first shows.
	seen := map[string]time.Time{}
	wg.Add(1)
	go func() {
		defer wg.Done()
		last := ""
		for {
			select {
			case <-stop:
				return
			case <-time.After(5 * time.Millisecond):
			}
			if l := t.lastChange(); l != last {
				last = l
				seen[l] = time.Now()
			}
		}
	}()
	var keys []time.Duration
	var cpu []float64
	cpu0, err := t.CPU()
	if err != nil {
		return r, err
	}
	sampleAt := time.Now()
	end := time.Now().Add(o.Duration)
	keyEvery := time.Second / time.Duration(max(o.Keys, 1))
	// Each key's time since the child started, if asked for (REFEREE_BENCH_KEYLOG): to
	// set the slow ones beside the child's own traces.
	var keyLog *os.File
	if p := os.Getenv("REFEREE_BENCH_KEYLOG"); p != "" {
		if keyLog, err = os.Create(p); err != nil {
			return r, err
		}
		defer keyLog.Close()
	}
	for i := 0; time.Now().Before(end); i++ {
		at := time.Since(t.Start)
		d, err := t.Key([]string{"j", "k"}[i%2], 2*time.Second)
		if err == nil {
			keys = append(keys, d)
			if keyLog != nil {
				fmt.Fprintf(keyLog, "%.3f %.1f\n", at.Seconds(), float64(d)/float64(time.Millisecond))
			}
		}
		time.Sleep(max(keyEvery-d, time.Millisecond))
		if since := time.Since(sampleAt); since >= time.Second {
			c1, _ := t.CPU()
			cpu = append(cpu, float64(c1-cpu0)/float64(since))
			cpu0, sampleAt = c1, time.Now()
		}
	}
	close(stop)
	wg.Wait()
	stopped := time.Now()
	if werr != nil {
		return r, werr
	}
	if r.BusyAfter, err = waitIdle(t, 120*time.Second); err != nil {
		return r, err
	}
	r.BusyAfter -= 0 // from the writers' stop
	// Lag: for each change written, the first time the status bar showed it or a later one.
	// In log order: callers working at once may return out of it.
	slices.SortFunc(order, model.CompareIDs)
	pos := map[string]int{}
	for i, id := range order {
		pos[id] = i
	}
	type sighting struct {
		at  time.Time
		pos int
	}
	var sights []sighting
	for id, at := range seen {
		if p, ok := pos[id]; ok {
			sights = append(sights, sighting{at, p})
		}
	}
	slices.SortFunc(sights, func(a, b sighting) int { return a.at.Compare(b.at) })
	var lags []time.Duration
	for i, id := range order {
		for _, s := range sights {
			if s.pos >= i {
				lags = append(lags, max(s.at.Sub(written[id]), 0))
				break
			}
		}
	}
	_ = stopped
	r.CallP50, r.CallP99 = quantile(callTimes, 0.5), quantile(callTimes, 0.99)
	r.Shown = len(lags)
	r.Keys = len(keys)
	r.LagP50, r.LagP99 = quantile(lags, 0.5), quantile(lags, 0.99)
	r.KeyP50, r.KeyP99 = quantile(keys, 0.5), quantile(keys, 0.99)
	slices.Sort(cpu)
	if len(cpu) > 0 {
		r.CPUMedian, r.CPUP90 = cpu[len(cpu)/2], cpu[min(len(cpu)-1, len(cpu)*9/10)]
	}
	r.PeakRSS, _ = t.RSS()
	return r, nil
}

// waitIdle waits until the process used under 5% of a core over half a second, and
// returns how long that took (from the call to the start of the quiet half second).
func waitIdle(t *Terminal, timeout time.Duration) (time.Duration, error) {
	start := time.Now()
	window := 500 * time.Millisecond
	for time.Since(start) < timeout {
		at := time.Now()
		c0, err := t.CPU()
		if err != nil {
			return 0, err
		}
		time.Sleep(window)
		c1, _ := t.CPU()
		if float64(c1-c0) < 0.05*float64(window) {
			return at.Sub(start), nil
		}
	}
	return 0, fmt.Errorf("still busy after %s", timeout)
}

// rewriteInPlace rewrites a statement file in place, as the agents do (open, truncate,
// write; no rename, no lock), with its status turned from pending to awaiting
// verification or back.
func rewriteInPlace(path string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	a, b := []byte(`"status": "pending"`), []byte(`"status": "awaiting_verification"`)
	switch {
	case bytes.Contains(data, a):
		data = bytes.Replace(data, a, b, 1)
	case bytes.Contains(data, b):
		data = bytes.Replace(data, b, a, 1)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_TRUNC, 0)
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

func quantile(ds []time.Duration, q float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	return s[min(len(s)-1, int(q*float64(len(s))))]
}

// ShapeReport is one pathological shape opened in the workbench.
type ShapeReport struct {
	Shape          gen.Shape
	Size           int
	TreeFrame      time.Duration // exec → tree on screen
	PeakRSS        uint64
	KeyP50, KeyMax time.Duration // j/k and ] on it
	Err            error
}

// RunShape writes a shape into a new folder under tmp, opens it, presses keys.
func RunShape(binary, tmp string, shape gen.Shape, size int) ShapeReport {
	r := ShapeReport{Shape: shape, Size: size}
	dir, err := os.MkdirTemp(tmp, "referee-shape-")
	if err != nil {
		r.Err = err
		return r
	}
	defer os.RemoveAll(dir)
	if err := gen.WriteShape(dir, shape, size); err != nil {
		r.Err = err
		return r
	}
	t, err := StartTerminal(binary, []string{"--contents", dir}, frameWidth, frameHeight)
	if err != nil {
		r.Err = err
		return r
	}
	defer t.Close()
	if r.TreeFrame, r.Err = t.WaitFor(treeShown, 120*time.Second); r.Err != nil {
		return r
	}
	var keys []time.Duration
	for i, k := range []string{"j", "j", "k", "j", "j", "j", "k", "j"} {
		d, err := t.Key(k, 5*time.Second)
		if err != nil && i == 0 {
			r.Err = err
			return r
		}
		if err == nil {
			keys = append(keys, d)
		}
		time.Sleep(30 * time.Millisecond)
	}
	r.KeyP50, r.KeyMax = quantile(keys, 0.5), quantile(keys, 1)
	r.PeakRSS, _ = t.RSS()
	return r
}

// WriteLive prints the live rows as a table.
func WriteLive(w io.Writer, n int, o LiveOptions, r LiveReport) {
	fmt.Fprintf(w, "\n| live: the referee binary in a pseudo-terminal, %s statements | figure | goal |\n|---|---|---|\n", thousands(n))
	row := func(what, fig, goal string) { fmt.Fprintf(w, "| %s | %s | %s |\n", what, fig, goal) }
	row("exec → first frame", formatDuration(r.FirstFrame), "")
	row("exec → frame with the tree", formatDuration(r.TreeFrame), "")
	row("keypress → frame at rest (p50, extras on)", formatDuration(r.KeyIdleP50), "")
	load := fmt.Sprintf("%d skill calls/s + %d in-place rewrites/s for %s (%d calls, %d rewrites done)", o.Calls, o.Rewrites, o.Duration, r.Calls, r.Rewrites)
	row(fmt.Sprintf("a skill call's own time: p50, p99 (%d callers; %d calls missed, every caller busy)", liveCallers, r.CallsMissed),
		formatDuration(r.CallP50)+", "+formatDuration(r.CallP99), "")
	row("workbench CPU under "+load+": median, p90 (share of one core)",
		fmt.Sprintf("%.0f%%, %.0f%%", 100*r.CPUMedian, 100*r.CPUP90), "median ≤ 25% "+mark(r.CPUMedian <= 0.25))
	row(fmt.Sprintf("status bar lag behind the log: p50, p99 (%d changes)", r.Shown),
		formatDuration(r.LagP50)+", "+formatDuration(r.LagP99), "p99 ≤ 150 ms "+mark(r.LagP99 <= 150*time.Millisecond))
	row(fmt.Sprintf("keypress → frame under load: p50, p99 (%d keys)", r.Keys),
		formatDuration(r.KeyP50)+", "+formatDuration(r.KeyP99), "p99 ≤ 30 ms "+mark(r.KeyP99 <= 30*time.Millisecond))
	row("busy after the writers stop", formatDuration(r.BusyAfter), "≤ 1 s "+mark(r.BusyAfter <= time.Second))
	row("peak resident memory once the extras are built (before the writes)", mib(r.RestRSS), "≤ 600 MB "+mark(r.RestRSS <= 600e6))
	row("peak resident memory", mib(r.PeakRSS), "")
}

// WriteShapes prints the shapes' rows.
func WriteShapes(w io.Writer, rs []ShapeReport) {
	fmt.Fprintf(w, "\n| pathological shape (binary in a pseudo-terminal) | exec → tree | peak memory | key → frame p50, max | goal |\n|---|---|---|---|---|\n")
	for _, r := range rs {
		name := fmt.Sprintf("%s of %s", r.Shape, thousands(r.Size))
		if r.Err != nil {
			fmt.Fprintf(w, "| %s | failed: %s | | | |\n", name, strings.ReplaceAll(strings.SplitN(r.Err.Error(), "\n", 2)[0], "|", "/"))
			continue
		}
		ok := r.TreeFrame <= 2*time.Second && r.PeakRSS <= 500<<20
		fmt.Fprintf(w, "| %s | %s | %s | %s, %s | ≤ 2 s, ≤ 500 MB %s |\n", name, formatDuration(r.TreeFrame), mib(r.PeakRSS),
			formatDuration(r.KeyP50), formatDuration(r.KeyMax), mark(ok))
	}
}

// OpenReport is one binary opened again and again on the same folder: exec → first
// frame, exec → the tree, the CPU the process had used when the tree showed, and exec →
// the folder loaded (the tree shown while loading is a glimpse: live.Glimpse).
type OpenReport struct {
	Binary                       string
	First, Tree, TreeCPU, Loaded []time.Duration
	Err                          error
}

// RunOpens opens each binary n times on dir in a pseudo-terminal, in turn (A B A B …,
// so a drift of the machine's speed falls on both), and times each opening until the
// tree shows. The folder is only read.
func RunOpens(binaries []string, dir string, n int) []OpenReport {
	rs := make([]OpenReport, len(binaries))
	for i, b := range binaries {
		rs[i].Binary = b
	}
	for range n {
		for i := range rs {
			if rs[i].Err != nil {
				continue
			}
			first, tree, cpu, loaded, err := openOnce(rs[i].Binary, dir)
			if err != nil {
				rs[i].Err = err
				continue
			}
			rs[i].First = append(rs[i].First, first)
			rs[i].Tree = append(rs[i].Tree, tree)
			rs[i].TreeCPU = append(rs[i].TreeCPU, cpu)
			rs[i].Loaded = append(rs[i].Loaded, loaded)
		}
	}
	return rs
}

func openOnce(binary, dir string) (first, tree, cpu, loaded time.Duration, err error) {
	t, err := StartTerminal(binary, []string{"--contents", dir}, frameWidth, frameHeight)
	if err != nil {
		return 0, 0, 0, 0, err
	}
	defer t.Close()
	if first, err = t.WaitFor(anyText, 30*time.Second); err != nil {
		return 0, 0, 0, 0, err
	}
	if tree, err = t.WaitFor(treeShown, 60*time.Second); err != nil {
		return 0, 0, 0, 0, err
	}
	if cpu, err = t.CPU(); err != nil {
		return 0, 0, 0, 0, err
	}
	loaded, err = t.WaitFor(folderLoaded, 60*time.Second)
	return first, tree, cpu, loaded, err
}

// folderLoaded says the tree shows and the status bar no longer says it is loading.
func folderLoaded(lines []string) bool {
	return treeShown(lines) && !slices.ContainsFunc(lines, func(l string) bool { return strings.Contains(l, "◌ loading") })
}

// WriteOpens prints the openings' medians, and each binary's tree time over the
// first's, pair by pair (median of the ratios).
func WriteOpens(w io.Writer, n int, rs []OpenReport) {
	fmt.Fprintf(w, "\n| opening (binary in a pseudo-terminal, %s statements, runs in turn) | exec → first frame | exec → tree | CPU at the tree | tree / first binary's | exec → loaded |\n|---|---|---|---|---|---|\n", thousands(n))
	for _, r := range rs {
		if r.Err != nil {
			fmt.Fprintf(w, "| %s | failed: %s | | | | |\n", r.Binary, strings.ReplaceAll(strings.SplitN(r.Err.Error(), "\n", 2)[0], "|", "/"))
			continue
		}
		var ratios []float64
		for i := range min(len(r.Tree), len(rs[0].Tree)) {
			ratios = append(ratios, float64(r.Tree[i])/float64(rs[0].Tree[i]))
		}
		slices.Sort(ratios)
		ratio := ""
		if len(ratios) > 0 {
			ratio = fmt.Sprintf("%.2f×", ratios[len(ratios)/2])
		}
		fmt.Fprintf(w, "| %s (%d runs) | %s | %s (%s–%s) | %s | %s | %s |\n", r.Binary, len(r.Tree), formatDuration(quantile(r.First, 0.5)),
			formatDuration(quantile(r.Tree, 0.5)), formatDuration(quantile(r.Tree, 0)), formatDuration(quantile(r.Tree, 1)),
			formatDuration(quantile(r.TreeCPU, 0.5)), ratio, formatDuration(quantile(r.Loaded, 0.5)))
	}
}

// LiveFolder is the live rows' folder of n statements, generated once under tmp as
// referee-bench-live-<n>-<seed> and reused (a 100k folder is about 3 GB and a minute of
// generating). The live rows change it: each run's skill calls add to its log.
func LiveFolder(tmp string, n int, seed uint64) (string, error) {
	cache := filepath.Join(tmp, fmt.Sprintf("referee-bench-live-%d-%d", n, seed))
	dir := filepath.Join(cache, "contents")
	if _, err := os.Stat(filepath.Join(cache, "done")); err == nil {
		return dir, nil
	}
	if err := os.RemoveAll(cache); err != nil {
		return "", err
	}
	// Generated beside the cache and renamed in place: an interrupted run never leaves a
	// half folder taken for a whole one.
	part, err := os.MkdirTemp(tmp, fmt.Sprintf("referee-bench-live-%d-%d-tmp-", n, seed))
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(part)
	if err := gen.Generate(filepath.Join(part, "contents"), gen.Config{Statements: n, Problems: ProblemsFor(n), Seed: seed, Vocabulary: model.P013}); err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(part, "done"), nil, 0o644); err != nil {
		return "", err
	}
	if err := os.Rename(part, cache); err != nil {
		return "", err
	}
	return dir, nil
}
