package mcpserver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"sync"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// ServeStdio runs srv over newline-delimited JSON-RPC on in and out until in ends or ctx
// is done. The SDK's own stdio transport ends the session at the first line it cannot
// read (malformed JSON, a message that is no JSON-RPC, a line over its limit); here a
// guard reads the lines first and answers a bad one with a JSON-RPC error naming what is
// wrong, so the session goes on. A line longer than maxMessage bytes (0:
// DefaultMaxMessage) is skipped to its end without being kept in memory.
//
// The guard hands the SDK the messages it has read (stdioConn), not their lines again,
// and a response is written as the SDK's encoding writes it, without that encoding's
// second pass over the result: a read tool's answer is kilobytes, and decoding each line
// twice and scanning each answer again cost more than the answer itself. A call for an
// answer the server keeps is answered by the guard itself (see kept.go).
func ServeStdio(ctx context.Context, srv *mcp.Server, in io.Reader, out io.Writer, maxMessage int) error {
	if maxMessage <= 0 {
		maxMessage = DefaultMaxMessage
	}
	w := &lockedWriter{w: out}
	w.cond = sync.NewCond(&w.mu)
	conn := &stdioConn{msgs: make(chan jsonrpc.Message), end: make(chan struct{}), closed: make(chan struct{}), out: w}
	g := &guard{in: bufio.NewReaderSize(in, 64<<10), out: w, pass: conn.pass, max: maxMessage, pending: w}
	session := &sessionOf{}
	if s := serverOf(srv); s != nil && s.eng != nil {
		conn.metas = &metaMemo{}
		g.kept = func(req *jsonrpc.Request) (bool, error) {
			version, ok := session.protocol()
			if !ok {
				return false, nil
			}
			buf := linePool.Get().(*[]byte)
			defer linePool.Put(buf)
			line, ok := s.keptCall(ctx, (*buf)[:0], req, version >= protocol20260728, conn.metas)
			if cap(line) <= 1<<20 {
				*buf = line
			}
			if !ok {
				return false, nil
			}
			return true, w.write(line, "")
		}
	}
	go func() {
		err := g.run()
		// The SDK drops the calls still running when its input ends: the end is passed
		// on only once every request read before it has been answered.
		if err == nil {
			w.drained(ctx)
			err = io.EOF
		}
		conn.endErr = err
		close(conn.end)
	}()
	err := run(ctx, srv, stdioTransport{conn}, session)
	conn.Close()
	if errors.Is(err, io.EOF) || errors.Is(err, context.Canceled) {
		return nil
	}
	return err
}

// run is srv.Run, with the session made known to the guard.
func run(ctx context.Context, srv *mcp.Server, t mcp.Transport, session *sessionOf) error {
	ss, err := srv.Connect(ctx, t, nil)
	if err != nil {
		return err
	}
	session.ss.Store(ss)
	closed := make(chan error, 1)
	go func() { closed <- ss.Wait() }()
	select {
	case <-ctx.Done():
		ss.Close()
		<-closed
		return ctx.Err()
	case err := <-closed:
		return err
	}
}

// stdioTransport connects the SDK to the guard's messages, once.
type stdioTransport struct{ conn *stdioConn }

func (t stdioTransport) Connect(context.Context) (mcp.Connection, error) { return t.conn, nil }

// stdioConn is the SDK's connection over stdio: it reads the messages the guard passes
// on and writes the SDK's messages as lines.
type stdioConn struct {
	msgs      chan jsonrpc.Message
	end       chan struct{} // closed when the guard is done, endErr set
	endErr    error
	closed    chan struct{}
	closeOnce sync.Once
	out       *lockedWriter
	metas     *metaMemo // nil: no kept answers
}

// pass hands msg to the SDK, or drops it once the connection is closed.
func (c *stdioConn) pass(msg jsonrpc.Message) error {
	select {
	case c.msgs <- msg:
		return nil
	case <-c.closed:
		return io.ErrClosedPipe
	}
}

func (c *stdioConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	default:
	}
	select {
	case <-ctx.Done():
		return nil, ctx.Err()
	case msg := <-c.msgs:
		return msg, nil
	case <-c.end:
		return nil, c.endErr
	case <-c.closed:
		return nil, io.EOF
	}
}

