package mcpserver

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"runtime"
	"strings"
	"testing"
	"time"

	"referee/internal/testutil"
	"referee/store"
)

// A raw JSON-RPC conversation over the stdio transport, as a buggy or hostile client
// would hold it: every bad message gets a clear error, nothing is written, and the
// server goes on answering.

// conn is the client end of a ServeStdio session.
type conn struct {
	t    *testing.T
	in   *io.PipeWriter // the server's stdin
	out  *bufio.Reader  // the server's stdout
	done chan error
}

func serve(t *testing.T, dir string) *conn {
	t.Helper()
	return serveAs(t, dir, "2025-06-18")
}

// serveAs is serve with a client of that protocol version.
func serveAs(t *testing.T, dir, protocol string) *conn {
	t.Helper()
	return serveOn(t, New(dir, Options{Now: testNow}), protocol, true)
}

func (c *conn) send(line string) {
	c.t.Helper()
	if _, err := io.WriteString(c.in, line+"\n"); err != nil {
		c.t.Fatalf("send: %v", err)
	}
}

// recv reads one line of the server's output, within a bound.
func (c *conn) recv() string {
	c.t.Helper()
	type result struct {
		line string
		err  error
	}
	ch := make(chan result, 1)
	go func() {
		line, err := c.out.ReadString('\n')
		ch <- result{line, err}
	}()
	select {
	case r := <-ch:
		if r.err != nil {
			c.t.Fatalf("recv: %v", r.err)
		}
		return strings.TrimSuffix(r.line, "\n")
	case <-time.After(20 * time.Second):
		c.t.Fatal("no answer from the server")
	}
	return ""
}

// statusAnswers checks the server still answers a tool call.
func (c *conn) statusAnswers(id int) {
	c.t.Helper()
	c.send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"status","arguments":{}}}`, id))
	if r := c.recv(); !strings.HasPrefix(r, fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"result":{"content":[{"type":"text","text":"{\"vocabulary\"`, id)) {
		c.t.Fatalf("status after a bad message: %s", r)
	}
}

