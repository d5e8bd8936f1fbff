// Package serve is referee's SSH server (referee serve): one contents folder, the
// workbench for each caller's terminal, the CLI's read commands (and, for reviewers,
// its writing ones) for a command without a terminal; the keys in two authorized_keys
// files are the people, their comments their names. All the workbenches share one
// engine (a live.Hub and a tui.Shared: one watcher, one derivation, one extras build);
// each session holds only its own view state, and a client that stops reading is
// dropped rather than let hold anything up.
package serve

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/ssh"
	"charm.land/wish/v2"
	wishtea "charm.land/wish/v2/bubbletea"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
	gossh "golang.org/x/crypto/ssh"

	"referee/cells"
	"referee/live"
	"referee/model"
	"referee/store"
	"referee/tui"
)

// ExecFunc runs one command line for a person without a terminal (the CLI's commands,
// built on the session's streams) and returns its exit status.
type ExecFunc func(ctx context.Context, p Person, args []string, stdin io.Reader, stdout, stderr io.Writer) int

// Config is what `referee serve` is given.
type Config struct {
	Dir     string // the contents folder
	Listen  string // default 127.0.0.1:23234
	Keys    string // reviewers' authorized_keys
	Viewers string // viewers' authorized_keys (read only)
	HostKey string // the server's private key, made on first start (0600)

	MaxSessions int           // sessions at once (default 32)
	IdleTimeout time.Duration // a workbench with no key or mouse for this long is closed (default 30 minutes; negative: never)
	OutputCap   int           // bytes a session may have waiting to be sent before it is dropped (default 4 MiB)
	Theme       string        // the workbench's theme (default auto: each terminal's background)

	Exec ExecFunc  // the commands without a terminal; nil refuses them
	Log  io.Writer // one line per connection, refusal and change; default os.Stderr

	handshake time.Duration // tests: the handshake timeout
}

// DefaultListen is where serve listens unless told: this machine only.
const DefaultListen = "127.0.0.1:23234"

// drawEvery is how often a session's screen is drawn at most for what the run brings
// (paced), and how often it takes a frame from the hub at most, with up to paceFrom
// sessions open: under a run's bursts a session draws a few screens a second, not one
// per message, and a write still shows within the watcher's quiet time, a frame pace
// and a drawing. Past paceFrom sessions the pace grows by paceStep a session, to at most
// paceMax: each session's drawing costs the server a layout and a comparison of its
// whole screen, so at many sessions fewer drawings each keep the server's CPU (and with
// it every screen's wait) down, while a write still shows within the latency goal.
const (
	drawEvery = 50 * time.Millisecond
	paceFrom  = 4
	paceStep  = 2 * time.Millisecond
	paceMax   = 80 * time.Millisecond
)

// pace is the frame and drawing pace with n sessions open (see drawEvery).
func pace(n int) time.Duration {
	return min(drawEvery+time.Duration(max(n-paceFrom, 0))*paceStep, paceMax)
}

// pace is the pace now.
func (s *Server) pace() time.Duration { return pace(s.Sessions()) }

// handshakeTimeout bounds the SSH handshake, authentication included.
const handshakeTimeout = 20 * time.Second

// Server is a running referee serve.
type Server struct {
	cfg    Config
	ssh    *ssh.Server
	keys   *keyring
	hub    *live.Hub
	shared *tui.Shared
	HostFP string // the host key's SHA256 fingerprint, for clients to pin

	logMu     sync.Mutex
	active    atomic.Int32
	seq       atomic.Int64
	stopWatch func()
	changes   chan struct{}
}

