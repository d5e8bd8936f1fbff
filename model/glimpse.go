package model

// A glimpse of a folder (store.Glimpse) holds its problems and a few of its statements:
// the top of its tree, read before the folder is. What Derive would say of those rows
// that reads no more than an object and its own references is here, by object, so that
// a glimpse needs no Derive of its part (which would call every unread reference
// missing). What reads the whole folder (In, FullyProved, Stale, counts) is not.

// RootsOf is Derive's Roots: the problems that are nobody's subgoal, in ID order. Only a
// problem names a problem as its subgoal, so it reads s's problems alone.
func RootsOf(s *Snapshot) []string {
	sub := map[string]bool{}
	for _, p := range s.Problems {
		problemLinks(p, func(k EdgeKind, item string) {
			if to, ok := RefID(item); ok && k == EdgeSubgoal && s.Problems[to] != nil {
				sub[to] = true
			}
		})
	}
	var roots []string
	for _, id := range sortedKeys(s.Problems) {
		if !sub[id] {
			roots = append(roots, id)
		}
	}
	return roots
}

// LinksOf is Derive's Out for one problem or statement of s: its references, in order,
// whether their objects exist or not. Nil for anything else.
func LinksOf(s *Snapshot, id string) []Edge {
	var out []Edge
	add := func(k EdgeKind, item string) {
		if to, ok := RefID(item); ok {
			out = append(out, Edge{From: id, To: to, Kind: k, Item: item})
		}
	}
	if p := s.Problems[id]; p != nil {
		problemLinks(p, add)
	} else if st := s.Statements.Get(id); st != nil {
		statementLinks(st, add)
	}
	return out
}

// PhaseOf is Derive's Phase and Next for one problem or statement of s. They read the
// object and the statements and problems its preliminaries name: s must hold those
// that exist.
func PhaseOf(s *Snapshot, id string) (Phase, string) {
	if p := s.Problems[id]; p != nil {
		ph := ProblemPhase(p.Status)
		return ph, problemNext(s, p, ph)
	}
	if st := s.Statements.Get(id); st != nil {
		ph := StatementPhase(s, st)
		return ph, statementNext(s, st, ph)
	}
	return PhaseUnknown, "" // as Derive's Phase and Next of anything else
}
