package tui

import (
	"referee/mathtext"
	"strings"

	tea "charm.land/bubbletea/v2"

	"referee/model"
	"referee/store"
)

// A statement with a proposed modification (needs_modification, "next: human") waits
// for a decision nobody's skill takes: the agents' orchestrator (MRA-v1 CLAUDE.md,
// "When agent reports FALSE or MODIFICATION") reports it and waits for a human, and no
// skill accepts or rejects a proposal. So the workbench says what a human can do and
// offers it through the existing skills, each a change of its own:
//
//   - accept: the proposed claim becomes a new statement where the old one stood
//     (prob-wrapup-statement on its problem, or state-setup-substatement on its parent
//     statement), which agent-prove then takes up; then abandon the old one as replaced.
//   - reject: the claim is false as stated (state-mark-false), or no longer needed
//     (abandon). There is no skill that sends a statement back to pending: to have the
//     agents try the claim as stated again is an instruction to the orchestrator
//     (its /instruct command), outside referee.

// proposal is the latest modification proposed for a statement.
type proposal struct {
	modType, claim, rationale string
	premises                  []string
}

// proposalOf reads the latest MODIFICATION PROPOSED note of a statement.
func proposalOf(st *model.Statement) (proposal, bool) {
	for i := len(st.Progresses) - 1; i >= 0; i-- {
		pr := model.ParseProgress(st.Progresses[i])
		if pr.Tag != "MODIFICATION PROPOSED" {
			continue
		}
		p := proposal{modType: pr.ModType, rationale: pr.Rationale}
		change := pr.Change
		if before, prem, ok := strings.Cut(change, "Premises:"); ok {
			change = strings.TrimSuffix(strings.TrimSpace(before), ";")
			for it := range strings.SplitSeq(prem, ";") {
				if it = strings.TrimSpace(it); it != "" {
					p.premises = append(p.premises, it)
				}
			}
		}
		p.claim = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(change), "Claim:"))
		if p.claim == "No new wording given" {
			p.claim = ""
		}
		return p, true
	}
	return proposal{}, false
}

// proposalPending is a P014 statement whose last note is a proposed modification: the
// agents keep it "validating" (their orchestrator sends it back to the checker), and a
// human may decide it first.
func proposalPending(st *model.Statement) bool {
	if st.Status != "validating" || len(st.Progresses) == 0 {
		return false
	}
	return model.ParseProgress(st.Progresses[len(st.Progresses)-1]).Tag == "MODIFICATION PROPOSED"
}

func needDecision(m *Model) string {
	if why := m.travel.ReadOnly(); why != "" {
		return why
	}
	st := m.selectedStatement()
	if st == nil || m.g == nil || m.g.Phase.Get(st.ID) != model.PhaseNeedsDecision && !proposalPending(st) {
		return "nothing to decide here: select a statement with a proposed modification (~ modify)"
	}
	if _, ok := proposalOf(st); !ok {
		return "no MODIFICATION PROPOSED note on " + st.ID + " to decide"
	}
	return ""
}

// openDecision lists what a human can do with the selected statement's proposal.
func (m *Model) openDecision() tea.Cmd {
	st := m.selectedStatement()
	p, _ := proposalOf(st)
	r, _ := m.tree.Selected()
	parent := ""
	up := m.idPath(r.Path)
	for i := len(up) - 2; i >= 0 && parent == ""; i-- {
		if !strings.HasPrefix(up[i], "#") { // a group (premises) is no parent
			parent = up[i]
		}
	}
	id := st.ID
	prem := strings.Join(p.premises, "\n")
	replaced := "Replaced by the accepted modification of " + id + " (" + p.modType + "): " + p.claim
	es := []entry{{group: "no agent skill decides this (the seed-era orchestrator waits for a human; today's sends it back to agent-check)", title: "proposed: " + mathtext.Line(p.claim, mathtext.Unicode), desc: strings.Join(p.premises, "; ")}}
	switch {
	case p.claim == "":
		es = append(es, entry{group: "accept", title: "the proposal gives no new wording", disabled: "accept it by hand: W or S with the claim you want, then A on " + id})
	case model.KindOf(parent) == model.KindProblem:
		es = append(es, entry{group: "accept", key: "W", title: "make the proposed claim a new statement of " + parent, mutating: true,
			desc: "prob-wrapup-statement; agent-prove then takes it up",
			run: func() tea.Cmd {
				sk, _ := store.Lookup("prob-wrapup-statement")
				return m.startSkillOn(sk, parent, map[string]string{"claim": p.claim, "premises": prem, "purpose": "the accepted modification of " + id},
					"Accept "+id+"'s proposed modification: the proposed claim becomes a new statement of "+parent+". Then abandon "+id+" as replaced (the next entry of the decision).")
			}})
	case model.KindOf(parent) == model.KindStatement:
		es = append(es, entry{group: "accept", key: "S", title: "make the proposed claim a new sub-statement of " + parent, mutating: true,
			desc: "state-setup-substatement; agent-prove then takes it up",
			run: func() tea.Cmd {
				sk, _ := store.Lookup("state-setup-substatement")
				return m.startSkillOn(sk, parent, map[string]string{"claim": p.claim, "premises": prem, "rationale": "the accepted modification of " + id + ": " + p.rationale},
					"Accept "+id+"'s proposed modification: the proposed claim becomes a sub-statement of "+parent+". Then abandon "+id+" as replaced.")
			}})
	default:
		es = append(es, entry{group: "accept", title: "make the proposed claim a new statement", disabled: id + " hangs under nothing: use W on its problem by hand"})
	}
	es = append(es,
		entry{group: "accept", key: "A", title: "then abandon " + id + " as replaced by the new statement", mutating: true, desc: "abandon",
			run: func() tea.Cmd {
				sk, _ := store.Lookup("abandon")
				return m.startSkillOn(sk, id, map[string]string{"reason": replaced}, "")
			}},
		entry{group: "reject", key: "F", title: "the claim is false as stated: mark " + id + " false", mutating: true, desc: "state-mark-false, the proposal's rationale as the counterexample",
			run: func() tea.Cmd {
				sk, _ := store.Lookup("state-mark-false")
				return m.startSkillOn(sk, id, map[string]string{"counterexample": p.rationale}, "")
			}},
		entry{group: "reject", key: "A", title: "the claim is no longer needed: abandon " + id, mutating: true, desc: "abandon",
			run: func() tea.Cmd {
				sk, _ := store.Lookup("abandon")
				return m.startSkillOn(sk, id, map[string]string{"reason": "Proposed modification rejected: " + p.rationale}, "")
			}},
		entry{group: "reject", title: "keep the claim as stated and have the agents try again",
			disabled: "no skill sends a statement back to pending: tell the orchestrator (its /instruct command), e.g. \"agent-prove: prove " + id + " as stated\""},
	)
	pk := newPicker("Decide "+id+"'s proposed modification ("+p.modType+")", es, true, "")
	pk.cursor = 1 // on accept: the first entry only shows the proposal
	return m.openPicker(pk)
}
