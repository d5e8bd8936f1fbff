package mcpserver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
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
func ServeStdio(ctx context.Context, srv *mcp.Server, in io.Reader, out io.Writer, maxMessage int) error {
	if maxMessage <= 0 {
		maxMessage = DefaultMaxMessage
	}
	w := &lockedWriter{w: out}
	w.cond = sync.NewCond(&w.mu)
	pr, pw := io.Pipe()
	g := &guard{in: bufio.NewReaderSize(in, 64<<10), out: w, pass: pw, max: maxMessage, pending: w}
	go func() {
		err := g.run()
		// The SDK drops the calls still running when its input ends: the end is passed
		// on only once every request read before it has been answered.
		if err == nil {
			w.drained(ctx)
		}
		pw.CloseWithError(err)
	}()
	t := &mcp.IOTransport{Reader: pr, Writer: nopCloser{w}, MaxLineLength: -1} // the guard bounds the lines
	err := srv.Run(ctx, t)
	pr.Close()
	if errors.Is(err, io.EOF) || errors.Is(err, context.Canceled) {
		return nil
	}
	return err
}

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

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	n, err := l.w.Write(p)
	if err != nil {
		l.failed = true
	}
	if key, ok := responseKey(p); ok {
		delete(l.open, key)
	} else if msg, derr := jsonrpc.DecodeMessage(bytes.TrimSpace(p)); derr == nil {
		if r, ok := msg.(*jsonrpc.Response); ok {
			delete(l.open, idKey(r.ID.Raw()))
		}
	}
	l.cond.Broadcast()
	return n, err
}

// responsePrefix is how the SDK starts every response it writes: its wire struct puts
// "jsonrpc" first, then "id", then "result" or "error".
const responsePrefix = `{"jsonrpc":"2.0","id":`

// responseKey is the idKey of a response as the SDK writes it, read from its first bytes
// and not from a decoding of the whole message (an answer runs to kilobytes); ok is
// false for anything else (a request or notification the server sends, another
// layout), which is then decoded.
func responseKey(p []byte) (key string, ok bool) {
	rest, found := bytes.CutPrefix(p, []byte(responsePrefix))
	if !found || len(rest) == 0 {
		return "", false
	}
	end := 0
	if rest[0] == '"' {
		for end = 1; end < len(rest) && rest[end] != '"'; end++ {
			if rest[end] == '\\' {
				end++
			}
		}
		if end >= len(rest) {
			return "", false
		}
		end++
	} else {
		for end < len(rest) && (rest[end] == '-' || '0' <= rest[end] && rest[end] <= '9') {
			end++
		}
	}
	tail := rest[end:]
	if !bytes.HasPrefix(tail, []byte(`,"result":`)) && !bytes.HasPrefix(tail, []byte(`,"error":`)) {
		return "", false
	}
	if rest[0] == '"' {
		var id string
		if json.Unmarshal(rest[:end], &id) != nil {
			return "", false
		}
		return idKey(id), true
	}
	n, err := strconv.ParseInt(string(rest[:end]), 10, 64)
	if err != nil {
		return "", false
	}
	return idKey(n), true
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

type nopCloser struct{ io.Writer }

func (nopCloser) Close() error { return nil }

// guard passes the well-formed JSON-RPC lines of in to the SDK and answers the others.
type guard struct {
	in      *bufio.Reader
	out     io.Writer
	pass    io.Writer
	max     int
	pending interface{ asked(id string) }
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
	call, key, plain := plainRequest(trimmed)
	if !plain {
		msg, err := jsonrpc.DecodeMessage(trimmed)
		if err != nil {
			return g.answer(idIn(trimmed), jsonrpc.CodeInvalidRequest, "invalid request: not a JSON-RPC 2.0 message: "+err.Error())
		}
		if req, ok := msg.(*jsonrpc.Request); ok && req.IsCall() {
			call, key = true, idKey(req.ID.Raw())
		}
	}
	// (A request the client cancels is answered too, with an error: the SDK does so.)
	if call && g.pending != nil {
		g.pending.asked(key)
	}
	_, err := g.pass.Write(append(trimmed, '\n'))
	return err
}

// plainLimit is the longest line plainRequest reads: beyond it the SDK's decoding costs
// less than a second pass of encoding/json's scanner.
const plainLimit = 64 << 10

// plainRequest reads a request in the shape clients send it ("jsonrpc": "2.0", an id
// that is a string or a whole number, a method, params) without jsonrpc.DecodeMessage,
// which takes two 32 KB buffers to read a line of a hundred bytes. call says it has an
// id, key is idKey of the id the SDK will read. ok is false for any other shape (other
// keys, a key twice, a fractional or long id, a line too long or too deep), which
// DecodeMessage then judges; a line read here is one DecodeMessage takes. line is valid
// JSON.
func plainRequest(line []byte) (call bool, key string, ok bool) {
	if len(line) > plainLimit || tooDeep(line, 1000) {
		return false, "", false
	}
	dec := json.NewDecoder(bytes.NewReader(line))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return false, "", false
	}
	seen := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		name, isKey := tok.(string)
		if err != nil || !isKey || seen[name] {
			return false, "", false
		}
		seen[name] = true
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return false, "", false
		}
		switch name {
		case "jsonrpc":
			if string(v) != `"2.0"` {
				return false, "", false
			}
		case "id":
			switch {
			case string(v) == "null":
			case v[0] == '"':
				var id string
				// Escapes and bytes that are not UTF-8 are left to the SDK, which decides how they read.
				if !utf8.Valid(v) || bytes.IndexByte(v, '\\') >= 0 || json.Unmarshal(v, &id) != nil {
					return false, "", false
				}
				call, key = true, idKey(id)
			default:
				// Whole numbers the SDK's float64 holds exactly.
				digits := bytes.TrimPrefix(v, []byte("-"))
				if len(digits) == 0 || len(digits) > 15 || bytes.ContainsFunc(digits, func(r rune) bool { return r < '0' || r > '9' }) {
					return false, "", false
				}
				n, err := strconv.ParseInt(string(v), 10, 64)
				if err != nil {
					return false, "", false
				}
				call, key = true, idKey(n)
			}
		case "method":
			var method string
			if v[0] != '"' || json.Unmarshal(v, &method) != nil {
				return false, "", false
			}
		case "params":
		default:
			return false, "", false
		}
	}
	if !seen["jsonrpc"] || !seen["method"] {
		return false, "", false
	}
	return call, key, true
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