func (c *stdioConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	select {
	case <-ctx.Done():
		return ctx.Err()
	default:
	}
	r, isResponse := msg.(*jsonrpc.Response)
	buf := linePool.Get().(*[]byte)
	defer linePool.Put(buf)
	data, err := appendMessage((*buf)[:0], msg)
	if err != nil {
		return fmt.Errorf("marshaling message: %v", err)
	}
	if cap(data) <= 1<<20 { // a large one is left to the collector
		*buf = data
	}
	key := ""
	if isResponse {
		key = idKey(r.ID.Raw())
		if c.metas != nil {
			c.metas.answered(key, r.Error == nil)
		}
	}
	return c.out.write(data, key)
}

// linePool holds the buffers lines are written from: an answer is written and done with.
var linePool = sync.Pool{New: func() any { return new([]byte) }}

func (c *stdioConn) Close() error {
	c.closeOnce.Do(func() { close(c.closed) })
	return nil
}

func (c *stdioConn) SessionID() string { return "" }

// appendMessage appends msg as a line to data, exactly as jsonrpc.EncodeMessage writes
// it. A response with a result is put together here: EncodeMessage would run its
// result, JSON that encoding/json wrote and so already compact, through encoding/json's
// scanner again.
func appendMessage(data []byte, msg jsonrpc.Message) ([]byte, error) {
	r, ok := msg.(*jsonrpc.Response)
	if ok && r.Error == nil && len(r.Result) > 0 && r.ID.IsValid() {
		start := len(data)
		data = append(data, responsePrefix...)
		if data, ok = appendID(data, r.ID); ok {
			data = append(data, `,"result":`...)
			data = append(data, r.Result...)
			return append(data, "}\n"...), nil
		}
		data = data[:start]
	}
	line, err := jsonrpc.EncodeMessage(msg)
	if err != nil {
		return nil, err
	}
	data = append(data, line...)
	return append(data, '\n'), nil
}

// appendID appends id as the SDK's encoding writes it; ok is false for an id it does
// not hold (neither a whole number nor a string).
func appendID(data []byte, id jsonrpc.ID) ([]byte, bool) {
	switch id := id.Raw().(type) {
	case int64:
		return strconv.AppendInt(data, id, 10), true
	case string:
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		if enc.Encode(id) != nil {
			return data, false
		}
		return append(data, bytes.TrimSuffix(b.Bytes(), []byte("\n"))...), true
	}
	return data, false
}

// responsePrefix is how the SDK's encoding starts a response: its wire struct puts
// "jsonrpc" first, then "id", then "result" or "error".
const responsePrefix = `{"jsonrpc":"2.0","id":`

// lockedWriter keeps the guard's answers and the SDK's from interleaving: each writes a
// whole line in one Write. It keeps the ids of the requests passed to the SDK and not
// answered yet.
type lockedWriter struct {
	mu     sync.Mutex
	cond   *sync.Cond
	w      io.Writer
	open   map[string]bool
	failed bool
}

// Write writes the guard's own answers (to lines never passed to the SDK).
func (l *lockedWriter) Write(p []byte) (int, error) {
	if err := l.write(p, ""); err != nil {
		return 0, err
	}
	return len(p), nil
}

// write writes a line; key, if not "", is the idKey of the request it answers.
func (l *lockedWriter) write(p []byte, key string) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	_, err := l.w.Write(p)
	if err != nil {
		l.failed = true
	}
	if key != "" {
		delete(l.open, key)
	}
	l.cond.Broadcast()
	return err
}

// asked notes a request passed to the SDK (a notification is answered by nothing).
func (l *lockedWriter) asked(id string) {
	l.mu.Lock()
	if l.open == nil {
		l.open = map[string]bool{}
	}
	l.open[id] = true
	l.mu.Unlock()
}

// idKey is a request id as a map key: "s:" and a string, or "n:" and a number.
func idKey(raw any) string {
	switch v := raw.(type) {
	case string:
		return "s:" + v
	case int64:
		return "n:" + strconv.FormatInt(v, 10)
	case float64:
		return "n:" + strconv.FormatFloat(v, 'f', -1, 64)
	case json.Number:
		return "n:" + v.String()
	}
	return fmt.Sprint(raw)
}

