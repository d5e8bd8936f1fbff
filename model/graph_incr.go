package model

import (
	"maps"
	"slices"
)

// Update returns the graph of s, where g is the graph of prev and s differs from prev
// only in the objects changed names (rewritten, added or deleted; naming an object that
// did not change, or that neither snapshot has, is harmless). The result equals
// Derive(s), and g is left as it was: what differs is copied, the rest is shared.
//
// When every changed object keeps its references (an agent's write usually changes a
// status, a proof, an issue or a response), the links are g's: Out, In, Roots, Orphans,
// Unreachable, Dangling, Cycles and Depth are shared, and only the phases, next agents,
// fully proved and stale marks of the changed objects and of what rests on them are
// worked out again: the work is proportional to those, not to the folder. When an
// object's references changed, or an object appeared or went away, it derives s in full
// and relinked is true: whatever was built on the links (the work tree) is stale too.
// It also derives in full, with relinked false, when a status changed under a statement
// that rests on a cycle: there the stale marks depend on the order Derive walks in.
func (g *Graph) Update(prev, s *Snapshot, changed []string) (next *Graph, relinked bool) {
	var probs, stmts []string
	seen := make(map[string]bool, len(changed))
	for _, id := range changed {
		if seen[id] {
			continue
		}
		seen[id] = true
		pa, pb := prev.Problems[id], s.Problems[id]
		sa, sb := prev.Statements.Get(id), s.Statements.Get(id)
		if (prev.Experiences[id] == nil) != (s.Experiences[id] == nil) {
			return Derive(s), true
		}
		if pa != pb {
			if pa == nil || pb == nil || KindOf(id) != KindProblem ||
				!g.linksKept(id, pa.Preliminaries, pb.Preliminaries, func(add func(EdgeKind, string)) { problemLinks(pb, add) }) {
				return Derive(s), true
			}
			probs = append(probs, id)
		}
		if sa != sb {
			if sa == nil || sb == nil || KindOf(id) != KindStatement ||
				!g.linksKept(id, sa.Preliminaries, sb.Preliminaries, func(add func(EdgeKind, string)) { statementLinks(sb, add) }) {
				return Derive(s), true
			}
			stmts = append(stmts, id)
		}
	}
	if len(probs)+len(stmts) == 0 {
		return g, false
	}
	u := update{g: g, s: s, phase: cowObjects[Phase]{o: g.Phase}, next: cowObjects[string]{o: g.Next},
		proved: cowObjects[bool]{o: g.FullyProved}, stale: cowObjects[string]{o: g.Stale},
		counts: cow[int]{m: g.Counts}, problemCounts: cow[int]{m: g.ProblemCounts}}
	if !u.run(prev, probs, stmts) {
		return Derive(s), false // the stale marks near a cycle depend on the walk's order
	}
	if !u.phase.copied && !u.next.copied && !u.proved.copied && !u.stale.copied && !u.counts.copied && !u.problemCounts.copied {
		return g, false // rewritten, but nothing derived from it moved
	}
	n := *g
	n.dense = nil // its phases are Derive's
	n.Phase, n.Next, n.FullyProved, n.Stale = u.phase.o, u.next.o, u.proved.o, u.stale.o
	n.Counts, n.ProblemCounts = u.counts.m, u.problemCounts.m
	if len(u.phaseMoved) > 0 {
		n.PhaseCounts = maps.Clone(g.PhaseCounts) // a handful of phases
		for ph, by := range u.phaseMoved {
			if n.PhaseCounts[ph] += by; n.PhaseCounts[ph] == 0 {
				delete(n.PhaseCounts, ph)
			}
		}
	}
	if u.unknownMoved {
		n.Unknown = u.unknown()
	}
	if len(u.nextMoved) > 0 {
		n.Actionable = u.actionable()
	}
	return &n, false
}

// linksKept reports whether an object's references are still the edges g has for it,
// and its preliminaries are as they were (an item that references nothing still keeps
// the object from being done).
func (g *Graph) linksKept(id string, was, is []string, links func(add func(EdgeKind, string))) bool {
	if !slices.Equal(was, is) {
		return false
	}
	out := g.Out[id]
	k, same := 0, true
	links(func(kind EdgeKind, item string) {
		to, ok := RefID(item)
		if !ok || !same {
			return
		}
		same = k < len(out) && out[k] == Edge{From: id, To: to, Kind: kind, Item: item}
		k++
	})
	return same && k == len(out)
}

// cow is a map of a graph, copied the first time a value in it changes.
type cow[V comparable] struct {
	m      map[string]V
	copied bool
}

