package mcpserver

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"referee/model"
	"referee/model/pyjson"
	"referee/model/similar"
	"referee/skill"
	"referee/store"
)

// readTool is a tool that reads the folder and writes nothing.
type readTool struct {
	name, desc string
	params     []readParam
	run        func(ctx context.Context, s *server, a readArgs) (any, error)
}

type readParam struct {
	name     string
	kind     string // "string" or "integer"
	required bool
	help     string
}

// readArgs are a read tool's arguments by name: strings and whole numbers.
type readArgs struct {
	strs map[string]string
	ints map[string]int
}

var readTools = []readTool{
	{
		name: "status",
		desc: "What the orchestrator would run next (agent, object, depth, how much of the root it blocks; the first `limit`, " +
			"what holds up the most first), the status counts of statements and problems, and the trouble spots: what " +
			"`referee status --output json` prints, with next_total and next_left_out saying how many were left out.",
		params: []readParam{{name: "limit", kind: "integer", help: "how many of the next pieces of work to list (default 50)"}},
		run: func(ctx context.Context, s *server, a readArgs) (any, error) {
			limit := a.ints["limit"]
			if limit == 0 {
				limit = defaultStatusLimit
			}
			if s.eng == nil {
				snap, err := load(store.LoadNoLog, s.dir)
				if err != nil {
					return nil, err
				}
				return statusOf(store.StatusOf(snap, model.Derive(snap)), limit), nil
			}
			f, err := s.eng.frame(ctx)
			if err != nil {
				return nil, &skill.InputError{Msg: err.Error()}
			}
			// The answer is kept while the frame is the same (see statusCache).
			if kept, ok := s.statuses.get(f, limit); ok {
				return kept, nil
			}
			kept, err := keptAnswer(statusOf(s.eng.statusOf(f), limit))
			if err != nil {
				return nil, err
			}
			s.statuses.put(f, limit, kept)
			return kept, nil
		},
	},
	{
		name: "show",
		desc: "An object (problem p-NNN, statement s-NNN, experience e-NNN, or a change l-NNN from the log) as its file holds it, " +
			"with its version (pass it as expect_version to a skill), its phase and, for a statement, its issue threads.",
		params: []readParam{{name: "id", kind: "string", required: true, help: "the object's ID, e.g. s-007"}},
		run:    func(ctx context.Context, s *server, a readArgs) (any, error) { return s.showAnswer(ctx, a.strs["id"]) },
	},
	{
		name: "sentences",
		desc: "A statement's proof split into numbered sentences, as the checker counts them " +
			"(the sentence_number and sentence_text of check-reject-proof).",
		params: []readParam{{name: "statement_id", kind: "string", required: true, help: "the statement, e.g. s-007"}},
		run: func(ctx context.Context, s *server, a readArgs) (any, error) {
			return s.sentences(ctx, a.strs["statement_id"])
		},
	},
	{
		name: "check",
		desc: "Lint the contents folder: every finding with its severity (error or warning), file, object and message, " +
			"as `referee check --output json`.",
		run: func(_ context.Context, s *server, _ readArgs) (any, error) {
			findings, err := store.Check(s.dir)
			if err != nil {
				return nil, err
			}
			errs := 0
			for _, f := range findings {
				if f.Severity == store.SeverityError {
					errs++
				}
			}
			if findings == nil {
				findings = []store.Finding{}
			}
			return map[string]any{"errors": errs, "warnings": len(findings) - errs, "findings": findings}, nil
		},
	},
	{
		name: "similar",
		desc: "The statements whose claims are most like this one's, with their scores, and the settled statements it repeats (re-treads).",
		params: []readParam{
			{name: "statement_id", kind: "string", required: true, help: "the statement, e.g. s-017"},
			{name: "top", kind: "integer", help: "how many statements to list (default 5)"},
		},
		run: func(ctx context.Context, s *server, a readArgs) (any, error) {
			return s.similar(ctx, a.strs["statement_id"], a.ints["top"])
		},
	},
	{
		name: "log",
		desc: "The changes of the log, oldest first (time, actor, skill, objects created, modified and deleted, with their statuses " +
			"before and after), all of them or those after a change ID: what `referee log --output json` prints.",
		params: []readParam{
			{name: "since", kind: "string", help: "list only the changes after this one (e.g. l-012)"},
			{name: "object", kind: "string", help: "only changes that created, modified or deleted this object"},
		},
		run: func(ctx context.Context, s *server, a readArgs) (any, error) {
			return s.log(ctx, a.strs["since"], a.strs["object"])
		},
	},
}

