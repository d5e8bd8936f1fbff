package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"
	"weak"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"referee/model"
	"referee/store"
)

// A kept answer answered over stdio without the SDK.
//
// An agent asks `show` or `sentences` about the statement it works on again and again,
// and the answer is kept (answerCache). Through the SDK such a call still decoded its
// params twice (a 32 KB buffer each), encoded the result by reflection and left some
// 80 KB of garbage; at 100k statements that garbage brings a collection that marks the
// whole folder every second or two. So the stdio guard answers a call in the plain shape
// an agent sends — tools/call of show or sentences, the one id argument a plain string,
// no _meta, from a session the SDK has initialized — with the kept answer's finished
// bytes, the same bytes the SDK would write (TestKeptAnswersAsTheSDKWritesThem). Every
// other message, and such a call whose answer is not kept, goes to the SDK as before.

// servers maps an *mcp.Server made by New to its server, for ServeStdio.
var servers sync.Map // weak.Pointer[mcp.Server] → *server

func register(srv *mcp.Server, s *server) {
	k := weak.Make(srv)
	servers.Store(k, s)
	runtime.AddCleanup(srv, func(k weak.Pointer[mcp.Server]) { servers.Delete(k) }, k)
}

func serverOf(srv *mcp.Server) *server {
	if v, ok := servers.Load(weak.Make(srv)); ok {
		return v.(*server)
	}
	return nil
}

// protocol20260728 is the first protocol version whose results the SDK gives a result type.
const protocol20260728 = "2026-07-28"

// keptTools are the read tools whose answers are kept, with their one parameter (status:
// none, its default limit).
var keptTools = map[string]string{"show": "id", "sentences": "statement_id", "status": ""}

// keptCall appends to dst the response line to req if it is a plain call of a kept tool
// whose answer is kept now; ok is false if not. newer says the session's protocol is 2026-07-28 or later, whose
// results the SDK marks complete. A call that carries the newer protocol's _meta (the
// Go SDK's client sends it on every request) is answered only with a _meta the SDK took
// before in this session (metas); one not taken yet is noted for metas to follow.
func (s *server) keptCall(ctx context.Context, dst []byte, req *jsonrpc.Request, newer bool, metas *metaMemo) (line []byte, ok bool) {
	tool, id, meta, ok := plainCall(req.Params)
	if !ok {
		return dst, false
	}
	if meta != nil && !metas.taken(meta) {
		metas.asked(idKey(req.ID.Raw()), meta)
		return dst, false
	}
	a, ok := s.kept(ctx, tool, id)
	if !ok || a.result == nil {
		return dst, false
	}
	var info []byte
	if meta != nil {
		info = s.serverInfo
	}
	if line, ok = appendResponse(dst, req.ID, a.result, info, newer); !ok {
		return dst, false
	}
	s.keptCalls.Add(1)
	return line, true
}

// metaKeys are the keys of the _meta a request of the newer protocol carries, which the
// SDK reads for itself (the version, the client's capabilities and name), and no other.
var metaKeys = []string{mcp.MetaKeyProtocolVersion, mcp.MetaKeyClientCapabilities, mcp.MetaKeyClientInfo}

// plainCall reads tools/call params of exactly {"name": tool, "arguments": {param: id}}
// for a kept tool and its parameter, strings without escapes, id a statement's ID (for
// status, arguments null or {}), and perhaps a "_meta" of metaKeys only (returned as it
// is written).
func plainCall(params json.RawMessage) (tool, id string, meta json.RawMessage, ok bool) {
	var p struct{ name, args json.RawMessage }
	if !eachMember(params, func(k string, v json.RawMessage) bool {
		switch {
		case k == "name" && p.name == nil:
			p.name = v
			name, ok := plainString(v)
			_, known := keptTools[name]
			return ok && known // a skill's call ends here, before its arguments are read
		case k == "arguments" && p.args == nil:
			p.args = v
		case k == "_meta" && meta == nil:
			meta = v
			return eachMember(v, func(k string, _ json.RawMessage) bool { return slices.Contains(metaKeys, k) })
		default:
			return false
		}
		return true
	}) || p.name == nil || p.args == nil {
		return "", "", nil, false
	}
	tool, ok = plainString(p.name)
	param, known := keptTools[tool]
	if !ok || !known {
		return "", "", nil, false
	}
	if param == "" { // no arguments: null or {}
		return tool, "", meta, string(p.args) == "null" || eachMember(p.args, func(string, json.RawMessage) bool { return false })
	}
	n := 0
	if !eachMember(p.args, func(k string, v json.RawMessage) bool {
		n++
		id, ok = plainString(v)
		return k == param && ok
	}) || n != 1 {
		return "", "", nil, false
	}
	if model.CheckID(id, model.KindStatement) != nil || strings.TrimSpace(id) != id {
		return "", "", nil, false
	}
	return tool, id, meta, true
}

// metaMemo follows which _meta the SDK took in a session: one it answered a call with a
// result for (not an error) is valid (a supported version, capabilities and a client it
// reads), and stays so, as the same bytes always read the same.
type metaMemo struct {
	mu      sync.Mutex
	pending map[string]json.RawMessage // by idKey of a call passed to the SDK
	ok      []json.RawMessage
}

