package serve

import (
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"referee/internal/testutil"
)

// lockedBuffer is the server's log in a test.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func newKey(t testing.TB, name string) (gossh.Signer, string) {
	t.Helper()
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	s, err := gossh.NewSignerFromKey(priv)
	if err != nil {
		t.Fatal(err)
	}
	line := strings.TrimSpace(string(gossh.MarshalAuthorizedKey(s.PublicKey())))
	if name != "" {
		line += " " + name
	}
	return s, line + "\n"
}

func write(t *testing.T, path, text string) string {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// A key without a comment (the name) is refused at start, naming the file and line;
// so are options and a key given twice.
func TestKeyFilesRefuseNamelessKeys(t *testing.T) {
	dir := t.TempDir()
	_, alice := newKey(t, "alice")
	_, anon := newKey(t, "")
	for _, c := range []struct{ text, want string }{
		{"# reviewers\n\n" + alice + anon, "keys:4: the key has no comment: the comment is the person's name"},
		{`command="ls" ` + alice, "keys:1: key options (command=\"ls\") are not supported"},
		{alice + alice, "keys:2: the key of alice is given twice"},
		{"ssh-ed25519 notbase64 bob\n", "keys:1: not an authorized_keys line"},
	} {
		_, err := readKeys(write(t, filepath.Join(dir, "keys"), c.text), "")
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), filepath.Join(dir, "keys")) {
			t.Errorf("%q: got %v, want %q", c.text, err, c.want)
		}
	}
	keys, err := readKeys(write(t, filepath.Join(dir, "keys"), alice), "")
	if err != nil || len(keys) != 1 {
		t.Fatalf("%v %v", keys, err)
	}
	for _, p := range keys {
		if p != (Person{Name: "alice"}) {
			t.Fatalf("person %+v", p)
		}
	}
}

// A writer that never returns (a client that stopped reading) never blocks a Write:
// past the cap the session is dropped, once, and later writes are thrown away.
func TestBoundedWriterDropsAStalledClient(t *testing.T) {
	block := make(chan struct{})
	defer close(block)
	stalled := writerFunc(func(p []byte) (int, error) { <-block; return len(p), nil })
	full := make(chan int, 2)
	w := newBoundedWriter(stalled, 1000, func(n int) { full <- n })
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := 0; i < 100; i++ {
			_, _ = w.Write(bytes.Repeat([]byte("x"), 100))
		}
	}()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("a Write blocked on a stalled client")
	}
	select {
	case n := <-full:
		if n <= 1000 {
			t.Fatalf("dropped with %d bytes waiting, within the cap", n)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the stalled session was not dropped")
	}
	if len(full) != 0 {
		t.Fatal("dropped twice")
	}
	closed := make(chan struct{})
	go func() { _ = w.Close(); close(closed) }()
	select {
	case <-closed:
	case <-time.After(5 * time.Second):
		t.Fatal("Close waited for a stalled client")
	}
}

type writerFunc func(p []byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

// startServer serves a copy of the demo folder with alice a reviewer and carol a viewer.
func startServer(t *testing.T) (addr string, srv *Server, log *lockedBuffer, keys map[string]gossh.Signer) {
	t.Helper()
	return startServerWith(t, func(*Config) {})
}

func startServerWith(t *testing.T, set func(*Config)) (addr string, srv *Server, log *lockedBuffer, keys map[string]gossh.Signer) {
	t.Helper()
	dir := testutil.Demo(t)
	tmp := t.TempDir()
	keys = map[string]gossh.Signer{}
	var lines [2]string
	for i, name := range []string{"alice", "carol"} {
		s, line := newKey(t, name)
		keys[name] = s
		lines[i] = line
	}
	log = &lockedBuffer{}
	cfg := Config{Dir: dir, Keys: write(t, filepath.Join(tmp, "keys"), lines[0]), Viewers: write(t, filepath.Join(tmp, "viewers"), lines[1]),
		HostKey: filepath.Join(tmp, "host", "key"), Log: log}
	set(&cfg)
	srv, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })
	return ln.Addr().String(), srv, log, keys
}

// An unknown key is refused at the handshake: no session, no byte of the folder, one
// line in the log naming its fingerprint. The host key is made 0600 and kept.
func TestUnknownKeyIsRefused(t *testing.T) {
	addr, srv, log, _ := startServer(t)
	mallory, _ := newKey(t, "mallory")
	cfg := &gossh.ClientConfig{User: "mallory", Auth: []gossh.AuthMethod{gossh.PublicKeys(mallory), gossh.Password("secret")},
		HostKeyCallback: gossh.InsecureIgnoreHostKey(), Timeout: 5 * time.Second}
	c, err := gossh.Dial("tcp", addr, cfg)
	if err == nil {
		c.Close()
		t.Fatal("an unknown key got in")
	}
	if !strings.Contains(err.Error(), "unable to authenticate") {
		t.Fatalf("refusal: %v", err)
	}
	if srv.Sessions() != 0 {
		t.Fatal("a session was opened")
	}
	fp := gossh.FingerprintSHA256(mallory.PublicKey())
	deadline := time.Now().Add(2 * time.Second)
	for !strings.Contains(log.String(), "refused key "+fp) && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if !strings.Contains(log.String(), "refused key "+fp) {
		t.Fatalf("log has no refusal of %s:\n%s", fp, log.String())
	}
	info, err := os.Stat(filepath.Join(filepath.Dir(srv.cfg.Keys), "host", "key"))
	if err != nil || info.Mode().Perm() != 0o600 {
		t.Fatalf("host key: %v %v", info, err)
	}
	_, fp2, err := hostKey(filepath.Join(filepath.Dir(srv.cfg.Keys), "host", "key"))
	if err != nil || fp2 != srv.HostFP {
		t.Fatalf("the host key changed on reading it again: %s, was %s (%v)", fp2, srv.HostFP, err)
	}
}

// The key files are read again when they change: a key added gets in without a restart.
func TestKeyFilesAreReread(t *testing.T) {
	addr, srv, log, _ := startServer(t)
	bob, line := newKey(t, "bob")
	cfg := &gossh.ClientConfig{User: "bob", Auth: []gossh.AuthMethod{gossh.PublicKeys(bob)},
		HostKeyCallback: gossh.InsecureIgnoreHostKey(), Timeout: 5 * time.Second}
	if c, err := gossh.Dial("tcp", addr, cfg); err == nil {
		c.Close()
		t.Fatal("bob got in before his key was added")
	}
	old, _ := os.ReadFile(srv.cfg.Keys)
	write(t, srv.cfg.Keys, string(old)+line)
	deadline := time.Now().Add(5 * time.Second)
	for !strings.Contains(log.String(), "keys reloaded: 2 reviewers") && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	c, err := gossh.Dial("tcp", addr, cfg)
	if err != nil {
		t.Fatalf("bob's key was added but refused: %v\n%s", err, log.String())
	}
	c.Close()
}

// A connection that sends nothing is closed at the handshake timeout, not kept.
func TestSilentConnectionIsClosed(t *testing.T) {
	addr, _, _, _ := startServerWith(t, func(c *Config) { c.handshake = 200 * time.Millisecond })
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_ = c.SetReadDeadline(time.Now().Add(5 * time.Second))
	buf := make([]byte, 256)
	for {
		if _, err := c.Read(buf); err != nil {
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				t.Fatal("the silent connection was kept open")
			}
			return // closed by the server
		}
	}
}