// defaultStatusLimit is how many next pieces of work the status tool lists unless asked:
// an agent acts on the first few, and at 100k statements the whole list is megabytes.
const defaultStatusLimit = 50

// statusOf is the status tool's answer: st with its first limit pieces of work.
func statusOf(st *store.Status, limit int) statusAnswer {
	out := statusAnswer{Status: *st, NextTotal: len(st.Next)}
	if len(st.Next) > limit {
		out.Next, out.NextLeftOut = st.Next[:limit], len(st.Next)-limit
	}
	return out
}

// statusAnswer is the status tool's answer: the status with the first pieces of work.
type statusAnswer struct {
	store.Status
	NextTotal   int `json:"next_total"`
	NextLeftOut int `json:"next_left_out"`
}

func (s *server) addReadTools(srv *mcp.Server) {
	notOpenWorld := false
	for _, rt := range readTools {
		props := map[string]any{}
		required := []string{}
		for _, p := range rt.params {
			schema := map[string]any{"type": p.kind, "description": p.help}
			if p.kind == "integer" {
				schema["minimum"] = 1
			}
			props[p.name] = schema
			if p.required {
				required = append(required, p.name)
			}
		}
		tool := &mcp.Tool{
			Name: rt.name, Description: rt.desc,
			InputSchema: map[string]any{"type": "object", "properties": props, "required": required, "additionalProperties": false},
			Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: &notOpenWorld},
		}
		srv.AddTool(tool, func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			a, err := rt.args(req.Params.Arguments)
			if err != nil {
				return toolError(err), nil
			}
			v, err := rt.run(ctx, s, a)
			if err != nil {
				return toolError(err), nil
			}
			if a, ok := v.(answerJSON); ok { // its JSON made already
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: a.text}}, StructuredContent: a}, nil
			}
			return jsonResult(v)
		})
	}
}

// args reads a read tool's arguments: known names only, of the right type.
func (rt readTool) args(raw json.RawMessage) (readArgs, error) {
	a := readArgs{strs: map[string]string{}, ints: map[string]int{}}
	doc, err := arguments(raw)
	if err != nil {
		return a, err
	}
	for _, m := range doc.Obj {
		i := slices.IndexFunc(rt.params, func(p readParam) bool { return p.name == m.Key })
		if i < 0 {
			return a, inputf("arguments: %s has no parameter %q", rt.name, m.Key)
		}
		if m.Value.Kind == pyjson.Null {
			continue
		}
		switch rt.params[i].kind {
		case "integer":
			n, err := skill.WholeNumber(m.Value)
			if err != nil {
				return a, inputf("arguments: %q: %v", m.Key, err)
			}
			if n < 1 {
				return a, inputf("arguments: %q: %d is not a positive number", m.Key, n)
			}
			a.ints[m.Key] = n
		default:
			if m.Value.Kind != pyjson.String {
				return a, inputf("arguments: %q must be a string, found a %s", m.Key, m.Value.Kind)
			}
			a.strs[m.Key] = strings.TrimSpace(m.Value.Str)
		}
	}
	for _, p := range rt.params {
		if _, ok := a.strs[p.name]; p.required && !ok {
			return a, inputf("%s needs %q (%s)", rt.name, p.name, p.help)
		}
	}
	return a, nil
}

func inputf(format string, args ...any) error {
	return &skill.InputError{Msg: fmt.Sprintf(format, args...)}
}

