package mcpserver

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Bounds of the HTTP server: whoever can reach the port, with or without the token, can
// hold no more than these.
const (
	// DefaultMaxConns and DefaultMaxConnsPerPeer cap the open connections; past them the
	// oldest connection that has not shown the token is closed to make room.
	DefaultMaxConns        = 1024
	DefaultMaxConnsPerPeer = 256
	// DefaultMaxSessions caps the MCP sessions kept at once; DefaultSessionTimeout closes
	// one that has had no request for that long (a client then starts another).
	DefaultMaxSessions    = 256
	DefaultSessionTimeout = 30 * time.Minute
	// MinTokenBits is the least strength of a bearer token given by hand.
	MinTokenBits = 128
)

// Timeouts of a connection: its request headers, its whole request, an answer to a
// client without the token, and an idle connection between requests. A client with the
// token has no read or write deadline once its request is read: a tool call or the
// server's event stream may take as long as it takes.
// (Variables only so that tests can shorten them.)
var (
	readHeaderTimeout = 5 * time.Second
	readTimeout       = 60 * time.Second
	writeTimeout      = 30 * time.Second
	idleTimeout       = 2 * time.Minute
)

// HTTPOptions configure HTTPHandler.
type HTTPOptions struct {
	// Token is the bearer token every request must carry (CheckToken).
	Token string
	// MaxMessage bounds a request body (0: DefaultMaxMessage); a larger one gets 413.
	MaxMessage int
	// AllowOrigins are the browser origins ("https://host:port") whose requests are taken;
	// a request with any other Origin header gets 403. Requests without one (what
	// non-browser clients send) are taken.
	AllowOrigins []string
	// MaxSessions caps the MCP sessions (0: DefaultMaxSessions); a new one past it gets 503.
	MaxSessions int
	// SessionTimeout closes a session idle that long (0: DefaultSessionTimeout).
	SessionTimeout time.Duration
}

// HTTPHandler serves srv over streamable HTTP. Every request is judged on its headers
// before any of its body is read: an Origin not allowed gets 403, a missing or wrong
// "Authorization: Bearer <token>" 401, and the connection is closed after either. A body
// over MaxMessage bytes is refused with 413.
func HTTPHandler(srv *mcp.Server, o HTTPOptions) http.Handler {
	if o.MaxMessage <= 0 {
		o.MaxMessage = DefaultMaxMessage
	}
	if o.MaxSessions <= 0 {
		o.MaxSessions = DefaultMaxSessions
	}
	if o.SessionTimeout <= 0 {
		o.SessionTimeout = DefaultSessionTimeout
	}
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv },
		&mcp.StreamableHTTPOptions{MaxRequestBodyBytes: int64(o.MaxMessage), SessionTimeout: o.SessionTimeout})
	want := sha256.Sum256([]byte("Bearer " + o.Token))
	origins := map[string]bool{}
	for _, or := range o.AllowOrigins {
		origins[strings.ToLower(strings.TrimSuffix(or, "/"))] = true
	}
	var (
		mu      sync.Mutex
		opening int // new sessions being set up, not yet in srv.Sessions
	)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		refuse := func(code int, msg string) {
			// Connection: close also keeps net/http from reading the unread body to reuse
			// the connection: a client that never sends it would hold the connection.
			// (net/http still drains up to 256 KB of it when the handler ends: a read
			// deadline already past stops that.)
			w.Header().Set("Connection", "close")
			_ = http.NewResponseController(w).SetReadDeadline(time.Now())
			http.Error(w, msg, code)
		}
		if or := r.Header.Values("Origin"); len(or) > 0 && (len(or) > 1 || !origins[strings.ToLower(or[0])]) {
			refuse(http.StatusForbidden, fmt.Sprintf("referee mcp: requests from origin %q are not taken (referee mcp --allow-origin adds one)", sanitizeHeader(strings.Join(or, ", "))))
			return
		}
		// Hashes first: the comparison then takes the same time whatever the length.
		got := sha256.Sum256([]byte(r.Header.Get("Authorization")))
		if o.Token == "" || subtle.ConstantTimeCompare(got[:], want[:]) != 1 {
			w.Header().Set("WWW-Authenticate", `Bearer realm="referee"`)
			refuse(http.StatusUnauthorized, "referee mcp: missing or wrong bearer token (send Authorization: Bearer <token>)")
			return
		}
		if c, ok := r.Context().Value(connKey{}).(*limitedConn); ok {
			c.trust()
		}
		rc := http.NewResponseController(w)
		_ = rc.SetWriteDeadline(time.Time{})
		if r.Method == http.MethodGet {
			_ = rc.SetReadDeadline(time.Time{}) // the server's event stream
		} else if r.Body != nil {
			// Once the body is read, the connection is only watched for the client
			// going away: no deadline may cancel a call that takes long.
			r.Body = &onEOF{ReadCloser: r.Body, f: func() { _ = rc.SetReadDeadline(time.Time{}) }}
		}
		if r.Method == http.MethodPost && r.Header.Get("Mcp-Session-Id") == "" {
			mu.Lock()
			n := opening
			for ss := range srv.Sessions() {
				// One never initialized (a probe for a later protocol, a failed
				// initialize) is closed by the SDK as its request ends: opening counts it.
				if ss.InitializeParams() != nil {
					n++
				}
			}
			if n >= o.MaxSessions {
				mu.Unlock()
				w.Header().Set("Retry-After", "60")
				refuse(http.StatusServiceUnavailable, fmt.Sprintf("referee mcp: %d sessions are open, the most it keeps (one idle for %s is closed); try again later", n, o.SessionTimeout))
				return
			}
			opening++
			mu.Unlock()
			// The session counts as opening until its answer starts: by then the SDK
			// lists it, and the client, which may ask for its next session as soon as it
			// reads the answer, must not find it counted twice.
			var once sync.Once
			opened := func() {
				once.Do(func() {
					mu.Lock()
					opening--
					mu.Unlock()
				})
			}
			defer opened()
			w = &answerStart{ResponseWriter: w, start: opened}
		}
		h.ServeHTTP(w, r)
	})
}

