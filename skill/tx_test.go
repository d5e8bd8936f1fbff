package skill

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"referee/model"
	"referee/model/pyjson"
)

// memTx is a change in memory: the registry needs nothing else to run a skill, which is
// what keeps it apart from the folder on disk.
type memTx struct {
	docs              map[string]*pyjson.Value
	created, modified []string
	last              map[string]string
	explain           []string
	log               []pyjson.Member
}

func newMemTx(docs ...pyjson.Value) *memTx {
	t := &memTx{docs: map[string]*pyjson.Value{}, last: map[string]string{}}
	for _, d := range docs {
		id, _ := d.Get("id")
		t.docs[id.Str] = &d
		kind := model.KindOf(id.Str)
		if id.Str > t.last[kind] {
			t.last[kind] = id.Str
		}
	}
	return t
}

func (t *memTx) Statement(id string) (*model.Statement, error) {
	if d := t.docs[id]; d != nil {
		return model.StatementFrom(*d), nil
	}
	return nil, nil
}

func (t *memTx) Problem(id string) (*model.Problem, error) {
	if d := t.docs[id]; d != nil {
		return model.ProblemFrom(*d), nil
	}
	return nil, nil
}

func (t *memTx) Modify(id string) (*pyjson.Value, error) {
	d := t.docs[id]
	if d == nil {
		return nil, inputf("%s does not exist", id)
	}
	if !slices.Contains(t.created, id) && !slices.Contains(t.modified, id) {
		t.modified = append(t.modified, id)
	}
	return d, nil
}

func (t *memTx) Create(id string, doc pyjson.Value) {
	t.docs[id] = &doc
	t.created = append(t.created, id)
}

func (t *memTx) NewID(kind string) (string, error) {
	last, ok := t.last[kind]
	if !ok {
		last = kind + "-000"
	}
	id, err := model.NextID(last)
	t.last[kind] = id
	return id, err
}

func (t *memTx) Vocab(status string) model.Vocab {
	if _, v, _ := model.StatusInfo(status); v != model.VocabUnknown {
		return v
	}
	return model.P014
}

func (t *memTx) Conclusion(id string) (string, bool) {
	if d := t.docs[id]; d != nil && model.KindOf(id) == model.KindStatement {
		return model.ConclusionText(*d)
	}
	return "", false
}

func (t *memTx) Explain(line string)            { t.explain = append(t.explain, line) }
func (t *memTx) Log(key string, v pyjson.Value) { t.log = append(t.log, pyjson.M(key, v)) }

func apply(t *testing.T, tx *memTx, name string, a Args) error {
	t.Helper()
	s, ok := Lookup(name)
	if !ok {
		t.Fatalf("no skill %s", name)
	}
	if err := s.Validate(a); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return s.Apply(tx, a)
}

func openProblem() pyjson.Value {
	return model.NewProblem("p-001", []string{"(s-001) Each player is a Knight or a Knave"}, []string{"Find Alice's role"}, "unresolved", "", "")
}

func assumption() pyjson.Value {
	return model.NewStatement("s-001", "assumption", []string{"Each player is a Knight or a Knave"}, nil, "true")
}

// A wrap-up creates the statement through the Tx, its "(s-001)" premise written out as
// the agents' state.py does, and notes it in the problem's progresses.
func TestApplyWritesThroughTheTx(t *testing.T) {
	tx := newMemTx(openProblem(), assumption())
	if err := apply(t, tx, "prob-wrapup-statement", Args{"problem_id": "p-001", "claim": []string{"Alice is a Knave"}, "premises": []string{"(s-001)"}}); err != nil {
		t.Fatal(err)
	}
	if strings.Join(tx.created, ",") != "s-002" || strings.Join(tx.modified, ",") != "p-001" {
		t.Fatalf("created %v, modified %v", tx.created, tx.modified)
	}
	st, _ := tx.Statement("s-002")
	if st.Status != "pending" || st.Claim() != "Alice is a Knave" || strings.Join(st.Hypothesis, "|") != "(s-001) Each player is a Knight or a Knave" {
		t.Fatalf("s-002: %q %q %q", st.Status, st.Claim(), st.Hypothesis)
	}
	p, _ := tx.Problem("p-001")
	if got := strings.Join(p.Progresses, "|"); got != "(s-002) Alice is a Knave" {
		t.Fatalf("p-001 progresses %q", got)
	}
}

// A subgoal's hypothesis naming a statement this same change created finds no file, as
// prob.py finds none: its text becomes one more new statement.
func TestSubgoalHypothesisNamingANewStatement(t *testing.T) {
	tx := newMemTx(openProblem(), assumption())
	err := apply(t, tx, "prob-setup-subgoal", Args{"parent_problem_id": "p-001", "subproblem_objective": []string{"O"},
		"subproblem_hypothesis": []string{"(s-001)", "Alice speaks", "(s-002) Ivy speaks"}, "rationale": "r"})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(tx.created, ",") != "s-002,s-003,p-002" {
		t.Fatalf("created %v", tx.created)
	}
	p, _ := tx.Problem("p-002")
	if got := strings.Join(p.Hypothesis, "|"); got != "(s-001) Each player is a Knight or a Knave|(s-002) Alice speaks|(s-003) Ivy speaks" {
		t.Fatalf("p-002 hypotheses %q", got)
	}
}

// A refused precondition writes nothing; a decision says what it does (Explain) and
// leaves its key for the log line (Log).
func TestApplyRefusesOrExplains(t *testing.T) {
	tx := newMemTx(openProblem(), assumption())
	err := apply(t, tx, "abandon", Args{"statement_id": "s-009"})
	var pe *PreconditionError
	if !errors.As(err, &pe) || err.Error() != "abandon: s-009 does not exist" || len(tx.modified)+len(tx.created) != 0 {
		t.Fatalf("abandon of a missing statement: %v (modified %v)", err, tx.modified)
	}
	st := model.NewStatement("s-002", "normal", []string{"Alice is a Knave"}, nil, "validating")
	st.Set("progresses", pyjson.Strs([]string{"MODIFICATION: Type=add_condition | Claim: Alice is a Spy | Rationale: r"}))
	tx = newMemTx(openProblem(), assumption(), st)
	if err := apply(t, tx, "decide-modification", Args{"statement_id": "s-002", "decision": DecisionFalse, "reason": "Alice is a Knight"}); err != nil {
		t.Fatal(err)
	}
	got, _ := tx.Statement("s-002")
	if got.Status != "false" || got.Progresses[len(got.Progresses)-1] != "COUNTEREXAMPLE: Alice is a Knight" {
		t.Fatalf("s-002: %q %q", got.Status, got.Progresses)
	}
	if len(tx.log) != 1 || tx.log[0].Key != "decision" || tx.log[0].Value.Str != DecisionFalse {
		t.Fatalf("log keys %v", tx.log)
	}
	if strings.Join(tx.explain, "|") != "rejects s-002's proposed modification: the claim is false as stated" {
		t.Fatalf("explain %q", tx.explain)
	}
}