func TestRawConversation(t *testing.T) {
	dir := freshFolder(t)
	before := testutil.Files(t, dir)
	c := serve(t, dir)
	for i, tc := range []struct{ name, send, want string }{
		{"not JSON", `{"jsonrpc":"2.0","id":1,"method":`,
			`{"jsonrpc":"2.0","id":1,"error":{"code":-32700,"message":"parse error: the line is not valid JSON: unexpected end of JSON input"}}`},
		{"garbage", `hello referee`,
			`{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error: the line is not valid JSON: invalid character 'h' looking for beginning of value"}}`},
		{"not JSON-RPC", `{"id":2,"method":"tools/list"}`,
			`{"jsonrpc":"2.0","id":2,"error":{"code":-32600,"message":"invalid request: not a JSON-RPC 2.0 message: invalid message version tag \"\"; expected \"2.0\""}}`},
		{"a batch", `[{"jsonrpc":"2.0","id":3,"method":"tools/list"}]`,
			`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request: JSON-RPC batches are not taken; send one message per line"}}`},
		{"a bare number", `42`,
			`{"jsonrpc":"2.0","id":null,"error":{"code":-32600,"message":"invalid request: not a JSON-RPC 2.0 message: unmarshaling jsonrpc message: json: cannot unmarshal \"42\" into Go value of type jsonrpc2.wireDecode"}}`},
		{"unknown method", `{"jsonrpc":"2.0","id":4,"method":"tools/explode"}`,
			`{"jsonrpc":"2.0","id":4,"error":{"code":-32601,"message":"method not found: \"tools/explode\""}}`},
		{"unknown tool", `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"prove-everything","arguments":{}}}`,
			`{"jsonrpc":"2.0","id":5,"error":{"code":-32602,"message":"unknown tool \"prove-everything\""}}`},
		{"arguments not an object", `{"jsonrpc":"2.0","id":6,"method":"tools/call","params":{"name":"abandon","arguments":"s-001"}}`,
			`{"jsonrpc":"2.0","id":6,"result":{"content":[{"type":"text","text":"input: arguments: expected a JSON object keyed by parameter names, found a string"}],"structuredContent":{"error":"input","message":"arguments: expected a JSON object keyed by parameter names, found a string"},"isError":true}}`},
		{"wrong type", `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"fix-patch-proof","arguments":{"statement_id":"s-001","issue_number":"one","updated_proof":"x","change_description":"y"}}}`,
			`{"jsonrpc":"2.0","id":7,"result":{"content":[{"type":"text","text":"input: arguments: \"issue_number\": \"one\" is not a whole number"}],"structuredContent":{"error":"input","message":"arguments: \"issue_number\": \"one\" is not a whole number"},"isError":true}}`},
		{"list for a string", `{"jsonrpc":"2.0","id":8,"method":"tools/call","params":{"name":"abandon","arguments":{"statement_id":["s-001"]}}}`,
			`{"jsonrpc":"2.0","id":8,"result":{"content":[{"type":"text","text":"input: arguments: \"statement_id\" must be a string, found a list"}],"structuredContent":{"error":"input","message":"arguments: \"statement_id\" must be a string, found a list"},"isError":true}}`},
		{"unknown parameter", `{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"abandon","arguments":{"statement":"s-001"}}}`,
			`{"jsonrpc":"2.0","id":9,"result":{"content":[{"type":"text","text":"input: arguments: abandon has no parameter \"statement\" (referee skill abandon --help lists them)"}],"structuredContent":{"error":"input","message":"arguments: abandon has no parameter \"statement\" (referee skill abandon --help lists them)"},"isError":true}}`},
		{"missing parameter", `{"jsonrpc":"2.0","id":10,"method":"tools/call","params":{"name":"abandon","arguments":{}}}`,
			`{"jsonrpc":"2.0","id":10,"result":{"content":[{"type":"text","text":"input: abandon needs --statement-id (the statement)"}],"structuredContent":{"error":"input","message":"abandon needs --statement-id (the statement)"},"isError":true}}`},
		{"expect_version not a string", `{"jsonrpc":"2.0","id":11,"method":"tools/call","params":{"name":"abandon","arguments":{"statement_id":"s-001","expect_version":7}}}`,
			`{"jsonrpc":"2.0","id":11,"result":{"content":[{"type":"text","text":"input: arguments: \"expect_version\" must be a string, found a number"}],"structuredContent":{"error":"input","message":"arguments: \"expect_version\" must be a string, found a number"},"isError":true}}`},
		{"precondition", `{"jsonrpc":"2.0","id":12,"method":"tools/call","params":{"name":"check-confirm-proof","arguments":{"statement_id":"s-001"}}}`,
			`{"jsonrpc":"2.0","id":12,"result":{"content":[{"type":"text","text":"precondition: check-confirm-proof: s-001 is \"true\"; it needs a submitted proof awaiting verification"}],"structuredContent":{"error":"precondition","message":"check-confirm-proof: s-001 is \"true\"; it needs a submitted proof awaiting verification"},"isError":true}}`},
		{"read tool, wrong type", `{"jsonrpc":"2.0","id":13,"method":"tools/call","params":{"name":"similar","arguments":{"statement_id":"s-001","top":"many"}}}`,
			`{"jsonrpc":"2.0","id":13,"result":{"content":[{"type":"text","text":"input: arguments: \"top\": \"many\" is not a whole number"}],"structuredContent":{"error":"input","message":"arguments: \"top\": \"many\" is not a whole number"},"isError":true}}`},
	} {
		c.send(tc.send)
		if got := c.recv(); got != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.name, got, tc.want)
		}
		c.statusAnswers(100 + i)
	}
	if !sameFiles(testutil.Files(t, dir), before) {
		t.Error("a refused message changed the folder")
	}
}

