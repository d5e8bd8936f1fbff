// Package mcpserver serves a contents folder to agents as an MCP server (the Model
// Context Protocol that Claude Code speaks): every skill of the registry as a tool, with
// the same preconditions and change batches as `referee skill`, read tools (status, show,
// sentences, check, similar, log) and the objects as resources. It runs over stdio
// (ServeStdio, what .mcp.json starts) or streamable HTTP behind a bearer token
// (HTTPHandler). The protocol is the official Go SDK's; this package only maps it onto
// store.
package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"referee/skill"
	"referee/store"
)

// DefaultMaxMessage bounds one JSON-RPC message (a line on stdio, a body over HTTP):
// proofs and claims run to a few megabytes; beyond this a message is refused with an
// error naming the limit, and the server reads on.
const DefaultMaxMessage = 16 << 20

// Options configure a server.
type Options struct {
	// Actor makes every change in this name; "" takes the client's name from the MCP
	// handshake (clientInfo.name), else "agent".
	Actor string
	// Now pins the time written to the log (tests, reproducible runs); nil is the clock.
	Now func() time.Time
	// Version is the server version the handshake reports.
	Version string
	// Context, when set, makes the read tools answer from one live engine (the folder read
	// once, then followed by its watcher and its log) until it is done, instead of reading
	// the folder again per call.
	Context context.Context
}

// server answers the tools and resources of one contents folder.
type server struct {
	dir  string
	opts Options
	eng  *engine // nil: each read tool reads the folder

	split    answerCache // the sentences tool's latest answers
	shows    answerCache // show's, of statements
	statuses statusCache // status's, of the current frame

	keptCalls  atomic.Int64 // calls the stdio guard answered with a kept answer
	serverInfo []byte       // the _meta the SDK gives a result of the newer protocol
}

// New makes the MCP server of the contents folder dir. Each call answers from the folder
// as it is on disk (agents write it too, without referee): with Options.Context from a
// live engine kept up to date, else by reading it.
func New(dir string, opts Options) *mcp.Server {
	if opts.Version == "" {
		opts.Version = "dev"
	}
	s := &server{dir: dir, opts: opts}
	if opts.Context != nil {
		s.eng = startEngine(opts.Context, dir)
	}
	impl := &mcp.Implementation{Name: "referee", Version: opts.Version}
	srv := mcp.NewServer(impl, &mcp.ServerOptions{
		Instructions: instructions,
	})
	if info, err := encodeJSONText(map[string]any{mcp.MetaKeyServerInfo: impl}); err == nil {
		s.serverInfo = []byte(info)
	}
	for _, sk := range skill.Skills {
		srv.AddTool(skillTool(sk, sk.Name), s.skillHandler(sk))
		for _, alias := range sk.Aliases {
			srv.AddTool(skillTool(sk, alias), s.skillHandler(sk))
		}
	}
	s.addReadTools(srv)
	s.addResources(srv)
	srv.AddReceivingMiddleware(readResults)
	register(srv, s)
	return srv
}

const instructions = "referee keeps the proof agents' contents folder (problems, statements, the change log). " +
	"Each skill tool applies one of the agents' skills as one change batch, with the same preconditions as " +
	"`referee skill`; pass expect_version (from show) to refuse the change if the object changed since you read it. " +
	"status says what to run next; show, sentences, similar, check and log read the folder."

// options are the store options of one call: the actor is the fixed one, else the
// client's name from its handshake.
func (s *server) options(req *mcp.CallToolRequest) store.Options {
	opts := store.Options{Actor: s.opts.Actor, Now: s.opts.Now}
	if opts.Actor == "" && req != nil && req.Session != nil {
		if p := req.Session.InitializeParams(); p != nil && p.ClientInfo != nil {
			opts.Actor = strings.TrimSpace(p.ClientInfo.Name)
		}
	}
	if opts.Actor == "" {
		opts.Actor = "agent"
	}
	return opts
}

