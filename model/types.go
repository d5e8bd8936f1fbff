package model

import (
	"fmt"
	"strconv"
	"strings"

	"referee/model/pyjson"
)

// FieldProblem is a field of an object that does not have the shape FORMAT.md gives it.
// The object is still loaded with what could be read.
type FieldProblem struct {
	Field string // dotted path, e.g. "validation.issues"
	Msg   string // what was expected and found
}

func (f FieldProblem) String() string { return f.Field + ": " + f.Msg }

// Proof is a statement's (or a problem's solution's) proof. Its text is Full, or, in a
// statement a load read lean (see leanProof), Body: read it with Text.
type Proof struct {
	Cot  []string
	Full string
	Ref  []string
	Body *ProofText
}

// Statement is the typed view of statement/s-*.json. Doc is the whole object as written,
// unknown keys included. A statement a load read lean (File set) keeps no Doc: Document
// reads it again. A change never writes from either; it reads the file it changes.
type Statement struct {
	ID            string
	Type          string
	Conclusion    []string
	Hypothesis    []string
	Preliminaries []string
	Status        string
	Reliability   float64
	CountUsage    int
	Progresses    []string
	Proof         Proof
	Issues        []string
	Responses     []string

	Doc      pyjson.Value
	File     *File
	Problems []FieldProblem
	// Older is set for a statement in the agents' format before v0.0.4 (dependencies,
	// proof.reference, no validation): the keys added since are read as optional,
	// dependencies as preliminaries and proof.reference as proof.ref.
	Older bool
}

// Claim is the conclusion as one line of text.
func (s *Statement) Claim() string { return joinItems(s.Conclusion) }

// Problem is the typed view of problem/p-*.json.
type Problem struct {
	ID            string
	Hypothesis    []string
	Objectives    []string
	Status        string
	Priority      string
	Summary       string
	Progresses    []string
	Preliminaries []string
	Solution      Proof

	Doc      pyjson.Value
	Problems []FieldProblem
	// Older is set for a problem in the agents' format before v0.0.3 (motivation, no
	// priority, summary, progresses or preliminaries): those keys are read as optional.
	Older bool
}

// Title is the objectives as one line of text.
func (p *Problem) Title() string { return joinItems(p.Objectives) }

// Experience is experience/e-*.json; rarely used, shown as it is.
type Experience struct {
	ID       string
	Content  string
	Doc      pyjson.Value
	Problems []FieldProblem
}

func joinItems(items []string) string {
	switch len(items) {
	case 0:
		return ""
	case 1:
		return items[0]
	}
	s := items[0]
	for _, it := range items[1:] {
		s += "; " + it
	}
	return s
}

// described names a kind with its article, for messages: "a list", "an object", "null".
func described(k pyjson.Kind) string {
	switch k {
	case pyjson.Null:
		return "null"
	case pyjson.Object:
		return "an object"
	}
	return "a " + k.String()
}

// reader pulls typed fields out of an object, noting every shape problem. The object is
// doc, or in a lean read (p set) the parser's nodes from root: a lean read types a
// statement without building its document, which it does not keep (StatementLean).
type reader struct {
	doc      *pyjson.Value
	root     pyjson.Node // a lean read's root, when doc is nil
	problems []FieldProblem
}

// found is a value a reader found: v, or in a lean read (v nil) the node n.
type found struct {
	v *pyjson.Value
	n pyjson.Node
}

func (f found) Kind() pyjson.Kind {
	if f.v == nil {
		return f.n.Kind()
	}
	return f.v.Kind
}

// Str is the text of a string, number or literal, as Value.Str.
func (f found) Str() string {
	if f.v == nil {
		return f.n.Str()
	}
	return f.v.Str
}

// StringList is Value.StringList.
func (f found) StringList() ([]string, bool) {
	if f.v == nil {
		return f.n.StringList()
	}
	return f.v.StringList()
}

