package bench

import (
	"bufio"
	"crypto/ed25519"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/hinshun/vt10x"
	gossh "golang.org/x/crypto/ssh"

	"referee/skill"
	"referee/store"
)

// The SSH sessions' rows (issue 30): `referee serve` started as a process on a folder,
// n workbenches opened over SSH by this process's clients (golang.org/x/crypto/ssh, a
// terminal emulator each), skill calls at a rate, and each screen's status bar watched
// for the change it names. Then the same with one more client that opens a workbench
// and stops reading. Then, side by side, one local workbench in a pseudo-terminal under
// the same load: the server's CPU is compared with it.

// The SSH rows' terminals, the local workbench's too: wide, so that the status bar of
// a session names its 19 companions and still the last change.
const serveWidth, serveHeight = 400, 30

// ServeOptions say what the SSH rows run.
type ServeOptions struct {
	Binary   string
	Size     int           // statements in the folder (generated and cached as the table's: Folder)
	Seed     uint64        // the generator's seed
	Sessions int           // workbenches over SSH
	Duration time.Duration // of each phase's load
	Calls    int           // skill calls per second
	Spread   bool          // session k moves spreadRows×k rows down the tree (false: all on the first row)
}

// spreadRows is how far apart the sessions sit in the tree with Spread: with 20
// sessions they show 20 rows, some in the tree's first window, most further down.
const spreadRows = 5

// ServeReport is what the SSH rows measured.
type ServeReport struct {
	Sessions                   int
	ServeCPU, LocalCPU         float64       // share of one core over the load: the server with every session, one local workbench
	ServePerCall, LocalPerCall time.Duration // the same CPU per skill call made (on a loaded machine the calls made per second vary)
	LocalCalls                 int
	LagP50, LagP99             time.Duration // write → every session's status bar
	LocalLagP50, LocalLagP99   time.Duration // write → the local workbench's status bar
	StalledLagP99              time.Duration // the others, with a client that stopped reading
	StalledCPU                 float64
	PerSession                 float64 // MiB of resident memory each session after the first adds
	Calls, Shown, Missed       int
	Err                        error
}

// RunServe runs the SSH rows (see the comment above).
func RunServe(o ServeOptions) (ServeReport, error) {
	r := ServeReport{Sessions: o.Sessions}
	cached, err := Folder(o.Size, o.Seed)
	if err != nil {
		return r, err
	}
	loop, err := NewSkillLoop(cached) // a work copy: the calls change it, never the cache
	if err != nil {
		return r, err
	}
	defer loop.Close()
	dir := loop.Dir

	tmp, err := os.MkdirTemp("", "referee-bench-serve-")
	if err != nil {
		return r, err
	}
	defer os.RemoveAll(tmp)
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return r, err
	}
	signer, err := gossh.NewSignerFromKey(priv)
	if err != nil {
		return r, err
	}
	keys := filepath.Join(tmp, "keys")
	if err := os.WriteFile(keys, []byte(strings.TrimSpace(string(gossh.MarshalAuthorizedKey(signer.PublicKey())))+" bench\n"), 0o600); err != nil {
		return r, err
	}
	srv, err := startServe(o.Binary, dir, keys, filepath.Join(tmp, "host_key"))
	if err != nil {
		return r, err
	}
	defer srv.close()

	var screens []*sshScreen
	defer func() {
		for _, s := range screens {
			s.close()
		}
	}()
	var rss1 uint64
	for i := range o.Sessions {
		s, err := openSSHScreen(srv.addr, signer, serveWidth, serveHeight, false)
		if err != nil {
			return r, fmt.Errorf("session %d: %w", i+1, err)
		}
		screens = append(screens, s)
		if err := s.waitShown(60 * time.Second); err != nil {
			return r, fmt.Errorf("session %d: %w", i+1, err)
		}
		if o.Spread && i > 0 { // reviewers on different statements: each session's detail is its own
			if _, err := io.WriteString(s.stdin, strings.Repeat("j", spreadRows*i)); err != nil {
				return r, fmt.Errorf("session %d: %w", i+1, err)
			}
		}
		if i == 0 {
			if _, err := waitIdleProc(srv.cmd.Process.Pid, 60*time.Second); err != nil {
				return r, err
			}
			rss1, _ = procRSS(srv.cmd.Process.Pid)
		}
	}
	if _, err := waitIdleProc(srv.cmd.Process.Pid, 60*time.Second); err != nil {
		return r, err
	}
	if o.Sessions > 1 {
		rssN, _ := procRSS(srv.cmd.Process.Pid)
		r.PerSession = (float64(rssN) - float64(rss1)) / float64(o.Sessions-1) / (1 << 20)
	}
	watch := func() []lagSource {
		out := make([]lagSource, len(screens))
		for i, s := range screens {
			out[i] = s
		}
		return out
	}
	ph, err := loadPhase(loop, o, srv.cmd.Process.Pid, watch())
	if err != nil {
		return r, err
	}
	r.ServeCPU, r.LagP50, r.LagP99, r.Calls, r.Shown, r.Missed = ph.cpu, ph.p50, ph.p99, ph.calls, ph.shown, ph.missed
	r.ServePerCall = ph.perCall

	// A client that opens a workbench and then reads nothing more.
	stalled, err := openSSHScreen(srv.addr, signer, serveWidth, serveHeight, true)
	if err != nil {
		return r, fmt.Errorf("the stalled session: %w", err)
	}
	defer stalled.close()
	time.Sleep(500 * time.Millisecond)
	ph, err = loadPhase(loop, o, srv.cmd.Process.Pid, watch())
	if err != nil {
		return r, err
	}
	r.StalledCPU, r.StalledLagP99 = ph.cpu, ph.p99
	stalled.close()
	for _, s := range screens {
		s.close()
	}
	screens = nil
	srv.close()

	// One local workbench under the same load, side by side.
	t, err := StartTerminal(o.Binary, []string{"--contents", dir}, serveWidth, serveHeight)
	if err != nil {
		return r, err
	}
	defer t.Close()
	if _, err := t.WaitFor(treeShown, 60*time.Second); err != nil {
		return r, err
	}
	if _, err := waitIdle(t, 120*time.Second); err != nil {
		return r, err
	}
	ph, err = loadPhase(loop, o, t.cmd.Process.Pid, []lagSource{termLag{t}})
	if err != nil {
		return r, err
	}
	r.LocalCPU, r.LocalLagP50, r.LocalLagP99, r.LocalCalls, r.LocalPerCall = ph.cpu, ph.p50, ph.p99, ph.calls, ph.perCall
	return r, nil
}

