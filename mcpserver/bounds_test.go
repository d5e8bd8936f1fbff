package mcpserver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// testToken is a token CheckToken takes (128 bits).
const testToken = "0123456789abcdef0123456789abcdef"

const initBody = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}`

// serveBounded serves a folder as referee mcp --http does, on a loopback port.
func serveBounded(t *testing.T, o HTTPOptions, total, perPeer int) (url string, lim *Limited) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	lim = LimitListener(ln, total, perPeer)
	hs := NewHTTPServer(HTTPHandler(New(freshFolder(t), Options{Now: testNow}), o))
	go hs.Serve(lim)
	t.Cleanup(func() { hs.Close() })
	return "http://" + ln.Addr().String(), lim
}

func initRequest(url string, header map[string]string) *http.Request {
	req, _ := http.NewRequest("POST", url, strings.NewReader(initBody))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for k, v := range header {
		req.Header.Set(k, v)
	}
	return req
}

// A client that sends headers announcing a body, without the token, and never sends the
// body gets 401 at once and the connection is closed: nothing waits for the body.
func TestHTTPRefusesBeforeTheBody(t *testing.T) {
	url, _ := serveBounded(t, HTTPOptions{Token: testToken}, 0, 0)
	for _, extra := range []string{"", "Origin: http://evil.example\r\nAuthorization: Bearer " + testToken + "\r\n"} {
		c, err := net.Dial("tcp", strings.TrimPrefix(url, "http://"))
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(c, "POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 200000\r\n%s\r\n", extra)
		c.SetReadDeadline(time.Now().Add(10 * time.Second))
		all, err := io.ReadAll(c) // to EOF: the server closes
		c.Close()
		if err != nil {
			t.Fatalf("%q: the server kept the connection waiting for the body: %v (read %q)", extra, err, all)
		}
		want := "HTTP/1.1 401 "
		if extra != "" {
			want = "HTTP/1.1 403 "
		}
		if !bytes.HasPrefix(all, []byte(want)) || !bytes.Contains(all, []byte("Connection: close")) {
			t.Errorf("%q: got %q, want %s… and Connection: close", extra, all, want)
		}
	}
}

// Hundreds of connections that never finish a request (silent, headers cut short,
// a body announced and never sent) are bounded by the listener's caps, and a client with
// the token is still answered; when they go, the server is back to its own.
func TestHTTPSlowClientsCannotShutItOff(t *testing.T) {
	const total, perPeer = 100, 60
	slow := 300 // REFEREE_SLOW_CONNS=10000 for the run by hand
	if n, err := strconv.Atoi(os.Getenv("REFEREE_SLOW_CONNS")); err == nil && n > 0 {
		slow = n
	}
	url, lim := serveBounded(t, HTTPOptions{Token: testToken}, total, perPeer)
	addr := strings.TrimPrefix(url, "http://")
	var conns []net.Conn
	defer func() {
		for _, c := range conns {
			c.Close()
		}
	}()
	for i := range slow {
		// Two peers: 127.0.0.1 and 127.0.0.2 (all of 127/8 is loopback on Linux).
		d := net.Dialer{}
		if i%2 == 1 {
			d.LocalAddr = &net.TCPAddr{IP: net.IPv4(127, 0, 0, 2)}
		}
		c, err := d.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		conns = append(conns, c)
		switch i % 3 {
		case 1:
			fmt.Fprintf(c, "POST / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
		case 2:
			fmt.Fprintf(c, "POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{")
		}
	}
	time.Sleep(100 * time.Millisecond) // let the server accept them all
	if n := lim.Open(); n > total {
		t.Errorf("%d connections open, over the cap of %d", n, total)
	}
	start := time.Now()
	cs, err := httpSession(t, url, testToken, "agent-solve")
	if err != nil {
		t.Fatalf("with %d slow connections, a client with the token could not connect: %v", slow, err)
	}
	defer cs.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "check"})
	if err != nil {
		t.Fatalf("with %d slow connections, a call with the token failed: %v", slow, err)
	}
	if got := res.Content[0].(*mcp.TextContent).Text; !strings.HasPrefix(got, `{"errors":0,`) {
		t.Errorf("check: %s", got)
	}
	t.Logf("%d slow connections (%d kept): initialize and a call answered in %v", slow, lim.Open(), time.Since(start))
	for _, c := range conns {
		c.Close()
	}
	conns = nil
	deadline := time.Now().Add(5 * time.Second)
	for lim.Open() > 4 && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if n := lim.Open(); n > 4 {
		t.Errorf("%d connections still open after the slow clients left", n)
	}
	if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "check"}); err != nil {
		t.Errorf("after the slow clients left: %v", err)
	}
}

// The per-peer cap: one address cannot take every connection.
func TestLimitListenerPerPeer(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	lim := LimitListener(ln, 10, 3)
	defer lim.Close()
	go func() {
		for {
			c, err := lim.Accept()
			if err != nil {
				return
			}
			go io.Copy(io.Discard, c) // hold it, as a server reading headers does
		}
	}()
	var held []net.Conn
	defer func() {
		for _, c := range held {
			c.Close()
		}
	}()
	for range 8 {
		c, err := net.Dial("tcp", ln.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		held = append(held, c)
	}
	time.Sleep(100 * time.Millisecond)
	if n := lim.Open(); n != 3 {
		t.Errorf("8 connections from one peer with a per-peer cap of 3: %d open", n)
	}
	// The oldest were closed: reading them ends.
	held[0].SetReadDeadline(time.Now().Add(5 * time.Second))
	if _, err := held[0].Read(make([]byte, 1)); err != io.EOF && !strings.Contains(fmt.Sprint(err), "reset") {
		t.Errorf("the oldest connection was not closed: %v", err)
	}
}

func TestHTTPOrigin(t *testing.T) {
	dir := freshFolder(t)
	ts := httptest.NewServer(HTTPHandler(New(dir, Options{Now: testNow}), HTTPOptions{Token: testToken, AllowOrigins: []string{"http://localhost:3000"}}))
	defer ts.Close()
	for _, c := range []struct {
		origin string
		want   int
	}{
		{"", http.StatusOK},
		{"http://localhost:3000", http.StatusOK},
		{"HTTP://LOCALHOST:3000", http.StatusOK},
		{"http://localhost:3001", http.StatusForbidden},
		{"https://evil.example", http.StatusForbidden},
		{"null", http.StatusForbidden},
	} {
		h := map[string]string{"Authorization": "Bearer " + testToken}
		if c.origin != "" {
			h["Origin"] = c.origin
		}
		resp, err := http.DefaultClient.Do(initRequest(ts.URL, h))
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != c.want {
			t.Errorf("Origin %q: %s %s, want %d", c.origin, resp.Status, body, c.want)
		}
	}
	// None allowed by default.
	ts2 := httptest.NewServer(HTTPHandler(New(dir, Options{Now: testNow}), HTTPOptions{Token: testToken}))
	defer ts2.Close()
	resp, err := http.DefaultClient.Do(initRequest(ts2.URL, map[string]string{"Authorization": "Bearer " + testToken, "Origin": "http://localhost:3000"}))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden || !strings.Contains(string(body), `requests from origin "http://localhost:3000" are not taken (referee mcp --allow-origin adds one)`) {
		t.Errorf("an origin with none allowed: %s %s", resp.Status, body)
	}
}

// Sessions are capped, and one idle past the timeout is closed, which makes room.
func TestHTTPSessionsCappedAndExpire(t *testing.T) {
	url, _ := serveBounded(t, HTTPOptions{Token: testToken, MaxSessions: 2, SessionTimeout: time.Second}, 0, 0)
	for i := range 2 {
		cs, err := httpSession(t, url, testToken, fmt.Sprint("agent-", i))
		if err != nil {
			t.Fatal(err)
		}
		defer cs.Close()
	}
	resp, err := http.DefaultClient.Do(initRequest(url, map[string]string{"Authorization": "Bearer " + testToken}))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusServiceUnavailable || !strings.Contains(string(body), "2 sessions are open, the most it keeps") {
		t.Errorf("a third session: %s %s, want 503", resp.Status, body)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		cs, err := httpSession(t, url, testToken, "late")
		if err == nil {
			cs.Close()
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the idle sessions were never closed: %v", err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func TestCheckToken(t *testing.T) {
	for tok, want := range map[string]string{
		testToken:                              "",
		NewToken():                             "",
		"Zq8vN3kLm2Xp7Rt5Wy9Bc4":               "", // 22 letters and digits: 131 bits
		"x":                                    "a 1-character token holds at most 6 bits, under the 128 required",
		"0123456789abcdef0123456789abcde":      "a 31-character token holds at most 124 bits",
		"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa": "the token uses 1 different characters",
		"0123456789abcdef 0123456789abcdef":    "a space",
	} {
		err := CheckToken(tok)
		switch {
		case want == "" && err != nil:
			t.Errorf("%q: %v", tok, err)
		case want != "" && (err == nil || !strings.Contains(err.Error(), want)):
			t.Errorf("%q: %v, want %q", tok, err, want)
		}
	}
}

// Requests read before stdin ends are all answered before the server exits.
func TestStdioAnswersEverythingBeforeEOF(t *testing.T) {
	dir := freshFolder(t)
	var in strings.Builder
	in.WriteString(initBody + "\n")
	in.WriteString(`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n")
	const calls = 20
	for i := range calls {
		fmt.Fprintf(&in, `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"check","arguments":{}}}`+"\n", i+2)
	}
	var out bytes.Buffer
	if err := ServeStdio(context.Background(), New(dir, Options{Now: testNow}), strings.NewReader(in.String()), &out, 0); err != nil {
		t.Fatal(err)
	}
	answered := map[int]bool{}
	sc := bufio.NewScanner(&out)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var m struct {
			ID     *int            `json:"id"`
			Result json.RawMessage `json:"result"`
		}
		if json.Unmarshal(sc.Bytes(), &m) == nil && m.ID != nil && m.Result != nil {
			answered[*m.ID] = true
		}
	}
	for i := 1; i <= calls+1; i++ {
		if !answered[i] {
			t.Errorf("request %d was read before EOF and never answered (%d of %d answered)", i, len(answered), calls+1)
			break
		}
	}
}