// sanitizeHeader keeps a header value printable and short for an error message.
func sanitizeHeader(s string) string {
	var b strings.Builder
	for _, r := range s {
		if b.Len() >= 200 {
			b.WriteString("…")
			break
		}
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) {
			r = '?'
		}
		b.WriteRune(r)
	}
	return b.String()
}

// answerStart calls start before the first byte of the answer is written.
type answerStart struct {
	http.ResponseWriter
	start func()
}

func (w *answerStart) WriteHeader(code int) {
	w.start()
	w.ResponseWriter.WriteHeader(code)
}

func (w *answerStart) Write(b []byte) (int, error) {
	w.start()
	return w.ResponseWriter.Write(b)
}

func (w *answerStart) Flush() {
	w.start()
	if f, ok := w.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// Unwrap lets http.ResponseController reach the connection's deadlines.
func (w *answerStart) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// onEOF calls f once when the body has been read to its end.
type onEOF struct {
	io.ReadCloser
	f    func()
	once sync.Once
}

func (b *onEOF) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if errors.Is(err, io.EOF) {
		b.once.Do(b.f)
	}
	return n, err
}

// NewHTTPServer is the http.Server of handler h with referee's timeouts; serve it on a
// LimitListener so that the connections it keeps are bounded.
func NewHTTPServer(h http.Handler) *http.Server {
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: readHeaderTimeout,
		ReadTimeout:       readTimeout,
		WriteTimeout:      writeTimeout,
		IdleTimeout:       idleTimeout,
		MaxHeaderBytes:    64 << 10,
		ConnContext: func(ctx context.Context, c net.Conn) context.Context {
			return context.WithValue(ctx, connKey{}, c)
		},
	}
}

type connKey struct{}

// LimitListener keeps at most total connections of ln open, and at most perPeer from one
// IP address (0: the defaults). Past a cap it does not stop accepting, which would let
// whoever holds the connections shut everyone out: it closes the oldest connection (of
// that peer, or of all) that has not shown the token, and refuses the new one only when
// every connection has.
func LimitListener(ln net.Listener, total, perPeer int) *Limited {
	if total <= 0 {
		total = DefaultMaxConns
	}
	if perPeer <= 0 {
		perPeer = DefaultMaxConnsPerPeer
	}
	return &Limited{Listener: ln, total: total, perPeer: perPeer, peers: map[string]int{}}
}

// Limited is the listener LimitListener makes.
type Limited struct {
	net.Listener
	total, perPeer int

	mu    sync.Mutex
	conns []*limitedConn // oldest first
	peers map[string]int
}

// Open is how many connections are open.
func (l *Limited) Open() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.conns)
}