// serveProc is a `referee serve` process.
type serveProc struct {
	cmd  *exec.Cmd
	addr string
	once sync.Once
}

// startServe starts referee serve on a free loopback port and waits for its first line.
func startServe(binary, dir, keys, hostKey string) (*serveProc, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	addr := ln.Addr().String()
	ln.Close()
	cmd := exec.Command(binary, "serve", "--contents", dir, "--keys", keys, "--host-key", hostKey, "--listen", addr, "--theme", "dark")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	p := &serveProc{cmd: cmd, addr: addr}
	lines := bufio.NewScanner(stderr)
	started := make(chan error, 1)
	go func() {
		ok := false
		for lines.Scan() { // read to the end: a full pipe would stop the server
			if !ok && strings.Contains(lines.Text(), "serve: serving ") {
				ok = true
				started <- nil
			}
		}
		if !ok {
			started <- errors.New("referee serve ended before serving")
		}
	}()
	select {
	case err := <-started:
		if err != nil {
			p.close()
			return nil, err
		}
	case <-time.After(60 * time.Second):
		p.close()
		return nil, errors.New("referee serve did not start within 60 s")
	}
	return p, nil
}

func (p *serveProc) close() {
	p.once.Do(func() {
		_ = p.cmd.Process.Signal(os.Interrupt)
		done := make(chan struct{})
		go func() { _ = p.cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			_ = p.cmd.Process.Kill()
			<-done
		}
	})
}

// sshScreen is one workbench over SSH, its screen kept by vt10x; the status bar's
// change is looked at whenever output comes, and noted with the time it first showed.
type sshScreen struct {
	client *gossh.Client
	sess   *gossh.Session
	stdin  io.Writer     // keys
	stall  chan struct{} // a stalled screen's output waits on it

	mu    sync.Mutex
	vt    vt10x.Terminal
	shown string
	seen  []sighting
	w, h  int
	once  sync.Once
}

type sighting struct {
	id string
	at time.Time
}

