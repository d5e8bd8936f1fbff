package skill

import (
	"fmt"
	"slices"
	"strings"

	"referee/model"
)

// The preconditions the skills share: each refuses with a PreconditionError naming the
// object, its status and what the skill needs.

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

// ModificationProposed tells whether a statement's latest proposal is a modification
// no proof has followed: a MODIFICATION note after the last PROOF note.
func ModificationProposed(st *model.Statement) bool {
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
