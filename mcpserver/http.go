package mcpserver

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"fmt"
	"net"
	"net/http"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// HTTPHandler serves srv over streamable HTTP to the clients that send
// "Authorization: Bearer <token>"; any other request is refused with 401 before the SDK
// sees it. A body over maxMessage bytes (0: DefaultMaxMessage) is refused with 413.
func HTTPHandler(srv *mcp.Server, token string, maxMessage int) http.Handler {
	if maxMessage <= 0 {
		maxMessage = DefaultMaxMessage
	}
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv },
		&mcp.StreamableHTTPOptions{MaxRequestBodyBytes: int64(maxMessage)})
	want := sha256.Sum256([]byte("Bearer " + token))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		// Hashes first: the comparison then takes the same time whatever the length.
		got := sha256.Sum256([]byte(r.Header.Get("Authorization")))
		if token == "" || subtle.ConstantTimeCompare(got[:], want[:]) != 1 {
			w.Header().Set("WWW-Authenticate", `Bearer realm="referee"`)
			http.Error(w, "referee mcp: missing or wrong bearer token (send Authorization: Bearer <token>)", http.StatusUnauthorized)
			return
		}
		h.ServeHTTP(w, r)
	})
}

// NewToken makes a random bearer token (32 bytes, hex).
func NewToken() string {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		panic(err) // crypto/rand does not fail on the systems Go supports
	}
	return hex.EncodeToString(b)
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