// openSSHScreen opens a workbench over SSH in a terminal of a size; a stalled one never
// reads what the server sends (its SSH window fills, the server's writes wait).
func openSSHScreen(addr string, signer gossh.Signer, w, h int, stalled bool) (*sshScreen, error) {
	c, err := gossh.Dial("tcp", addr, &gossh.ClientConfig{User: "bench", Auth: []gossh.AuthMethod{gossh.PublicKeys(signer)},
		HostKeyCallback: gossh.InsecureIgnoreHostKey(), Timeout: 30 * time.Second})
	if err != nil {
		return nil, err
	}
	sess, err := c.NewSession()
	if err != nil {
		c.Close()
		return nil, err
	}
	s := &sshScreen{client: c, sess: sess, vt: vt10x.New(vt10x.WithSize(w, h)), w: w, h: h, stall: make(chan struct{})}
	if err := sess.RequestPty("xterm-256color", h, w, gossh.TerminalModes{}); err != nil {
		s.close()
		return nil, err
	}
	if stalled {
		sess.Stdout = stallWriter{s.stall}
	} else {
		sess.Stdout = s
	}
	if s.stdin, err = sess.StdinPipe(); err != nil { // kept open: the workbench reads keys from it
		s.close()
		return nil, err
	}
	if err := sess.Shell(); err != nil {
		s.close()
		return nil, err
	}
	return s, nil
}

// stallWriter takes nothing until its channel closes.
type stallWriter struct{ stop chan struct{} }

func (w stallWriter) Write(p []byte) (int, error) {
	<-w.stop
	return 0, io.ErrClosedPipe
}

var lastChangeRe = regexp.MustCompile(`last: (l-[a-z]*[0-9]+)`)

func (s *sshScreen) Write(p []byte) (int, error) {
	now := time.Now()
	s.mu.Lock()
	defer s.mu.Unlock()
	_, _ = s.vt.Write(p)
	// The status lines only: the change the status bar names.
	var b strings.Builder
	for y := max(s.h-3, 0); y < s.h; y++ {
		for x := range s.w {
			b.WriteRune(s.vt.Cell(x, y).Char)
		}
		b.WriteByte('\n')
	}
	if m := lastChangeRe.FindStringSubmatch(b.String()); m != nil && m[1] != s.shown {
		s.shown = m[1]
		s.seen = append(s.seen, sighting{m[1], now})
	}
	return len(p), nil
}

func (s *sshScreen) waitShown(timeout time.Duration) error {
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		s.mu.Lock()
		ok := s.shown != ""
		s.mu.Unlock()
		if ok {
			return nil
		}
		time.Sleep(20 * time.Millisecond)
	}
	return fmt.Errorf("the workbench over SSH named no last change within %s", timeout)
}

func (s *sshScreen) sightings() []sighting {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.seen)
}

func (s *sshScreen) close() {
	s.once.Do(func() {
		close(s.stall)
		_ = s.sess.Close()
		_ = s.client.Close()
	})
}

// lagSource is a screen whose status bar is watched.
type lagSource interface{ sightings() []sighting }

// termLag watches a local workbench's status bar (polled every 5 ms, as the live rows).
type termLag struct{ t *Terminal }

func (l termLag) sightings() []sighting { return nil } // filled by loadPhase's poller

// phase is what one load phase measured.
type phase struct {
	cpu                  float64
	perCall              time.Duration
	p50, p99             time.Duration
	calls, shown, missed int
}

// loadPhase makes skill calls at o.Calls a second for o.Duration, measures the CPU of
// the process pid, and how long each call took to show on every screen (a call counts
// as shown when its change or a later one is named).
func loadPhase(loop *SkillLoop, o ServeOptions, pid int, screens []lagSource) (phase, error) {
	var ph phase
	var local *Terminal
	var localSeen []sighting
	stopPoll := make(chan struct{})
	var pollDone sync.WaitGroup
	for _, s := range screens {
		if tl, ok := s.(termLag); ok {
			local = tl.t
		}
	}
	if local != nil {
		pollDone.Add(1)
		go func() {
			defer pollDone.Done()
			last := ""
			for {
				select {
				case <-stopPoll:
					return
				case <-time.After(5 * time.Millisecond):
				}
				if l := local.lastChange(); l != last {
					last = l
					localSeen = append(localSeen, sighting{l, time.Now()})
				}
			}
		}()
	}
	before := make([]int, len(screens))
	for i, s := range screens {
		before[i] = len(s.sightings())
	}
	var order []string
	var written []time.Time
	cpu0, err := procCPU(pid)
	if err != nil {
		return ph, err
	}
	start := time.Now()
	tick := time.NewTicker(time.Second / time.Duration(max(o.Calls, 1)))
	for time.Since(start) < o.Duration {
		<-tick.C
		name, params := loop.Next()
		skill, _ := skill.Lookup(name)
		args, err := storeArgs(skill, params)
		if err != nil {
			tick.Stop()
			return ph, err
		}
		res, err := store.Run(loop.Dir, skill, args, store.Options{Actor: "bench"})
		if err != nil {
			tick.Stop()
			return ph, err
		}
		order = append(order, res.Change)
		written = append(written, time.Now())
	}
	tick.Stop()
	elapsed := time.Since(start)
	cpu1, _ := procCPU(pid)
	ph.cpu = float64(cpu1-cpu0) / float64(elapsed)
	if len(order) > 0 {
		ph.perCall = (cpu1 - cpu0) / time.Duration(len(order))
	}
	time.Sleep(time.Second) // the last calls reach the screens
	close(stopPoll)
	pollDone.Wait()
	pos := map[string]int{}
	for i, id := range order {
		pos[id] = i
	}
	var lags []time.Duration
	for k, s := range screens {
		seen := localSeen
		if _, ok := s.(termLag); !ok {
			seen = s.sightings()[before[k]:]
		}
		j := 0
		for i := range order {
			for j < len(seen) {
				if p, ok := pos[seen[j].id]; ok && p >= i {
					break
				}
				j++
			}
			if j == len(seen) {
				ph.missed++
				continue
			}
			lags = append(lags, max(seen[j].at.Sub(written[i]), 0))
		}
	}
	ph.calls, ph.shown = len(order), len(lags)
	ph.p50, ph.p99 = quantile(lags, 0.5), quantile(lags, 0.99)
	return ph, nil
}

