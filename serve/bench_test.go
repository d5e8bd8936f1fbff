package serve

import (
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"runtime/pprof"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/hinshun/vt10x"
	gossh "golang.org/x/crypto/ssh"

	"referee/bench"
)

// BenchmarkServeSessions: n workbenches over SSH on a 10k folder under skill calls at
// 40 a second (the load). Each op is one call; reported: the heap each session
// after the first adds, how long until every screen shows each change (p50, p99), the
// process's CPU per call (server and the test's clients together: compare the rows), the
// calls made a second and the screens each session drew a second.
//
//	go test ./serve -run '^$' -bench ServeSessions -benchtime 200x
func BenchmarkServeSessions(b *testing.B) {
	for _, n := range []int{1, 20} {
		b.Run(fmt.Sprintf("sessions=%d", n), func(b *testing.B) { benchSessions(b, n, false) })
	}
	b.Run("sessions=20/spread", func(b *testing.B) { benchSessions(b, 20, true) })
}

var (
	lastRe = regexp.MustCompile(`last: (l-[0-9a-z]+)`)
	lineRe = regexp.MustCompile(`\{"(l-[0-9a-z]+)"`)
)

// seenID is a change ID a screen showed, and when it first did.
type seenID struct {
	id string
	at time.Time
}

// lastLogID is the ID of the log's last line.
func lastLogID(dir string) string {
	f, err := os.Open(filepath.Join(dir, "history", "log.jsonl"))
	if err != nil {
		return ""
	}
	defer f.Close()
	info, _ := f.Stat()
	off := max(info.Size()-8192, 0)
	buf := make([]byte, info.Size()-off)
	_, _ = f.ReadAt(buf, off)
	lines := strings.Split(strings.TrimSpace(string(buf)), "\n")
	if m := lineRe.FindStringSubmatch(lines[len(lines)-1]); m != nil {
		return m[1]
	}
	return ""
}

// benchScreen is one workbench's terminal; it notes when each change ID first shows.
type benchScreen struct {
	mu    sync.Mutex
	term  vt10x.Terminal
	carry []byte
	shown string
	seen  []seenID
	ready bool
}

func (s *benchScreen) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.carry = append(s.carry, p...)
	cut := len(s.carry)
	for cut > 0 && cut > len(s.carry)-4 && !utf8.Valid(s.carry[:cut]) {
		cut--
	}
	_, _ = s.term.Write(s.carry[:cut])
	s.carry = append(s.carry[:0], s.carry[cut:]...)
	now := time.Now()
	text := s.term.String()
	s.ready = s.ready || strings.Contains(text, "● live")
	if m := lastRe.FindStringSubmatch(text); m != nil && m[1] != s.shown {
		s.shown = m[1]
		s.seen = append(s.seen, seenID{m[1], now})
	}
	return len(p), nil
}

