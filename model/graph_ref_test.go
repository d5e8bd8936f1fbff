package model

// The graph derivations as they were before they were rewritten for speed: the
// reference Derive is checked against (TestDeriveMatchesReference, FuzzDerive). Kept
// verbatim but for the names and one fix: the second walk of depths aliased its queue
// with the list it appends to, which could drop nodes reached only through premises.

import (
	"fmt"
	"slices"
	"strings"
)

// refDerive computes the graph of a snapshot. It is cycle-safe and never loops.
func refDerive(s *Snapshot) *Graph {
	g := &Graph{
		Out: map[string][]Edge{}, In: map[string][]Edge{}, Depth: map[string]int{},
		Counts: map[string]int{}, ProblemCounts: map[string]int{}, PhaseCounts: map[Phase]int{},
	}
	add := func(from string, kind EdgeKind, items []string) {
		for _, it := range items {
			to, ok := RefID(it)
			if !ok {
				continue
			}
			e := Edge{From: from, To: to, Kind: kind, Item: it}
			g.Out[from] = append(g.Out[from], e)
			if s.Exists(to) {
				g.In[to] = append(g.In[to], e)
			} else {
				g.Dangling = append(g.Dangling, e)
			}
		}
	}
	pids := refSortedKeys(s.Problems)
	sids := refSortedKeys(s.Statements.Map())
	for _, id := range pids {
		p := s.Problems[id]
		for _, it := range p.Preliminaries {
			to, _ := RefID(it)
			if KindOf(to) == KindStatement {
				add(id, EdgeNeeds, []string{it})
			} else {
				add(id, EdgeSubgoal, []string{it})
			}
		}
		add(id, EdgeProgress, p.Progresses)
		add(id, EdgeSolution, p.Solution.Ref)
		add(id, EdgePremise, p.Hypothesis)
	}
	for _, id := range sids {
		st := s.Statements.Get(id)
		add(id, EdgeSub, st.Preliminaries)
		add(id, EdgeCites, st.Proof.Ref)
		add(id, EdgePremise, st.Hypothesis)
	}

	for _, id := range pids {
		if !slices.ContainsFunc(g.In[id], func(e Edge) bool { return e.Kind == EdgeSubgoal }) {
			g.Roots = append(g.Roots, id)
		}
	}
	refDepths(g, s, pids, sids)
	for _, id := range sids {
		if len(g.In[id]) == 0 {
			g.Orphans = append(g.Orphans, id)
		}
		if _, ok := g.Depth[id]; !ok {
			g.Unreachable = append(g.Unreachable, id)
		}
	}
	g.Cycles = refCycles(append(slices.Clone(pids), sids...), g.Out, s)
	refPhases(g, s, pids, sids)
	refProvedandstale(g, s, sids)
	return g
}

func refSortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, CompareIDs)
	return keys
}

// depths is the shortest structural distance from a root problem (breadth first);
// what only premises or citations reach gets a depth one below its first referrer.
func refDepths(g *Graph, s *Snapshot, pids, sids []string) {
	queue := slices.Clone(g.Roots)
	if len(queue) == 0 { // every problem is someone's subgoal: a cycle; start anywhere
		queue = slices.Clone(pids)
	}
	for _, id := range queue {
		g.Depth[id] = 0
	}
	var reached []string
	walk := func(follow func(EdgeKind) bool) {
		for len(queue) > 0 {
			id := queue[0]
			queue = queue[1:]
			reached = append(reached, id)
			for _, e := range g.Out[id] {
				if !follow(e.Kind) || !s.Exists(e.To) {
					continue
				}
				if _, seen := g.Depth[e.To]; !seen {
					g.Depth[e.To] = g.Depth[id] + 1
					queue = append(queue, e.To)
				}
			}
		}
	}
	walk(EdgeKind.Structural)
	queue = slices.Clone(reached) // the original aliased reached here and could drop nodes
	walk(func(EdgeKind) bool { return true })
}

// cycles finds strongly connected components with more than one node (or a self-loop),
// with Tarjan's algorithm.
func refCycles(ids []string, out map[string][]Edge, s *Snapshot) [][]string {
	index := map[string]int{}
	low := map[string]int{}
	onStack := map[string]bool{}
	var stack []string
	var result [][]string
	next := 0
	var visit func(v string)
	visit = func(v string) {
		index[v], low[v] = next, next
		next++
		stack = append(stack, v)
		onStack[v] = true
		self := false
		for _, e := range out[v] {
			w := e.To
			if !s.Exists(w) {
				continue
			}
			if w == v {
				self = true
			}
			if _, seen := index[w]; !seen {
				visit(w)
				low[v] = min(low[v], low[w])
			} else if onStack[w] {
				low[v] = min(low[v], index[w])
			}
		}
		if low[v] == index[v] {
			var comp []string
			for {
				w := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				onStack[w] = false
				comp = append(comp, w)
				if w == v {
					break
				}
			}
			if len(comp) > 1 || self {
				slices.SortFunc(comp, CompareIDs)
				result = append(result, comp)
			}
		}
	}
	for _, id := range ids {
		if _, seen := index[id]; !seen {
			visit(id)
		}
	}
	slices.SortFunc(result, func(a, b []string) int { return CompareIDs(a[0], b[0]) })
	return result
}