// A 100 MB argument is refused by size, read to its end without being kept, and the
// session goes on.
func TestHundredMegabyteArgument(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 100 MB through a pipe")
	}
	dir := freshFolder(t)
	before := testutil.Files(t, dir)
	c := serve(t, dir)
	var m0, m1 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m0)
	const size = 100 << 20
	go func() {
		io.WriteString(c.in, `{"jsonrpc":"2.0","id":"big","method":"tools/call","params":{"name":"abandon","arguments":{"statement_id":"s-001","reason":"`)
		chunk := []byte(strings.Repeat("x", 1<<20))
		for range size >> 20 {
			c.in.Write(chunk)
		}
		io.WriteString(c.in, "\"}}}\n")
	}()
	got := c.recv()
	runtime.ReadMemStats(&m1)
	want := `{"jsonrpc":"2.0","id":"big","error":{"code":-32600,"message":"message too large: 104857728 bytes in one line, over referee mcp's limit of 16777216 (--max-message); nothing was done"}}`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
	// The guard keeps at most one limit's worth of a line (and append's doubling).
	if grew := m1.TotalAlloc - m0.TotalAlloc; grew > 64<<20 {
		t.Errorf("reading a 100 MB line allocated %d MB", grew>>20)
	}
	c.statusAnswers(1)
	if !sameFiles(testutil.Files(t, dir), before) {
		t.Error("the refused message changed the folder")
	}
}

// A client that sends a change and goes away before the answer: the change is made
// whole or not at all, the folder checks clean, and the next server answers and takes
// the next ID.
func TestClientDisconnectsMidCall(t *testing.T) {
	for round := range 3 {
		dir := freshFolder(t)
		inR, inW := io.Pipe()
		outR, outW := io.Pipe()
		done := make(chan error, 1)
		go func() { done <- ServeStdio(context.Background(), New(dir, Options{Now: testNow}), inR, outW, 0) }()
		io.WriteString(inW, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"leaver","version":"1"}}}`+"\n")
		line, _ := bufio.NewReader(outR).ReadString('\n')
		if !strings.Contains(line, `"id":0,"result"`) {
			t.Fatalf("initialize: %s", line)
		}
		io.WriteString(inW, `{"jsonrpc":"2.0","method":"notifications/initialized"}`+"\n")
		io.WriteString(inW, `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"prob-wrapup-statement","arguments":{"problem_id":"p-001","claim":["left behind"]}}}`+"\n")
		if round > 0 {
			time.Sleep(time.Duration(round) * time.Millisecond)
		}
		outR.Close() // stops reading: the answer cannot be delivered
		inW.Close()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Fatal("the server did not stop when its client went away")
		}
		findings, err := store.Check(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range findings {
			if f.Severity == store.SeverityError {
				t.Errorf("round %d: %s", round, f)
			}
		}
		files := testutil.Files(t, dir)
		made := strings.Count(files["history/log.jsonl"], "\n") == 2
		if _, created := files["statement/s-007.json"]; created != made || strings.Contains(files["config.json"], `"s-007"`) != made {
			t.Errorf("round %d: half a change: log %q, s-007 created %v", round, files["history/log.jsonl"], created)
		}
		t.Logf("round %d: the change was made: %v", round, made)
		// The next session answers and takes the next ID.
		c := serve(t, dir)
		c.send(`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"prob-wrapup-statement","arguments":{"problem_id":"p-001","claim":["after"]}}}`)
		want := "l-002 prob-wrapup-statement by raw-client: created s-007"
		if made {
			want = "l-003 prob-wrapup-statement by raw-client: created s-008"
		}
		if got := c.recv(); !strings.Contains(got, want) {
			t.Errorf("round %d: after the disconnect: %s, want %s", round, got, want)
		}
	}
}
