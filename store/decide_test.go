package store

import (
	"errors"
	"strings"
	"testing"

	"referee/internal/testutil"
	"referee/model"
	"referee/model/pyjson"
	"referee/skill"
)

// The demo's s-016 proposes a modification. Accepting it is one change: a new pending
// statement with the proposed claim and premises under s-016's problem, s-016 abandoned
// as replaced, the decision on the log line. The same decision again is refused, saying
// how it was decided.
func TestDecideModificationAcceptOnce(t *testing.T) {
	dir := testutil.Copy(t, testutil.DemoDir())
	res := mustRun(t, dir, "decide-modification", skill.Args{"statement_id": "s-016", "decision": skill.DecisionAccept, "parent_id": "p-002"})
	if strings.Join(res.Created, ",") != "s-018" || strings.Join(res.Modified, ",") != "s-016,p-002" {
		t.Fatalf("created %v, modified %v", res.Created, res.Modified)
	}
	doc, _ := pyjson.Parse([]byte(read(t, dir, "statement/s-018.json")))
	st := model.StatementFrom(doc)
	if st.Status != "pending" || st.Claim() != "The sum $\\sum_{k=1}^n k^3$ is odd" ||
		strings.Join(st.Hypothesis, " | ") != "$n \\ge 1$ is an integer | $n \\equiv 1 \\pmod{4}$ or $n \\equiv 2 \\pmod{4}$" {
		t.Fatalf("s-018: %q %q %q", st.Status, st.Claim(), st.Hypothesis)
	}
	doc, _ = pyjson.Parse([]byte(read(t, dir, "statement/s-016.json")))
	old := model.StatementFrom(doc)
	if old.Status != "abandoned" || old.Progresses[len(old.Progresses)-1] != "ABANDONED: Modification accepted (add_condition): replaced by s-018." {
		t.Fatalf("s-016: %q %q", old.Status, old.Progresses[len(old.Progresses)-1])
	}
	if p := read(t, dir, "problem/p-002.json"); !strings.Contains(p, `"(s-018) The sum $\\sum_{k=1}^n k^3$ is odd"`) {
		t.Fatalf("p-002 does not list s-018:\n%s", p)
	}
	if line := lastLogLine(t, dir); !strings.Contains(line, `"skill": "decide-modification", "decision": "accept"`) {
		t.Fatalf("log line %s", line)
	}
	err := runErr(t, dir, "decide-modification", skill.Args{"statement_id": "s-016", "decision": skill.DecisionAccept, "parent_id": "p-002"})
	var pe *skill.PreconditionError
	if !errors.As(err, &pe) || !strings.Contains(err.Error(), "nobody has decided, and it was decided: s-016 is abandoned (ABANDONED: Modification accepted") {
		t.Fatalf("deciding again: %v", err)
	}
}

// A gap quoting a sentence the proof does not hold is refused, with what the numbered
// sentence reads; a shortened quote ("…") is taken.
func TestRejectRefusesAQuoteNotInTheProof(t *testing.T) {
	dir := testutil.Copy(t, testutil.DemoDir())
	a := skill.Args{"statement_id": "s-014", "sentence_number": 1, "sentence_text": "Not a sentence of it.", "error_type": "gap",
		"explanation": "e", "suggested_fix": "f"}
	err := runErr(t, dir, "check-reject-proof", a)
	if err == nil || !strings.Contains(err.Error(), "--sentence-text: “Not a sentence of it.” is not in s-014's proof") ||
		!strings.Contains(err.Error(), "sentence 1 reads “We factor out the common square") {
		t.Fatalf("a quote not in the proof: %v", err)
	}
	a["sentence_text"] = "We factor out … square"
	mustRun(t, dir, "check-reject-proof", a)
}

// A refusal of a P014 "validating" statement says the phase the badge shows.
func TestRefusalSaysThePhase(t *testing.T) {
	dir := testutil.Copy(t, testutil.DemoDir())
	err := runErr(t, dir, "check-confirm-proof", skill.Args{"statement_id": "s-015"})
	if err == nil || err.Error() != `check-confirm-proof: s-015 has a gap (status "validating"); it needs a submitted proof awaiting verification` {
		t.Fatalf("refusal %v", err)
	}
}