// benchSessions opens n workbenches; with spread, session k moves 5×k rows down the
// tree (as referee-bench --spread). REFEREE_HEAPPROFILE names a file for a heap
// profile taken once every session is open, REFEREE_LOADPROFILE one for a CPU profile
// of the calls (without the sessions' opening).
func benchSessions(b *testing.B, n int, spread bool) {
	cached, err := bench.Folder(10000, 1)
	if err != nil {
		b.Fatal(err)
	}
	loop, err := bench.NewSkillLoop(cached)
	if err != nil {
		b.Fatal(err)
	}
	defer loop.Close()
	tmp := b.TempDir()
	signer, line := newKey(b, "alice")
	kf := filepath.Join(tmp, "keys")
	_ = os.WriteFile(kf, []byte(line), 0o600)
	srv, err := New(Config{Dir: loop.Dir, Keys: kf, HostKey: filepath.Join(tmp, "hk"), Log: &lockedBuffer{}, Theme: "dark"})
	if err != nil {
		b.Fatal(err)
	}
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	go func() { _ = srv.Serve(ln) }()
	defer srv.Close()

	heap := func() uint64 {
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return ms.HeapAlloc
	}
	var screens []*benchScreen
	var heap1 uint64
	for i := 0; i < n; i++ {
		c, err := gossh.Dial("tcp", ln.Addr().String(), &gossh.ClientConfig{User: "alice", Auth: []gossh.AuthMethod{gossh.PublicKeys(signer)},
			HostKeyCallback: gossh.InsecureIgnoreHostKey()})
		if err != nil {
			b.Fatal(err)
		}
		defer c.Close()
		sess, _ := c.NewSession()
		sc := &benchScreen{term: vt10x.New(vt10x.WithSize(400, 30))}
		_ = sess.RequestPty("xterm-256color", 30, 400, gossh.TerminalModes{})
		sess.Stdout = sc
		in, _ := sess.StdinPipe()
		defer in.Close()
		if err := sess.Shell(); err != nil {
			b.Fatal(err)
		}
		deadline := time.Now().Add(60 * time.Second)
		for {
			sc.mu.Lock()
			ok := sc.ready && sc.shown != ""
			sc.mu.Unlock()
			if ok {
				break
			}
			if time.Now().After(deadline) {
				sc.mu.Lock()
				text := sc.term.String()
				sc.mu.Unlock()
				b.Fatalf("workbench %d did not open within 60 s:\n%s", i, text[max(len(text)-1000, 0):])
			}
			time.Sleep(20 * time.Millisecond)
		}
		screens = append(screens, sc)
		if spread && i > 0 {
			_, _ = io.WriteString(in, strings.Repeat("j", 5*i))
			time.Sleep(200 * time.Millisecond)
		}
		if i == 0 {
			heap1 = heap()
		}
	}
	if p := os.Getenv("REFEREE_HEAPPROFILE"); p != "" {
		runtime.GC()
		if f, err := os.Create(p); err == nil {
			_ = pprof.WriteHeapProfile(f)
			f.Close()
		}
	}
	perSession := 0.0
	if n > 1 {
		perSession = float64(int64(heap())-int64(heap1)) / float64(n-1) / (1 << 20)
	}
	// The sessions' moves finish in commands (each row passed finds its similar
	// statements): wait until the process is idle, so that the calls are measured alone.
	for quiet, deadline := 0, time.Now().Add(60*time.Second); quiet < 3 && time.Now().Before(deadline); {
		c0 := cpuTime()
		time.Sleep(200 * time.Millisecond)
		if cpuTime()-c0 < 20*time.Millisecond {
			quiet++
		} else {
			quiet = 0
		}
	}
	if p := os.Getenv("REFEREE_LOADPROFILE"); p != "" { // a CPU profile of the calls only
		if f, err := os.Create(p); err == nil {
			if pprof.StartCPUProfile(f) == nil {
				defer func() { pprof.StopCPUProfile(); f.Close() }()
			}
		}
	}
	b.ResetTimer()
	d0, t0 := drawings.Load(), time.Now()
	cpu0 := cpuTime()
	calls := make([]time.Time, b.N)
	ids := make([]string, b.N)
	index := map[string]int{}
	tick := time.NewTicker(time.Second / 40)
	defer tick.Stop()
	for i := 0; i < b.N; i++ {
		<-tick.C
		if err := loop.InProcess(); err != nil {
			b.Fatal(err)
		}
		calls[i] = time.Now()
		ids[i] = lastLogID(loop.Dir)
		index[ids[i]] = i
	}
	// Wait for every screen to show the last call (at most 10 s).
	deadline := time.Now().Add(10 * time.Second)
	for _, sc := range screens {
		for {
			sc.mu.Lock()
			done := sc.shown == ids[b.N-1]
			sc.mu.Unlock()
			if done || time.Now().After(deadline) {
				break
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	cpu := cpuTime() - cpu0
	b.StopTimer()
	b.ReportMetric(float64(drawings.Load()-d0)/float64(n)/time.Since(t0).Seconds(), "draws/session/s")
	b.ReportMetric(float64(b.N)/time.Since(t0).Seconds(), "calls/s")
	var lat []time.Duration
	missed := 0
	for _, sc := range screens {
		sc.mu.Lock()
		// A call is shown when the screen first shows it or a later one (frames merge).
		j := 0
		for i := 0; i < b.N; i++ {
			for j < len(sc.seen) {
				if k, ok := index[sc.seen[j].id]; ok && k >= i {
					break
				}
				j++
			}
			if j == len(sc.seen) {
				missed++
				continue
			}
			lat = append(lat, max(sc.seen[j].at.Sub(calls[i]), 0))
		}
		sc.mu.Unlock()
	}
	slices.Sort(lat)
	q := func(p float64) float64 {
		if len(lat) == 0 {
			return 0
		}
		return float64(lat[min(int(p*float64(len(lat))), len(lat)-1)].Microseconds()) / 1000
	}
	b.ReportMetric(q(0.5), "show-p50-ms")
	b.ReportMetric(q(0.99), "show-p99-ms")
	b.ReportMetric(float64(missed), "missed")
	b.ReportMetric(perSession, "MB/extra-session")
	b.ReportMetric(float64(cpu.Microseconds())/1000/float64(b.N), "cpu-ms/call")
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