// drained waits until every request passed on has its response, the output fails or
// ctx is done.
func (l *lockedWriter) drained(ctx context.Context) {
	stop := context.AfterFunc(ctx, func() {
		l.mu.Lock()
		l.cond.Broadcast()
		l.mu.Unlock()
	})
	defer stop()
	l.mu.Lock()
	defer l.mu.Unlock()
	for len(l.open) > 0 && !l.failed && ctx.Err() == nil {
		l.cond.Wait()
	}
}

// guard passes the well-formed JSON-RPC lines of in to the SDK and answers the others.
type guard struct {
	in      *bufio.Reader
	out     io.Writer
	pass    func(jsonrpc.Message) error
	max     int
	pending interface{ asked(id string) }
	// kept, if set, answers a plain request itself (a kept answer, see kept.go), or
	// says it did not.
	kept func(*jsonrpc.Request) (answered bool, err error)
}

// idPrefix is how much of an over-long line is kept to find the request's id in.
const idPrefix = 64 << 10

func (g *guard) run() error {
	var line []byte
	for {
		line = line[:0]
		size, tooLong := 0, false
		var err error
		for {
			var chunk []byte
			chunk, err = g.in.ReadSlice('\n')
			size += len(chunk)
			switch {
			case size <= g.max:
				line = appendDoubling(line, chunk)
			case len(line) < idPrefix:
				line = append(line, chunk[:min(len(chunk), idPrefix-len(line))]...)
			}
			if size > g.max {
				tooLong = true
			}
			if !errors.Is(err, bufio.ErrBufferFull) {
				break
			}
		}
		if len(bytes.TrimSpace(line)) > 0 {
			if werr := g.line(line, size, tooLong); werr != nil {
				return werr
			}
		}
		if err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
	}
}

// line passes one line on, or answers it with an error.
func (g *guard) line(line []byte, size int, tooLong bool) error {
	if tooLong {
		return g.answer(idIn(line[:min(len(line), idPrefix)]), jsonrpc.CodeInvalidRequest, fmt.Sprintf(
			"message too large: %d bytes in one line, over referee mcp's limit of %d (--max-message); nothing was done", size, g.max))
	}
	trimmed := bytes.TrimSpace(line)
	if !json.Valid(trimmed) {
		var v any
		err := json.Unmarshal(trimmed, &v)
		return g.answer(idIn(trimmed), jsonrpc.CodeParseError, "parse error: the line is not valid JSON: "+err.Error())
	}
	if trimmed[0] == '[' {
		return g.answer(nil, jsonrpc.CodeInvalidRequest, "invalid request: JSON-RPC batches are not taken; send one message per line")
	}
	req, key, plain := plainRequest(trimmed)
	if plain && g.kept != nil && key != "" && req.Method == "tools/call" {
		if answered, err := g.kept(req); answered || err != nil {
			return err
		}
	}
	var msg jsonrpc.Message = req
	if !plain {
		m, err := jsonrpc.DecodeMessage(trimmed)
		if err != nil {
			return g.answer(idIn(trimmed), jsonrpc.CodeInvalidRequest, "invalid request: not a JSON-RPC 2.0 message: "+err.Error())
		}
		if req, ok := m.(*jsonrpc.Request); ok && req.IsCall() {
			key = idKey(req.ID.Raw())
		}
		msg = m
	}
	// (A request the client cancels is answered too, with an error: the SDK does so.)
	if key != "" && g.pending != nil {
		g.pending.asked(key)
	}
	return g.pass(msg)
}

// plainLimit is the longest line plainRequest reads: beyond it the SDK's decoding costs
// less than a second pass of encoding/json's scanner.
const plainLimit = 64 << 10

