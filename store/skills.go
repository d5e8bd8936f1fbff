package store

import (
	"fmt"
	"regexp"
	"slices"

	"strings"

	"referee/model"
	"referee/model/pyjson"
)

// ParamKind is the shape of a skill parameter.
type ParamKind uint8

const (
	ParamString        ParamKind = iota // free text
	ParamStrings                        // a list of texts (the CLI flag repeats)
	ParamInt                            // a positive whole number
	ParamID                             // one object ID
	ParamIDs                            // one or more object IDs (the CLI flag repeats)
	ParamSubStatements                  // a list of {claim, premises} (via --params)
)

// Param is one parameter of a skill, under the agents' own name.
type Param struct {
	Name     string
	Kind     ParamKind
	Required bool
	IDKind   string   // for ParamID/ParamIDs: which kind of ID
	Enum     []string // allowed values, when fixed
	Help     string
	// Long is a text of several lines or sentences (a proof, an explanation): a form
	// gives it a multi-line editor.
	Long bool
}

// Flag is the parameter's CLI flag name: the snake_case name in kebab-case.
func (p Param) Flag() string { return strings.ReplaceAll(p.Name, "_", "-") }

// SubStatement is one item of state-setup-substatement's sub_statements.
type SubStatement struct {
	Claim    string   `json:"claim"`
	Premises []string `json:"premises"`
}

// Args holds a skill call's parameter values, keyed by the snake_case names. Values are
// string, []string, int or []SubStatement.
type Args map[string]any

func (a Args) Str(name string) string {
	s, _ := a[name].(string)
	return s
}

func (a Args) List(name string) []string {
	switch v := a[name].(type) {
	case []string:
		return v
	case string:
		return []string{v}
	}
	return nil
}

func (a Args) Int(name string) int {
	n, _ := a[name].(int)
	return n
}

func (a Args) Has(name string) bool {
	switch v := a[name].(type) {
	case nil:
		return false
	case string:
		return v != ""
	case []string:
		return len(v) > 0
	case int:
		return true // present; Validate refuses numbers below 1
	case []SubStatement:
		return len(v) > 0
	}
	return true
}

func (a Args) Subs() []SubStatement {
	s, _ := a["sub_statements"].([]SubStatement)
	return s
}

// Objects gives a skill's preconditions the objects it needs: from disk under the lock
// when applying, from a snapshot when the UI asks whether a key is enabled. A missing
// object is (nil, nil).
type Objects interface {
	Statement(id string) (*model.Statement, error)
	Problem(id string) (*model.Problem, error)
}

// SnapshotObjects reads objects from a snapshot.
type SnapshotObjects struct{ Snap *model.Snapshot }

func (o SnapshotObjects) Statement(id string) (*model.Statement, error) {
	return o.Snap.Statements.Get(id), nil
}

func (o SnapshotObjects) Problem(id string) (*model.Problem, error) {
	return o.Snap.Problems[id], nil
}

// Skill is one of the agents' skills: its contract, preconditions and effect. The CLI
// flags, the SKILL.md files, the UI keys and the palette are all made from this registry.
type Skill struct {
	Name    string
	Aliases []string
	Agents  string // who uses it
	Summary string // one line
	When    string // when to use it
	Changes string // what it writes
	Params  []Param
	Target  string // the parameter naming the object the skill changes
	check   func(o Objects, a Args) error
	apply   func(t *tx, a Args) error
}

// Param returns the parameter with the name.
func (s *Skill) Param(name string) (Param, bool) {
	for _, p := range s.Params {
		if p.Name == name {
			return p, true
		}
	}
	return Param{}, false
}

// Check tells whether the skill may run now on what o holds: nil, or a
// PreconditionError naming the object, its status and what the skill needs. It reads
// only the ID and number parameters, so the UI can ask before a form is filled.
func (s *Skill) Check(o Objects, a Args) error {
	if s.check == nil {
		return nil
	}
	return s.check(o, a)
}

// Validate checks the parameters' presence and shape.
func (s *Skill) Validate(a Args) error {
	for name := range a {
		if _, ok := s.Param(name); !ok {
			return inputf("%s has no parameter %q (see referee skills list)", s.Name, name)
		}
	}
	for _, p := range s.Params {
		if p.Required && !a.Has(p.Name) {
			return inputf("%s needs --%s (%s)", s.Name, p.Flag(), p.Help)
		}
		v, present := a[p.Name]
		if !present {
			continue
		}
		switch p.Kind {
		case ParamString:
			if _, ok := v.(string); !ok {
				return inputf("--%s: expected one text", p.Flag())
			}
		case ParamStrings:
			if _, ok := v.([]string); !ok {
				if _, ok := v.(string); !ok {
					return inputf("--%s: expected a list of texts", p.Flag())
				}
			}
		case ParamInt:
			if n, ok := v.(int); !ok || n < 1 {
				return inputf("--%s: expected a whole number from 1 up", p.Flag())
			}
		case ParamID:
			id, _ := v.(string)
			if err := model.CheckID(id, p.IDKind); err != nil {
				return inputf("--%s: %v", p.Flag(), err)
			}
		case ParamIDs:
			for _, id := range a.List(p.Name) {
				if err := model.CheckID(id, p.IDKind); err != nil {
					return inputf("--%s: %v", p.Flag(), err)
				}
			}
		case ParamSubStatements:
			subs, ok := v.([]SubStatement)
			if !ok {
				return inputf("--%s: expected a list of {\"claim\": …, \"premises\": […]}", p.Flag())
			}
			for i, sub := range subs {
				if strings.TrimSpace(sub.Claim) == "" {
					return inputf("--%s: item %d has no claim", p.Flag(), i+1)
				}
			}
		}
		if len(p.Enum) > 0 {
			for _, val := range a.List(p.Name) {
				if !slices.Contains(p.Enum, val) {
					return inputf("--%s: %q is not one of %s", p.Flag(), val, strings.Join(p.Enum, ", "))
				}
			}
		}
	}
	for name, v := range a {
		for _, s := range append([]string{fmt.Sprint(v)}, a.List(name)...) {
			if !validText(s) {
				return inputf("--%s: not valid UTF-8 text", strings.ReplaceAll(name, "_", "-"))
			}
		}
	}
	return nil
}

func validText(s string) bool {
	return strings.ToValidUTF8(s, "\ufffd") == s
}

