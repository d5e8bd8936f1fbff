package mcpserver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// serveOn is serveAs on a server of the caller's (one with a live engine keeps
// answers); init false leaves the session uninitialized.
func serveOn(t *testing.T, srv *mcp.Server, protocol string, init bool) *conn {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	c := &conn{t: t, in: inW, out: bufio.NewReader(outR), done: make(chan error, 1)}
	go func() {
		err := ServeStdio(context.Background(), srv, inR, outW, 0)
		outW.Close()
		c.done <- err
	}()
	t.Cleanup(func() {
		inW.Close()
		outR.Close()
		select {
		case <-c.done:
		case <-time.After(10 * time.Second):
			t.Error("the server did not stop after its input closed")
		}
	})
	if init {
		c.send(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"` + protocol + `","capabilities":{},"clientInfo":{"name":"raw-client","version":"1"}}}`)
		if r := c.recv(); !strings.Contains(r, `"serverInfo":{"name":"referee"`) {
			t.Fatalf("initialize: %s", r)
		}
		c.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	}
	return c
}

// exchange sends line and reads the answer, and says whether the stdio guard answered
// it from what s keeps.
func (c *conn) exchange(s *server, line string) (string, bool) {
	c.t.Helper()
	before := s.keptCalls.Load()
	c.send(line)
	r := c.recv()
	return r, s.keptCalls.Load() != before
}

// hostileFolder is a fresh folder whose s-001 has a proof of hostile text.
func hostileFolder(t *testing.T) string {
	dir := freshFolder(t)
	path := filepath.Join(dir, "statement", "s-001.json")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	proof := "Let $a<b$ & \"c\" hold \x1b[31mred\x1b[0m.\n\nStep 1: Hence a\\b \xff\u2028\u2029 done é 𝔽 </script>."
	quoted, _ := json.Marshal(proof)
	data = bytes.Replace(data, []byte(`"full": ""`), append([]byte(`"full": `), quoted...), 1)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// A call of show or sentences in the plain shape, once its answer is kept, is answered
// by the stdio guard with the bytes the SDK writes for it (both protocol versions, ids
// as numbers and hostile strings, hostile text); every other call still goes through
// the SDK and is answered as before: the first (which keeps the answer), arguments in
// another shape, _meta, an unknown statement or tool, bad arguments, a session not
// initialized; a cancellation after a kept answer changes nothing.
func TestKeptAnswersAsTheSDKWritesThem(t *testing.T) {
	dir := hostileFolder(t)
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	srv := New(dir, Options{Now: testNow, Context: ctx})
	s := serverOf(srv)
	if s == nil {
		t.Fatal("New's server is not known to ServeStdio")
	}
	call := func(id, tool, args string, meta string) string {
		return `{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"name":"` + tool + `","arguments":` + args + meta + `}}`
	}
	for _, protocol := range []string{"2025-06-18", "2026-07-28"} {
		for _, tool := range []struct{ name, param string }{{"sentences", "statement_id"}, {"show", "id"}} {
			t.Run(protocol+"/"+tool.name, func(t *testing.T) {
				c := serveOn(t, srv, protocol, true)
				exchange := func(line string) (string, bool) { t.Helper(); return c.exchange(s, line) }
				args := `{"` + tool.param + `":"s-001"}`
				// Through the SDK: the first call (or one another session kept), then a
				// call in another shape (a space the tool trims) keeps nothing new.
				exchange(call("2", tool.name, args, ""))
				sdk, fromKept := exchange(call("2", tool.name, `{"`+tool.param+`":" s-001"}`, ""))
				if fromKept {
					t.Fatal("an argument in another shape was answered from what is kept")
				}
				if !strings.Contains(sdk, `"structuredContent":{`) || strings.Contains(sdk, `"isError"`) {
					t.Fatalf("the SDK's answer: %s", sdk)
				}
				if hasType := strings.HasSuffix(sdk, `,"resultType":"complete"}}`); hasType != (protocol == "2026-07-28") {
					t.Errorf("result type in %s: %v", protocol, hasType)
				}
				kept, fromKept := exchange(call("2", tool.name, args, ""))
				if !fromKept {
					t.Fatal("a plain call of a kept answer went through the SDK")
				}
				if kept != sdk {
					t.Errorf("kept answer\n%s\nthe SDK's\n%s", kept, sdk)
				}
				// A string id, with what encoding/json would escape for HTML.
				const id = `"k<&>é 7"`
				bySDK, _ := exchange(call(id, tool.name, `{"`+tool.param+`":"s-001 "}`, ""))
				kept, fromKept = exchange(call(id, tool.name, args, ""))
				if !fromKept || kept != bySDK || !strings.HasPrefix(kept, `{"jsonrpc":"2.0","id":"k<&>é 7","result":`) {
					t.Errorf("string id: kept %v\n%s\nthe SDK's\n%s", fromKept, kept, bySDK)
				}
				// _meta goes to the SDK, answered as before.
				withMeta, fromKept := exchange(call("2", tool.name, args, `,"_meta":{"progressToken":"p1"}`))
				if fromKept || withMeta != sdk {
					t.Errorf("_meta: kept %v\n%s\nwant\n%s", fromKept, withMeta, sdk)
				}
				// A cancellation of a call already answered changes nothing.
				c.send(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":2}}`)
				for _, bad := range []struct{ line, want string }{
					{call("3", tool.name, `{"`+tool.param+`":"s-999"}`, ""), `"isError":true`},
					{call("4", tool.name, `{"`+tool.param+`":7}`, ""), `must be a string`},
					{call("5", tool.name, `{"`+tool.param+`":"s-001","top":2}`, ""), `has no parameter`},
					{call("6", tool.name+"x", args, ""), `"error":{"code":`},
					{call("7", tool.name, `{"`+tool.param+`":"s-001","`+tool.param+`":"s-002"}`, ""), `"result":`},
				} {
					r, fromKept := exchange(bad.line)
					if fromKept || !strings.Contains(r, bad.want) {
						t.Errorf("%s: kept %v, answered %s; want %s", bad.line, fromKept, r, bad.want)
					}
				}
				if r, fromKept := exchange(call("8", tool.name, args, "")); !fromKept || !strings.HasPrefix(r, `{"jsonrpc":"2.0","id":8,"result":{"content"`) {
					t.Errorf("after the bad calls: kept %v, %s", fromKept, r)
				}
			})
		}
	}
	// status without arguments (null or {}), the default limit, from the frame's kept
	// answer; with a limit, or a bad argument, through the SDK.
	for _, protocol := range []string{"2025-06-18", "2026-07-28"} {
		t.Run(protocol+"/status", func(t *testing.T) {
			c := serveOn(t, srv, protocol, true)
			exchange := func(line string) (string, bool) { t.Helper(); return c.exchange(s, line) }
			exchange(call("2", "status", `{}`, ""))
			bySDK, fromKept := exchange(call("2", "status", `{"limit":50}`, ""))
			if fromKept || !strings.Contains(bySDK, `"structuredContent":{"vocabulary"`) {
				t.Fatalf("status with the default limit: kept %v, %s", fromKept, bySDK)
			}
			for _, args := range []string{`{}`, `null`} {
				kept, fromKept := exchange(call("2", "status", args, ""))
				if !fromKept || kept != bySDK {
					t.Errorf("status %s: kept %v\n%s\nthe SDK's\n%s", args, fromKept, kept, bySDK)
				}
			}
			if r, fromKept := exchange(call("3", "status", `{"limit":1}`, "")); fromKept || r == bySDK || !strings.Contains(r, `\"next_left_out\":`) {
				t.Errorf("status with a limit: kept %v, %s", fromKept, r)
			}
			if r, fromKept := exchange(call("4", "status", `{"top":1}`, "")); fromKept || !strings.Contains(r, `has no parameter`) {
				t.Errorf("status with a bad argument: kept %v, %s", fromKept, r)
			}
		})
	}
	// The _meta of the newer protocol, which the Go SDK's client sends with every
	// request (it does not initialize): answered from what is kept once the SDK took
	// that _meta in the session, with the server's name in the result's _meta.
	triple := func(version, caps string) string {
		return `,"_meta":{"io.modelcontextprotocol/clientCapabilities":` + caps + `,"io.modelcontextprotocol/clientInfo":{"name":"bench","version":"bench"},"io.modelcontextprotocol/protocolVersion":"` + version + `"}`
	}
	for _, c := range []struct {
		name     string
		protocol string // of the initialize; "" for none
	}{{"newer protocol, no initialize", ""}, {"initialized 2025-06-18", "2025-06-18"}, {"initialized 2026-07-28", "2026-07-28"}} {
		t.Run(c.name, func(t *testing.T) {
			conn := serveOn(t, srv, c.protocol, c.protocol != "")
			exchange := func(line string) (string, bool) { t.Helper(); return conn.exchange(s, line) }
			for i, bad := range []string{triple("2099-01-01", `{}`), triple("2026-07-28", `5`)} {
				for range 3 {
					r, fromKept := exchange(call("9", "show", `{"id":"s-001"}`, bad))
					if fromKept || !strings.Contains(r, `"error":{"code":`) {
						t.Errorf("bad _meta %d: kept %v, %s", i, fromKept, r)
					}
				}
			}
			meta := triple("2026-07-28", `{"roots":{"listChanged":true}}`)
			for _, tool := range []struct{ name, param string }{{"sentences", "statement_id"}, {"show", "id"}} {
				args := `{"` + tool.param + `":"s-001"}`
				bySDK, _ := exchange(call("2", tool.name, `{"`+tool.param+`":"s-001 "}`, meta))
				if !strings.Contains(bySDK, `"result":{"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"referee","version":"dev"}},"content":[`) {
					t.Fatalf("the SDK's answer: %s", bySDK)
				}
				if hasType := strings.HasSuffix(bySDK, `,"resultType":"complete"}}`); hasType != (c.protocol != "2025-06-18") {
					t.Errorf("result type: %v", hasType)
				}
				var kept string
				fromKept := false
				for range 3 { // the first one or two go to the SDK while it takes the _meta
					if kept, fromKept = exchange(call("2", tool.name, args, meta)); fromKept {
						break
					}
				}
				if !fromKept || kept != bySDK {
					t.Errorf("%s: kept %v\n%s\nthe SDK's\n%s", tool.name, fromKept, kept, bySDK)
				}
			}
		})
	}
	t.Run("not initialized", func(t *testing.T) {
		c := serveOn(t, srv, "", false)
		before := s.keptCalls.Load()
		c.send(call("1", "sentences", `{"statement_id":"s-001"}`, ""))
		r := c.recv()
		if s.keptCalls.Load() != before || !strings.Contains(r, `invalid during session initialization`) {
			t.Errorf("a call before initialize: %s", r)
		}
	})
}