// plainRequest reads a request in the shape clients send it ("jsonrpc": "2.0", an id
// that is a string or a whole number, a method, params that are an object) without
// jsonrpc.DecodeMessage, which takes two 32 KB buffers to read a line of a hundred
// bytes. The request is the one DecodeMessage makes of line; key is idKey of its id, ""
// for a notification. ok is false for any other shape (other keys, a key twice, a
// fractional or long id, escapes, a line too long or too deep), which DecodeMessage then
// judges. line is valid JSON.
func plainRequest(line []byte) (req *jsonrpc.Request, key string, ok bool) {
	if len(line) > plainLimit || tooDeep(line, 1000) {
		return nil, "", false
	}
	dec := json.NewDecoder(bytes.NewReader(line))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, "", false
	}
	req = &jsonrpc.Request{}
	var seen [4]bool // jsonrpc, id, method, params
	for dec.More() {
		tok, err := dec.Token()
		name, isKey := tok.(string)
		i := slices.Index([]string{"jsonrpc", "id", "method", "params"}, name)
		if err != nil || !isKey || i < 0 || seen[i] {
			return nil, "", false
		}
		seen[i] = true
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, "", false
		}
		switch name {
		case "jsonrpc":
			if string(v) != `"2.0"` {
				return nil, "", false
			}
		case "id":
			switch {
			case string(v) == "null":
			case v[0] == '"':
				var id string
				// Escapes and bytes that are not UTF-8 are left to the SDK, which decides how they read.
				if !utf8.Valid(v) || bytes.IndexByte(v, '\\') >= 0 || json.Unmarshal(v, &id) != nil {
					return nil, "", false
				}
				if req.ID, err = jsonrpc.MakeID(id); err != nil {
					return nil, "", false
				}
				key = idKey(id)
			default:
				// Whole numbers the SDK's float64 holds exactly.
				digits := bytes.TrimPrefix(v, []byte("-"))
				if len(digits) == 0 || len(digits) > 15 || bytes.ContainsFunc(digits, func(r rune) bool { return r < '0' || r > '9' }) {
					return nil, "", false
				}
				n, err := strconv.ParseInt(string(v), 10, 64)
				if err != nil {
					return nil, "", false
				}
				if req.ID, err = jsonrpc.MakeID(float64(n)); err != nil {
					return nil, "", false
				}
				key = idKey(n)
			}
		case "method":
			if v[0] != '"' || !utf8.Valid(v) || bytes.IndexByte(v, '\\') >= 0 || json.Unmarshal(v, &req.Method) != nil {
				return nil, "", false
			}
		case "params":
			if v[0] != '{' {
				return nil, "", false
			}
			req.Params = v
		}
	}
	if !seen[0] || !seen[2] || req.Method == "" {
		return nil, "", false
	}
	return req, key, true
}

// tooDeep says data nests objects and arrays more than most deep, as the SDK's decoder
// counts them.
func tooDeep(data []byte, most int) bool {
	depth, inString, escaped := 0, false, false
	for _, b := range data {
		switch {
		case inString && escaped:
			escaped = false
		case inString:
			escaped, inString = b == '\\', b != '"'
		case b == '"':
			inString = true
		case b == '{' || b == '[':
			if depth++; depth > most {
				return true
			}
		case b == '}' || b == ']':
			depth = max(depth-1, 0)
		}
	}
	return false
}

// answer writes a JSON-RPC error response (id null when the id could not be read).
func (g *guard) answer(id json.RawMessage, code int, msg string) error {
	if id == nil {
		id = json.RawMessage("null")
	}
	data, err := json.Marshal(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Error   jsonrpc.Error   `json:"error"`
	}{"2.0", id, jsonrpc.Error{Code: int64(code), Message: msg}})
	if err != nil {
		return err
	}
	_, err = g.out.Write(append(data, '\n'))
	return err
}

// idIn finds the "id" of a message from its start, which may be cut short or broken
// further on: a request's id usually comes before its params. It returns nil if the
// id cannot be read.
func idIn(data []byte) json.RawMessage {
	dec := json.NewDecoder(bytes.NewReader(data))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil
	}
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return nil
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil
		}
		if key == "id" {
			// JSON-RPC ids are strings or whole numbers.
			var str string
			var n int64
			if json.Unmarshal(v, &str) == nil || json.Unmarshal(v, &n) == nil {
				return v
			}
			return nil
		}
	}
	return nil
}

// appendDoubling is append that doubles the capacity when it grows: append grows a large
// slice by a quarter at a time, which copies a 16 MB line some 80 MB over.
func appendDoubling(line, chunk []byte) []byte {
	if need := len(line) + len(chunk); need > cap(line) {
		grown := make([]byte, len(line), max(2*cap(line), need, 4096))
		copy(grown, line)
		line = grown
	}
	return append(line, chunk...)
}
