package mcpserver

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// bearer adds the token to every request.
type bearer struct {
	token string
	next  http.RoundTripper
}

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return b.next.RoundTrip(r)
}

func httpSession(t *testing.T, url, token, actor string) (*mcp.ClientSession, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	return mcp.NewClient(&mcp.Implementation{Name: actor, Version: "test"}, nil).Connect(ctx, &mcp.StreamableClientTransport{
		Endpoint: url, HTTPClient: &http.Client{Transport: bearer{token, http.DefaultTransport}}, MaxRetries: -1,
	}, nil)
}

func TestHTTPNeedsTheToken(t *testing.T) {
	dir := freshFolder(t)
	ts := httptest.NewServer(HTTPHandler(New(dir, Options{Now: testNow}), HTTPOptions{Token: testToken}))
	defer ts.Close()
	body := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}`
	for _, auth := range []string{"", "Bearer", "Bearer " + testToken[:len(testToken)-1], "Bearer " + testToken + "2", "bearer " + testToken, "Basic czNjcmV0", testToken} {
		req, _ := http.NewRequest("POST", ts.URL, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		if auth != "" {
			req.Header.Set("Authorization", auth)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusUnauthorized || resp.Header.Get("WWW-Authenticate") != `Bearer realm="referee"` {
			t.Errorf("Authorization %q: %s, want 401 with a challenge", auth, resp.Status)
		}
	}
	if _, err := httpSession(t, ts.URL, "wrong", "intruder"); err == nil {
		t.Error("a client with the wrong token connected")
	}

	// With the token: the same tools, changes in the client's name.
	cs, err := httpSession(t, ts.URL, testToken, "agent-solve")
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	ctx := context.Background()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "prob-wrapup-statement",
		Arguments: map[string]any{"problem_id": "p-001", "claim": []string{"over HTTP"}}})
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Content[0].(*mcp.TextContent).Text; got != "l-002 prob-wrapup-statement by agent-solve: created s-007; modified p-001" {
		t.Errorf("over HTTP: %s", got)
	}

	// A 20 MB body is refused by size; the server goes on.
	req, _ := http.NewRequest("POST", ts.URL, strings.NewReader(`{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"abandon","arguments":{"reason":"`+strings.Repeat("x", 20<<20)+`"}}}`))
	req.Header.Set("Authorization", "Bearer "+testToken)
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Session-Id", cs.ID())
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusRequestEntityTooLarge {
		t.Errorf("a 20 MB body: %s, want 413", resp.Status)
	}

	// A client that gives up mid-call does not stop the others.
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c, err := httpSession(t, ts.URL, testToken, "quitter")
			if err != nil {
				t.Error(err)
				return
			}
			defer c.Close()
			ctx, cancel := context.WithTimeout(context.Background(), time.Duration(i)*time.Millisecond)
			defer cancel()
			c.CallTool(ctx, &mcp.CallToolParams{Name: "prob-wrapup-statement",
				Arguments: map[string]any{"problem_id": "p-001", "claim": []string{"abandoned call"}}})
		}()
	}
	wg.Wait()
	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "check"})
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Content[0].(*mcp.TextContent).Text; !strings.HasPrefix(got, `{"errors":0,`) {
		t.Errorf("check after the quitters: %s", got)
	}
}

func TestListenAddr(t *testing.T) {
	for _, c := range []struct {
		addr   string
		remote bool
		want   string
	}{
		{":8765", false, "127.0.0.1:8765"},
		{"127.0.0.1:0", false, "127.0.0.1:0"},
		{"localhost:9", false, "localhost:9"},
		{"[::1]:9", false, "[::1]:9"},
		{"0.0.0.0:9", false, "--http: 0.0.0.0 is not a loopback address; referee mcp serves only this machine unless --allow-remote is given"},
		{"192.168.1.4:9", false, "--http: 192.168.1.4 is not a loopback address; referee mcp serves only this machine unless --allow-remote is given"},
		{"0.0.0.0:9", true, "0.0.0.0:9"},
		{"8765", false, `--http: "8765" is not host:port (e.g. 127.0.0.1:8765): address 8765: missing port in address`},
	} {
		got, err := ListenAddr(c.addr, c.remote)
		if err != nil {
			got = err.Error()
		}
		if got != c.want {
			t.Errorf("ListenAddr(%q, %v) = %q, want %q", c.addr, c.remote, got, c.want)
		}
	}
}