func (r *reader) note(field, format string, args ...any) {
	r.problems = append(r.problems, FieldProblem{Field: field, Msg: fmt.Sprintf(format, args...)})
}

// top is the object read.
func (r *reader) top() found { return found{v: r.doc, n: r.root} }

func (r *reader) lookup(path []string) (found, bool) {
	if r.doc == nil {
		n, ok := r.root, true
		for _, k := range path {
			if n, ok = n.Member(k); !ok {
				return found{}, false
			}
		}
		return found{n: n}, true
	}
	v := r.doc
	for _, k := range path {
		next, ok := v.Get(k)
		if !ok {
			return found{}, false
		}
		v = next
	}
	return found{v: v}, true
}

func dotted(path []string) string {
	s := path[0]
	for _, p := range path[1:] {
		s += "." + p
	}
	return s
}

func (r *reader) str(path ...string) string {
	v, ok := r.lookup(path)
	if !ok {
		r.note(dotted(path), "missing (expected a string)")
		return ""
	}
	switch v.Kind() {
	case pyjson.String:
		return v.Str()
	case pyjson.Null:
		r.note(dotted(path), "expected a string, found null")
		return ""
	case pyjson.Number, pyjson.Bool:
		r.note(dotted(path), "expected a string, found %s", described(v.Kind()))
		return v.Str()
	}
	r.note(dotted(path), "expected a string, found %s", described(v.Kind()))
	return ""
}

func (r *reader) list(path ...string) []string {
	v, ok := r.lookup(path)
	if !ok {
		r.note(dotted(path), "missing (expected a list of strings)")
		return nil
	}
	switch v.Kind() {
	case pyjson.Array:
		out, ok := v.StringList()
		if !ok {
			r.note(dotted(path), "expected a list of strings, some items are not strings")
		}
		return out
	case pyjson.String: // a lone string where a list belongs: show it as one item
		r.note(dotted(path), "expected a list of strings, found a string")
		return []string{v.Str()}
	case pyjson.Null:
		r.note(dotted(path), "expected a list of strings, found null")
		return nil
	}
	r.note(dotted(path), "expected a list of strings, found %s", described(v.Kind()))
	return nil
}

func (r *reader) number(path ...string) (float64, bool) {
	v, ok := r.lookup(path)
	if !ok {
		r.note(dotted(path), "missing (expected a number)")
		return 0, false
	}
	if v.Kind() != pyjson.Number {
		r.note(dotted(path), "expected a number, found %s", described(v.Kind()))
		return 0, false
	}
	f, err := strconv.ParseFloat(v.Str(), 64)
	return f, err == nil
}

// optional reads are quiet when the key is missing (objects of older tools lack them).
func (r *reader) has(path ...string) bool {
	_, ok := r.lookup(path)
	return ok
}

// optList reads a list that an object of the agents' older format may lack: quiet when
// missing, else read as list reads it; fallback names the older key that held it.
func (r *reader) optList(fallback []string, path ...string) []string {
	switch {
	case r.has(path...):
		return r.list(path...)
	case fallback != nil && r.has(fallback...):
		return r.list(fallback...)
	}
	return nil
}

func (r *reader) optStr(path ...string) string {
	if r.has(path...) {
		return r.str(path...)
	}
	return ""
}

func (r *reader) id(wantKind string) string {
	id := r.str("id")
	if id != "" && !ValidID(id, wantKind) {
		r.note("id", "%q is not a %s ID", id, KindName(wantKind))
	}
	return id
}

// StatementFrom reads a statement from its JSON tree. It never fails: what has the wrong
// shape is listed in Problems and read as empty.
func StatementFrom(doc pyjson.Value) *Statement {
	s := &Statement{Doc: doc}
	s.read(&reader{doc: &s.Doc})
	return s
}

