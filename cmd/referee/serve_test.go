//go:build !noui

package main

import (
	"bytes"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/json"
	"encoding/pem"
	"errors"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/hinshun/vt10x"
	gossh "golang.org/x/crypto/ssh"

	"referee/internal/testutil"
	"referee/serve"
)

// Tests of referee serve with a real SSH client (golang.org/x/crypto/ssh, and OpenSSH's
// ssh where installed): workbenches in pseudo-terminals read as screens, and commands.

type syncBuf struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuf) Write(p []byte) (int, error) { s.mu.Lock(); defer s.mu.Unlock(); return s.b.Write(p) }
func (s *syncBuf) String() string              { s.mu.Lock(); defer s.mu.Unlock(); return s.b.String() }

type served struct {
	dir, addr, tmp string
	log            *syncBuf
	keys           map[string]gossh.Signer
	keyFiles       map[string]string // OpenSSH private key files
}

// serveDemo serves a copy of the demo folder: alice and bob reviewers, carol a viewer.
func serveDemo(t *testing.T) *served {
	t.Helper()
	s := &served{dir: testutil.Demo(t), tmp: t.TempDir(), log: &syncBuf{},
		keys: map[string]gossh.Signer{}, keyFiles: map[string]string{}}
	var reviewers, viewers strings.Builder
	for _, name := range []string{"alice", "bob", "carol"} {
		_, priv, err := ed25519.GenerateKey(rand.Reader)
		if err != nil {
			t.Fatal(err)
		}
		signer, _ := gossh.NewSignerFromKey(priv)
		s.keys[name] = signer
		blk, _ := gossh.MarshalPrivateKey(priv, name)
		s.keyFiles[name] = filepath.Join(s.tmp, name)
		if err := os.WriteFile(s.keyFiles[name], pemEncode(blk), 0o600); err != nil {
			t.Fatal(err)
		}
		line := strings.TrimSpace(string(gossh.MarshalAuthorizedKey(signer.PublicKey()))) + " " + name + "\n"
		if name == "carol" {
			viewers.WriteString(line)
		} else {
			reviewers.WriteString(line)
		}
	}
	kf, vf := filepath.Join(s.tmp, "keys"), filepath.Join(s.tmp, "viewers")
	_ = os.WriteFile(kf, []byte(reviewers.String()), 0o600)
	_ = os.WriteFile(vf, []byte(viewers.String()), 0o600)
	srv, err := serve.New(serve.Config{Dir: s.dir, Keys: kf, Viewers: vf, HostKey: filepath.Join(s.tmp, "host_key"),
		Theme: "dark", Log: s.log, Exec: servedExec(s.dir)})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s.addr = ln.Addr().String()
	go func() { _ = srv.Serve(ln) }()
	t.Cleanup(func() { _ = srv.Close() })
	return s
}

