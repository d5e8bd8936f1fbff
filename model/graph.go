package model

import (
	"fmt"
	"slices"
)

// EdgeKind is how one object references another (FORMAT.md "References and the tree").
type EdgeKind uint8

const (
	EdgeSubgoal  EdgeKind = iota // problem.preliminaries p-*: a subproblem
	EdgeNeeds                    // problem.preliminaries s-*: a statement it needs
	EdgeProgress                 // problem.progresses: statements created to resolve it
	EdgeSolution                 // problem.solution.ref
	EdgePremise                  // problem/statement.hypothesis
	EdgeSub                      // statement.preliminaries: a sub-statement
	EdgeCites                    // statement.proof.ref
)

var edgeWords = [...]string{"subgoal", "needs", "progress", "solution", "premise", "sub-statement", "cites"}

func (k EdgeKind) String() string { return edgeWords[k] }

// Structural reports whether the edge builds the work tree (as opposed to a premise
// or a citation, which point at statements that live elsewhere in the tree).
func (k EdgeKind) Structural() bool {
	return k == EdgeSubgoal || k == EdgeNeeds || k == EdgeProgress || k == EdgeSub
}

// Edge is one reference, with the item text it came from.
type Edge struct {
	From, To string
	Kind     EdgeKind
	Item     string
}

// Action is one object the orchestrator would dispatch an agent for.
type Action struct {
	ID    string
	Agent string
	Depth int
}

// Graph holds every derivation over a snapshot.
type Graph struct {
	Out, In     map[string][]Edge
	Roots       []string   // problems that are nobody's subgoal
	Orphans     []string   // statements nothing references
	Unreachable []string   // statements no problem leads to (orphans and what hangs under them)
	Dangling    []Edge     // references to objects that do not exist
	Cycles      [][]string // each a strongly connected set of IDs, sorted
	Depth       map[string]int
	// Phase is each statement's and problem's review phase, "validating" resolved by counts.
	Phase         map[string]Phase
	Actionable    []Action // deepest first, as the orchestrator runs them
	Next          map[string]string
	FullyProved   map[string]bool
	Stale         map[string]string // statement → why
	Counts        map[string]int    // statement statuses as written
	ProblemCounts map[string]int
	Unknown       []string // objects whose status neither vocabulary knows
}

// Derive computes the graph of a snapshot. It is cycle-safe and never loops.
//
// It works on integer indices (index below) rather than maps keyed by ID: a folder of
// 10k statements has tens of thousands of edges, and map traffic was most of the time.
func Derive(s *Snapshot) *Graph {
	pids := sortedKeys(s.Problems)
	sids := sortedKeys(s.Statements)
	x := newIndex(s, pids, sids)
	n := len(x.ids)
	g := &Graph{
		Out: make(map[string][]Edge, n), In: make(map[string][]Edge, n), Depth: make(map[string]int, n),
		Phase: make(map[string]Phase, len(pids)+len(sids)), Next: map[string]string{}, FullyProved: make(map[string]bool, len(sids)),
		Stale: map[string]string{}, Counts: map[string]int{}, ProblemCounts: map[string]int{},
	}
	in := make([][]Edge, n)
	var edges []Edge // the node's edges so far
	var targets []int32
	var from string // the node whose edges are being added
	add := func(kind EdgeKind, item string) {
		to, ok := RefID(item)
		if !ok {
			return
		}
		e := Edge{From: from, To: to, Kind: kind, Item: item}
		j := x.lookup(to)
		edges, targets = append(edges, e), append(targets, j)
		if j >= 0 {
			in[j] = append(in[j], e)
		} else {
			g.Dangling = append(g.Dangling, e)
		}
	}
	done := func(i int, id string) {
		if len(edges) > 0 {
			g.Out[id] = slices.Clone(edges)
			x.out[i] = slices.Clone(targets)
		}
		edges, targets = edges[:0], targets[:0]
	}
	for i, id := range pids {
		from = id
		problemLinks(s.Problems[id], add)
		done(i, id)
	}
	for k, id := range sids {
		from = id
		statementLinks(s.Statements[id], add)
		done(len(pids)+k, id)
	}
	for j, es := range in {
		if len(es) > 0 {
			g.In[x.ids[j]] = es
		}
	}

	for i, id := range pids {
		if !slices.ContainsFunc(in[i], func(e Edge) bool { return e.Kind == EdgeSubgoal }) {
			g.Roots = append(g.Roots, id)
		}
	}
	depth := g.depths(x, len(pids))
	for k, id := range sids {
		if len(in[len(pids)+k]) == 0 {
			g.Orphans = append(g.Orphans, id)
		}
		if depth[len(pids)+k] < 0 {
			g.Unreachable = append(g.Unreachable, id)
		}
	}
	// The last three passes write different fields: two of them run beside the third.
	beside := make(chan struct{})
	go func() {
		g.Cycles = cycles(x, len(pids)+len(sids))
		g.provedAndStale(s, x, len(pids))
		close(beside)
	}()
	g.phases(s, pids, sids)
	<-beside
	return g
}