// The Go SDK's own client (what referee-bench and Go agents use; it sends the newer
// protocol's _meta with every call) gets its repeated show and sentences from what is
// kept, and reads the same result as from the SDK.
func TestKeptAnswersReachTheSDKClient(t *testing.T) {
	dir := hostileFolder(t)
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	srv := New(dir, Options{Now: testNow, Context: ctx})
	s := serverOf(srv)
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- ServeStdio(ctx, srv, inR, outW, 0)
		outW.Close()
	}()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "go-client", Version: "1"}, nil).
		Connect(ctx, &mcp.IOTransport{Reader: outR, Writer: inW}, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cs.Close()
		inW.Close()
		<-done
	})
	for _, c := range []struct {
		tool string
		args map[string]any
	}{{"sentences", map[string]any{"statement_id": "s-001"}}, {"show", map[string]any{"id": "s-001"}}, {"status", nil}} {
		var first string
		before := s.keptCalls.Load()
		for i := range 5 {
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: c.tool, Arguments: c.args})
			if err != nil || res.IsError || len(res.Content) != 1 {
				t.Fatalf("%s: %v %+v", c.tool, err, res)
			}
			text := res.Content[0].(*mcp.TextContent).Text
			structured, err := json.Marshal(res.StructuredContent)
			if err != nil {
				t.Fatal(err)
			}
			var fromText any
			if err := json.Unmarshal([]byte(text), &fromText); err != nil {
				t.Fatal(err)
			}
			again, _ := json.Marshal(fromText)
			if string(again) != string(structured) {
				t.Errorf("%s: the structured content is not the text's JSON:\n%s\n%s", c.tool, structured, again)
			}
			if i == 0 {
				first = text
			} else if text != first {
				t.Errorf("%s call %d: %s\nthe first: %s", c.tool, i, text, first)
			}
		}
		if n := s.keptCalls.Load() - before; n < 3 {
			t.Errorf("%s: %d of 5 calls answered from what is kept", c.tool, n)
		}
	}
}