// Run applies a skill as one change batch: lock, read the objects as they are on disk,
// check the preconditions, write. On any error nothing is written. When a lockless
// writer got in the way (race.go), the skill is applied again to the folder as it is.
func Run(dir string, s *Skill, a Args, opts Options) (*Result, error) {
	return retrying(func() (*tx, error) { return prepare(dir, s, a, &opts, true) }, opts)
}

// Plan works a skill call out exactly as Run would — same validation, preconditions and
// effects on the objects as they are on disk — and returns what it would write, writing
// nothing. The UI shows it before the reviewer says y.
func Plan(dir string, s *Skill, a Args, opts Options) (*Planned, error) {
	t, err := prepare(dir, s, a, &opts, false)
	if err != nil {
		return nil, err
	}
	return t.plan(opts)
}

// prepare runs a skill up to the point of writing. With lock, the tx holds the folder
// lock until the caller ends it.
func prepare(dir string, s *Skill, a Args, opts *Options, lock bool) (*tx, error) {
	if err := s.Validate(a); err != nil {
		return nil, err
	}
	if opts.Actor == "" {
		opts.Actor = "agent"
	}
	t, err := open(dir, s.Name, lock)
	if err != nil {
		return nil, err
	}
	if err := t.run(s, a, opts.ExpectVersion); err != nil {
		t.end()
		return nil, err
	}
	return t, nil
}

func (t *tx) run(s *Skill, a Args, expect string) error {
	if expect != "" && s.Target != "" {
		id := a.Str(s.Target)
		o, err := t.object(id)
		if err != nil {
			return err
		}
		if o == nil {
			return &PreconditionError{Object: id, Status: "missing", Skill: s.Name}
		}
		if v := model.Version(o.orig); v != expect {
			return &ConflictError{Object: id, Expected: expect, Actual: v}
		}
	}
	if err := s.Check(t, a); err != nil {
		return err
	}
	return s.apply(t, a)
}

// Lookup finds a skill by name or alias.
func Lookup(name string) (*Skill, bool) {
	for _, s := range Skills {
		if s.Name == name || slices.Contains(s.Aliases, name) {
			return s, true
		}
	}
	return nil, false
}

// --- preconditions -----------------------------------------------------------------------

// need reads an object a precondition needs; a missing one is a PreconditionError.
func need[T any](get func(string) (*T, error), skill, id string) (*T, error) {
	obj, err := get(id)
	if err != nil {
		return nil, err
	}
	if obj == nil {
		return nil, &PreconditionError{Object: id, Status: "missing", Skill: skill}
	}
	return obj, nil
}

func needStatement(o Objects, skill, id string) (*model.Statement, error) {
	return need(o.Statement, skill, id)
}

func needProblem(o Objects, skill, id string) (*model.Problem, error) {
	return need(o.Problem, skill, id)
}

func problemOpen(skill, param string) func(o Objects, a Args) error {
	return func(o Objects, a Args) error {
		p, err := needProblem(o, skill, a.Str(param))
		if err != nil {
			return err
		}
		if model.ProblemPhase(p.Status) != model.PhaseProblemOpen {
			return &PreconditionError{Object: p.ID, Status: p.Status, Skill: skill, Need: "an open problem (unresolved)"}
		}
		return nil
	}
}

// statementPhase is the phase of a statement read from o: P014 "validating" is resolved
// with its sub-statements' statuses.
func statementPhase(o Objects, st *model.Statement) model.Phase {
	ph, _, _ := model.StatusInfo(st.Status)
	if ph != model.PhaseValidating {
		return ph
	}
	snap := &model.Snapshot{Statements: model.ObjectsOf(map[string]*model.Statement{st.ID: st})}
	for _, item := range st.Preliminaries {
		id, _ := model.RefID(item)
		if sub, _ := o.Statement(id); sub != nil {
			snap.Statements.Set(id, sub)
		}
	}
	return model.StatementPhase(snap, st)
}

// quoteInProof refuses a gap quoting a sentence the proof does not have (the fixer could
// not find it), saying what the numbered sentence reads.
func quoteInProof(st *model.Statement, quote string, n int) error {
	text, err := st.Proof.Text()
	if err != nil || model.QuoteIn(quote, text) {
		return nil
	}
	sents := model.SplitSentences(text)
	msg := fmt.Sprintf("--sentence-text: “%s” is not in %s's proof (quote a sentence of it exactly; \"…\" may stand for a part left out)", quote, st.ID)
	if n >= 1 && n <= len(sents) {
		msg += fmt.Sprintf("; sentence %d reads “%s”", n, model.NormalizeSpace(sents[n-1].Text))
	} else if n > len(sents) {
		msg += fmt.Sprintf("; and the proof has %d sentences, not %d", len(sents), n)
	}
	return inputf("%s", msg)
}

// phaseWord is a P014 "validating" statement's phase in the badges' words ("has gap"),
// for a refusal to say what the reviewer sees; "" for any other status.
func phaseWord(o Objects, st *model.Statement) string {
	if st.Status != "validating" {
		return ""
	}
	return statementPhase(o, st).String()
}

func undecided(skill string) func(o Objects, a Args) error {
	return func(o Objects, a Args) error {
		st, err := needStatement(o, skill, a.Str("statement_id"))
		if err != nil {
			return err
		}
		if ph, _, _ := model.StatusInfo(st.Status); ph.Decided() {
			return &PreconditionError{Object: st.ID, Status: st.Status, Skill: skill, Need: "a statement not yet decided (not true, false or abandoned)"}
		}
		if a.Has("issue_number") {
			return issueUnanswered(skill, st, a.Int("issue_number"))
		}
		return nil
	}
}

// proofSubmitted is check-confirm-proof's and check-reject-proof's precondition. A
// statement the orchestrator sends to agent-check without a proof (decomposed, or under
// a proposed modification: the counts say "check") can be rejected, so the checker is
// never left without a move, but never confirmed.
func proofSubmitted(skill string, needProof bool) func(o Objects, a Args) error {
	return func(o Objects, a Args) error {
		st, err := needStatement(o, skill, a.Str("statement_id"))
		if err != nil {
			return err
		}
		ph := statementPhase(o, st)
		need := "a submitted proof awaiting verification"
		switch {
		case ph == model.PhaseAwaitingCheck:
		case ph == model.PhaseAwaitingSubs && subsDone(o, st):
		default:
			return &PreconditionError{Object: st.ID, Status: st.Status, Skill: skill, Need: need, Phase: phaseWord(o, st)}
		}
		if needProof && st.Proof.Blank() {
			return &PreconditionError{Object: st.ID, Status: st.Status, Skill: skill, Need: "a proof, and it has none"}
		}
		if open := model.Unanswered(st.Issues, st.Responses); len(open) > 0 {
			return &PreconditionError{Object: st.ID, Status: st.Status, Skill: skill,
				Need: fmt.Sprintf("every issue answered, and issue #%d has no response", open[0])}
		}
		return nil
	}
}

