package tui

import (
	"fmt"
	"strconv"
	"strings"

	"referee/model"
	"referee/skill"
	"referee/tui/dialog"
)

// A skill's form is made from the registry (skill.Skill.Params, Form.fieldFor); what
// the workbench knows beyond the registry sits here, beside the skill: what the form
// says first, the values it starts with (the sentence under the cursor, the first open
// issue, the claim as it is), the parameters the workbench fills itself, and the hook
// keeping two fields in step.

// prefill is what a skill's form starts with.
type prefill struct {
	about  string
	values map[string]string
	// hidden are parameters the form does not ask for (finishArgs or the editor fills them).
	hidden map[string]bool
	// changed keeps fields in step as the reviewer types.
	changed func(f *dialog.Form, name string)
	// direct: no form, straight to the confirmation.
	direct bool
}

// prefillFor is the prefill of a skill on the selection.
func (m changer) prefillFor(sk *skill.Skill, id string) prefill {
	st := m.shown.snap.Statements.Get(id)
	firstOpen := ""
	if st != nil {
		if open := model.Unanswered(st.Issues, st.Responses); len(open) > 0 {
			firstOpen = strconv.Itoa(open[0])
		}
	}
	src := map[string]bool{"source": true}
	switch sk.Name {
	case "check-confirm-proof":
		// The summary goes into the VERIFIED note: asked for, with the words the skill
		// writes when none is given; enter reviews the change. When the opening does not
		// say which direction, the form asks for it too rather than guess.
		dir, why := skill.ConfirmDirection(st, nil)
		if why != "" {
			return prefill{
				about: "The proof's direction cannot be read from its opening: " + why +
					". Choose proof (the statement becomes true) or disproof (false); the summary is what the note says was checked (empty: the skill's own words for the direction chosen).",
			}
		}
		summary, becomes := "Proof checked and confirmed.", "true"
		if dir == model.DirectionDisproof {
			summary, becomes = "Disproof checked and confirmed.", "false"
		}
		return prefill{
			about: fmt.Sprintf("Confirm the %s of %s: it becomes %s (the direction is read from the proof's first sentence). The summary is what the %s note says was checked; enter reviews the change.",
				dir, id, becomes, map[string]string{"true": "VERIFIED", "false": "DISPROOF VERIFIED"}[becomes]),
			values: map[string]string{"verification_summary": summary},
			hidden: map[string]bool{"direction": true},
		}
	case "check-reject-proof":
		n, text := m.changer().sentenceUnderCursor()
		num := ""
		if n > 0 {
			num = strconv.Itoa(n)
		}
		return prefill{
			about:   "Record a gap at a sentence of the proof (the sentence under the cursor is filled in; ]/[ move it before pressing R). The number and the quote stay in step.",
			values:  map[string]string{"sentence_number": num, "sentence_text": text, "error_type": "gap"},
			changed: sentenceInStep(model.SplitSentences(proofText(st))),
		}
	case "state-mark-false":
		return prefill{about: "The statement becomes false. Give the counterexample; with an issue number it also answers that issue.",
			values: map[string]string{"issue_number": firstOpen}, hidden: src}
	case "state-propose-modification":
		v := map[string]string{"issue_number": firstOpen}
		if st != nil {
			v["suggested_claim"] = st.Claim()
			v["suggested_premises"] = strings.Join(st.Hypothesis, "\n")
		}
		return prefill{about: "Propose a changed claim or premises; the statement then waits for a decision.", values: v, hidden: src}
	case "state-setup-substatement":
		return prefill{about: "Decompose the statement: a new pending sub-statement is created and the statement waits for it."}
	case "fix-create-substatement":
		gap := ""
		if st != nil && firstOpen != "" {
			for _, raw := range st.Issues {
				if is := model.ParseIssue(raw); strconv.Itoa(is.Number) == firstOpen && is.Sentence > 0 {
					gap = fmt.Sprintf("sentence %d", is.Sentence)
				}
			}
		}
		return prefill{about: "Answer an issue with a lemma: a new pending statement under this one.",
			values: map[string]string{"issue_number": firstOpen, "gap_location": gap}}
	case "prob-wrapup-statement":
		return prefill{about: "Create the statement that, once proved, resolves the problem."}
	case "prob-setup-subgoal":
		return prefill{about: "Create a subproblem; plain hypotheses become new pending statements."}
	case "prob-finish-up":
		var keys []string
		if pr := m.shown.snap.Problems[id]; pr != nil {
			for _, it := range pr.Progresses {
				if sid, ok := model.RefID(it); ok && m.shown.snap.Statements.Get(sid) != nil && m.shown.snap.Statements.Get(sid).Status == "true" {
					keys = append(keys, sid)
				}
			}
		}
		return prefill{about: "Mark the problem solved by its key statements (each must be true).",
			values: map[string]string{"key_statement_id": strings.Join(keys, "\n")}}
	case "abandon":
		return prefill{about: "The statement becomes abandoned (out of scope or no longer needed)."}
	case "fix-patch-proof":
		return prefill{hidden: map[string]bool{"updated_proof": true}}
	case "state-complete-proof":
		return prefill{about: "Submit the proof for verification.", hidden: map[string]bool{"proof_text": true}}
	}
	return prefill{}
}

// formFor builds a skill's form from its parameters and the prefill.
func (m changer) formFor(sk *skill.Skill, target, about string, pf prefill) *dialog.Form {
	if pf.about != "" {
		about = pf.about
	}
	f := dialog.NewForm(sk.Name+" · "+target, about)
	f.SetDark(m.look.dark) // before the fields: they are made in its styles
	f.Editor, f.Changed = m.env.opts.Editor, pf.changed
	f.NoEditor = m.room().editorReason()
	for _, p := range sk.Params {
		if p.Name == sk.Target || pf.hidden[p.Name] {
			continue
		}
		if p.Kind == skill.ParamSubStatements {
			// One sub-statement: its claim and premises (finishArgs makes the list).
			f.FieldFor(skill.Param{Name: "claim", Kind: skill.ParamString, Required: true, Long: true, Help: "the sub-statement's claim"}, pf.values["claim"])
			f.FieldFor(skill.Param{Name: "premises", Kind: skill.ParamStrings, Help: "its premises"}, pf.values["premises"])
			continue
		}
		f.FieldFor(p, pf.values[p.Name])
	}
	return f
}

// sentenceInStep keeps the R form's sentence number and quote in step: a new number
// quotes its sentence; a quote found in another sentence moves the number there; a
// quote found in none is said.
func sentenceInStep(sents []model.Sentence) func(f *dialog.Form, name string) {
	return func(f *dialog.Form, name string) {
		f.Warn = ""
		switch name {
		case "sentence_number":
			n, err := strconv.Atoi(f.Value("sentence_number"))
			if err != nil || n < 1 || n > len(sents) {
				if f.Value("sentence_number") != "" {
					f.Warn = fmt.Sprintf("the proof has sentences 1 to %d", len(sents))
				}
				return
			}
			f.SetValue("sentence_text", model.NormalizeSpace(sents[n-1].Text))
		case "sentence_text":
			q := f.Value("sentence_text")
			n, _ := strconv.Atoi(f.Value("sentence_number"))
			idx, rule := model.LocateSentence(sents, n, q)
			switch {
			case idx < 0 || rule == model.LocatedByNumber:
				f.Warn = fmt.Sprintf("the quote is not in sentence %d nor in any other sentence of the proof", n)
			case idx+1 != n:
				f.SetValue("sentence_number", strconv.Itoa(idx+1))
			}
		}
	}
}