// problemLinks calls add with every item of a problem that may reference an object, as
// the edge it makes when it does, in the order of Graph.Out.
func problemLinks(p *Problem, add func(EdgeKind, string)) {
	for _, it := range p.Preliminaries {
		if to, _ := RefID(it); KindOf(to) == KindStatement {
			add(EdgeNeeds, it)
		} else {
			add(EdgeSubgoal, it)
		}
	}
	addEach(add, EdgeProgress, p.Progresses)
	addEach(add, EdgeSolution, p.Solution.Ref)
	addEach(add, EdgePremise, p.Hypothesis)
}

// statementLinks is problemLinks for a statement.
func statementLinks(st *Statement, add func(EdgeKind, string)) {
	addEach(add, EdgeSub, st.Preliminaries)
	addEach(add, EdgeCites, st.Proof.Ref)
	addEach(add, EdgePremise, st.Hypothesis)
}

func addEach(add func(EdgeKind, string), kind EdgeKind, items []string) {
	for _, it := range items {
		add(kind, it)
	}
}

// index numbers the objects of a snapshot: problems, then statements (both in ID
// order), then experiences. out[i] holds, for each of node i's edges in Graph.Out, the
// index of the object it points to, or -1 when that does not exist.
type index struct {
	ids        []string
	of         map[string]int32
	np, ns     int
	out        [][]int32
	snapExists func(string) bool
}

func newIndex(s *Snapshot, pids, sids []string) *index {
	eids := sortedKeys(s.Experiences)
	x := &index{np: len(pids), ns: len(sids)}
	x.ids = make([]string, 0, len(pids)+len(sids)+len(eids))
	x.ids = append(append(append(x.ids, pids...), sids...), eids...)
	x.of = make(map[string]int32, len(x.ids))
	for i, id := range x.ids {
		x.of[id] = int32(i)
	}
	x.out = make([][]int32, len(x.ids))
	return x
}

// lookup is the index of the object id names, or -1 when it does not exist (as
// Snapshot.Exists: a problem ID among the problems, and so on).
func (x *index) lookup(id string) int32 {
	i, ok := x.of[id]
	if !ok {
		return -1
	}
	var lo, hi int
	switch KindOf(id) {
	case KindProblem:
		lo, hi = 0, x.np
	case KindStatement:
		lo, hi = x.np, x.np+x.ns
	case KindExperience:
		lo, hi = x.np+x.ns, len(x.ids)
	default:
		return -1
	}
	if int(i) < lo || int(i) >= hi {
		return -1
	}
	return i
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, CompareIDs)
	return keys
}

// depths is the shortest structural distance from a root problem (breadth first);
// what only premises or citations reach gets a depth one below its first referrer.
// It fills g.Depth and returns the depth of every node, -1 where there is none.
func (g *Graph) depths(x *index, np int) []int32 {
	depth := make([]int32, len(x.ids))
	for i := range depth {
		depth[i] = -1
	}
	var queue []int32
	for _, id := range g.Roots {
		queue = append(queue, x.of[id])
	}
	if len(queue) == 0 { // every problem is someone's subgoal: a cycle; start anywhere
		for i := range np {
			queue = append(queue, int32(i))
		}
	}
	for _, i := range queue {
		depth[i] = 0
	}
	var reached []int32
	walk := func(follow func(EdgeKind) bool) {
		for len(queue) > 0 {
			i := queue[0]
			queue = queue[1:]
			reached = append(reached, i)
			for k, e := range g.Out[x.ids[i]] {
				j := x.out[i][k]
				if j < 0 || !follow(e.Kind) {
					continue
				}
				if depth[j] < 0 {
					depth[j] = depth[i] + 1
					queue = append(queue, j)
				}
			}
		}
	}
	walk(EdgeKind.Structural)
	queue = slices.Clone(reached) // then everything, from everything reached
	walk(func(EdgeKind) bool { return true })
	for i, d := range depth {
		if d >= 0 {
			g.Depth[x.ids[i]] = int(d)
		}
	}
	return depth
}