// modificationProposed tells whether a statement's latest proposal is a modification
// no proof has followed: a MODIFICATION note after the last PROOF note.
func modificationProposed(st *model.Statement) bool {
	for i := len(st.Progresses) - 1; i >= 0; i-- {
		switch p := st.Progresses[i]; {
		case strings.HasPrefix(p, "MODIFICATION"):
			return true
		case strings.HasPrefix(p, "PROOF:"):
			return false
		}
	}
	return false
}

func subsDone(o Objects, st *model.Statement) bool {
	for _, item := range st.Preliminaries {
		id, _ := model.RefID(item)
		sub, _ := o.Statement(id)
		if sub == nil || sub.Status != "true" {
			return false
		}
	}
	return true
}

func issueUnanswered(skill string, st *model.Statement, n int) error {
	found := false
	for _, raw := range st.Issues {
		if model.ParseIssue(raw).Number == n {
			found = true
		}
	}
	if !found {
		return &PreconditionError{Object: st.ID, Status: st.Status, Skill: skill,
			Need: fmt.Sprintf("issue #%d, and it has %s", n, countIssues(len(st.Issues)))}
	}
	if !slices.Contains(model.Unanswered(st.Issues, st.Responses), n) {
		return &PreconditionError{Object: st.ID, Status: st.Status, Skill: skill,
			Need: fmt.Sprintf("issue #%d without a response, and it already has one", n)}
	}
	return nil
}

func countIssues(n int) string {
	switch n {
	case 0:
		return "no issues"
	case 1:
		return "only issue #1"
	}
	return fmt.Sprintf("issues #1 to #%d", n)
}

func issueOpen(skill, param string) func(o Objects, a Args) error {
	return func(o Objects, a Args) error {
		st, err := needStatement(o, skill, a.Str(param))
		if err != nil {
			return err
		}
		if ph, _, _ := model.StatusInfo(st.Status); ph.Decided() {
			return &PreconditionError{Object: st.ID, Status: st.Status, Skill: skill, Need: "a statement not yet decided"}
		}
		if !a.Has("issue_number") {
			if open := model.Unanswered(st.Issues, st.Responses); len(open) == 0 {
				return &PreconditionError{Object: st.ID, Status: st.Status, Skill: skill, Need: "an issue without a response, and it has none"}
			}
			return nil
		}
		return issueUnanswered(skill, st, a.Int("issue_number"))
	}
}

// --- effects -----------------------------------------------------------------------------

// modifyStatement is a statement as read before this change (for numbering its issues
// and responses) and its tree, recorded as modified.
func (t *tx) modifyStatement(id string) (*model.Statement, *pyjson.Value, error) {
	st, err := t.Statement(id)
	if err != nil {
		return nil, nil, err
	}
	doc, err := t.modify(id)
	return st, doc, err
}

func appendStr(doc *pyjson.Value, key, s string) {
	if v, ok := doc.Get(key); ok && v.Kind == pyjson.Array {
		v.Arr = append(v.Arr, pyjson.Str(s))
		return
	}
	doc.Set(key, pyjson.Strs([]string{s}))
}

func setIn(doc *pyjson.Value, outer, key string, v pyjson.Value) {
	o, ok := doc.Get(outer)
	if !ok || o.Kind != pyjson.Object {
		doc.Set(outer, pyjson.Obj())
		o, _ = doc.Get(outer)
	}
	o.Set(key, v)
}

func appendIn(doc *pyjson.Value, outer, key, s string) {
	o, ok := doc.Get(outer)
	if !ok || o.Kind != pyjson.Object {
		doc.Set(outer, pyjson.Obj())
		o, _ = doc.Get(outer)
	}
	appendStr(o, key, s)
}

func statusOf(doc *pyjson.Value) string {
	if v, ok := doc.Get("status"); ok && v.Kind == pyjson.String {
		return v.Str
	}
	return ""
}

// setPhase writes the status word for a meaning in the object's vocabulary.
func (t *tx) setPhase(doc *pyjson.Value, p model.Phase) {
	doc.Set("status", pyjson.Str(model.StatusWord(p, t.vocabFor(statusOf(doc)))))
}

func nextNumber(items []string, parse func(string) int) int {
	n := len(items)
	for _, it := range items {
		n = max(n, parse(it))
	}
	return n + 1
}

func nextResponse(st *model.Statement) int {
	return nextNumber(st.Responses, func(s string) int { return model.ParseResponse(s).Number })
}

// stepPattern finds the "Step N:" paragraphs the PROOF note counts, as the conformance
// data's Python does: its \d is any decimal digit (Step ١:, Step ２:), Go's only 0-9.
var stepPattern = regexp.MustCompile(`(?m)^[ \t]*Step[ \t]+\p{Nd}+[ \t]*:`)

var strategyWords = map[string]string{
	"direct": "Direct", "contradiction": "Contradiction", "case_analysis": "Case analysis", "backward": "Backward",
}

// newStatement creates a pending normal statement and returns its ID. Its premises are
// normalised as the agents' state.py does when it creates a statement.
func (t *tx) newStatement(claim, premises []string) (string, error) {
	premises = model.NormalizePremises(premises, t.conclusion)
	for i, p := range premises {
		if m := model.BadRefPrefix(p); m != "" { // what check would report
			return "", inputf("%s: premise %d starts like a reference, but %q is not an ID (write \"(s-007) text\" or the text alone); nothing was changed", t.skill, i+1, m)
		}
	}
	id, err := t.newID(model.KindStatement)
	if err != nil {
		return "", err
	}
	t.create(id, model.NewStatement(id, "normal", claim, premises, "pending"))
	return id, nil
}

// conclusion is the agents' load_statement_conclusion: the conclusion of
// statement/<id>.json as it is now (or as this batch made it), for premise normalisation.
// Their scripts look only in statement/, so an e- ID is never found there.
func (t *tx) conclusion(id string) (string, bool) {
	if model.KindOf(id) != model.KindStatement || !model.ValidID(id, model.KindStatement) {
		return "", false
	}
	o, err := t.object(id)
	if err != nil || o == nil {
		return "", false
	}
	return model.ConclusionText(o.doc)
}

