package model

import "slices"

// Grave is a statement that failed (false) or was given up (abandoned): why, and what
// it held up.
type Grave struct {
	ID     string `json:"id"`
	Status string `json:"status"`
	Claim  string `json:"claim"`
	// Counterexample is the body of its COUNTEREXAMPLE note, else the counterexample of
	// its last "Type: false" response.
	Counterexample string `json:"counterexample,omitempty"`
	// Reason is the body of its ABANDONED note (the last one).
	Reason string `json:"reason,omitempty"`
	// Disproof is the body of its DISPROOF VERIFIED note: the checker's summary of the
	// disproof that made it false (the agents at d8d7638).
	Disproof string `json:"disproof,omitempty"`
	// Blocked lists the unfinished objects above it (Above): the parents and problems
	// that waited for it and are still not proved.
	Blocked []string `json:"blocked"`
	// Stale lists the true statements that rest on it (a sub-statement, a citation or a
	// premise), which are no longer trustworthy.
	Stale []string `json:"stale"`
}

// Graveyard lists every false or abandoned statement, in ID order.
func Graveyard(s *Snapshot, g *Graph) []Grave {
	var out []Grave
	for id, st := range s.Statements.All() { // sorted below: graves are few, statements many
		if inGraveyard(st) {
			gr, _ := graveOf(s, g, id, st, false)
			out = append(out, gr)
		}
	}
	slices.SortFunc(out, func(a, b Grave) int { return CompareIDs(a.ID, b.ID) })
	return out
}

// inGraveyard says whether a statement is false or abandoned.
func inGraveyard(st *Statement) bool {
	ph, _, _ := StatusInfo(st.Status)
	return ph == PhaseRefuted || ph == PhaseAbandoned
}

// graveOf is the grave of statement id, and with deps what it was made from besides
// the statement: every object its walk up the graph looked at (those above it and
// those it stopped at) and every object resting on it. While none of those changes
// object or phase, and no object changes its references to one of them, the grave
// stays as it is (Graves).
func graveOf(s *Snapshot, g *Graph, id string, st *Statement, deps bool) (Grave, []string) {
	gr := Grave{ID: id, Status: st.Status, Claim: st.Claim(), Stale: []string{}}
	var looked []string
	gr.Blocked = above(g, id, func(at string) { looked = append(looked, at) }, deps)
	if gr.Blocked == nil {
		gr.Blocked = []string{}
	}
	for _, n := range st.Progresses {
		switch p := ParseProgress(n); p.Tag {
		case "COUNTEREXAMPLE":
			if gr.Counterexample == "" {
				gr.Counterexample = p.Body
			}
		case "ABANDONED":
			gr.Reason = p.Body
		case "DISPROOF VERIFIED":
			gr.Disproof = p.Body
		}
	}
	if gr.Counterexample == "" {
		for _, r := range st.Responses {
			if pr := ParseResponse(r); pr.Type == "false" && pr.Counterexample != "" {
				gr.Counterexample = pr.Counterexample
			}
		}
	}
	for _, e := range g.In[id] {
		if deps && !blockingEdge(e.Kind) {
			looked = append(looked, e.From) // the walk saw the others
		}
		if e.Kind != EdgeSub && e.Kind != EdgeCites && e.Kind != EdgePremise {
			continue
		}
		if dep := s.Statements.Get(e.From); dep != nil && dep.Status == "true" && !slices.Contains(gr.Stale, e.From) {
			gr.Stale = append(gr.Stale, e.From)
		}
	}
	slices.SortFunc(gr.Stale, CompareIDs)
	return gr, looked
}
