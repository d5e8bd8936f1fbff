package install

import (
	"strings"

	"referee/model"
	"referee/skill"
)

// A group is what one referee call does: for a skill that creates objects, the script calls
// that create them and the one that links them (their "Step 1" and "Step 2"); for the
// others, one script call.
type group struct {
	creates []*call
	update  *call // nil when the file ends on creates
}

// referee call worked out from a group: the parameters, and what it creates and modifies
// (for the "Output:" line).
type refCall struct {
	args     skill.Args
	created  []string
	modified []string
}

// translator maps the groups of one skill; hyp is the parameter their --hypothesis
// becomes ("" when the skill takes none).
type translator struct {
	creates bool
	hyp     string
	do      func(g group) ([]refCall, error)
}

// placeholder stands for a parameter referee needs and their sample leaves out, in the
// bracketed style of their own templates.
func placeholder(name string) string { return "[" + name + "]" }

// idOr returns the ID a call names, or a placeholder.
func idOr(c *call, param string) string {
	if c == nil {
		return placeholder(param)
	}
	if id := c.one("id"); id != "" {
		return id
	}
	return placeholder(param)
}

func trimPrefixes(s string, prefixes ...string) (string, bool) {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return strings.TrimSpace(strings.TrimPrefix(s, p)), true
		}
	}
	return s, false
}

// createdIDs are the new objects a link call appends to preliminaries (their "s-XXX").
func createdIDs(c *call, kind string, n int) []string {
	var ids []string
	if c != nil && c.has("preliminaries") {
		for _, v := range c.list("preliminaries") {
			if patterns().placeholderID.MatchString(v) || model.ValidID(v, kind) {
				ids = append(ids, v)
			}
		}
	}
	for len(ids) < n {
		ids = append(ids, kind+"-"+[]string{"XXX", "YYY", "ZZZ"}[min(len(ids), 2)])
	}
	return ids
}

// statementCreate reads `src/state.py --type normal --conclusion … --hypothesis Overwrite …`.
func statementCreate(c *call) (claim, premises []string, err error) {
	if c.script != "state" {
		return nil, nil, unmappedf("src/%s.py without --id where the skill creates a statement", c.script)
	}
	if err := c.allow("type", "normal"); err != nil {
		return nil, nil, err
	}
	claim, premises = c.list("conclusion"), c.list("hypothesis")
	if len(claim) == 0 {
		return nil, nil, unmappedf("src/state.py creates a statement without --conclusion")
	}
	return claim, premises, nil
}

// responseOf reads the one response a call appends, with the type it must have.
func responseOf(c *call, typ string) (model.Response, bool, error) {
	f := c.get("validation.responses")
	if f == nil {
		return model.Response{}, false, nil
	}
	if len(f.values) != 1 {
		return model.Response{}, false, unmappedf("src/state.py --validation.responses with %d items", len(f.values))
	}
	r := model.ParseResponse(f.values[0])
	if r.Type != typ || r.Fixes == 0 {
		return model.Response{}, false, unmappedf("a response %q where the skill writes a %q response", f.values[0], typ)
	}
	return r, true, nil
}

// oneNote reads the one progress note a call appends.
func oneNote(c *call) (string, error) {
	f := c.get("progresses")
	if f == nil {
		return "", nil
	}
	if len(f.values) != 1 {
		return "", unmappedf("src/%s.py --progresses with %d items", c.script, len(f.values))
	}
	return f.values[0], nil
}

func needUpdate(g group, script string) (*call, error) {
	c := g.update
	if c == nil {
		return nil, nil
	}
	if c.script != script {
		return nil, unmappedf("src/%s.py --id where the skill changes a %s", c.script, map[string]string{"state": "statement", "prob": "problem"}[script])
	}
	return c, nil
}

var strategies = map[string]string{"direct": "direct", "contradiction": "contradiction", "case analysis": "case_analysis",
	"case_analysis": "case_analysis", "backward": "backward"}