func (c *cow[V]) own() {
	if !c.copied {
		c.m, c.copied = maps.Clone(c.m), true
	}
}

// cowObjects is one of a graph's per-object maps, forked the first time a value in it
// changes: the fork copies only the changes already over its base (Objects), where a
// clone copied 100k entries per status change.
type cowObjects[V comparable] struct {
	o      Objects[V]
	copied bool
}

// set stores v, or removes the key when keep is false.
func (c *cowObjects[V]) set(k string, v V, keep bool) {
	old, ok := c.o.Lookup(k)
	switch {
	case keep && ok && old == v, !keep && !ok:
		return
	}
	if !c.copied {
		c.o, c.copied = c.o.Fork(), true
	}
	if keep {
		c.o.Set(k, v)
	} else {
		c.o.Delete(k)
	}
}

// set stores v, or removes the key when keep is false (the graph's sets hold only true
// marks, its counts only statuses in use).
func (c *cow[V]) set(k string, v V, keep bool) {
	old, ok := c.m[k]
	switch {
	case keep && ok && old == v, !keep && !ok:
		return
	}
	c.own()
	if keep {
		c.m[k] = v
	} else {
		delete(c.m, k)
	}
}

// update is one Graph.Update whose links are kept.
type update struct {
	g                     *Graph
	s                     *Snapshot
	phase                 cowObjects[Phase]
	next, stale           cowObjects[string]
	proved                cowObjects[bool]
	counts, problemCounts cow[int]
	unknownMoved          bool
	phaseMoved            map[Phase]int   // statements gained (lost) per phase
	unknownIn, unknownOut []string        // objects whose phase became, or stopped being, unknown
	nextMoved             map[string]bool // objects whose next agent changed
}

// run works out again what the changed objects decide. It reports false when the stale
// marks cannot be worked out locally.
func (u *update) run(prev *Snapshot, probs, stmts []string) bool {
	g, s := u.g, u.s
	phases := map[string]bool{} // objects whose phase may have changed
	nexts := map[string]bool{}  // objects whose next agent may have changed
	var moved []string          // statements whose status changed
	referrers := func(id string, kinds ...EdgeKind) {
		for _, e := range g.In[id] {
			if slices.Contains(kinds, e.Kind) {
				nexts[e.From] = true
				if e.Kind == EdgeSub {
					phases[e.From] = true // "validating" waits for its sub-statements
				}
			}
		}
	}
	for _, id := range probs {
		phases[id] = true
		was, is := prev.Problems[id].Status, s.Problems[id].Status
		if was != is {
			bump(&u.problemCounts, was, -1)
			bump(&u.problemCounts, is, 1)
			referrers(id, EdgeSubgoal, EdgeSub)
		}
	}
	for _, id := range stmts {
		phases[id] = true
		was, is := prev.Statements.Get(id).Status, s.Statements.Get(id).Status
		if was != is {
			bump(&u.counts, was, -1)
			bump(&u.counts, is, 1)
			referrers(id, EdgeNeeds, EdgeSub)
			moved = append(moved, id)
		}
	}
	for id := range phases {
		nexts[id] = true
		var ph Phase
		if p := s.Problems[id]; p != nil {
			ph = ProblemPhase(p.Status)
		} else {
			ph = StatementPhase(s, s.Statements.Get(id))
		}
		if was := g.Phase.Get(id); was != ph {
			u.phase.set(id, ph, true)
			if s.Problems[id] == nil {
				if u.phaseMoved == nil {
					u.phaseMoved = map[Phase]int{}
				}
				u.phaseMoved[was]--
				u.phaseMoved[ph]++
			}
			if was == PhaseUnknown {
				u.unknownOut = append(u.unknownOut, id)
			} else if ph == PhaseUnknown {
				u.unknownIn = append(u.unknownIn, id)
			}
		}
	}
	u.unknownMoved = len(u.unknownIn)+len(u.unknownOut) > 0
	u.nextMoved = map[string]bool{}
	for id := range nexts {
		var agent string
		if p := s.Problems[id]; p != nil {
			agent = problemNext(s, p, u.phase.o.Get(id))
		} else {
			agent = statementNext(s, s.Statements.Get(id), u.phase.o.Get(id))
		}
		if agent != g.Next.Get(id) {
			u.next.set(id, agent, agent != "")
			u.nextMoved[id] = true
		}
	}
	if len(moved) == 0 {
		return true // fully proved and stale rest on statuses only
	}
	u.fullyProved(moved)
	return u.restale(moved)
}

func bump(c *cow[int], status string, by int) {
	n := c.m[status] + by
	c.set(status, n, n != 0)
}