// waitIdleProc waits until the process used under 5% of a core over half a second.
func waitIdleProc(pid int, timeout time.Duration) (time.Duration, error) {
	start := time.Now()
	for time.Since(start) < timeout {
		at := time.Now()
		c0, err := procCPU(pid)
		if err != nil {
			return 0, err
		}
		time.Sleep(500 * time.Millisecond)
		c1, _ := procCPU(pid)
		if float64(c1-c0) < 0.05*float64(500*time.Millisecond) {
			return at.Sub(start), nil
		}
	}
	return 0, fmt.Errorf("still busy after %s", timeout)
}

// procRSS is a process's resident memory now (VmRSS), in bytes.
func procRSS(pid int) (uint64, error) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	for _, l := range strings.Split(string(data), "\n") {
		if v, ok := strings.CutPrefix(l, "VmRSS:"); ok {
			kb, _ := strconv.ParseUint(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return kb << 10, nil
		}
	}
	return 0, errors.New("no VmRSS")
}

// WriteServe prints the SSH rows as a table.
func WriteServe(w io.Writer, n int, o ServeOptions, r ServeReport) {
	fmt.Fprintf(w, "\n| serve: `referee serve` as a process, %d workbenches over SSH (%d×%d), %s statements, %d skill calls/s for %s a phase | figure | goal |\n|---|---|---|\n",
		r.Sessions, serveWidth, serveHeight, thousands(n), o.Calls, o.Duration)
	row := func(what, fig, goal string) { fmt.Fprintf(w, "| %s | %s | %s |\n", what, fig, goal) }
	row(fmt.Sprintf("write → every session's status bar: p50, p99 (%d calls, %d sightings, %d missed)", r.Calls, r.Shown, r.Missed),
		formatDuration(r.LagP50)+", "+formatDuration(r.LagP99), "p99 ≤ 150 ms "+mark(r.LagP99 <= 150*time.Millisecond))
	row("the others' p99 with one more client that stopped reading", formatDuration(r.StalledLagP99),
		"≤ 150 ms "+mark(r.StalledLagP99 <= 150*time.Millisecond))
	row("server CPU (share of one core), without / with the stalled client", fmt.Sprintf("%.0f%% / %.0f%%", 100*r.ServeCPU, 100*r.StalledCPU), "")
	row(fmt.Sprintf("one local workbench under the same load, right after (%d calls): CPU; write → status bar p50, p99", r.LocalCalls),
		fmt.Sprintf("%.0f%%; %s, %s", 100*r.LocalCPU, formatDuration(r.LocalLagP50), formatDuration(r.LocalLagP99)), "")
	ratio := 0.0
	if r.LocalPerCall > 0 {
		ratio = float64(r.ServePerCall) / float64(r.LocalPerCall)
	}
	row(fmt.Sprintf("CPU per skill call: the server with %d sessions, one workbench; ratio", r.Sessions),
		fmt.Sprintf("%s, %s; %.2f×", formatDuration(r.ServePerCall), formatDuration(r.LocalPerCall), ratio), "≤ 2× "+mark(ratio > 0 && ratio <= 2))
	row("resident memory each session after the first adds", fmt.Sprintf("%.1f MiB", r.PerSession), "≤ 15 MB "+mark(r.PerSession*(1<<20) <= 15e6))
}