// A call that takes longer than the read and write timeouts is answered: they bound
// clients without the token, not the work of one that has it.
func TestHTTPLongCallOutlivesTheTimeouts(t *testing.T) {
	rt, wt := readTimeout, writeTimeout
	readTimeout, writeTimeout = 200*time.Millisecond, 200*time.Millisecond
	defer func() { readTimeout, writeTimeout = rt, wt }()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := New(freshFolder(t), Options{Now: testNow})
	mcp.AddTool(srv, &mcp.Tool{Name: "slow"}, func(ctx context.Context, _ *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
		select {
		case <-time.After(time.Second):
		case <-ctx.Done():
			return nil, nil, ctx.Err()
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "done"}}}, nil, nil
	})
	hs := NewHTTPServer(HTTPHandler(srv, HTTPOptions{Token: testToken}))
	go hs.Serve(LimitListener(ln, 0, 0))
	defer hs.Close()
	cs, err := httpSession(t, "http://"+ln.Addr().String(), testToken, "patient")
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "slow"})
	if err != nil {
		t.Fatalf("a 1 s call with 0.2 s read and write timeouts: %v", err)
	}
	if res.IsError || res.Content[0].(*mcp.TextContent).Text != "done" {
		t.Errorf("a 1 s call: %+v", res)
	}
}

// A request the client cancelled gets no answer: the server does not wait for one at EOF.
func TestStdioCancelledRequestAtEOF(t *testing.T) {
	srv := New(freshFolder(t), Options{Now: testNow})
	mcp.AddTool(srv, &mcp.Tool{Name: "slow"}, func(ctx context.Context, _ *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, any, error) {
		select {
		case <-time.After(time.Minute):
		case <-ctx.Done():
		}
		return nil, nil, ctx.Err()
	})
	in := initBody + "\n" + `{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n" +
		`{"jsonrpc":"2.0","id":"x-2","method":"tools/call","params":{"name":"slow","arguments":{}}}` + "\n" +
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":"x-2"}}` + "\n" +
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"slow","arguments":{}}}` + "\n" +
		`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":3}}` + "\n"
	done := make(chan error, 1)
	var out bytes.Buffer
	go func() { done <- ServeStdio(context.Background(), srv, strings.NewReader(in), &out, 0) }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the server waits at EOF for an answer to a cancelled request")
	}
	if !strings.Contains(out.String(), `"id":1,"result"`) {
		t.Errorf("initialize not answered: %s", out.String())
	}
}