// translators hold, skill by skill (registry names), how their script calls become the
// referee call: which flag feeds which parameter, and which flags referee's skill writes
// itself (their status, reliability, links and notes).
var translators = map[string]translator{
	"prob-wrapup-statement": {creates: true, hyp: "premises", do: func(g group) ([]refCall, error) {
		link, err := needUpdate(g, "prob")
		if err != nil {
			return nil, err
		}
		pid := idOr(link, "problem_id")
		if link != nil {
			link.get("progresses") // referee appends "(s-NEW) claim" itself
		}
		var out []refCall
		for i, c := range g.creates {
			claim, premises, err := statementCreate(c)
			if err != nil {
				return nil, err
			}
			a := skill.Args{"problem_id": pid, "claim": claim}
			if premises != nil {
				a["premises"] = premises
			}
			out = append(out, refCall{args: a, created: []string{"s-" + []string{"XXX", "YYY", "ZZZ"}[min(i, 2)]}, modified: []string{pid}})
		}
		if len(out) == 0 {
			return nil, unmappedf("the link to the problem without the call that creates the statement")
		}
		return out, nil
	}},
	"prob-setup-subgoal": {creates: true, hyp: "subproblem_hypothesis", do: func(g group) ([]refCall, error) {
		if len(g.creates) != 1 || g.creates[0].script != "prob" {
			return nil, unmappedf("the subproblem is not created by one src/prob.py call")
		}
		c := g.creates[0]
		link, err := needUpdate(g, "prob")
		if err != nil {
			return nil, err
		}
		if err := c.allow("status", "unresolved", "open"); err != nil {
			return nil, err
		}
		a := skill.Args{"parent_problem_id": idOr(link, "parent_problem_id"), "subproblem_objective": c.list("objectives")}
		if h := c.list("hypothesis"); h != nil {
			a["subproblem_hypothesis"] = h
		}
		a["rationale"] = placeholder("rationale")
		if p := c.one("priority"); p != "" {
			a["priority"] = p
		}
		if len(c.list("objectives")) == 0 {
			return nil, unmappedf("src/prob.py creates a problem without --objectives")
		}
		return []refCall{{args: a, created: createdIDs(link, model.KindProblem, 1), modified: []string{a.Str("parent_problem_id")}}}, nil
	}},
	"prob-finish-up": {do: func(g group) ([]refCall, error) {
		c, err := needUpdate(g, "prob")
		if err != nil || c == nil {
			return nil, err
		}
		if err := c.allow("status", "resolved", "solved"); err != nil {
			return nil, err
		}
		a := skill.Args{"problem_id": idOr(c, "problem_id"), "resolution": c.one("solution.full"), "key_statement_id": c.list("solution.ref")}
		if cot := c.list("solution.cot"); cot != nil {
			a["cot"] = cot
		}
		if a.Str("resolution") == "" {
			a["resolution"] = placeholder("resolution")
		}
		if len(a.List("key_statement_id")) == 0 {
			a["key_statement_id"] = []string{placeholder("key_statement_id")}
		}
		return []refCall{{args: a, modified: []string{a.Str("problem_id")}}}, nil
	}},
	"state-complete-proof": {do: func(g group) ([]refCall, error) {
		c, err := needUpdate(g, "state")
		if err != nil || c == nil {
			return nil, err
		}
		if err := c.allow("status", "validating", "awaiting_verification"); err != nil {
			return nil, err
		}
		a := skill.Args{"statement_id": idOr(c, "statement_id"), "proof_text": c.one("proof.full"), "strategy": placeholder("strategy")}
		if cot := c.list("proof.cot"); cot != nil {
			a["proof_cot"] = cot
		}
		if ref := c.list("proof.ref"); ref != nil {
			a["proof_ref"] = ref
		}
		note, err := oneNote(c)
		if err != nil {
			return nil, err
		}
		// "PROOF: Direct proof …": the strategy is its first words; referee writes the note.
		if rest, ok := trimPrefixes(note, "PROOF:"); ok {
			low := strings.ToLower(rest)
			for words, s := range strategies {
				if strings.HasPrefix(low, words+" ") {
					a["strategy"] = s
				}
			}
		}
		return []refCall{{args: a, modified: []string{a.Str("statement_id")}}}, nil
	}},
	"state-setup-substatement": {creates: true, hyp: "sub_statements", do: func(g group) ([]refCall, error) {
		link, err := needUpdate(g, "state")
		if err != nil {
			return nil, err
		}
		var subs []skill.SubStatement
		for _, c := range g.creates {
			claim, premises, err := statementCreate(c)
			if err != nil {
				return nil, err
			}
			subs = append(subs, skill.SubStatement{Claim: strings.Join(claim, " "), Premises: premises})
		}
		if len(subs) == 0 {
			return nil, unmappedf("the link to the parent without the calls that create the sub-statements")
		}
		a := skill.Args{"parent_statement_id": idOr(link, "parent_statement_id"), "sub_statements": subs, "rationale": placeholder("rationale")}
		if link != nil {
			if err := link.allow("status", "validating", "awaiting_substatements"); err != nil {
				return nil, err
			}
			note, err := oneNote(link)
			if err != nil {
				return nil, err
			}
			if _, r, ok := strings.Cut(note, "Rationale:"); ok {
				a["rationale"] = strings.TrimSpace(r)
			}
		}
		return []refCall{{args: a, created: createdIDs(link, model.KindStatement, len(subs)), modified: []string{a.Str("parent_statement_id")}}}, nil
	}},
	"state-mark-false": {do: func(g group) ([]refCall, error) {
		c, err := needUpdate(g, "state")
		if err != nil || c == nil {
			return nil, err
		}
		if err := c.allow("status", "false"); err != nil {
			return nil, err
		}
		note, err := oneNote(c)
		if err != nil {
			return nil, err
		}
		ce, ok := trimPrefixes(note, "COUNTEREXAMPLE:")
		if !ok {
			return nil, unmappedf("a progress note %q where the skill writes \"COUNTEREXAMPLE: …\"", note)
		}
		a := skill.Args{"statement_id": idOr(c, "statement_id"), "counterexample": ce, "source": "prove"}
		if r, ok, err := responseOf(c, "false"); err != nil {
			return nil, err
		} else if ok {
			a["source"], a["issue_number"] = "fix", r.Fixes
		}
		return []refCall{{args: a, modified: []string{a.Str("statement_id")}}}, nil
	}},
	"state-propose-modification": {do: func(g group) ([]refCall, error) {
		c, err := needUpdate(g, "state")
		if err != nil || c == nil {
			return nil, err
		}
		if err := c.allow("status", "validating", "needs_modification"); err != nil {
			return nil, err
		}
		note, err := oneNote(c)
		if err != nil {
			return nil, err
		}
		rationale, ok := trimPrefixes(note, "MODIFICATION PROPOSED:", "MODIFICATION:")
		if !ok {
			return nil, unmappedf("a progress note %q where the skill writes \"MODIFICATION: …\"", note)
		}
		a := skill.Args{"statement_id": idOr(c, "statement_id"), "modification_type": placeholder("modification_type"), "rationale": rationale, "source": "prove"}
		// Their prover's samples name the kind in the heading: "(strengthen premises)".
		head := strings.ToLower(c.heading)
		for _, t := range model.ModificationTypes {
			if strings.Contains(head, strings.ReplaceAll(t, "_", " ")) || strings.Contains(head, t) {
				a["modification_type"] = t
			}
		}
		if r, ok, err := responseOf(c, "modification"); err != nil {
			return nil, err
		} else if ok {
			a["source"], a["issue_number"] = "fix", r.Fixes
			if r.ModType != "" {
				a["modification_type"] = r.ModType
			}
		}
		return []refCall{{args: a, modified: []string{a.Str("statement_id")}}}, nil
	}},
	"check-confirm-proof": {do: func(g group) ([]refCall, error) {
		c, err := needUpdate(g, "state")
		if err != nil || c == nil {
			return nil, err
		}
		c.get("reliability") // referee sets 1.0
		a := skill.Args{"statement_id": idOr(c, "statement_id")}
		switch c.one("status") {
		case "true":
			a["direction"] = model.DirectionProof
		case "false":
			a["direction"] = model.DirectionDisproof
		default:
			return nil, unmappedf("src/state.py --status %q where the skill confirms a proof (true) or disproof (false)", c.one("status"))
		}
		note, err := oneNote(c)
		if err != nil {
			return nil, err
		}
		if s, ok := trimPrefixes(note, "DISPROOF VERIFIED:", "VERIFIED:"); ok && s != "" {
			a["verification_summary"] = s
		} else if note != "" {
			return nil, unmappedf("a progress note %q where the skill writes \"VERIFIED: …\"", note)
		}
		return []refCall{{args: a, modified: []string{a.Str("statement_id")}}}, nil
	}},
	"check-reject-proof": {do: func(g group) ([]refCall, error) {
		c, err := needUpdate(g, "state")
		if err != nil || c == nil {
			return nil, err
		}
		if err := c.allow("status", "validating", "has_gap"); err != nil {
			return nil, err
		}
		f := c.get("validation.issues")
		if f == nil || len(f.values) != 1 {
			return nil, unmappedf("the skill records one issue; the call appends none or several")
		}
		is := model.ParseIssue(f.values[0])
		if !is.Parsed {
			return nil, unmappedf("an issue %q referee cannot read: %s", f.values[0], is.Problem)
		}
		a := skill.Args{"statement_id": idOr(c, "statement_id"), "sentence_number": is.Sentence, "sentence_text": is.SentenceText,
			"error_type": is.ErrorType, "explanation": is.Explanation, "suggested_fix": is.Fix}
		return []refCall{{args: a, modified: []string{a.Str("statement_id")}}}, nil
	}},
	"fix-patch-proof": {do: func(g group) ([]refCall, error) {
		c, err := needUpdate(g, "state")
		if err != nil || c == nil {
			return nil, err
		}
		if err := c.allow("status", "validating", "awaiting_verification"); err != nil {
			return nil, err
		}
		a := skill.Args{"statement_id": idOr(c, "statement_id"), "issue_number": placeholder("issue_number"),
			"updated_proof": c.one("proof.full"), "change_description": placeholder("change_description")}
		if r, ok, err := responseOf(c, "patch"); err != nil {
			return nil, err
		} else if ok {
			a["issue_number"], a["change_description"] = r.Fixes, r.Change
		}
		return []refCall{{args: a, modified: []string{a.Str("statement_id")}}}, nil
	}},
	"fix-create-substatement": {creates: true, hyp: "sub_premises", do: func(g group) ([]refCall, error) {
		link, err := needUpdate(g, "state")
		if err != nil {
			return nil, err
		}
		if len(g.creates) != 1 {
			return nil, unmappedf("%d statements created where the skill creates one", len(g.creates))
		}
		claim, premises, err := statementCreate(g.creates[0])
		if err != nil {
			return nil, err
		}
		a := skill.Args{"parent_statement_id": idOr(link, "parent_statement_id"), "issue_number": placeholder("issue_number"),
			"sub_claim": strings.Join(claim, " "), "gap_location": placeholder("gap_location"), "purpose": placeholder("purpose")}
		if premises != nil {
			a["sub_premises"] = premises
		}
		if link != nil {
			if err := link.allow("status", "validating", "awaiting_substatement"); err != nil {
				return nil, err
			}
			if r, ok, err := responseOf(link, "substatement"); err != nil {
				return nil, err
			} else if ok {
				a["issue_number"], a["purpose"] = r.Fixes, r.Purpose
				if m := patterns().sentence.FindString(r.Purpose); m != "" {
					a["gap_location"] = strings.ToLower(m)
				}
			}
		}
		return []refCall{{args: a, created: createdIDs(link, model.KindStatement, 1), modified: []string{a.Str("parent_statement_id")}}}, nil
	}},
}