func (s *served) dial(t *testing.T, name string) *gossh.Client {
	t.Helper()
	c, err := gossh.Dial("tcp", s.addr, &gossh.ClientConfig{User: name, Auth: []gossh.AuthMethod{gossh.PublicKeys(s.keys[name])},
		HostKeyCallback: gossh.InsecureIgnoreHostKey(), Timeout: 5 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// run runs a command over SSH: its output, its errors and its exit status.
func (s *served) run(t *testing.T, name, cmd string, stdin string) (string, string, int) {
	t.Helper()
	sess, err := s.dial(t, name).NewSession()
	if err != nil {
		t.Fatal(err)
	}
	defer sess.Close()
	var out, errb bytes.Buffer
	sess.Stdout, sess.Stderr, sess.Stdin = &out, &errb, strings.NewReader(stdin)
	err = sess.Run(cmd)
	code := 0
	var ee *gossh.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitStatus()
	} else if err != nil {
		t.Fatalf("%s: %v", cmd, err)
	}
	return out.String(), errb.String(), code
}

// screen is a workbench in a pseudo-terminal over SSH, its bytes fed to a terminal
// emulator.
type screen struct {
	t     *testing.T
	sess  *gossh.Session
	in    io.Writer
	mu    sync.Mutex
	term  vt10x.Terminal
	carry []byte
}

func (sc *screen) Write(p []byte) (int, error) {
	sc.mu.Lock()
	defer sc.mu.Unlock()
	sc.carry = append(sc.carry, p...)
	cut := len(sc.carry)
	for cut > 0 && cut > len(sc.carry)-4 && !utf8.Valid(sc.carry[:cut]) {
		cut--
	}
	_, _ = sc.term.Write(sc.carry[:cut])
	sc.carry = append(sc.carry[:0], sc.carry[cut:]...)
	return len(p), nil
}

func (sc *screen) text() string {
	sc.mu.Lock()
	defer sc.mu.Unlock()
	return sc.term.String()
}

// wait waits until the screen shows text.
func (sc *screen) wait(text string) {
	sc.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if strings.Contains(sc.text(), text) {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	sc.t.Fatalf("the screen never showed %q:\n%s", text, sc.text())
}

func (sc *screen) keys(s string) {
	if _, err := sc.in.Write([]byte(s)); err != nil {
		sc.t.Fatal(err)
	}
}

func (s *served) workbench(t *testing.T, name string) *screen {
	t.Helper()
	sess, err := s.dial(t, name).NewSession()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sess.Close() })
	sc := &screen{t: t, sess: sess, term: vt10x.New(vt10x.WithSize(120, 36))}
	if err := sess.RequestPty("xterm-256color", 36, 120, gossh.TerminalModes{}); err != nil {
		t.Fatal(err)
	}
	sc.in, err = sess.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	sess.Stdout = sc
	if err := sess.Shell(); err != nil {
		t.Fatal(err)
	}
	return sc
}

// Three people at once: two workbenches (a reviewer, a viewer) see each other; the
// viewer's keys are disabled as read only; commands run beside them (text and JSON,
// exit codes kept); the reviewer's change carries her name in the log, the server's
// log and the others' screens; the viewer's write is refused.
func TestServeTogether(t *testing.T) {
	s := serveDemo(t)
	alice := s.workbench(t, "alice")
	carol := s.workbench(t, "carol")
	alice.wait("you: alice")
	carol.wait("you: carol (read only)")
	alice.wait("with carol")
	carol.wait("with alice")

	carol.keys("C")
	carol.wait("read only: carol joined as a viewer")
	carol.keys("j") // a key clears the message

	// Alice opens the reject form on s-014: carol is told, and sees her marker.
	alice.keys("/s-014\r")
	alice.wait("s-014  ? check")
	alice.keys("R")
	alice.wait("What is wrong")
	carol.wait("alice is writing a reject on s-014")
	carol.wait("◆al")

	// Commands without a terminal, beside the workbenches.
	out, errs, code := s.run(t, "bob", "status --output json", "")
	var st map[string]any
	if code != 0 || json.Unmarshal([]byte(out), &st) != nil {
		t.Fatalf("status --output json: exit %d, %q %q", code, out, errs)
	}
	if out2, _, _ := s.run(t, "carol", "show s-014", ""); !strings.Contains(out2, "s-014") {
		t.Fatalf("show for a viewer: %q", out2)
	}
	if _, errs, code := s.run(t, "bob", "show s-999", ""); code != 1 || !strings.Contains(errs, "referee: s-999 does not exist") {
		t.Fatalf("show s-999: exit %d %q", code, errs)
	}
	before, _ := os.ReadFile(filepath.Join(s.dir, "history", "log.jsonl"))
	skill := "skill check-confirm-proof --statement-id s-016 --verification-summary checked"
	if _, errs, code := s.run(t, "carol", skill, ""); code != 1 || !strings.Contains(errs, "read only: carol joined as a viewer") {
		t.Fatalf("a viewer's skill: exit %d %q", code, errs)
	}
	if _, errs, code := s.run(t, "bob", skill+" --actor mallory", ""); code != 2 || !strings.Contains(errs, "--actor is not served") {
		t.Fatalf("--actor: exit %d %q", code, errs)
	}
	for _, c := range []string{"status --contents /", "export --out /tmp/x.md", "init --objective x", "mcp", "skills install", "skill check-confirm-proof --params /etc/passwd", ""} {
		if _, _, code := s.run(t, "bob", c, ""); code != 2 {
			t.Errorf("%q was served (exit %d)", c, code)
		}
	}
	after, _ := os.ReadFile(filepath.Join(s.dir, "history", "log.jsonl"))
	if !bytes.Equal(before, after) {
		t.Fatal("a refused command wrote to the log")
	}
	out, errs, code = s.run(t, "bob", skill, "")
	if code != 0 || !strings.Contains(out, "check-confirm-proof by bob") {
		t.Fatalf("bob's skill: exit %d %q %q", code, out, errs)
	}
	last := lastLogLine(t, s.dir)
	if last["by"] != "bob" {
		t.Fatalf("logged by %v", last["by"])
	}
	alice.wait("· bob") // the status bar's last change, on the others' screens
	carol.wait("last: l-039")
	waitLog(t, s.log, "check-confirm-proof by bob (reviewer)")
	waitLog(t, s.log, "carol (viewer, #")
}

// Two reviewers race on one statement: the second write gets the version check's
// conflict, its form reopened with the draft kept; nothing of hers is written.
func TestServeRace(t *testing.T) {
	s := serveDemo(t)
	alice := s.workbench(t, "alice")
	alice.wait("you: alice")
	alice.keys("/s-016\r")
	alice.wait("s-016  ? check")
	alice.keys("R")
	alice.wait("What is wrong")
	alice.keys("alicedraft words")
	alice.wait("alicedraft words")
	alice.keys("\t")
	alice.wait("▸ What would fix it")
	alice.keys("cite a lemma")
	alice.wait("cite a lemma")
	alice.keys("\x13") // ctrl+s: review
	alice.wait("y write it")
	// Bob confirms first, from the command line.
	if out, errs, code := s.run(t, "bob", "skill check-confirm-proof --statement-id s-016 --verification-summary checked", ""); code != 0 {
		t.Fatalf("bob's confirm: %q %q (exit %d)", out, errs, code)
	}
	alice.keys("y")
	alice.wait("s-016 changed since you read it")
	alice.wait("alicedraft words")
	if last := lastLogLine(t, s.dir); last["by"] != "bob" {
		t.Fatalf("the last change is %v's", last["by"])
	}
}

func lastLogLine(t *testing.T, dir string) map[string]any {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, "history", "log.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	var m map[string]any
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func waitLog(t *testing.T, log *syncBuf, text string) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !strings.Contains(log.String(), text) && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if !strings.Contains(log.String(), text) {
		t.Fatalf("the server's log has no %q:\n%s", text, log.String())
	}
}

// OpenSSH's ssh, where installed: a command's output and exit status, and an unknown
// key refused.
func TestServeWithOpenSSH(t *testing.T) {
	sshBin, err := exec.LookPath("ssh")
	if err != nil {
		t.Skip("OpenSSH's ssh is not installed: skipping (apt-get install openssh-client)")
	}
	s := serveDemo(t)
	host, port, _ := net.SplitHostPort(s.addr)
	ssh := func(key string, args ...string) (string, int) {
		base := []string{"-F", "/dev/null", "-o", "BatchMode=yes", "-o", "StrictHostKeyChecking=no", "-o", "UserKnownHostsFile=/dev/null",
			"-o", "LogLevel=ERROR", "-o", "IdentitiesOnly=yes", "-i", key, "-p", port, host}
		cmd := exec.Command(sshBin, append(base, args...)...)
		out, err := cmd.CombinedOutput()
		code := 0
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			code = ee.ExitCode()
		}
		return string(out), code
	}
	if out, code := ssh(s.keyFiles["alice"], "status"); code != 0 || !strings.Contains(out, "contents: "+s.dir) {
		t.Fatalf("ssh status: exit %d\n%s", code, out)
	}
	if out, code := ssh(s.keyFiles["alice"], "show", "s-999"); code != 1 || !strings.Contains(out, "does not exist") {
		t.Fatalf("ssh show s-999: exit %d\n%s", code, out)
	}
	_, priv, _ := ed25519.GenerateKey(rand.Reader)
	blk, _ := gossh.MarshalPrivateKey(priv, "mallory")
	mallory := filepath.Join(s.tmp, "mallory")
	_ = os.WriteFile(mallory, pemEncode(blk), 0o600)
	if out, code := ssh(mallory, "status"); code != 255 || strings.Contains(out, "contents") {
		t.Fatalf("an unknown key: exit %d\n%s", code, out)
	}
	waitLog(t, s.log, "refused key")
}

func pemEncode(b *pem.Block) []byte { return pem.EncodeToMemory(b) }