// New reads the keys (refusing a file with a nameless key), loads or makes the host
// key, starts watching the folder and the key files. Close stops it all.
func New(cfg Config) (*Server, error) {
	if cfg.Listen == "" {
		cfg.Listen = DefaultListen
	}
	if cfg.MaxSessions <= 0 {
		cfg.MaxSessions = 32
	}
	if cfg.IdleTimeout == 0 {
		cfg.IdleTimeout = 30 * time.Minute
	}
	if cfg.OutputCap <= 0 {
		cfg.OutputCap = 4 << 20
	}
	if cfg.Log == nil {
		cfg.Log = os.Stderr
	}
	// Every session counts widths by grapheme cluster (its program is told so): the
	// views' method is the process's, so it is set here, once, for all of them.
	cells.SetMethod(ansi.GraphemeWidth)
	if cfg.Keys == "" && cfg.Viewers == "" {
		return nil, errors.New("nobody could enter: give --keys (reviewers) and/or --viewers (read only), authorized_keys files whose comments are the people's names")
	}
	if cfg.HostKey == "" {
		return nil, errors.New("no host key path (--host-key)")
	}
	keys, err := newKeyring(cfg.Keys, cfg.Viewers)
	if err != nil {
		return nil, err
	}
	pem, fp, err := hostKey(cfg.HostKey)
	if err != nil {
		return nil, err
	}
	s := &Server{cfg: cfg, keys: keys, HostFP: fp}
	s.ssh, err = wish.NewServer(
		wish.WithAddress(cfg.Listen),
		wish.WithHostKeyPEM(pem),
		wish.WithVersion("referee"),
		wish.WithPublicKeyAuth(s.auth),
		func(srv *ssh.Server) error {
			// A connection that does not finish its handshake (keys included) in time is
			// closed; one with no traffic either way for the idle time too (a workbench's
			// own idle time is its input's, below).
			srv.HandshakeTimeout = cmp.Or(cfg.handshake, handshakeTimeout)
			if cfg.IdleTimeout > 0 {
				srv.IdleTimeout = cfg.IdleTimeout
			}
			srv.Handler = s.handle
			srv.ChannelHandlers = map[string]ssh.ChannelHandler{"session": s.session}
			srv.ConnectionFailedCallback = func(conn net.Conn, err error) {
				s.logf("connection from %s failed: %v", conn.RemoteAddr(), err)
			}
			return nil
		},
	)
	if err != nil {
		return nil, err
	}
	s.hub, err = live.NewHub(cfg.Dir, store.WatchOptions{})
	if err != nil {
		return nil, fmt.Errorf("contents folder %s: %w", cfg.Dir, err)
	}
	s.hub.SetPaceFunc(s.pace)
	s.shared = tui.NewShared(s.hub)
	if s.stopWatch, err = keys.watch(s.logf); err != nil {
		_ = s.hub.Close()
		return nil, fmt.Errorf("watching the key files: %w", err)
	}
	s.changes = make(chan struct{})
	go s.logChanges()
	return s, nil
}

// logf writes one line to the log, with the time; text from outside (names, commands,
// errors) is sanitized with it.
func (s *Server) logf(format string, args ...any) {
	line := model.SanitizeLine(fmt.Sprintf(format, args...))
	s.logMu.Lock()
	defer s.logMu.Unlock()
	fmt.Fprintf(s.cfg.Log, "%s serve: %s\n", time.Now().UTC().Format(time.RFC3339), line)
}

// Serve accepts connections on ln until Close.
func (s *Server) Serve(ln net.Listener) error {
	r, v := s.keys.counts()
	s.logf("serving %s on %s (host key %s; %d reviewers, %d viewers)", s.cfg.Dir, ln.Addr(), s.HostFP, r, v)
	err := s.ssh.Serve(ln)
	if errors.Is(err, ssh.ErrServerClosed) {
		return nil
	}
	return err
}

// ListenAndServe listens on the configured address and serves.
func (s *Server) ListenAndServe() error {
	ln, err := net.Listen("tcp", s.cfg.Listen)
	if err != nil {
		return err
	}
	return s.Serve(ln)
}

// Close stops accepting, closes every session and stops the watchers.
func (s *Server) Close() error {
	err := s.ssh.Close()
	s.stopWatch()
	_ = s.hub.Close()
	<-s.changes
	return err
}

// Sessions is how many sessions are open.
func (s *Server) Sessions() int { return int(s.active.Load()) }

// auth lets in the keys of the two files and nothing else (no password and no
// keyboard-interactive handler: those methods are not offered).
func (s *Server) auth(ctx ssh.Context, key ssh.PublicKey) bool {
	if _, ok := s.keys.lookup(key); ok {
		return true
	}
	s.logf("refused key %s (user %q) from %s: not in --keys or --viewers", gossh.FingerprintSHA256(key), ctx.User(), ctx.RemoteAddr())
	return false
}

// refusedRequests are the session requests refused: agent and X11 forwarding, and the
// client's environment (port forwarding has no handler, so it is refused already).
var refusedRequests = map[string]bool{"env": true, "auth-agent-req@openssh.com": true, "x11-req": true}