// conclusionOnDisk is conclusion as prob.py sees it: it writes a problem's new statements
// only after reading every hypothesis, so a hypothesis naming one of them (a guessed
// "(s-NEW)") finds no file; it is dropped and its text becomes one more new statement.
// state.py runs once per sub-statement, so state-setup-substatement sees earlier ones.
func (t *tx) conclusionOnDisk(id string) (string, bool) {
	if o, ok := t.objs[id]; ok && o.isNew {
		return "", false
	}
	return t.conclusion(id)
}

func modificationText(a Args) string {
	var parts []string
	if a.Has("suggested_claim") {
		parts = append(parts, "Claim: "+a.Str("suggested_claim"))
	}
	if a.Has("suggested_premises") {
		parts = append(parts, "Premises: "+strings.Join(a.List("suggested_premises"), "; "))
	}
	if len(parts) == 0 {
		return "No new wording given"
	}
	return strings.Join(parts, "; ")
}

// ConfirmDirection is what check-confirm-proof will do with a statement: the direction
// given, else the one its proof's opening states (model.ReadDirection). When the opening
// does not tell, it is "" and why says so: the call needs a direction then.
func ConfirmDirection(st *model.Statement, a Args) (direction, why string) {
	if d := a.Str("direction"); d != "" {
		return d, ""
	}
	if st == nil {
		return "", "the statement does not exist"
	}
	text, err := st.Proof.Text()
	if err != nil {
		return "", "its proof is not text (" + err.Error() + ")"
	}
	return model.ReadDirection(text)
}

// The decisions decide-modification takes.
const (
	DecisionAccept  = "accept"
	DecisionFalse   = "false"
	DecisionAbandon = "abandon"
)

// Decisions are decide-modification's decisions.
var Decisions = []string{DecisionAccept, DecisionFalse, DecisionAbandon}

// decidedBy says how a proposal was settled: the statement's status and its last note.
func decidedBy(st *model.Statement, p model.Proposal) string {
	out := st.ID + " is " + st.Status
	if p.Index < len(st.Progresses)-1 {
		out += " (" + st.Progresses[len(st.Progresses)-1] + ")"
	}
	return out
}

// replacePreliminary puts nid where old stood in a statement's preliminaries (a
// "(old) text" item keeps its text), or appends it when old is not there.
func replacePreliminary(doc *pyjson.Value, old, nid string) {
	if v, ok := doc.Get("preliminaries"); ok && v.Kind == pyjson.Array {
		for i := range v.Arr {
			if it := &v.Arr[i]; it.Kind == pyjson.String {
				if ref, ok := model.RefID(it.Str); ok && ref == old {
					if it.Str == old {
						it.Str = nid
					} else {
						it.Str = "(" + nid + ")" + strings.TrimPrefix(it.Str, "("+old+")")
					}
					return
				}
			}
		}
	}
	appendStr(doc, "preliminaries", nid)
}