func (l *Limited) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		peer := c.RemoteAddr().String()
		if host, _, err := net.SplitHostPort(peer); err == nil {
			peer = host
		}
		lc := &limitedConn{Conn: c, l: l, peer: peer}
		var evict []*limitedConn
		l.mu.Lock()
		ok := true
		if l.peers[peer] >= l.perPeer {
			v := l.oldestUntrusted(peer)
			ok = v != nil
			evict = append(evict, v)
		}
		if ok && len(l.conns)-len(evict) >= l.total {
			v := l.oldestUntrusted("", evict...)
			ok = v != nil
			evict = append(evict, v)
		}
		if ok {
			for _, v := range evict {
				l.removeLocked(v)
			}
			l.conns = append(l.conns, lc)
			l.peers[peer]++
		}
		l.mu.Unlock()
		if !ok {
			c.Close()
			continue
		}
		for _, v := range evict {
			v.closeConn()
		}
		return lc, nil
	}
}

// oldestUntrusted is the oldest connection (of peer, or any when "") that has not shown
// the token and is not in skip.
func (l *Limited) oldestUntrusted(peer string, skip ...*limitedConn) *limitedConn {
	for _, c := range l.conns {
		if (peer == "" || c.peer == peer) && !c.trusted && !contains(skip, c) {
			return c
		}
	}
	return nil
}

func contains(list []*limitedConn, c *limitedConn) bool {
	for _, x := range list {
		if x == c {
			return true
		}
	}
	return false
}

func (l *Limited) removeLocked(c *limitedConn) {
	if c == nil || c.gone {
		return
	}
	c.gone = true
	for i, x := range l.conns {
		if x == c {
			l.conns = append(l.conns[:i], l.conns[i+1:]...)
			break
		}
	}
	if l.peers[c.peer]--; l.peers[c.peer] <= 0 {
		delete(l.peers, c.peer)
	}
}

// limitedConn is a connection LimitListener counts.
type limitedConn struct {
	net.Conn
	l       *Limited
	peer    string
	trusted bool // it carried the token (under l.mu)
	gone    bool // no longer counted (under l.mu)
	once    sync.Once
}

func (c *limitedConn) trust() {
	c.l.mu.Lock()
	c.trusted = true
	c.l.mu.Unlock()
}

func (c *limitedConn) closeConn() { c.once.Do(func() { c.Conn.Close() }) }

func (c *limitedConn) Close() error {
	c.l.mu.Lock()
	c.l.removeLocked(c)
	c.l.mu.Unlock()
	var err error
	c.once.Do(func() { err = c.Conn.Close() })
	return err
}

// NewToken makes a random bearer token (32 bytes, hex).
func NewToken() string {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		panic(err) // crypto/rand does not fail on the systems Go supports
	}
	return hex.EncodeToString(b)
}

// CheckToken refuses a token too weak to guard the folder: under MinTokenBits bits,
// counted as its length times what each character can hold given the characters it uses
// (hex digits 4 bits, letters and digits 5.95, any printable 6.55), or with a character
// that cannot travel in a header.
func CheckToken(tok string) error {
	const advice = "; use at least 32 hex digits (e.g. openssl rand -hex 16), or give none and one is generated"
	hex, alnum := true, true
	for _, r := range tok {
		switch {
		case r <= ' ' || r > '~':
			return fmt.Errorf("--token: the token has a space, a control or a non-ASCII character, which a header cannot carry" + advice)
		case strings.ContainsRune("0123456789abcdefABCDEF", r):
		case 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z':
			hex = false
		default:
			hex, alnum = false, false
		}
	}
	per := math.Log2(95)
	switch {
	case hex:
		per = 4
	case alnum:
		per = math.Log2(62)
	}
	if bits := float64(len(tok)) * per; bits < MinTokenBits {
		return fmt.Errorf("--token: a %d-character token holds at most %.0f bits, under the %d required%s", len(tok), bits, MinTokenBits, advice)
	}
	distinct := map[rune]bool{}
	for _, r := range tok {
		distinct[r] = true
	}
	if tok != "" && len(distinct) < 8 {
		return fmt.Errorf("--token: the token uses %d different characters: too easy to guess%s", len(distinct), advice)
	}
	return nil
}

// ListenAddr checks the address to serve on: a bare ":port" binds to 127.0.0.1; an
// address that is not loopback is refused unless allowRemote.
func ListenAddr(addr string, allowRemote bool) (string, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "", fmt.Errorf("--http: %q is not host:port (e.g. 127.0.0.1:8765): %v", addr, err)
	}
	if host == "" {
		host = "127.0.0.1"
	}
	if !allowRemote && !loopback(host) {
		return "", fmt.Errorf("--http: %s is not a loopback address; referee mcp serves only this machine unless --allow-remote is given", host)
	}
	return net.JoinHostPort(host, port), nil
}

func loopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