func refPhases(g *Graph, s *Snapshot, pids, sids []string) {
	for _, id := range pids {
		p := s.Problems[id]
		g.ProblemCounts[p.Status]++
		ph := ProblemPhase(p.Status)
		g.Phase.Set(id, ph)
		if ph == PhaseUnknown {
			g.Unknown = append(g.Unknown, id)
		}
		if p.Status == "unresolved" && refProblemPrelimsDone(s, p.Preliminaries) {
			g.Next.Set(id, AgentSolve)
		}
	}
	for _, id := range sids {
		st := s.Statements.Get(id)
		g.Counts[st.Status]++
		ph := StatementPhase(s, st)
		g.Phase.Set(id, ph)
		g.PhaseCounts[ph]++
		if ph == PhaseUnknown {
			g.Unknown = append(g.Unknown, id)
		}
		if !ph.Open() || !refStatementPrelimsDone(s, st.Preliminaries) {
			continue
		}
		switch ph {
		case PhaseNeedsProof:
			g.Next.Set(id, AgentProve)
		case PhaseAwaitingCheck:
			g.Next.Set(id, AgentCheck)
			if st.Status == "validating" && len(st.Responses) > len(st.Issues) {
				g.Next.Set(id, AgentHuman) // current.py: an invalid state, for a human
			}
		case PhaseHasGap:
			g.Next.Set(id, AgentFix)
		case PhaseNeedsDecision:
			g.Next.Set(id, AgentHuman)
		case PhaseAwaitingSubs:
			// P013: the sub-statements are done; a decomposition without a proof goes back to
			// the prover, a gap filled by a lemma goes to the checker.
			switch {
			case len(st.Issues) > len(st.Responses):
				g.Next.Set(id, AgentFix)
			case st.Proof.Empty():
				g.Next.Set(id, AgentProve)
			default:
				g.Next.Set(id, AgentCheck)
			}
		}
	}
	var acts []Action
	for id, agent := range g.Next.All() {
		d, ok := g.Depth[id]
		if !ok {
			d = -1 // unattached work runs last
		}
		acts = append(acts, Action{ID: id, Agent: agent, Depth: d})
	}
	slices.SortFunc(acts, func(a, b Action) int {
		if a.Depth != b.Depth {
			return b.Depth - a.Depth
		}
		return CompareIDs(a.ID, b.ID)
	})
	g.Actionable = ActionsOf(acts)
}

// The agents' current.py, restated: a problem's preliminary counts when it names an
// existing problem that is not resolved or an existing statement that is not true; a
// statement's when it names an existing statement that is not true. Nothing else holds
// work back.
func refProblemPrelimsDone(s *Snapshot, prelims []string) bool {
	for _, it := range prelims {
		if strings.HasPrefix(it, "p-") {
			if p, ok := s.Problems[it]; ok && p.Status != "resolved" && p.Status != "solved" {
				return false
			}
		} else if strings.HasPrefix(it, "s-") {
			if st, ok := s.Statements.Lookup(it); ok && st.Status != "true" {
				return false
			}
		}
	}
	return true
}

func refStatementPrelimsDone(s *Snapshot, prelims []string) bool {
	for _, it := range prelims {
		if st, ok := s.Statements.Lookup(it); ok && st.Status != "true" {
			return false
		}
	}
	return true
}

// provedAndStale computes fully proved (true, and every preliminary fully proved) and
// stale (true, but resting on something false, abandoned, missing or itself stale).
func refProvedandstale(g *Graph, s *Snapshot, sids []string) {
	const (
		unvisited = iota
		visiting
		done
	)
	state := map[string]int{}
	var proved func(id string) bool
	proved = func(id string) bool {
		switch state[id] {
		case visiting:
			return false // a cycle proves nothing
		case done:
			return g.FullyProved.Get(id)
		}
		state[id] = visiting
		st := s.Statements.Get(id)
		ok := st != nil && st.Status == "true"
		if ok {
			for _, it := range st.Preliminaries {
				if !proved(refOr(it)) {
					ok = false
				}
			}
		}
		state[id] = done
		if ok {
			g.FullyProved.Set(id, true)
		}
		return ok
	}
	staleState := map[string]int{}
	var stale func(id string) string
	stale = func(id string) string {
		switch staleState[id] {
		case visiting:
			return ""
		case done:
			return g.Stale.Get(id)
		}
		staleState[id] = visiting
		st := s.Statements.Get(id)
		reason := ""
		if st != nil && st.Status == "true" {
			for _, e := range g.Out[id] {
				if e.Kind != EdgeSub && e.Kind != EdgeCites && e.Kind != EdgePremise {
					continue
				}
				dep := s.Statements.Get(e.To)
				switch {
				case dep == nil && KindOf(e.To) == KindStatement:
					reason = fmt.Sprintf("rests on %s, which does not exist", e.To)
				case dep == nil:
					continue
				case dep.Status == "false" || dep.Status == "abandoned":
					reason = fmt.Sprintf("rests on %s, which is %s", e.To, dep.Status)
				case stale(e.To) != "":
					reason = fmt.Sprintf("rests on %s, which is stale", e.To)
				}
				if reason != "" {
					break
				}
			}
		}
		staleState[id] = done
		if reason != "" {
			g.Stale.Set(id, reason)
		}
		return reason
	}
	for _, id := range sids {
		proved(id)
		stale(id)
	}
}