// cycles finds strongly connected components with more than one node (or a self-loop),
// with Tarjan's algorithm, starting from the first n nodes (problems and statements).
func cycles(x *index, n int) [][]string {
	const unseen = -1
	index := make([]int32, len(x.ids))
	low := make([]int32, len(x.ids))
	onStack := make([]bool, len(x.ids))
	for i := range index {
		index[i] = unseen
	}
	var stack []int32
	var result [][]string
	var next int32
	var visit func(v int32)
	visit = func(v int32) {
		index[v], low[v] = next, next
		next++
		stack = append(stack, v)
		onStack[v] = true
		self := false
		for _, w := range x.out[v] {
			if w < 0 {
				continue
			}
			if w == v {
				self = true
			}
			if index[w] == unseen {
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
				comp = append(comp, x.ids[w])
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
	for i := range n {
		if index[i] == unseen {
			visit(int32(i))
		}
	}
	slices.SortFunc(result, func(a, b []string) int { return CompareIDs(a[0], b[0]) })
	return result
}

// StatementPhase resolves a statement's phase; P014's "validating" is decided from the
// counts exactly as the agents' orchestrator does.
func StatementPhase(s *Snapshot, st *Statement) Phase {
	ph, _, _ := StatusInfo(st.Status)
	if ph != PhaseValidating {
		return ph
	}
	for _, id := range st.Preliminaries {
		sub := s.Statements[refOr(id)]
		if sub == nil || sub.Status != "true" {
			return PhaseAwaitingSubs
		}
	}
	if len(st.Issues) > len(st.Responses) {
		return PhaseHasGap
	}
	return PhaseAwaitingCheck
}

func refOr(item string) string {
	if id, ok := RefID(item); ok {
		return id
	}
	return item
}

func (g *Graph) phases(s *Snapshot, pids, sids []string) {
	for _, id := range pids {
		p := s.Problems[id]
		g.ProblemCounts[p.Status]++
		ph := ProblemPhase(p.Status)
		g.Phase[id] = ph
		if ph == PhaseUnknown {
			g.Unknown = append(g.Unknown, id)
		}
		if agent := problemNext(s, p, ph); agent != "" {
			g.Next[id] = agent
		}
	}
	for _, id := range sids {
		st := s.Statements[id]
		g.Counts[st.Status]++
		ph := StatementPhase(s, st)
		g.Phase[id] = ph
		if ph == PhaseUnknown {
			g.Unknown = append(g.Unknown, id)
		}
		if agent := statementNext(s, st, ph); agent != "" {
			g.Next[id] = agent
		}
	}
	for id, agent := range g.Next {
		g.Actionable = append(g.Actionable, g.action(id, agent))
	}
	slices.SortFunc(g.Actionable, compareActions)
}

// action is the orchestrator's entry for an object with a next agent.
func (g *Graph) action(id, agent string) Action {
	d, ok := g.Depth[id]
	if !ok {
		d = -1 // unattached work runs last
	}
	return Action{ID: id, Agent: agent, Depth: d}
}

// compareActions orders Graph.Actionable: deepest first, then by ID.
func compareActions(a, b Action) int {
	if a.Depth != b.Depth {
		return b.Depth - a.Depth
	}
	return CompareIDs(a.ID, b.ID)
}

// problemNext is the agent a problem in phase ph waits for, or "".
func problemNext(s *Snapshot, p *Problem, ph Phase) string {
	if ph == PhaseProblemOpen && prelimsDone(s, p.Preliminaries) {
		return AgentSolve
	}
	return ""
}

// statementNext is the agent a statement in phase ph waits for, or "".
func statementNext(s *Snapshot, st *Statement, ph Phase) string {
	if !ph.Open() || !prelimsDone(s, st.Preliminaries) {
		return ""
	}
	switch ph {
	case PhaseNeedsProof:
		return AgentProve
	case PhaseAwaitingCheck:
		return AgentCheck
	case PhaseHasGap:
		return AgentFix
	case PhaseNeedsDecision:
		return AgentHuman
	case PhaseAwaitingSubs:
		// P013: the sub-statements are done; a decomposition without a proof goes back to
		// the prover, a gap filled by a lemma goes to the checker.
		switch {
		case len(st.Issues) > len(st.Responses):
			return AgentFix
		case st.Proof.Full == "":
			return AgentProve
		default:
			return AgentCheck
		}
	}
	return ""
}

func prelimsDone(s *Snapshot, prelims []string) bool {
	for _, it := range prelims {
		id := refOr(it)
		switch KindOf(id) {
		case KindStatement:
			if st := s.Statements[id]; st == nil || st.Status != "true" {
				return false
			}
		case KindProblem:
			if p := s.Problems[id]; p == nil || ProblemPhase(p.Status) != PhaseProblemSolved {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// provedAndStale computes fully proved (true, and every preliminary fully proved) and
// stale (true, but resting on something false, abandoned, missing or itself stale).
func (g *Graph) provedAndStale(s *Snapshot, x *index, np int) {
	const (
		unvisited = iota
		visiting
		done
	)
	state := make([]uint8, x.ns)
	proved := make([]bool, x.ns)
	var isProved func(id string) bool
	isProved = func(id string) bool {
		i := x.lookup(id)
		if i < 0 || KindOf(id) != KindStatement {
			return false // not a statement: it proves nothing
		}
		k := int(i) - np
		switch state[k] {
		case visiting:
			return false // a cycle proves nothing
		case done:
			return proved[k]
		}
		state[k] = visiting
		ok := provedOver(s.Statements[id], isProved)
		state[k] = done
		if ok {
			proved[k] = true
			g.FullyProved[id] = true
		}
		return ok
	}
	staleState := make([]uint8, x.ns)
	var stale func(k int) string
	stale = func(k int) string {
		id := x.ids[np+k]
		switch staleState[k] {
		case visiting:
			return ""
		case done:
			return g.Stale[id]
		}
		staleState[k] = visiting
		st := s.Statements[id]
		reason := ""
		if st.Status == "true" {
			for e, edge := range g.Out[id] {
				j := x.out[np+k][e]
				isStatement := j >= int32(np) && j < int32(np+x.ns)
				if reason = restsOn(s, edge, isStatement, func() bool { return stale(int(j)-np) != "" }); reason != "" {
					break
				}
			}
		}
		staleState[k] = done
		if reason != "" {
			g.Stale[id] = reason
		}
		return reason
	}
	for k := range x.ns {
		isProved(x.ids[np+k])
		stale(k)
	}
}

// provedOver reports whether a statement is fully proved, given which of its
// preliminaries are (isProved is asked about each of them, when the statement is true).
func provedOver(st *Statement, isProved func(id string) bool) bool {
	ok := st.Status == "true"
	if ok {
		for _, it := range st.Preliminaries {
			if !isProved(refOr(it)) {
				ok = false
			}
		}
	}
	return ok
}

// restsOn says why a true statement is stale because of one of its edges, or "". The edge
// leads to an existing statement when isStatement; stale reports whether that one is.
func restsOn(s *Snapshot, edge Edge, isStatement bool, stale func() bool) string {
	if edge.Kind != EdgeSub && edge.Kind != EdgeCites && edge.Kind != EdgePremise {
		return ""
	}
	switch {
	case !isStatement && KindOf(edge.To) == KindStatement:
		return fmt.Sprintf("rests on %s, which does not exist", edge.To)
	case !isStatement:
		return ""
	case s.Statements[edge.To].Status == "false" || s.Statements[edge.To].Status == "abandoned":
		return fmt.Sprintf("rests on %s, which is %s", edge.To, s.Statements[edge.To].Status)
	case stale():
		return fmt.Sprintf("rests on %s, which is stale", edge.To)
	}
	return ""
}