// current is the folder as the read tools answer from it: the engine's frame, up to date
// with the log, or (a server without an engine) the folder read now. graph derives the
// graph only when asked, for the latter.
func (s *server) current(ctx context.Context) (snap *model.Snapshot, graph func() *model.Graph, err error) {
	// A folder of the contents that is a link is refused, as a change would be, not read
	// as empty.
	if err := store.RefuseLinks(s.dir); err != nil {
		return nil, nil, &skill.InputError{Msg: err.Error()}
	}
	if s.eng != nil {
		f, err := s.eng.frame(ctx)
		if err != nil {
			return nil, nil, &skill.InputError{Msg: err.Error()}
		}
		return f.Snapshot(), f.Graph, nil
	}
	snap, err = load(store.Load, s.dir)
	if err != nil {
		return nil, nil, err
	}
	return snap, sync.OnceValue(func() *model.Graph { return model.Derive(snap) }), nil
}

// answer runs read on the current folder. A statement's proof is read from its file when
// first needed; when that file changed since (an edit the watcher has not brought yet),
// it is read again and read retried, once.
func answer[T any](ctx context.Context, s *server, read func(*model.Snapshot, func() *model.Graph) (T, error)) (T, error) {
	snap, graph, err := s.current(ctx)
	if err != nil {
		var zero T
		return zero, err
	}
	out, err := read(snap, graph)
	var changed *model.ChangedError
	if s.eng != nil && errors.As(err, &changed) {
		s.eng.reread(changed.Path)
		if snap, graph, err = s.current(ctx); err != nil {
			return out, err
		}
		out, err = read(snap, graph)
	}
	return out, err
}

// load reads the folder; one it cannot read is bad input, as in the CLI.
func load(loader func(string) (*model.Snapshot, error), dir string) (*model.Snapshot, error) {
	snap, err := loader(dir)
	if err != nil {
		return nil, &skill.InputError{Msg: err.Error()}
	}
	return snap, nil
}

// shown is an object as the show tool returns it: `referee show --output json`, with
// a statement's issue threads.
type shown struct {
	ID      string          `json:"id"`
	Version string          `json:"version,omitempty"`
	Phase   string          `json:"phase,omitempty"`
	Line    int             `json:"line,omitempty"` // a change: its line in the log
	Object  json.RawMessage `json:"object"`
	Threads []thread        `json:"threads,omitempty"`
	Stray   []response      `json:"stray_responses,omitempty"`
}

type thread struct {
	Issue     issue      `json:"issue"`
	Responses []response `json:"responses"`
}

type issue struct {
	Number       int    `json:"number"`
	Sentence     int    `json:"sentence"`
	SentenceText string `json:"sentence_text"`
	ErrorType    string `json:"error_type"`
	Explanation  string `json:"explanation"`
	Fix          string `json:"fix"`
	Raw          string `json:"raw"`
	Problem      string `json:"does_not_parse,omitempty"`
}

type response struct {
	Number         int    `json:"number"`
	Fixes          int    `json:"fixes"`
	Type           string `json:"type"`
	Change         string `json:"change,omitempty"`
	SubID          string `json:"sub_id,omitempty"`
	Purpose        string `json:"purpose,omitempty"`
	Counterexample string `json:"counterexample,omitempty"`
	ModType        string `json:"mod_type,omitempty"`
	Proposal       string `json:"proposal,omitempty"`
	Raw            string `json:"raw"`
	Problem        string `json:"does_not_parse,omitempty"`
}

func responseOf(r model.Response) response {
	return response{Number: r.Number, Fixes: r.Fixes, Type: r.Type, Change: r.Change, SubID: r.SubID, Purpose: r.Purpose,
		Counterexample: r.Counterexample, ModType: r.ModType, Proposal: r.Proposal, Raw: r.Raw, Problem: r.Problem}
}

func (s *server) show(ctx context.Context, id string) (*shown, error) {
	if err := model.CheckID(id, ""); err != nil {
		return nil, inputf("show: %v", err)
	}
	return answer(ctx, s, func(snap *model.Snapshot, graph func() *model.Graph) (*shown, error) {
		return s.showIn(snap, graph, id)
	})
}