// session is the session channel handler, with the refused requests taken out before
// the ssh package sees them.
func (s *Server) session(srv *ssh.Server, conn *gossh.ServerConn, ch gossh.NewChannel, ctx ssh.Context) {
	ssh.DefaultSessionHandler(srv, conn, filtered{NewChannel: ch, s: s, who: conn.User() + "@" + conn.RemoteAddr().String()}, ctx)
}

type filtered struct {
	gossh.NewChannel
	s   *Server
	who string
}

func (f filtered) Accept() (gossh.Channel, <-chan *gossh.Request, error) {
	ch, reqs, err := f.NewChannel.Accept()
	if err != nil {
		return ch, reqs, err
	}
	out := make(chan *gossh.Request)
	go func() {
		defer close(out)
		var envs []string
		for r := range reqs {
			if !refusedRequests[r.Type] {
				if len(envs) > 0 {
					f.s.logf("%s: refused the environment (%s)", f.who, strings.Join(envs, " "))
					envs = nil
				}
				out <- r
				continue
			}
			if r.Type != "env" {
				f.s.logf("%s: refused %s", f.who, r.Type)
			} else if len(envs) < 16 {
				var kv struct{ Key, Value string }
				if gossh.Unmarshal(r.Payload, &kv) == nil {
					envs = append(envs, kv.Key)
				}
			}
			if r.WantReply {
				_ = r.Reply(false, nil)
			}
		}
	}()
	return ch, out, nil
}

// handle runs one session: the workbench in a terminal, or one command.
func (s *Server) handle(sess ssh.Session) {
	p, ok := s.keys.lookup(sess.PublicKey())
	if !ok { // the key was taken out of the files since the connection began
		fmt.Fprintln(sess.Stderr(), "referee: your key is no longer let in")
		s.logf("refused %s from %s: the key was removed", sess.User(), sess.RemoteAddr())
		_ = sess.Exit(1)
		return
	}
	id := s.seq.Add(1)
	who := fmt.Sprintf("%s (%s, #%d)", p.Name, p.Role(), id)
	if n := s.active.Add(1); int(n) > s.cfg.MaxSessions {
		s.active.Add(-1)
		fmt.Fprintf(sess.Stderr(), "referee: the server has its %d sessions; try again later\n", s.cfg.MaxSessions)
		s.logf("refused %s from %s: %d sessions already", who, sess.RemoteAddr(), s.cfg.MaxSessions)
		_ = sess.Exit(1)
		return
	}
	defer s.active.Add(-1)
	if args := sess.Command(); len(args) > 0 {
		s.exec(sess, p, who, args)
		return
	}
	pty, _, isPty := sess.Pty()
	if !isPty {
		fmt.Fprintln(sess.Stderr(), "referee: the workbench needs a terminal (ssh -t), or give a command: status, show, log, diff, why, runs, export …")
		s.logf("%s from %s: no terminal and no command", who, sess.RemoteAddr())
		_ = sess.Exit(2)
		return
	}
	start := time.Now()
	s.logf("%s from %s: workbench %dx%d %s", who, sess.RemoteAddr(), pty.Window.Width, pty.Window.Height, pty.Term)
	why := s.workbench(sess, p, who)
	s.logf("%s left after %s: %s", who, time.Since(start).Round(time.Second), why)
}

// exec runs one command line through the CLI's own commands.
func (s *Server) exec(sess ssh.Session, p Person, who string, args []string) {
	if s.cfg.Exec == nil {
		fmt.Fprintln(sess.Stderr(), "referee: this server runs no commands")
		_ = sess.Exit(2)
		return
	}
	start := time.Now()
	code := s.cfg.Exec(sess.Context(), p, args, sess, sess, sess.Stderr())
	s.logf("%s from %s: %s → exit %d (%s)", who, sess.RemoteAddr(), quoteArgs(args), code, time.Since(start).Round(time.Millisecond))
	_ = sess.Exit(code)
}

func quoteArgs(args []string) string {
	q := make([]string, len(args))
	for i, a := range args {
		if a == "" || strings.ContainsAny(a, " \t\"'") {
			a = fmt.Sprintf("%q", a)
		}
		q[i] = a
	}
	s := strings.Join(q, " ")
	if len(s) > 200 {
		s = s[:200] + "…"
	}
	return s
}

