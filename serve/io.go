package serve

import (
	"crypto/ed25519"
	"crypto/rand"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	gossh "golang.org/x/crypto/ssh"
)

// boundedWriter is a session's output: writes are queued and sent by a goroutine of
// its own, so the workbench never waits for a client; when more than max bytes wait,
// the session is dropped (full is called once) and what follows is thrown away.
type boundedWriter struct {
	w    io.Writer
	max  int
	full func(waiting int)

	mu     sync.Mutex
	cond   *sync.Cond
	buf    []byte
	closed bool
	done   chan struct{}
}

func newBoundedWriter(w io.Writer, max int, full func(waiting int)) *boundedWriter {
	b := &boundedWriter{w: w, max: max, full: full, done: make(chan struct{})}
	b.cond = sync.NewCond(&b.mu)
	go b.send()
	return b
}

func (b *boundedWriter) Write(p []byte) (int, error) {
	b.mu.Lock()
	if b.closed {
		b.mu.Unlock()
		return len(p), nil
	}
	if len(b.buf)+len(p) > b.max {
		b.closed = true
		n := len(b.buf) + len(p)
		b.buf = nil
		b.cond.Broadcast()
		b.mu.Unlock()
		go b.full(n)
		return len(p), nil
	}
	b.buf = append(b.buf, p...)
	b.cond.Signal()
	b.mu.Unlock()
	return len(p), nil
}

func (b *boundedWriter) send() {
	defer close(b.done)
	var out []byte
	for {
		b.mu.Lock()
		for len(b.buf) == 0 && !b.closed {
			b.cond.Wait()
		}
		if b.closed && len(b.buf) == 0 {
			b.mu.Unlock()
			return
		}
		out, b.buf = b.buf, out[:0]
		b.mu.Unlock()
		if _, err := b.w.Write(out); err != nil {
			b.mu.Lock()
			b.closed, b.buf = true, nil
			b.mu.Unlock()
			return
		}
	}
}

// Close sends what waits (unless the client stopped reading) and stops; it returns
// without waiting for a client that does not read.
func (b *boundedWriter) Close() error {
	b.mu.Lock()
	b.closed = true
	b.cond.Broadcast()
	b.mu.Unlock()
	select {
	case <-b.done:
	case <-time.After(time.Second):
	}
	return nil
}

// idleReader is a session's input, noting when the person last pressed a key or moved
// the mouse.
type idleReader struct {
	r    io.Reader
	last atomic.Int64
}

func newIdleReader(r io.Reader) *idleReader {
	ir := &idleReader{r: r}
	ir.last.Store(time.Now().UnixNano())
	return ir
}

func (ir *idleReader) Read(p []byte) (int, error) {
	n, err := ir.r.Read(p)
	if n > 0 {
		ir.last.Store(time.Now().UnixNano())
	}
	return n, err
}

func (ir *idleReader) idle() time.Duration { return time.Since(time.Unix(0, ir.last.Load())) }

// hostKey reads the server's private key, or makes an ed25519 one (0600, never over an
// existing file) on first start; it returns the key's PEM and its fingerprint.
func hostKey(path string) ([]byte, string, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		_, priv, gerr := ed25519.GenerateKey(rand.Reader)
		if gerr != nil {
			return nil, "", gerr
		}
		blk, merr := gossh.MarshalPrivateKey(priv, "referee serve host key")
		if merr != nil {
			return nil, "", merr
		}
		data = pem.EncodeToMemory(blk)
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			return nil, "", fmt.Errorf("host key %s: %w", path, err)
		}
		f, ferr := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if ferr != nil {
			return nil, "", fmt.Errorf("host key %s: %w", path, ferr)
		}
		_, werr := f.Write(data)
		if cerr := f.Close(); werr == nil {
			werr = cerr
		}
		if werr != nil {
			_ = os.Remove(path)
			return nil, "", fmt.Errorf("host key %s: %w", path, werr)
		}
	} else if err != nil {
		return nil, "", fmt.Errorf("host key %s: %w", path, err)
	}
	signer, err := gossh.ParsePrivateKey(data)
	if err != nil {
		return nil, "", fmt.Errorf("host key %s: %w", path, err)
	}
	return data, gossh.FingerprintSHA256(signer.PublicKey()), nil
}