// Error kinds a tool error names, so an agent can tell them apart.
const (
	KindPrecondition = "precondition" // the object is not in a state the skill takes
	KindConflict     = "conflict"     // the object changed since the caller read it
	KindInput        = "input"        // a bad argument, or a folder that cannot take the change
	KindError        = "error"        // anything else (the folder could not be read or written)
)

// toolErrorBody is the structured content of a tool error.
type toolErrorBody struct {
	Error   string `json:"error"`
	Message string `json:"message"`
}

// toolError is err as a tool error: "<kind>: <the CLI's message>", nothing written.
func toolError(err error) *mcp.CallToolResult {
	var (
		pe *skill.PreconditionError
		ce *store.ConflictError
		ie *skill.InputError
	)
	kind := KindError
	switch {
	case errors.As(err, &pe):
		kind = KindPrecondition
	case errors.As(err, &ce):
		kind = KindConflict
	case errors.As(err, &ie):
		kind = KindInput
	}
	return &mcp.CallToolResult{
		IsError:           true,
		Content:           []mcp.Content{&mcp.TextContent{Text: kind + ": " + err.Error()}},
		StructuredContent: toolErrorBody{Error: kind, Message: err.Error()},
	}
}

// jsonResult is a read tool's answer: the value as JSON text and as structured content.
// The structured content is the value itself, which readResults writes as it is.
func jsonResult(v any) (*mcp.CallToolResult, error) {
	text, err := encodeJSONText(v)
	if err != nil {
		return nil, err
	}
	return &mcp.CallToolResult{
		Content:           []mcp.Content{&mcp.TextContent{Text: text}},
		StructuredContent: answerJSON{v: v, text: text},
	}, nil
}

// answerJSON is a read tool's value and its JSON; a kept one has its result as the SDK
// writes it too (resultJSON).
type answerJSON struct {
	v      any
	text   string
	result []byte
}

// MarshalJSON is the JSON already made, for a result that does not pass readResults.
func (a answerJSON) MarshalJSON() ([]byte, error) { return []byte(a.text), nil }

// readResult is a read tool's answer as the SDK's CallToolResult writes it, in a shape
// encoding/json writes in one pass. The SDK's result and its text content are
// json.Marshalers, and encoding/json runs what a Marshaler returns through its scanner
// again at every level (the content, the result, the JSON-RPC response): the answer's
// kilobytes were scanned three times over, and the scanner is the slowest part of a call.
type readResult struct {
	mcp.ResultBase
	Content           []textContent `json:"content"`
	StructuredContent any           `json:"structuredContent"`
	IsError           bool          `json:"isError,omitempty"`
	ResultType        string        `json:"resultType,omitempty"`
}

type textContent struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

// readResults is a receiving middleware that hands a read tool's answer to the SDK as a
// readResult. The fields other than the content (is it an error, the result type the
// client's protocol version asks for) are taken from the SDK's own encoding of the
// result without its content; a result with anything else is left as it is.
func readResults(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		r, ok := res.(*mcp.CallToolResult)
		if err != nil || !ok || len(r.Content) != 1 {
			return res, err
		}
		a, ok := r.StructuredContent.(answerJSON)
		text, ok2 := r.Content[0].(*mcp.TextContent)
		if !ok || !ok2 || text.Meta != nil || text.Annotations != nil {
			return res, err
		}
		rest := *r
		rest.Content, rest.StructuredContent = nil, nil
		data, merr := rest.MarshalJSON()
		var fields map[string]json.RawMessage
		if merr != nil || json.Unmarshal(data, &fields) != nil {
			return res, err
		}
		out := &readResult{Content: []textContent{{Type: "text", Text: text.Text}}, StructuredContent: a.v}
		for k, v := range fields {
			switch k {
			case "content":
			case "isError":
				if json.Unmarshal(v, &out.IsError) != nil {
					return res, err
				}
			case "resultType":
				if json.Unmarshal(v, &out.ResultType) != nil {
					return res, err
				}
			default:
				return res, err
			}
		}
		return out, nil
	}
}

// encodeJSONText is v as JSON, '<', '>' and '&' left as they are.
func encodeJSONText(v any) (string, error) {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return "", err
	}
	return strings.TrimSuffix(b.String(), "\n"), nil
}
