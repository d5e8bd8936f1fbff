package model

import "strings"

// Proposal is the latest modification proposed for a statement (a MODIFICATION note):
// its type, the claim and premises it proposes ("" and nil when it gives none), and why.
type Proposal struct {
	ModType, Claim, Rationale string
	Premises                  []string
	// Index is the note's place in the statement's progresses.
	Index int
}

// ProposalOf reads the latest MODIFICATION (PROPOSED) note of a statement.
func ProposalOf(st *Statement) (Proposal, bool) {
	for i := len(st.Progresses) - 1; i >= 0; i-- {
		pr := ParseProgress(st.Progresses[i])
		if pr.Tag != "MODIFICATION PROPOSED" {
			continue
		}
		p := Proposal{ModType: pr.ModType, Rationale: pr.Rationale, Index: i}
		change := pr.Change
		if before, prem, ok := strings.Cut(change, "Premises:"); ok {
			change = strings.TrimSuffix(strings.TrimSpace(before), ";")
			for it := range strings.SplitSeq(prem, ";") {
				if it = strings.TrimSpace(it); it != "" {
					p.Premises = append(p.Premises, it)
				}
			}
		}
		p.Claim = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(change), "Claim:"))
		if p.Claim == "No new wording given" {
			p.Claim = ""
		}
		return p, true
	}
	return Proposal{}, false
}

// ProposalOpen reports whether a statement has a proposed modification nobody has
// decided: the proposal is its last note and the statement is not settled (true, false
// or abandoned).
func ProposalOpen(st *Statement) bool {
	if len(st.Progresses) == 0 {
		return false
	}
	if ph, _, _ := StatusInfo(st.Status); ph.Decided() {
		return false
	}
	return ParseProgress(st.Progresses[len(st.Progresses)-1]).Tag == "MODIFICATION PROPOSED"
}