// showAnswer is show's answer, kept for a statement while the frame holds it at the
// same version and phase (see answerCache).
func (s *server) showAnswer(ctx context.Context, id string) (any, error) {
	if s.eng == nil || model.KindOf(id) != model.KindStatement {
		return s.show(ctx, id)
	}
	if err := model.CheckID(id, ""); err != nil {
		return nil, inputf("show: %v", err)
	}
	return answer(ctx, s, func(snap *model.Snapshot, graph func() *model.Graph) (any, error) {
		st := snap.Statements.Get(id)
		if st == nil {
			return s.showIn(snap, graph, id) // its error
		}
		key := showKey(snap, graph, id)
		if a, ok := s.shows.get(id, st, key); ok {
			return a, nil
		}
		out, err := s.showIn(snap, graph, id)
		if err != nil {
			return nil, err
		}
		return s.shows.keep(id, st, key, out)
	})
}

// showKey is what show's answer about statement id depends on besides the statement.
func showKey(snap *model.Snapshot, graph func() *model.Graph, id string) string {
	return snap.Versions.Get(id) + " " + graph().Phase.Get(id).String()
}

// showIn finds id in snap, or in the log's index for a change.
func (s *server) showIn(snap *model.Snapshot, graph func() *model.Graph, id string) (*shown, error) {
	if model.KindOf(id) == model.KindChange && s.eng != nil {
		// The change from the log index; one older than the lines held, from the whole log.
		h := s.eng.historyOf(snap)
		if i, err := h.Index(id); err == nil {
			e := h.Changes()[i]
			return &shown{ID: id, Line: e.Line, Object: pyjson.EncodeLine(e.Document())}, nil
		}
		if h.Head().Lines == 0 {
			return nil, fmt.Errorf("%s is not in %s", id, store.LogFile)
		}
		whole, err := load(store.Load, s.dir)
		if err != nil {
			return nil, err
		}
		snap = whole
	}
	return showIn(snap, graph, s.dir, id)
}

// showIn finds id in snap: the same lookup as `referee show`.
func showIn(snap *model.Snapshot, graph func() *model.Graph, dir, id string) (*shown, error) {
	if model.KindOf(id) == model.KindChange {
		for _, e := range snap.Log {
			if e.ID == id {
				return &shown{ID: id, Line: e.Line, Object: pyjson.EncodeLine(e.Document())}, nil
			}
		}
		return nil, fmt.Errorf("%s is not in %s", id, store.LogFile)
	}
	doc, found, err := store.ObjectDoc(snap, id)
	if err != nil {
		return nil, err
	}
	if !found {
		return nil, fmt.Errorf("%s does not exist in %s", id, dir)
	}
	out := &shown{ID: id, Version: snap.Versions.Get(id), Object: pyjson.EncodeLine(doc)}
	if model.KindOf(id) != model.KindExperience {
		out.Phase = graph().Phase.Get(id).String()
	}
	if st := snap.Statements.Get(id); st != nil {
		threads, stray := model.Threads(st.Issues, st.Responses)
		out.Threads = []thread{}
		for _, th := range threads {
			is := th.Issue
			t := thread{Issue: issue{Number: is.Number, Sentence: is.Sentence, SentenceText: is.SentenceText, ErrorType: is.ErrorType,
				Explanation: is.Explanation, Fix: is.Fix, Raw: is.Raw, Problem: is.Problem}, Responses: []response{}}
			for _, r := range th.Responses {
				t.Responses = append(t.Responses, responseOf(r))
			}
			out.Threads = append(out.Threads, t)
		}
		for _, r := range stray {
			out.Stray = append(out.Stray, responseOf(r))
		}
	}
	return out, nil
}

type sentence struct {
	N         int    `json:"n"`
	Text      string `json:"text"`
	Paragraph int    `json:"paragraph"`
	Step      int    `json:"step,omitempty"`
}

