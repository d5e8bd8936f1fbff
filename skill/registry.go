package skill

import (
	"fmt"
	"strings"

	"referee/model"
	"referee/model/pyjson"
)

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
		apply: func(t *change, a Args) error {
			id, err := t.newStatement(a.List("claim"), a.List("premises"))
			if err != nil {
				return err
			}
			doc, err := t.Modify(a.Str("problem_id"))
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
		apply: func(t *change, a Args) error {
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
			pid, err := t.NewID(model.KindProblem)
			if err != nil {
				return err
			}
			parent, err := t.Modify(a.Str("parent_problem_id"))
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
		apply: func(t *change, a Args) error {
			doc, err := t.Modify(a.Str("problem_id"))
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
			case ModificationProposed(st) && !ph.Decided():
				// A proposed modification awaits a new proof by agent-prove (agent-fix.md);
				// the agents' scripts write it whatever the counts say.
			default:
				need := "a statement open for proving (pending, with every sub-statement true, or under a proposed modification)"
				return &PreconditionError{Object: st.ID, Status: st.Status, Skill: skill, Need: need, Phase: phaseWord(o, st)}
			}
			return nil
		},
		apply: func(t *change, a Args) error {
			doc, err := t.Modify(a.Str("statement_id"))
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
		apply: func(t *change, a Args) error {
			var ids []string
			for _, sub := range a.Subs() {
				id, err := t.newStatement([]string{sub.Claim}, sub.Premises)
				if err != nil {
					return err
				}
				ids = append(ids, id)
			}
			doc, err := t.Modify(a.Str("parent_statement_id"))
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
		apply: func(t *change, a Args) error {
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
		apply: func(t *change, a Args) error {
			st, doc, err := t.modifyStatement(a.Str("statement_id"))
			if err != nil {
				return err
			}
			change := modificationText(a)
			prefix := "MODIFICATION: "
			if t.Vocab(statusOf(doc)) == model.P013 {
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
		apply: func(t *change, a Args) error {
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
			t.Explain(fmt.Sprintf("confirms a %s (%s): %s becomes %s", dir, how, st.ID, status))
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
		apply: func(t *change, a Args) error {
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
		apply: func(t *change, a Args) error {
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
		apply: func(t *change, a Args) error {
			id := a.Str("parent_statement_id")
			st, _ := t.Statement(id)
			sub, err := t.newStatement([]string{a.Str("sub_claim")}, a.List("sub_premises"))
			if err != nil {
				return err
			}
			doc, err := t.Modify(id)
			if err != nil {
				return err
			}
			n := a.Int("issue_number")
			appendStr(doc, "preliminaries", sub)
			appendIn(doc, "validation", "responses", model.FormatSubstatementResponse(nextResponse(st), n, sub, a.Str("purpose")))
			status := model.StatusWord(model.PhaseAwaitingSubs, t.Vocab(statusOf(doc)))
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
		apply: func(t *change, a Args) error {
			id := a.Str("statement_id")
			st, doc, err := t.modifyStatement(id)
			if err != nil {
				return err
			}
			p, _ := model.ProposalOf(st)
			decision := a.Str("decision")
			t.Log("decision", pyjson.Str(decision))
			switch decision {
			case DecisionFalse:
				reason := a.Str("reason")
				if reason == "" {
					reason = p.Rationale
				}
				doc.Set("status", pyjson.Str("false"))
				appendStr(doc, "progresses", "COUNTEREXAMPLE: "+reason)
				t.Explain("rejects " + id + "'s proposed modification: the claim is false as stated")
				return nil
			case DecisionAbandon:
				doc.Set("status", pyjson.Str("abandoned"))
				appendStr(doc, "progresses", "ABANDONED: Proposed modification rejected: "+a.Str("reason"))
				t.Explain("rejects " + id + "'s proposed modification: " + id + " is no longer needed")
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
			t.Explain("accepts " + id + "'s proposed modification: " + nid + " takes its place, for agent-prove; " + id + " is settled as abandoned")
			switch pid := a.Str("parent_id"); model.KindOf(pid) {
			case model.KindProblem:
				pdoc, err := t.Modify(pid)
				if err != nil {
					return err
				}
				appendStr(pdoc, "progresses", "("+nid+") "+claim)
			case model.KindStatement:
				pdoc, err := t.Modify(pid)
				if err != nil {
					return err
				}
				replacePreliminary(pdoc, id, nid)
			default:
				t.Explain(nid + " hangs under nothing (no parent given): attach it by hand")
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
		apply: func(t *change, a Args) error {
			doc, err := t.Modify(a.Str("statement_id"))
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