func (s *Statement) read(r *reader) {
	if k := r.top().Kind(); k != pyjson.Object {
		s.Problems = []FieldProblem{{Field: "(file)", Msg: fmt.Sprintf("expected an object, found %s", described(k))}}
		return
	}
	s.ID = r.id(KindStatement)
	s.Type = r.str("type")
	s.Conclusion = r.list("conclusion")
	s.Hypothesis = r.list("hypothesis")
	s.Older = r.has("dependencies") || r.has("proof", "reference") || !r.has("validation") && !r.has("progresses")
	if s.Older {
		s.Preliminaries = r.optList([]string{"dependencies"}, "preliminaries")
	} else {
		s.Preliminaries = r.list("preliminaries")
	}
	s.Status = r.str("status")
	if r.has("reliability") {
		s.Reliability, _ = r.number("reliability")
	}
	if stats, ok := r.lookup([]string{"stats"}); ok && stats.Kind() != pyjson.Object {
		r.note("stats", "expected {count_usage}, found %s", described(stats.Kind()))
	} else if r.has("stats", "count_usage") {
		f, _ := r.number("stats", "count_usage")
		s.CountUsage = int(f)
	}
	if s.Older {
		s.Progresses = r.optList(nil, "progresses")
	} else {
		s.Progresses = r.list("progresses")
	}
	s.Proof = r.proof("proof", s.Older)
	if v, ok := r.lookup([]string{"validation"}); ok && v.Kind() != pyjson.Object {
		r.note("validation", "expected {issues, responses}, found %s", described(v.Kind()))
	} else if ok {
		s.Issues = r.list("validation", "issues")
		s.Responses = r.list("validation", "responses")
	} else if !s.Older {
		r.note("validation", "missing (expected {issues, responses})")
	}
	s.Problems = r.problems
}

// proof reads {cot, full, ref}; in the older format ref may be missing or named reference.
func (r *reader) proof(key string, older bool) Proof {
	v, ok := r.lookup([]string{key})
	if !ok {
		r.note(key, "missing (expected {cot, full, ref})")
		return Proof{}
	}
	if v.Kind() != pyjson.Object {
		if v.Kind() == pyjson.String { // an early tool wrote the proof as a bare string
			r.note(key, "expected {cot, full, ref}, found a string")
			return Proof{Full: v.Str()}
		}
		r.note(key, "expected {cot, full, ref}, found %s", described(v.Kind()))
		return Proof{}
	}
	if older {
		return Proof{Cot: r.optList(nil, key, "cot"), Full: r.str(key, "full"), Ref: r.optList([]string{key, "reference"}, key, "ref")}
	}
	return Proof{Cot: r.list(key, "cot"), Full: r.str(key, "full"), Ref: r.list(key, "ref")}
}

// ProblemFrom reads a problem from its JSON tree; like StatementFrom it never fails.
func ProblemFrom(doc pyjson.Value) *Problem {
	p := &Problem{Doc: doc}
	if doc.Kind != pyjson.Object {
		p.Problems = []FieldProblem{{Field: "(file)", Msg: fmt.Sprintf("expected an object, found %s", described(doc.Kind))}}
		return p
	}
	r := reader{doc: &p.Doc}
	p.ID = r.id(KindProblem)
	p.Hypothesis = r.list("hypothesis")
	p.Objectives = r.list("objectives")
	p.Status = r.str("status")
	p.Older = r.has("motivation") || !r.has("progresses") && !r.has("preliminaries") && !r.has("summary")
	if p.Older {
		p.Priority = r.optStr("priority")
		p.Summary = r.optStr("summary")
		p.Progresses = r.optList(nil, "progresses")
		p.Preliminaries = r.optList(nil, "preliminaries")
	} else {
		p.Priority = r.str("priority")
		p.Summary = r.str("summary")
		p.Progresses = r.list("progresses")
		p.Preliminaries = r.list("preliminaries")
	}
	p.Solution = r.proof("solution", p.Older)
	p.Problems = r.problems
	return p
}