func (s *server) sentences(ctx context.Context, id string) (any, error) {
	if err := model.CheckID(id, model.KindStatement); err != nil {
		return nil, inputf("sentences: %v", err)
	}
	return answer(ctx, s, func(snap *model.Snapshot, _ func() *model.Graph) (any, error) {
		st := snap.Statements.Get(id)
		if st == nil {
			return nil, fmt.Errorf("%s does not exist in %s", id, s.dir)
		}
		version := snap.Versions.Get(id)
		if a, ok := s.split.get(id, st, version); ok {
			return a, nil
		}
		proof, err := st.Proof.Text()
		if err != nil {
			return nil, err
		}
		out := []sentence{}
		for _, sen := range model.SplitSentences(proof) {
			out = append(out, sentence{N: sen.N, Text: sen.Text, Paragraph: sen.Paragraph, Step: sen.Step})
		}
		v := map[string]any{"id": id, "version": version, "sentences": out}
		if s.eng == nil { // each call read the folder: nothing to keep
			return v, nil
		}
		return s.split.keep(id, st, version, v)
	})
}

func (s *server) similar(ctx context.Context, id string, top int) (any, error) {
	if err := model.CheckID(id, model.KindStatement); err != nil {
		return nil, inputf("similar: %v", err)
	}
	if top == 0 {
		top = 5
	}
	snap, _, err := s.current(ctx)
	if err != nil {
		return nil, err
	}
	if snap.Statements.Get(id) == nil {
		return nil, fmt.Errorf("%s does not exist in %s", id, s.dir)
	}
	var matches []similar.Match
	var retreads []similar.Retread
	read := func(ix *similar.Index) { matches, retreads = ix.Similar(id, top), ix.RetreadsOf(id) }
	if s.eng != nil {
		s.eng.similarity(snap, read)
	} else {
		read(similar.NewIndex(snap))
	}
	if matches == nil {
		matches = []similar.Match{}
	}
	if retreads == nil {
		retreads = []similar.Retread{}
	}
	return struct {
		ID       string            `json:"id"`
		Similar  []similar.Match   `json:"similar"`
		Retreads []similar.Retread `json:"retreads"`
	}{id, matches, retreads}, nil
}

func (s *server) log(ctx context.Context, since, object string) (any, error) {
	if object != "" {
		if err := model.CheckID(object, ""); err != nil {
			return nil, inputf("object: %v", err)
		}
	}
	var h *store.History
	if s.eng != nil && since != "" {
		// The changes after a recent one, from the lines held and their index.
		snap, _, err := s.current(ctx)
		if err != nil {
			return nil, err
		}
		if h = s.eng.historyOf(snap); !h.Holds(since) {
			h = nil
		}
	}
	if h == nil {
		snap, err := load(store.Load, s.dir)
		if err != nil {
			return nil, err
		}
		h = store.NewHistory(s.dir, snap)
	}
	from := 0
	if since != "" {
		i, err := h.Index(since)
		if err != nil {
			return nil, err
		}
		from = i + 1
	}
	changes := []store.Change{}
	for _, c := range h.ActivityFrom(from) {
		if object == "" || c.Touches(object) {
			changes = append(changes, c)
		}
	}
	return changes, nil
}

// --- resources ------------------------------------------------------------------------

// addResources serves the objects as referee://statement/s-007, referee://problem/p-001
// (and experience, change), read as the show tool reads them.
func (s *server) addResources(srv *mcp.Server) {
	for _, kind := range []string{"problem", "statement", "experience", "change"} {
		srv.AddResourceTemplate(&mcp.ResourceTemplate{
			Name:        kind,
			Title:       "referee " + kind,
			Description: "A " + kind + " of the contents folder by ID, as the show tool returns it (with its version)",
			MIMEType:    "application/json",
			URITemplate: "referee://" + kind + "/{id}",
		}, s.readResource)
	}
}

func (s *server) readResource(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	uri := req.Params.URI
	rest, ok := strings.CutPrefix(uri, "referee://")
	kind, id, ok2 := strings.Cut(rest, "/")
	if !ok || !ok2 || model.CheckID(id, "") != nil || kindWord(model.KindOf(id)) != kind {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	obj, err := s.show(ctx, id)
	if err != nil {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	text, err := encodeJSONText(obj)
	if err != nil {
		return nil, err
	}
	return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, MIMEType: "application/json", Text: text}}}, nil
}

func kindWord(k string) string {
	switch k {
	case model.KindProblem:
		return "problem"
	case model.KindStatement:
		return "statement"
	case model.KindExperience:
		return "experience"
	case model.KindChange:
		return "change"
	}
	return ""
}