const (
	metaPendingMost = 64 // calls followed at once
	metaTakenMost   = 4  // a client sends one _meta; a few kept
)

func (m *metaMemo) taken(meta json.RawMessage) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.ContainsFunc(m.ok, func(k json.RawMessage) bool { return bytes.Equal(k, meta) })
}

// asked notes a call with meta passed to the SDK.
func (m *metaMemo) asked(key string, meta json.RawMessage) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.pending == nil {
		m.pending = map[string]json.RawMessage{}
	}
	if _, twice := m.pending[key]; twice { // an id used twice at once: which answer is whose is unclear
		m.pending[key] = nil
		return
	}
	if len(m.pending) < metaPendingMost && len(m.ok) < metaTakenMost {
		m.pending[key] = bytes.Clone(meta)
	}
}

// answered notes the SDK's response to the call key: result says it is no error.
func (m *metaMemo) answered(key string, result bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	meta, ok := m.pending[key]
	if !ok {
		return
	}
	delete(m.pending, key)
	if result && meta != nil && len(m.ok) < metaTakenMost && !slices.ContainsFunc(m.ok, func(k json.RawMessage) bool { return bytes.Equal(k, meta) }) {
		m.ok = append(m.ok, meta)
	}
}

// eachMember calls f with each member of the object data (its key as it reads), until
// f returns false; it is false if data is no such object or f said no.
func eachMember(data json.RawMessage, f func(key string, v json.RawMessage) bool) bool {
	dec := json.NewDecoder(bytes.NewReader(data))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return false
	}
	for dec.More() {
		tok, err := dec.Token()
		key, ok := tok.(string)
		var v json.RawMessage
		if err != nil || !ok || dec.Decode(&v) != nil || !f(key, v) {
			return false
		}
	}
	return true
}

// plainString is the JSON string v if it has no escapes and is UTF-8.
func plainString(v json.RawMessage) (string, bool) {
	if len(v) < 2 || v[0] != '"' || v[len(v)-1] != '"' || bytes.IndexByte(v, '\\') >= 0 || !utf8.Valid(v) {
		return "", false
	}
	for _, b := range v[1 : len(v)-1] {
		if b < 0x20 || b == '"' {
			return "", false
		}
	}
	return string(v[1 : len(v)-1]), true
}

// kept is the answer kept for tool about statement id in the current frame, if any; it
// looks as the tool itself looks (readTools), and waits for nothing: while a batch is
// being applied the call goes to the SDK, whose handler waits on its own goroutine.
func (s *server) kept(ctx context.Context, tool, id string) (answerJSON, bool) {
	if s.eng == nil || !s.eng.ready() {
		return answerJSON{}, false
	}
	if tool == "status" { // which reads the frame alone
		f, ok, err := s.eng.frameNow()
		if !ok || err != nil {
			return answerJSON{}, false
		}
		return s.statuses.get(f, defaultStatusLimit)
	}
	if store.RefuseLinks(s.dir) != nil {
		return answerJSON{}, false
	}
	f, ok, err := s.eng.frameNow()
	if !ok || err != nil {
		return answerJSON{}, false
	}
	snap := f.Snapshot()
	st := snap.Statements.Get(id)
	if st == nil {
		return answerJSON{}, false
	}
	switch tool {
	case "show":
		return s.shows.get(id, st, showKey(snap, f.Graph, id))
	case "sentences":
		return s.split.get(id, st, snap.Versions.Get(id))
	}
	return answerJSON{}, false
}

// resultJSON is the result the SDK writes for a read tool's answer (readResults hands it
// a readResult), without the result type.
func resultJSON(text string) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false) // as the SDK's encoding of a response
	if err := enc.Encode(readResult{Content: []textContent{{Type: "text", Text: text}}, StructuredContent: json.RawMessage(text)}); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// appendResponse appends the response line to id with result, as appendMessage writes
// it; info, if not nil, is the result's _meta (the server's name, which the SDK adds to
// the answer to a request of the newer protocol); newer adds the result type the SDK
// gives a result for a session of the newer protocol.
func appendResponse(data []byte, id jsonrpc.ID, result, info []byte, newer bool) ([]byte, bool) {
	start := len(data)
	data = append(data, responsePrefix...)
	data, ok := appendID(data, id)
	if !ok {
		return data[:start], false
	}
	data = append(data, `,"result":`...)
	if info != nil {
		data = append(data, `{"_meta":`...)
		data = append(data, info...)
		data = append(data, ',')
		result = result[1:]
	}
	if newer {
		data = append(data, result[:len(result)-1]...)
		data = append(data, `,"resultType":"complete"}`...)
	} else {
		data = append(data, result...)
	}
	return append(data, "}\n"...), true
}

// sessionOf follows the SDK's session over stdio, for the guard's kept answers.
type sessionOf struct {
	ss atomic.Pointer[mcp.ServerSession]
}

// protocol is the protocol version the client asked for in its initialize; ok is false
// before the SDK has taken the initialize.
func (o *sessionOf) protocol() (version string, ok bool) {
	ss := o.ss.Load()
	if ss == nil {
		return "", false
	}
	if p := ss.InitializeParams(); p != nil {
		return p.ProtocolVersion, true
	}
	return "", false
}