// Skills is the registry: the eleven skills, abandon, and the decision of a proposed
// modification the agents leave to a human.
var Skills = []*Skill{
	{
		Name: "prob-wrapup-statement", Aliases: []string{"prob-core-statement"}, Agents: "agent-solve",
		Summary: "Create the statement that, once proved, resolves a problem",
		When:    "A problem is open and you know which claim would settle it.",
		Changes: "Creates a pending statement (type normal, conclusion = claim, hypothesis = premises) and appends \"(s-NEW) <claim>\" to the problem's progresses.",
		Target:  "problem_id",
		Params: []Param{
			{Name: "problem_id", Kind: ParamID, IDKind: model.KindProblem, Required: true, Help: "the open problem"},
			{Name: "claim", Kind: ParamStrings, Required: true, Help: "the claim to prove (repeat for several lines)"},
			{Name: "premises", Kind: ParamStrings, Help: "its premises, usually \"(s-XXX) text\" of assumptions (repeat)"},
			{Name: "purpose", Kind: ParamString, Help: "how proving it resolves the problem", Long: true},
		},
		check: problemOpen("prob-wrapup-statement", "problem_id"),
		apply: func(t *tx, a Args) error {
			id, err := t.newStatement(a.List("claim"), a.List("premises"))
			if err != nil {
				return err
			}
			doc, err := t.modify(a.Str("problem_id"))
			if err != nil {
				return err
			}
			appendStr(doc, "progresses", "("+id+") "+strings.Join(a.List("claim"), "; "))
			return nil
		},
	},
	{
		Name: "prob-setup-subgoal", Agents: "agent-solve",
		Summary: "Create a subproblem of an open problem",
		When:    "A problem is too large to settle with one statement and splits into a smaller problem.",
		Changes: "Creates an unresolved problem (summary left empty, as the agents leave it); a hypothesis \"(s-XXX)\" of an existing statement becomes \"(s-XXX) <its claim>\", every other item a new pending statement referenced as \"(s-NEW) text\"; appends p-NEW to the parent's preliminaries.",
		Target:  "parent_problem_id",
		Params: []Param{
			{Name: "parent_problem_id", Kind: ParamID, IDKind: model.KindProblem, Required: true, Help: "the open parent problem"},
			{Name: "subproblem_objective", Kind: ParamStrings, Required: true, Help: "what the subproblem must establish (repeat)"},
			{Name: "subproblem_hypothesis", Kind: ParamStrings, Help: "its hypotheses: \"(s-XXX) text\" for existing statements, plain text for new ones (repeat)"},
			{Name: "rationale", Kind: ParamString, Required: true, Help: "why this decomposition helps", Long: true},
			{Name: "priority", Kind: ParamString, Help: "a priority label"},
		},
		check: problemOpen("prob-setup-subgoal", "parent_problem_id"),
		apply: func(t *tx, a Args) error {
			var hyps []string
			for _, h := range a.List("subproblem_hypothesis") {
				text, existing := model.SubgoalHypothesis(h, t.conclusionOnDisk)
				if existing {
					hyps = append(hyps, text)
					continue
				}
				id, err := t.newStatement([]string{text}, nil)
				if err != nil {
					return err
				}
				hyps = append(hyps, "("+id+") "+text)
			}
			pid, err := t.newID(model.KindProblem)
			if err != nil {
				return err
			}
			parent, err := t.modify(a.Str("parent_problem_id"))
			if err != nil {
				return err
			}
			open := model.StatusWord(model.PhaseProblemOpen, model.P013)
			t.create(pid, model.NewProblem(pid, hyps, a.List("subproblem_objective"), open, a.Str("priority"), ""))
			appendStr(parent, "preliminaries", pid)
			return nil
		},
	},
	{
		Name: "prob-finish-up", Agents: "agent-solve",
		Summary: "Mark a problem solved by proved key statements",
		When:    "The statements that settle an open problem are all true.",
		Changes: "Sets the problem's status to solved (resolved in the later vocabulary), solution.full = resolution, solution.ref = the key statements, solution.cot = cot when given.",
		Target:  "problem_id",
		Params: []Param{
			{Name: "problem_id", Kind: ParamID, IDKind: model.KindProblem, Required: true, Help: "the open problem"},
			{Name: "resolution", Kind: ParamString, Required: true, Help: "how the objective follows from the key statements", Long: true},
			{Name: "key_statement_id", Kind: ParamIDs, IDKind: model.KindStatement, Required: true, Help: "the true statement(s) that resolve it (repeat)"},
			{Name: "cot", Kind: ParamStrings, Help: "the reasoning, step by step (repeat)"},
		},
		check: func(o Objects, a Args) error {
			const skill = "prob-finish-up"
			if err := problemOpen(skill, "problem_id")(o, a); err != nil {
				return err
			}
			for _, id := range a.List("key_statement_id") {
				st, err := needStatement(o, skill, id)
				if err != nil {
					return err
				}
				if st.Status != "true" {
					return &PreconditionError{Object: id, Status: st.Status, Skill: skill, Need: "every key statement true"}
				}
			}
			return nil
		},
		apply: func(t *tx, a Args) error {
			doc, err := t.modify(a.Str("problem_id"))
			if err != nil {
				return err
			}
			t.setPhase(doc, model.PhaseProblemSolved)
			if a.Has("cot") { // as the agents' command: an earlier solution.cot stays unless cot is given
				setIn(doc, "solution", "cot", pyjson.Strs(a.List("cot")))
			}
			setIn(doc, "solution", "full", pyjson.Str(a.Str("resolution")))
			setIn(doc, "solution", "ref", pyjson.Strs(a.List("key_statement_id")))
			return nil
		},
	},
	{
		Name: "state-complete-proof", Agents: "agent-prove",
		Summary: "Submit a proof of a statement for verification",
		When:    "A statement is pending (or its sub-statements are done, or a modification was proposed and awaits a new proof) and you have written its proof.",
		Changes: "Sets proof.full, and proof.cot and proof.ref when given; status awaiting_verification (validating); appends \"PROOF: <Strategy> proof with N steps <summary>\" to progresses (N counts the \"Step N:\" paragraphs).",
		Target:  "statement_id",
		Params: []Param{
			{Name: "statement_id", Kind: ParamID, IDKind: model.KindStatement, Required: true, Help: "the statement to prove"},
			{Name: "proof_text", Kind: ParamString, Required: true, Help: "the proof: a first sentence, then \"Step N:\" paragraphs, ending QED.", Long: true},
			{Name: "strategy", Kind: ParamString, Required: true, Enum: []string{"direct", "contradiction", "case_analysis", "backward"}, Help: "the proof strategy"},
			{Name: "proof_cot", Kind: ParamStrings, Help: "the reasoning behind the proof (repeat)"},
			{Name: "proof_ref", Kind: ParamIDs, IDKind: model.KindStatement, Help: "statements the proof cites (repeat)"},
			{Name: "summary", Kind: ParamString, Help: "what the proof shows, appended to the PROOF note", Long: true},
		},
		check: func(o Objects, a Args) error {
			const skill = "state-complete-proof"
			st, err := needStatement(o, skill, a.Str("statement_id"))
			if err != nil {
				return err
			}
			switch ph := statementPhase(o, st); {
			case ph == model.PhaseNeedsProof:
			case ph == model.PhaseAwaitingSubs && subsDone(o, st):
			case ph == model.PhaseAwaitingCheck && st.Status == "validating" && st.Proof.Empty() && len(st.Preliminaries) > 0:
				// P014 keeps a decomposed statement "validating"; once its sub-statements are
				// true the counts say "check", but there is no proof yet: the prover writes it.
			case modificationProposed(st) && !ph.Decided():
				// A proposed modification awaits a new proof by agent-prove (agent-fix.md);
				// the agents' scripts write it whatever the counts say.
			default:
				need := "a statement open for proving (pending, with every sub-statement true, or under a proposed modification)"
				return &PreconditionError{Object: st.ID, Status: st.Status, Skill: skill, Need: need, Phase: phaseWord(o, st)}
			}
			return nil
		},
		apply: func(t *tx, a Args) error {
			doc, err := t.modify(a.Str("statement_id"))
			if err != nil {
				return err
			}
			proof := a.Str("proof_text")
			// cot and ref only when given: the agents' command leaves an earlier proof's as they are.
			if a.Has("proof_cot") {
				setIn(doc, "proof", "cot", pyjson.Strs(a.List("proof_cot")))
			}
			setIn(doc, "proof", "full", pyjson.Str(proof))
			if a.Has("proof_ref") {
				setIn(doc, "proof", "ref", pyjson.Strs(a.List("proof_ref")))
			}
			t.setPhase(doc, model.PhaseAwaitingCheck)
			note := "PROOF: " + strategyWords[a.Str("strategy")] + " proof"
			if n := len(stepPattern.FindAllStringIndex(proof, -1)); n > 0 {
				note += fmt.Sprintf(" with %d steps", n)
			}
			if a.Has("summary") {
				note += " " + a.Str("summary")
			}
			appendStr(doc, "progresses", note)
			return nil
		},
	},
	{
		Name: "state-setup-substatement", Agents: "agent-prove, agent-fix",
		Summary: "Decompose a statement into sub-statements",
		When:    "A statement is open and easier to prove from smaller claims.",
		Changes: "Creates one pending statement per item; appends their IDs to the parent's preliminaries; parent status awaiting_substatements (validating); appends \"DECOMPOSED: Created … Rationale: …\".",
		Target:  "parent_statement_id",
		Params: []Param{
			{Name: "parent_statement_id", Kind: ParamID, IDKind: model.KindStatement, Required: true, Help: "the statement to decompose"},
			{Name: "sub_statements", Kind: ParamSubStatements, Required: true, Help: "a JSON list of {\"claim\": text, \"premises\": [text]}"},
			{Name: "rationale", Kind: ParamString, Required: true, Help: "why this decomposition helps", Long: true},
		},
		check: func(o Objects, a Args) error {
			const skill = "state-setup-substatement"
			st, err := needStatement(o, skill, a.Str("parent_statement_id"))
			if err != nil {
				return err
			}
			if ph, _, _ := model.StatusInfo(st.Status); ph.Decided() {
				return &PreconditionError{Object: st.ID, Status: st.Status, Skill: skill, Need: "an open statement (not true, false or abandoned)"}
			}
			return nil
		},
		apply: func(t *tx, a Args) error {
			var ids []string
			for _, sub := range a.Subs() {
				id, err := t.newStatement([]string{sub.Claim}, sub.Premises)
				if err != nil {
					return err
				}
				ids = append(ids, id)
			}
			doc, err := t.modify(a.Str("parent_statement_id"))
			if err != nil {
				return err
			}
			for _, id := range ids {
				appendStr(doc, "preliminaries", id)
			}
			t.setPhase(doc, model.PhaseAwaitingSubs)
			appendStr(doc, "progresses", "DECOMPOSED: Created "+strings.Join(ids, ", ")+". Rationale: "+a.Str("rationale"))
			return nil
		},
	},
	{
		Name: "state-mark-false", Agents: "agent-prove, agent-fix",
		Summary: "Mark a statement false with a counterexample",
		When:    "You found a counterexample to an undecided statement (as the prover, or as the fixer answering an issue).",
		Changes: "Status false; appends \"COUNTEREXAMPLE: …\" to progresses; with --issue-number also a \"Type: false\" response to that issue.",
		Target:  "statement_id",
		Params: []Param{
			{Name: "statement_id", Kind: ParamID, IDKind: model.KindStatement, Required: true, Help: "the statement refuted"},
			{Name: "counterexample", Kind: ParamString, Required: true, Help: "the counterexample", Long: true},
			{Name: "source", Kind: ParamString, Required: true, Enum: []string{"prove", "fix"}, Help: "which agent found it"},
			{Name: "issue_number", Kind: ParamInt, Help: "the issue that revealed it (fixer)"},
		},
		check: undecided("state-mark-false"),
		apply: func(t *tx, a Args) error {
			st, doc, err := t.modifyStatement(a.Str("statement_id"))
			if err != nil {
				return err
			}
			ce := a.Str("counterexample")
			doc.Set("status", pyjson.Str("false"))
			appendStr(doc, "progresses", "COUNTEREXAMPLE: "+ce)
			if a.Has("issue_number") {
				appendIn(doc, "validation", "responses", model.FormatFalseResponse(nextResponse(st), a.Int("issue_number"), ce))
			}
			return nil
		},
	},
	{
		Name: "state-propose-modification", Agents: "agent-prove, agent-fix",
		Summary: "Propose a changed claim or premises for a statement",
		When:    "An undecided statement is unprovable as stated but a stronger premise or weaker conclusion would hold.",
		Changes: "Status validating (needs_modification in the older vocabulary); appends \"MODIFICATION: Type=… | … | Rationale: …\" (\"MODIFICATION PROPOSED: …\" in the older vocabulary); with --issue-number also a \"Type: modification\" response.",
		Target:  "statement_id",
		Params: []Param{
			{Name: "statement_id", Kind: ParamID, IDKind: model.KindStatement, Required: true, Help: "the statement"},
			{Name: "modification_type", Kind: ParamString, Required: true, Enum: model.ModificationTypes, Help: "the kind of change"},
			{Name: "suggested_claim", Kind: ParamString, Help: "the revised claim", Long: true},
			{Name: "suggested_premises", Kind: ParamStrings, Help: "the revised premises (repeat)"},
			{Name: "rationale", Kind: ParamString, Required: true, Help: "why the change is needed", Long: true},
			{Name: "source", Kind: ParamString, Required: true, Enum: []string{"prove", "fix"}, Help: "which agent proposes it"},
			{Name: "issue_number", Kind: ParamInt, Help: "the issue that revealed it (fixer)"},
		},
		check: undecided("state-propose-modification"),
		apply: func(t *tx, a Args) error {
			st, doc, err := t.modifyStatement(a.Str("statement_id"))
			if err != nil {
				return err
			}
			change := modificationText(a)
			prefix := "MODIFICATION: "
			if t.vocabFor(statusOf(doc)) == model.P013 {
				prefix = "MODIFICATION PROPOSED: " // the seed-era agents' note
			}
			t.setPhase(doc, model.PhaseNeedsDecision)
			appendStr(doc, "progresses", prefix+"Type="+a.Str("modification_type")+" | "+change+" | Rationale: "+a.Str("rationale"))
			if a.Has("issue_number") {
				appendIn(doc, "validation", "responses", model.FormatModificationResponse(nextResponse(st), a.Int("issue_number"), a.Str("modification_type"), change))
			}
			return nil
		},
	},
	{
		Name: "check-confirm-proof", Agents: "agent-check",
		Summary: "Confirm a submitted proof or disproof: the statement becomes true, or false",
		When:    "You checked every sentence of a submitted proof (or disproof) and every issue has been answered.",
		Changes: "Proof: status true, \"VERIFIED: <summary>\". Disproof: status false, \"DISPROOF VERIFIED: <summary>\". Reliability 1.0 either way. Without --direction it is read from the proof's opening (\"We prove this statement as follows\" or \"This statement is wrong. We disprove as follows\", whatever header, quoting or emphasis is around it); when the opening does not say it, or says both, the call is refused and needs --direction.",
		Target:  "statement_id",
		Params: []Param{
			{Name: "statement_id", Kind: ParamID, IDKind: model.KindStatement, Required: true, Help: "the statement whose proof was checked"},
			{Name: "direction", Kind: ParamString, Enum: []string{model.DirectionProof, model.DirectionDisproof}, Help: "proof or disproof (default: read from the proof's first sentence)"},
			{Name: "verification_summary", Kind: ParamString, Help: "what was checked", Long: true},
		},
		check: proofSubmitted("check-confirm-proof", true),
		apply: func(t *tx, a Args) error {
			st, doc, err := t.modifyStatement(a.Str("statement_id"))
			if err != nil {
				return err
			}
			dir, why := ConfirmDirection(st, a)
			if dir == "" {
				return inputf("check-confirm-proof: %s: the direction cannot be read from the proof: %s; give --direction proof or --direction disproof", st.ID, why)
			}
			status, note, summary := "true", "VERIFIED: ", "Proof checked and confirmed."
			if dir == model.DirectionDisproof {
				status, note, summary = "false", "DISPROOF VERIFIED: ", "Disproof checked and confirmed."
			}
			how := "given"
			if !a.Has("direction") {
				how = "read from the proof's first sentence"
			}
			t.explain = append(t.explain, fmt.Sprintf("confirms a %s (%s): %s becomes %s", dir, how, st.ID, status))
			doc.Set("status", pyjson.Str(status))
			doc.Set("reliability", pyjson.Float(1))
			if a.Has("verification_summary") {
				summary = a.Str("verification_summary")
			}
			appendStr(doc, "progresses", note+summary)
			return nil
		},
	},
	{
		Name: "check-reject-proof", Agents: "agent-check",
		Summary: "Record a gap in a submitted proof at a sentence",
		When:    "A sentence of a submitted proof does not follow (or the statement sent to the checker has no proof to check).",
		Changes: "Appends \"[Issue #N] Sentence M: '…' | Type: … | Explanation: … | Fix: …\" to validation.issues; status has_gap (validating).",
		Target:  "statement_id",
		Params: []Param{
			{Name: "statement_id", Kind: ParamID, IDKind: model.KindStatement, Required: true, Help: "the statement whose proof was checked"},
			{Name: "sentence_number", Kind: ParamInt, Required: true, Help: "the number of the sentence with the gap"},
			{Name: "sentence_text", Kind: ParamString, Required: true, Help: "the sentence, quoted exactly", Long: true},
			{Name: "error_type", Kind: ParamString, Required: true, Enum: model.ErrorTypes, Help: "what kind of error"},
			{Name: "explanation", Kind: ParamString, Required: true, Help: "what is wrong", Long: true},
			{Name: "suggested_fix", Kind: ParamString, Required: true, Help: "what would fix it", Long: true},
		},
		check: func(o Objects, a Args) error {
			const skill = "check-reject-proof"
			// No proof is taken too: the orchestrator sends a statement under a proposed
			// modification to the checker before the prover's new proof (current.py).
			if err := proofSubmitted(skill, false)(o, a); err != nil {
				return err
			}
			if !a.Has("sentence_text") {
				return nil // asked before the form is filled: the quote is checked when given
			}
			st, err := needStatement(o, skill, a.Str("statement_id"))
			if err != nil {
				return err
			}
			if st.Proof.Blank() {
				return nil // nothing to quote from: the scripts take the sentence as given
			}
			return quoteInProof(st, a.Str("sentence_text"), a.Int("sentence_number"))
		},
		apply: func(t *tx, a Args) error {
			st, doc, err := t.modifyStatement(a.Str("statement_id"))
			if err != nil {
				return err
			}
			n := nextNumber(st.Issues, func(s string) int { return model.ParseIssue(s).Number })
			appendIn(doc, "validation", "issues", model.FormatIssue(n, a.Int("sentence_number"), a.Str("sentence_text"),
				a.Str("error_type"), a.Str("explanation"), a.Str("suggested_fix")))
			t.setPhase(doc, model.PhaseHasGap)
			return nil
		},
	},
	{
		Name: "fix-patch-proof", Agents: "agent-fix",
		Summary: "Answer an issue by rewriting the proof",
		When:    "An issue has no response and the proof can be repaired directly.",
		Changes: "Replaces proof.full; appends \"[Response #N] Fixes Issue #M | Type: patch | Change: …\"; status awaiting_verification (validating).",
		Target:  "statement_id",
		Params: []Param{
			{Name: "statement_id", Kind: ParamID, IDKind: model.KindStatement, Required: true, Help: "the statement"},
			{Name: "issue_number", Kind: ParamInt, Required: true, Help: "the issue this answers"},
			{Name: "updated_proof", Kind: ParamString, Required: true, Help: "the whole corrected proof", Long: true},
			{Name: "change_description", Kind: ParamString, Required: true, Help: "what was changed", Long: true},
		},
		check: issueOpen("fix-patch-proof", "statement_id"),
		apply: func(t *tx, a Args) error {
			st, doc, err := t.modifyStatement(a.Str("statement_id"))
			if err != nil {
				return err
			}
			setIn(doc, "proof", "full", pyjson.Str(a.Str("updated_proof")))
			appendIn(doc, "validation", "responses", model.FormatPatchResponse(nextResponse(st), a.Int("issue_number"), a.Str("change_description")))
			t.setPhase(doc, model.PhaseAwaitingCheck)
			return nil
		},
	},
	{
		Name: "fix-create-substatement", Agents: "agent-fix",
		Summary: "Answer an issue with a lemma that fills the gap",
		When:    "An issue has no response and the gap needs a claim of its own.",
		Changes: "Creates a pending statement; appends it to the parent's preliminaries; appends \"[Response #N] Fixes Issue #M | Type: substatement | SubID: … | Purpose: …\"; parent status validating (awaiting_substatement in the older vocabulary). No progress note, as the agents write none.",
		Target:  "parent_statement_id",
		Params: []Param{
			{Name: "parent_statement_id", Kind: ParamID, IDKind: model.KindStatement, Required: true, Help: "the statement with the gap"},
			{Name: "issue_number", Kind: ParamInt, Required: true, Help: "the issue this answers"},
			{Name: "sub_claim", Kind: ParamString, Required: true, Help: "the lemma's claim"},
			{Name: "sub_premises", Kind: ParamStrings, Help: "the lemma's premises (repeat)"},
			{Name: "gap_location", Kind: ParamString, Required: true, Help: "where the gap is, e.g. \"sentence 4\""},
			{Name: "purpose", Kind: ParamString, Required: true, Help: "how the lemma fills the gap", Long: true},
		},
		check: issueOpen("fix-create-substatement", "parent_statement_id"),
		apply: func(t *tx, a Args) error {
			id := a.Str("parent_statement_id")
			st, _ := t.Statement(id)
			sub, err := t.newStatement([]string{a.Str("sub_claim")}, a.List("sub_premises"))
			if err != nil {
				return err
			}
			doc, err := t.modify(id)
			if err != nil {
				return err
			}
			n := a.Int("issue_number")
			appendStr(doc, "preliminaries", sub)
			appendIn(doc, "validation", "responses", model.FormatSubstatementResponse(nextResponse(st), n, sub, a.Str("purpose")))
			status := model.StatusWord(model.PhaseAwaitingSubs, t.vocabFor(statusOf(doc)))
			if status == "awaiting_substatements" {
				status = "awaiting_substatement" // the fixer's own word (FORMAT.md)
			}
			doc.Set("status", pyjson.Str(status))
			return nil
		},
	},
	{
		Name: "decide-modification", Agents: "orchestrator, human",
		Summary: "Decide a proposed modification: accept it (a new statement replaces the old), or reject it",
		When:    "A statement's last note is a proposed modification (MODIFICATION) and nobody has decided it; the agents' orchestrator leaves this to a human.",
		Changes: "accept: creates a pending statement with the proposed claim and premises (or those given) where the old one stood (in place of it in the parent statement's preliminaries, or \"(s-NEW) <claim>\" appended to the parent problem's progresses), and abandons the old one with \"ABANDONED: Modification accepted (<type>): replaced by s-NEW.\"; false: status false, \"COUNTEREXAMPLE: <reason>\"; abandon: status abandoned, \"ABANDONED: Proposed modification rejected: <reason>\". One change; its log line records \"decision\".",
		Target:  "statement_id",
		Params: []Param{
			{Name: "statement_id", Kind: ParamID, IDKind: model.KindStatement, Required: true, Help: "the statement with the proposal"},
			{Name: "decision", Kind: ParamString, Required: true, Enum: Decisions, Help: "accept, or reject: false (as stated) or abandon (not needed)"},
			{Name: "parent_id", Kind: ParamID, Help: "accept: where the new statement goes (the old one's parent)"},
			{Name: "claim", Kind: ParamString, Help: "accept: the new claim (default: the proposed one)", Long: true},
			{Name: "premises", Kind: ParamStrings, Help: "accept: its premises (default: the proposed ones) (repeat)"},
			{Name: "reason", Kind: ParamString, Help: "false: the counterexample; abandon: why", Long: true},
		},
		check: func(o Objects, a Args) error {
			const skill = "decide-modification"
			st, err := needStatement(o, skill, a.Str("statement_id"))
			if err != nil {
				return err
			}
			p, ok := model.ProposalOf(st)
			if !ok {
				return &PreconditionError{Object: st.ID, Status: st.Status, Skill: skill, Need: "a proposed modification (a MODIFICATION note), and it has none"}
			}
			if !model.ProposalOpen(st) {
				return &PreconditionError{Object: st.ID, Status: st.Status, Skill: skill, Need: "a proposed modification nobody has decided, and it was decided: " + decidedBy(st, p)}
			}
			if a.Str("decision") == DecisionAccept && !a.Has("claim") && p.Claim == "" {
				return &PreconditionError{Object: st.ID, Status: st.Status, Skill: skill, Need: "a claim to accept, and the proposal gives none: give --claim"}
			}
			if pid := a.Str("parent_id"); pid != "" && a.Str("decision") == DecisionAccept {
				switch model.KindOf(pid) {
				case model.KindProblem:
					if _, err := needProblem(o, skill, pid); err != nil {
						return err
					}
				case model.KindStatement:
					if _, err := needStatement(o, skill, pid); err != nil {
						return err
					}
				default:
					return inputf("--parent-id: %q is neither a problem nor a statement", pid)
				}
			}
			return nil
		},
		apply: func(t *tx, a Args) error {
			id := a.Str("statement_id")
			st, doc, err := t.modifyStatement(id)
			if err != nil {
				return err
			}
			p, _ := model.ProposalOf(st)
			decision := a.Str("decision")
			t.extra = append(t.extra, pyjson.M("decision", pyjson.Str(decision)))
			switch decision {
			case DecisionFalse:
				reason := a.Str("reason")
				if reason == "" {
					reason = p.Rationale
				}
				doc.Set("status", pyjson.Str("false"))
				appendStr(doc, "progresses", "COUNTEREXAMPLE: "+reason)
				t.explain = append(t.explain, "rejects "+id+"'s proposed modification: the claim is false as stated")
				return nil
			case DecisionAbandon:
				doc.Set("status", pyjson.Str("abandoned"))
				appendStr(doc, "progresses", "ABANDONED: Proposed modification rejected: "+a.Str("reason"))
				t.explain = append(t.explain, "rejects "+id+"'s proposed modification: "+id+" is no longer needed")
				return nil
			}
			claim, premises := p.Claim, p.Premises
			if a.Has("claim") {
				claim = a.Str("claim")
			}
			if a.Has("premises") {
				premises = a.List("premises")
			} else if len(premises) == 0 {
				premises = st.Hypothesis
			}
			nid, err := t.newStatement([]string{claim}, premises)
			if err != nil {
				return err
			}
			doc.Set("status", pyjson.Str("abandoned"))
			typ := p.ModType
			if typ == "" {
				typ = "modification"
			}
			appendStr(doc, "progresses", "ABANDONED: Modification accepted ("+typ+"): replaced by "+nid+".")
			t.explain = append(t.explain, "accepts "+id+"'s proposed modification: "+nid+" takes its place, for agent-prove; "+id+" is settled as abandoned")
			switch pid := a.Str("parent_id"); model.KindOf(pid) {
			case model.KindProblem:
				pdoc, err := t.modify(pid)
				if err != nil {
					return err
				}
				appendStr(pdoc, "progresses", "("+nid+") "+claim)
			case model.KindStatement:
				pdoc, err := t.modify(pid)
				if err != nil {
					return err
				}
				replacePreliminary(pdoc, id, nid)
			default:
				t.explain = append(t.explain, nid+" hangs under nothing (no parent given): attach it by hand")
			}
			return nil
		},
	},
	{
		Name: "abandon", Agents: "orchestrator, human",
		Summary: "Abandon a statement that is out of scope or no longer needed",
		When:    "A statement no longer matters to any problem (later vocabulary).",
		Changes: "Status abandoned; appends \"ABANDONED: <reason>\" to progresses when a reason is given.",
		Target:  "statement_id",
		Params: []Param{
			{Name: "statement_id", Kind: ParamID, IDKind: model.KindStatement, Required: true, Help: "the statement"},
			{Name: "reason", Kind: ParamString, Help: "why it is abandoned", Long: true},
		},
		check: func(o Objects, a Args) error {
			st, err := needStatement(o, "abandon", a.Str("statement_id"))
			if err != nil {
				return err
			}
			if st.Status == "abandoned" {
				return &PreconditionError{Object: st.ID, Status: st.Status, Skill: "abandon", Need: "a statement not already abandoned"}
			}
			return nil
		},
		apply: func(t *tx, a Args) error {
			doc, err := t.modify(a.Str("statement_id"))
			if err != nil {
				return err
			}
			doc.Set("status", pyjson.Str("abandoned"))
			if a.Has("reason") {
				appendStr(doc, "progresses", "ABANDONED: "+a.Str("reason"))
			}
			return nil
		},
	},
}
