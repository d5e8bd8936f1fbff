package tui

import (
	"fmt"
	"strconv"
	"strings"

	"referee/model"
	"referee/store"
)

// preview says what a change will write, field by field, in the words the agents'
// files use. It mirrors the skills' effects (store/skills.go) from the snapshot the
// reviewer sees; the store re-checks everything under its lock when y is pressed.
func (m *Model) preview(ch *change) []string {
	a := ch.args
	snap := m.snap
	var out []string
	add := func(format string, args ...any) { out = append(out, fmt.Sprintf(format, args...)) }
	q := func(s string) string { return strconv.Quote(model.SanitizeLine(s)) }
	st := snap.Statements[ch.target]
	pr := snap.Problems[ch.target]
	status := func(ph model.Phase) string {
		cur := ""
		if st != nil {
			cur = st.Status
		} else if pr != nil {
			cur = pr.Status
		}
		v := snap.Vocab
		if _, ov, known := model.StatusInfo(cur); known && ov != model.VocabUnknown {
			v = ov
		}
		if v == model.VocabUnknown {
			v = model.P013
		}
		return fmt.Sprintf("status: %s → %s", q(cur), q(model.StatusWord(ph, v)))
	}
	nextID := func(kind string, skip int) string {
		last := kind + "-000"
		if snap.Config != nil && snap.Config.Last[kind] != "" {
			last = snap.Config.Last[kind]
		}
		id := last
		for range skip + 1 {
			if n, err := model.NextID(id); err == nil {
				id = n
			}
		}
		return id
	}
	nextResp := func() int {
		n := 0
		if st != nil {
			n = len(st.Responses)
			for _, r := range st.Responses {
				n = max(n, model.ParseResponse(r).Number)
			}
		}
		return n + 1
	}
	switch ch.skill.Name {
	case "check-confirm-proof":
		add("%s", status(model.PhaseProved))
		add("reliability: → 1.0")
		sum := a.Str("verification_summary")
		if sum == "" {
			sum = "Proof checked and confirmed."
		}
		add("progresses += %s", q("VERIFIED: "+sum))
	case "check-reject-proof":
		n := 1
		if st != nil {
			n = len(st.Issues)
			for _, s := range st.Issues {
				n = max(n, model.ParseIssue(s).Number)
			}
			n++
		}
		add("validation.issues += %s", q(model.FormatIssue(n, a.Int("sentence_number"), a.Str("sentence_text"), a.Str("error_type"), a.Str("explanation"), a.Str("suggested_fix"))))
		add("%s", status(model.PhaseHasGap))
	case "state-mark-false":
		add("status: → \"false\"")
		add("progresses += %s", q("COUNTEREXAMPLE: "+a.Str("counterexample")))
		if a.Has("issue_number") {
			add("validation.responses += %s", q(model.FormatFalseResponse(nextResp(), a.Int("issue_number"), a.Str("counterexample"))))
		}
	case "state-propose-modification":
		var parts []string
		if a.Has("suggested_claim") {
			parts = append(parts, "Claim: "+a.Str("suggested_claim"))
		}
		if a.Has("suggested_premises") {
			parts = append(parts, "Premises: "+strings.Join(a.List("suggested_premises"), "; "))
		}
		change := strings.Join(parts, "; ")
		if change == "" {
			change = "No new wording given"
		}
		add("%s", status(model.PhaseNeedsDecision))
		add("progresses += %s", q("MODIFICATION PROPOSED: Type="+a.Str("modification_type")+" | "+change+" | Rationale: "+a.Str("rationale")))
		if a.Has("issue_number") {
			add("validation.responses += %s", q(model.FormatModificationResponse(nextResp(), a.Int("issue_number"), a.Str("modification_type"), change)))
		}
	case "fix-patch-proof":
		old := ""
		if st != nil {
			old = st.Proof.Full
		}
		add("proof.full: replaced (%d → %d sentences, %d → %d lines)", len(model.SplitSentences(old)), len(model.SplitSentences(a.Str("updated_proof"))),
			strings.Count(old, "\n")+1, strings.Count(a.Str("updated_proof"), "\n")+1)
		add("validation.responses += %s", q(model.FormatPatchResponse(nextResp(), a.Int("issue_number"), a.Str("change_description"))))
		add("%s", status(model.PhaseAwaitingCheck))
	case "state-complete-proof":
		add("proof.full: set (%d sentences)", len(model.SplitSentences(a.Str("proof_text"))))
		add("%s", status(model.PhaseAwaitingCheck))
		add("progresses += \"PROOF: …\" (%s)", a.Str("strategy"))
	case "state-setup-substatement":
		var ids []string
		for i, sub := range a.Subs() {
			id := nextID(model.KindStatement, i)
			ids = append(ids, id)
			add("create %s (normal, pending): %s", id, q(sub.Claim))
		}
		add("preliminaries += %s", strings.Join(ids, ", "))
		add("%s", status(model.PhaseAwaitingSubs))
		add("progresses += %s", q("DECOMPOSED: Created "+strings.Join(ids, ", ")+". Rationale: "+a.Str("rationale")))
	case "fix-create-substatement":
		id := nextID(model.KindStatement, 0)
		add("create %s (normal, pending): %s", id, q(a.Str("sub_claim")))
		add("preliminaries += %s", id)
		add("validation.responses += %s", q(model.FormatSubstatementResponse(nextResp(), a.Int("issue_number"), id, a.Str("purpose"))))
		add("progresses += %s", q(fmt.Sprintf("DECOMPOSED: %s fills the gap at %s (Issue #%d)", id, a.Str("gap_location"), a.Int("issue_number"))))
		add("%s", status(model.PhaseAwaitingSubs))
	case "prob-wrapup-statement":
		id := nextID(model.KindStatement, 0)
		add("create %s (normal, pending): %s", id, q(strings.Join(a.List("claim"), "; ")))
		add("%s.progresses += %s", ch.target, q("("+id+") "+strings.Join(a.List("claim"), "; ")))
	case "prob-setup-subgoal":
		n := 0
		for _, h := range a.List("subproblem_hypothesis") {
			if rid, ok := model.RefID(h); ok && strings.HasPrefix(h, "(") && snap.Statements[rid] != nil {
				continue
			}
			add("create %s (pending): %s", nextID(model.KindStatement, n), q(h))
			n++
		}
		pid := nextID(model.KindProblem, 0)
		add("create %s (unresolved): %s", pid, q(strings.Join(a.List("subproblem_objective"), "; ")))
		add("%s.preliminaries += %s", ch.target, pid)
	case "prob-finish-up":
		add("%s", status(model.PhaseProblemSolved))
		add("solution.full = %s", q(a.Str("resolution")))
		add("solution.ref = %s", strings.Join(a.List("key_statement_id"), ", "))
		if a.Has("cot") {
			add("solution.cot = %d items", len(a.List("cot")))
		}
	case "abandon":
		add("status: → \"abandoned\"")
		if a.Has("reason") {
			add("progresses += %s", q("ABANDONED: "+a.Str("reason")))
		}
	}
	l := nextID(model.KindChange, 0)
	add("backup history/%s/%s.json · log %s by %s", l, ch.target, l, m.actor)
	return out
}

// argLines lists a change's exact arguments, as the skill receives them.
func argLines(ch *change) []string {
	var out []string
	if ch.skill == nil {
		return nil
	}
	for _, p := range ch.skill.Params {
		v, ok := ch.args[p.Name]
		if !ok {
			continue
		}
		var s string
		switch x := v.(type) {
		case string:
			s = strconv.Quote(model.SanitizeLine(x))
		case []string:
			var qs []string
			for _, it := range x {
				qs = append(qs, strconv.Quote(model.SanitizeLine(it)))
			}
			s = "[" + strings.Join(qs, ", ") + "]"
		case int:
			s = strconv.Itoa(x)
		case []store.SubStatement:
			var qs []string
			for _, sub := range x {
				qs = append(qs, fmt.Sprintf("{claim: %q, premises: %d}", model.SanitizeLine(sub.Claim), len(sub.Premises)))
			}
			s = "[" + strings.Join(qs, ", ") + "]"
		default:
			s = model.SanitizeLine(fmt.Sprint(x))
		}
		out = append(out, "--"+p.Flag()+" "+s)
	}
	return out
}