// workbench runs the workbench in the session's terminal until the person quits, goes
// idle, stops reading or the server closes; it says which.
func (s *Server) workbench(sess ssh.Session, p Person, who string) string {
	seat := s.shared.Room.Join(p.Name, p.ReadOnly)
	defer seat.Leave()
	m, err := tui.New(s.cfg.Dir, tui.Options{Theme: s.cfg.Theme, Shared: s.shared, Seat: seat})
	if err != nil {
		fmt.Fprintln(sess.Stderr(), "referee: "+model.SanitizeLine(err.Error()))
		_ = sess.Exit(1)
		return "the workbench did not open: " + err.Error()
	}
	defer m.Close()

	var (
		mu     sync.Mutex
		reason = "quit"
		prog   *tea.Program
	)
	end := func(why string) {
		mu.Lock()
		reason = why
		pr := prog
		mu.Unlock()
		if pr != nil {
			pr.Kill()
		}
		// The connection, not only the channel: a channel write waiting for a window the
		// client never opens is freed only when the connection goes.
		if c, ok := sess.Context().Value(ssh.ContextKeyConn).(gossh.Conn); ok {
			_ = c.Close()
		}
	}
	out := newBoundedWriter(sess, s.cfg.OutputCap, func(n int) {
		end(fmt.Sprintf("dropped: the client stopped reading (%d bytes waiting)", n))
	})
	defer out.Close()
	in := newIdleReader(sess)
	stopIdle := make(chan struct{})
	defer close(stopIdle)
	if d := s.cfg.IdleTimeout; d > 0 {
		go func() {
			t := time.NewTicker(min(d/4+time.Millisecond, time.Minute))
			defer t.Stop()
			for {
				select {
				case <-stopIdle:
					return
				case <-t.C:
					if in.idle() >= d {
						end(fmt.Sprintf("idle for %s", d))
						return
					}
				}
			}
		}()
	}
	// The session's own renderer (screen), not Bubble Tea's: see screen.
	pty, _, _ := sess.Pty()
	env := append(sess.Environ(), "TERM="+pty.Term)
	scr := newScreen(out, env, colorprofile.Env(env))
	defer scr.close()
	mw := wishtea.MiddlewareWithProgramHandler(func(sess ssh.Session) *tea.Program {
		opts := append(wishtea.MakeOptions(sess), tea.WithInput(in), tea.WithOutput(out), tea.WithFPS(60), tea.WithoutRenderer())
		pr := tea.NewProgram(&paced{m: m, every: s.pace, scr: scr}, opts...)
		// Widths by grapheme cluster, as in a local run (tui.Run): the screen counts so,
		// the views by cells, set once for every session (New).
		go pr.Send(tui.GraphemeWidths)
		mu.Lock()
		prog = pr
		mu.Unlock()
		return pr
	})
	mw(func(ssh.Session) {})(sess)
	mu.Lock()
	defer mu.Unlock()
	return reason
}

// logChanges writes a line for each change a person made (the log's lines whose actor
// is a name in the key files), from the shared frames.
func (s *Server) logChanges() {
	defer close(s.changes)
	sub := s.hub.Subscribe()
	defer sub.Close()
	last := lastChange(sub.Current().Snap)
	for {
		fr := sub.Next(nil)
		if fr.Closed {
			return
		}
		if fr.Snap == nil {
			continue
		}
		log := fr.Snap.Log
		i := len(log)
		for i > 0 && log[i-1].ID != last {
			i--
		}
		if i == 0 && last != "" { // the log was cut (a rewind): only the newest
			i = max(len(log)-1, 0)
		}
		for _, e := range log[i:] {
			if p, ok := s.keys.byName(e.By); ok {
				s.logf("change %s %s by %s (%s) on %s", e.ID, e.Skill, p.Name, p.Role(), strings.Join(slices.Concat(e.Creation, e.Modification, e.Deleted), " "))
			}
		}
		last = lastChange(fr.Snap)
	}
}

func lastChange(snap *model.Snapshot) string {
	if snap == nil || len(snap.Log) == 0 {
		return ""
	}
	return snap.Log[len(snap.Log)-1].ID
}

// byName is the person of a name, if any key carries it.
func (k *keyring) byName(name string) (Person, bool) {
	k.mu.RLock()
	defer k.mu.RUnlock()
	for _, p := range k.keys {
		if p.Name == name {
			return p, true
		}
	}
	return Person{}, false
}
