package model

import (
	"testing"

	"referee/model/pyjson"
)

func TestGuessSkill(t *testing.T) {
	stmt := func(status, extra string) string {
		return `{"id": "s-1", "status": "` + status + `", "preliminaries": [], "progresses": [], ` + extra + `"proof": {"full": ""}, "validation": {"issues": [], "responses": []}}`
	}
	for _, c := range []struct {
		name, before, after, want string
	}{
		{"reject", stmt("awaiting_verification", ""), `{"id": "s-1", "status": "has_gap", "preliminaries": [], "progresses": [], "proof": {"full": ""}, "validation": {"issues": ["[Issue #1] Sentence 1: 'x' | Type: gap | Explanation: e | Fix: f"], "responses": []}}`, "check-reject-proof"},
		{"patch", stmt("has_gap", ""), `{"id": "s-1", "status": "awaiting_verification", "preliminaries": [], "progresses": [], "proof": {"full": "new"}, "validation": {"issues": [], "responses": ["[Response #1] Fixes Issue #1 | Type: patch | Change: c"]}}`, "fix-patch-proof"},
		{"prove", stmt("pending", ""), `{"id": "s-1", "status": "awaiting_verification", "preliminaries": [], "progresses": ["PROOF: direct"], "proof": {"full": "p"}, "validation": {"issues": [], "responses": []}}`, "state-complete-proof"},
		{"prove without a note", stmt("pending", ""), `{"id": "s-1", "status": "validating", "preliminaries": [], "progresses": [], "proof": {"full": "p"}, "validation": {"issues": [], "responses": []}}`, "state-complete-proof"},
		{"confirm", stmt("validating", ""), `{"id": "s-1", "status": "true", "preliminaries": [], "progresses": [], "proof": {"full": ""}, "validation": {"issues": [], "responses": []}}`, "check-confirm-proof"},
		{"refute", stmt("pending", ""), `{"id": "s-1", "status": "false", "preliminaries": [], "progresses": ["COUNTEREXAMPLE: n = 3"], "proof": {"full": ""}, "validation": {"issues": [], "responses": []}}`, "state-mark-false"},
		{"propose", stmt("has_gap", ""), `{"id": "s-1", "status": "needs_modification", "preliminaries": [], "progresses": ["MODIFICATION PROPOSED: Type=add_condition | c | Rationale: r"], "proof": {"full": ""}, "validation": {"issues": [], "responses": []}}`, "state-propose-modification"},
		{"abandon", stmt("has_gap", ""), `{"id": "s-1", "status": "abandoned", "preliminaries": [], "progresses": [], "proof": {"full": ""}, "validation": {"issues": [], "responses": []}}`, "abandon"},
		{"decompose", stmt("pending", ""), `{"id": "s-1", "status": "awaiting_substatements", "preliminaries": ["s-2"], "progresses": [], "proof": {"full": ""}, "validation": {"issues": [], "responses": []}}`, "state-setup-substatement"},
		{"nothing telling", stmt("pending", `"type": "normal", `), stmt("pending", `"type": "assumption", `), ""},
	} {
		oc := CompareVersions("s-1", Modified, mustParse(t, c.before), mustParse(t, c.after))
		if got := GuessSkill([]ObjectChange{oc}, nil); got != c.want {
			t.Errorf("%s: guessed %q, want %q", c.name, got, c.want)
		}
	}
	problem := func(status, prelims, progresses string) pyjson.Value {
		return mustParse(t, `{"id": "p-1", "status": "`+status+`", "preliminaries": [`+prelims+`], "progresses": [`+progresses+`]}`)
	}
	for _, c := range []struct {
		name   string
		before pyjson.Value
		after  pyjson.Value
		want   string
	}{
		{"finish", problem("unresolved", "", ""), problem("resolved", "", ""), "prob-finish-up"},
		{"subgoal", problem("unresolved", "", ""), problem("unresolved", `"p-002"`, ""), "prob-setup-subgoal"},
		{"wrap-up", problem("unresolved", "", ""), problem("unresolved", "", `"(s-004) claim"`), "prob-wrapup-statement"},
	} {
		oc := CompareVersions("p-1", Modified, c.before, c.after)
		if got := GuessSkill([]ObjectChange{oc}, nil); got != c.want {
			t.Errorf("%s: guessed %q, want %q", c.name, got, c.want)
		}
	}
	deleted := CompareVersions("s-1", Deleted, mustParse(t, stmt("pending", "")), pyjson.Value{})
	if got := GuessSkill([]ObjectChange{deleted}, nil); got != "undo" {
		t.Errorf("deleted: %q", got)
	}
	// A statement created on its own: what it hangs under now tells.
	created := CompareVersions("s-2", Created, pyjson.Value{}, mustParse(t, stmt("pending", "")))
	g := &Graph{In: map[string][]Edge{"s-2": {{From: "s-1", To: "s-2", Kind: EdgeSub}}}}
	if got := GuessSkill([]ObjectChange{created}, g); got != "state-setup-substatement" || GuessSkill([]ObjectChange{created}, &Graph{}) != "" {
		t.Errorf("created alone: %q", got)
	}
	if created.From != "" || created.To != "pending" || created.Fields != nil {
		t.Errorf("created: %+v", created)
	}
}