// above is every statement that rests on one of ids through an edge of the kinds, ids
// included.
func (u *update) above(ids []string, kinds ...EdgeKind) map[string]bool {
	set := make(map[string]bool, len(ids))
	queue := slices.Clone(ids)
	for _, id := range ids {
		set[id] = true
	}
	for len(queue) > 0 {
		id := queue[len(queue)-1]
		queue = queue[:len(queue)-1]
		for _, e := range u.g.In[id] {
			if !set[e.From] && slices.Contains(kinds, e.Kind) && u.s.Statements.Get(e.From) != nil {
				set[e.From] = true
				queue = append(queue, e.From)
			}
		}
	}
	return set
}

// fullyProved works out again the statements whose sub-statements reach one whose status
// changed. Fully proved does not depend on the order of the walk (a statement is fully
// proved exactly when everything under it is true and no cycle is), so what the change
// does not reach keeps its mark.
func (u *update) fullyProved(moved []string) {
	redo := u.above(moved, EdgeSub)
	const (
		visiting = 1
		done     = 2
	)
	state := make(map[string]uint8, len(redo))
	var isProved func(id string) bool
	isProved = func(id string) bool {
		if !redo[id] {
			return u.g.FullyProved.Get(id)
		}
		switch state[id] {
		case visiting:
			return false // a cycle proves nothing
		case done:
			return u.proved.o.Get(id)
		}
		state[id] = visiting
		ok := provedOver(u.s.Statements.Get(id), isProved)
		state[id] = done
		u.proved.set(id, true, ok)
		return ok
	}
	for id := range redo {
		isProved(id)
	}
}

// restale works out again the stale marks of the statements that rest on one whose
// status changed. Where a cycle is within reach the marks depend on the order Derive
// walks in, so it gives up (false) when any of them reaches a cycle.
func (u *update) restale(moved []string) bool {
	rests := []EdgeKind{EdgeSub, EdgeCites, EdgePremise}
	redo := u.above(moved, rests...)
	if len(u.g.Cycles) > 0 {
		var onCycle []string
		for _, c := range u.g.Cycles {
			for _, id := range c {
				if u.s.Statements.Get(id) != nil {
					onCycle = append(onCycle, id)
				}
			}
		}
		for id := range u.above(onCycle, rests...) {
			if redo[id] {
				return false
			}
		}
	}
	const (
		visiting = 1
		done     = 2
	)
	state := make(map[string]uint8, len(redo))
	var stale func(id string) string
	stale = func(id string) string {
		if !redo[id] {
			return u.g.Stale.Get(id)
		}
		switch state[id] {
		case visiting:
			return "" // cannot happen: nothing redone reaches a cycle
		case done:
			return u.stale.o.Get(id)
		}
		state[id] = visiting
		reason := ""
		if u.s.Statements.Get(id).Status == "true" {
			for _, edge := range u.g.Out[id] {
				var target *Statement
				if KindOf(edge.To) == KindStatement {
					target = u.s.Statements.Get(edge.To)
				}
				var onStale bool
				reason, onStale = restsOn(edge, target)
				if onStale && stale(edge.To) != "" {
					reason = staleBecause(edge)
				}
				if reason != "" {
					break
				}
			}
		}
		state[id] = done
		u.stale.set(id, reason, reason != "")
		return reason
	}
	for id := range redo {
		stale(id)
	}
	return true
}

// unknown is Graph.Unknown with the phases that moved to or from unknown: problems, then
// statements, each in ID order.
func (u *update) unknown() []string {
	out := slices.DeleteFunc(slices.Clone(u.g.Unknown), func(id string) bool { return slices.Contains(u.unknownOut, id) })
	out = append(out, u.unknownIn...)
	group := func(id string) int {
		if u.s.Problems[id] != nil {
			return 0
		}
		return 1
	}
	slices.SortFunc(out, func(a, b string) int {
		if c := group(a) - group(b); c != 0 {
			return c
		}
		return CompareIDs(a, b)
	})
	if len(out) == 0 {
		return nil
	}
	return out
}

// actionable is Graph.Actionable with the next agents that changed: a fork of g's list
// that carries those changes (the depths are g's, since the links are).
func (u *update) actionable() Actions {
	out := u.g.Actionable.Fork()
	for id := range u.nextMoved {
		if was := u.g.Next.Get(id); was != "" {
			out.Remove(u.g.action(id, was))
		}
		if agent := u.next.o.Get(id); agent != "" {
			out.Insert(u.g.action(id, agent))
		}
	}
	return out
}