// A _meta is taken once the SDK answered a call carrying it with a result: not after an
// error, nor when two calls in flight had the same id.
func TestMetaMemo(t *testing.T) {
	var m metaMemo
	a, b := json.RawMessage(`{"x":1}`), json.RawMessage(`{"x":2}`)
	m.asked("n:1", a)
	m.answered("n:1", false)
	if m.taken(a) {
		t.Error("taken after an error")
	}
	m.asked("n:2", a)
	m.asked("n:2", b) // the same id twice at once
	m.answered("n:2", true)
	m.answered("n:2", true)
	if m.taken(a) || m.taken(b) {
		t.Error("taken from an id used twice at once")
	}
	m.asked("n:3", b)
	m.answered("n:3", true)
	if !m.taken(b) || m.taken(a) {
		t.Errorf("after a result: %v, %v", m.taken(b), m.taken(a))
	}
}

// The guard answers a kept answer on the goroutine that reads the client's messages, so
// it never waits for the engine: while a batch is being applied (the engine's lock held)
// the call goes to the SDK, whose handler waits on a goroutine of its own, and a message
// sent after it (a ping here) is answered meanwhile. Once the batch is in, the call gets
// the same answer the guard would have given.
func TestKeptAnswerWaitsForNoBatch(t *testing.T) {
	dir := hostileFolder(t)
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	srv := New(dir, Options{Now: testNow, Context: ctx})
	s := serverOf(srv)
	c := serveOn(t, srv, "2025-06-18", true)
	call := `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"sentences","arguments":{"statement_id":"s-001"}}}`
	c.exchange(s, call)
	kept, fromKept := c.exchange(s, call)
	if !fromKept {
		t.Fatal("the second call was not answered from what is kept")
	}
	s.eng.mu.Lock() // a batch being applied
	locked := true
	defer func() {
		if locked {
			s.eng.mu.Unlock()
		}
	}()
	before := s.keptCalls.Load()
	// Sent from goroutines: the pipe holds nothing, so a guard that waited would not even
	// take the ping.
	go io.WriteString(c.in, call+"\n")
	go func() {
		time.Sleep(10 * time.Millisecond) // after the call, as a client sends them; its order is not what is tested
		io.WriteString(c.in, `{"jsonrpc":"2.0","id":6,"method":"ping"}`+"\n")
	}()
	got := make(chan string, 1)
	go func() { line, _ := c.out.ReadString('\n'); got <- strings.TrimSuffix(line, "\n") }()
	select {
	case r := <-got:
		if !strings.HasPrefix(r, `{"jsonrpc":"2.0","id":6,`) {
			t.Fatalf("while a batch was applied the first answer was %s, want the ping's", r)
		}
	case <-time.After(10 * time.Second): // not a timing: the ping is never answered while the guard waits
		s.eng.mu.Unlock()
		locked = false
		t.Fatalf("the guard waited for the batch being applied before reading on; then it answered %s", <-got)
	}
	s.eng.mu.Unlock()
	locked = false
	if r := c.recv(); r != kept {
		t.Errorf("once the batch was in, the call was answered\n%s\nwant\n%s", r, kept)
	}
	if s.keptCalls.Load() != before {
		t.Error("a call made while a batch was applied was answered from what is kept")
	}
}