// ExperienceFrom reads an experience object.
func ExperienceFrom(doc pyjson.Value) *Experience {
	e := &Experience{Doc: doc}
	if doc.Kind != pyjson.Object {
		e.Problems = []FieldProblem{{Field: "(file)", Msg: fmt.Sprintf("expected an object, found %s", described(doc.Kind))}}
		return e
	}
	r := reader{doc: &e.Doc}
	e.ID = r.id(KindExperience)
	if r.has("content") {
		e.Content = r.str("content")
	}
	e.Problems = r.problems
	return e
}

// NewStatement is a fresh statement with exactly the keys the agents' tools write, in order.
func NewStatement(id, typ string, conclusion, hypothesis []string, status string) pyjson.Value {
	return pyjson.Obj(
		pyjson.M("id", pyjson.Str(id)),
		pyjson.M("type", pyjson.Str(typ)),
		pyjson.M("conclusion", pyjson.Strs(conclusion)),
		pyjson.M("hypothesis", pyjson.Strs(hypothesis)),
		pyjson.M("preliminaries", pyjson.Strs(nil)),
		pyjson.M("status", pyjson.Str(status)),
		pyjson.M("reliability", pyjson.Float(0)),
		pyjson.M("stats", pyjson.Obj(pyjson.M("count_usage", pyjson.Int(0)))),
		pyjson.M("progresses", pyjson.Strs(nil)),
		pyjson.M("proof", pyjson.Obj(pyjson.M("cot", pyjson.Strs(nil)), pyjson.M("full", pyjson.Str("")), pyjson.M("ref", pyjson.Strs(nil)))),
		pyjson.M("validation", pyjson.Obj(pyjson.M("issues", pyjson.Strs(nil)), pyjson.M("responses", pyjson.Strs(nil)))),
	)
}

// NewProblem is a fresh problem with exactly the keys the agents' tools write, in order.
func NewProblem(id string, hypothesis, objectives []string, status, priority, summary string) pyjson.Value {
	return pyjson.Obj(
		pyjson.M("id", pyjson.Str(id)),
		pyjson.M("hypothesis", pyjson.Strs(hypothesis)),
		pyjson.M("objectives", pyjson.Strs(objectives)),
		pyjson.M("status", pyjson.Str(status)),
		pyjson.M("priority", pyjson.Str(priority)),
		pyjson.M("summary", pyjson.Str(summary)),
		pyjson.M("progresses", pyjson.Strs(nil)),
		pyjson.M("preliminaries", pyjson.Strs(nil)),
		pyjson.M("solution", pyjson.Obj(pyjson.M("cot", pyjson.Strs(nil)), pyjson.M("full", pyjson.Str("")), pyjson.M("ref", pyjson.Strs(nil)))),
	)
}

// Config is config.json: the last ID issued per kind.
type Config struct {
	Last map[string]string // kind letter → last ID ("s" → "s-007")
	Doc  pyjson.Value
}

// ConfigFrom reads config.json's tree.
func ConfigFrom(doc pyjson.Value) (*Config, error) {
	if doc.Kind != pyjson.Object {
		return nil, fmt.Errorf("expected an object, found %s", described(doc.Kind))
	}
	c := &Config{Last: map[string]string{}, Doc: doc}
	for _, m := range doc.Obj {
		if m.Value.Kind != pyjson.String {
			return nil, fmt.Errorf("%q: expected an ID string, found %s", m.Key, described(m.Value.Kind))
		}
		if strings.HasPrefix(m.Key, "count_") {
			// The agents' config before v0.0.2 ({"count_problems": "p-002", …}).
			return nil, fmt.Errorf("%q: the agents' earliest config format; expected {\"p\", \"s\", \"e\", \"l\"} with the last ID of each kind", m.Key)
		}
		if _, _, _, ok := parseID(m.Value.Str); !ok || KindOf(m.Value.Str) != m.Key {
			return nil, fmt.Errorf("%q: %q is not the last ID of kind %q (expected keys p, s, e, l)", m.Key, m.Value.Str, m.Key)
		}
		c.Last[m.Key] = m.Value.Str
	}
	return c, nil
}
