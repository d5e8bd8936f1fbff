package model

import (
	"cmp"
	"fmt"
	"iter"
	"maps"
	"runtime"
	"slices"
	"strings"
	"sync"
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
	Phase         Objects[Phase]
	Actionable    Actions // deepest first, as the orchestrator runs them
	Next          Objects[string]
	FullyProved   Objects[bool]
	Stale         Objects[string] // statement → why
	Counts        map[string]int  // statement statuses as written
	ProblemCounts map[string]int
	// PhaseCounts counts statements by phase (the status bar's figures): kept by Update,
	// since counting 100k phases per frame was most of a write's cost at that size.
	PhaseCounts map[Phase]int
	Unknown     []string // objects whose status neither vocabulary knows

	dense *denseGraph // what Derive knew by index, for BlockScores; nil once updated
}

// Derive computes the graph of a snapshot. It is cycle-safe and never loops.
//
// It works on integer indices (index below) rather than maps keyed by ID: a folder of
// 10k statements has tens of thousands of edges, and map traffic was most of the time.
// What is left of it (the graph's own maps) is spread over the cores: the phases do
// not read the links and run beside them, and Out and In are filled beside the walks.
func Derive(s *Snapshot) *Graph { return derive(s, false) }

// DeriveStatus is Derive for `referee status`, which reads of the graph only what it
// prints: the counts, the roots, orphans, unreachable, dangling, cycles, stale and
// unknown, and Actionable with its block scores (NextWithScores, by index). When every
// ID is valid it leaves out the rest, Out, In, Depth, FullyProved, Phase and Next: maps
// by ID of every object, most of Derive's memory, which status would make for nothing.
// Else it is Derive. Its graph is for reading those fields only (no Update).
func DeriveStatus(s *Snapshot) *Graph { return derive(s, true) }

// derive is Derive, or with lean DeriveStatus.
func derive(s *Snapshot, lean bool) *Graph { return deriveNumbered(s, lean, nil) }

// deriveNumbered is derive numbering the objects as nb does, when not nil (see
// DeriveStatusNumbered).
func deriveNumbered(s *Snapshot, lean bool, nb *Numbering) *Graph {
	var x *index
	if nb != nil {
		x = nb.index()
	} else {
		pids := sortedKeys(s.Problems)
		sids, sts := sortedStatements(s.Statements)
		x = newIndex(s, pids, sids, sts)
		x.ix = NewIDIndex(x.ids)
	}
	pids, sids := x.ids[:x.np], x.ids[x.np:x.np+x.ns]
	n := len(x.ids)
	// Each map is made by the goroutine that fills it.
	g := &Graph{Counts: map[string]int{}, ProblemCounts: map[string]int{}, PhaseCounts: map[Phase]int{}}
	var wg, phased sync.WaitGroup
	lean = lean && x.ranked                       // else BlockScores reads In and Phase by ID
	nextAt := make([]string, len(pids)+len(sids)) // each object's next agent, by index
	phaseAt := make([]Phase, len(pids)+len(sids)) // and its phase
	phased.Go(func() { g.phases(s, x, nextAt, phaseAt) })
	in, indeg := g.link(s, x, !lean)
	// The cycles and what is proved and stale read the links alone: beside the depths,
	// the next list and (status) who waits for whom (after its read status derives on
	// one goroutine, the other core idle).
	wg.Go(func() { g.Cycles = cycles(x, len(pids)+len(sids)) })
	wg.Go(func() { g.provedAndStale(x, !lean) })
	if !lean {
		wg.Go(func() {
			g.Out, g.In = make(map[string][]Edge, n), make(map[string][]Edge, n)
			for i, es := range x.edges {
				if len(es) > 0 {
					g.Out[x.ids[i]] = es
				}
			}
			for j, es := range in {
				if len(es) > 0 {
					g.In[x.ids[j]] = es
				}
			}
		})
	}

	var roots []int32
	for i, id := range pids {
		if indeg.subgoal[i] == 0 {
			g.Roots = append(g.Roots, id)
			roots = append(roots, int32(i))
		}
	}
	depth := x.depths(roots)
	for k, id := range sids {
		if indeg.all[len(pids)+k] == 0 {
			g.Orphans = append(g.Orphans, id)
		}
		if depth[len(pids)+k] < 0 {
			g.Unreachable = append(g.Unreachable, id)
		}
	}
	if !lean {
		g.Depth = make(map[string]int, n)
		for i, d := range depth {
			if d >= 0 {
				g.Depth[x.ids[i]] = int(d)
			}
		}
	}
	phased.Wait()
	var d *denseGraph
	if x.ranked {
		d = &denseGraph{x: x, phase: phaseAt, root: make([]bool, len(pids))}
		if lean { // status scores the next list at once: who waits for whom is found meanwhile
			go d.once.Do(d.findWaiters)
		}
	}
	g.Actionable = ActionsOf(actionable(x, nextAt, depth))
	if x.ranked && !lean { // IDs unique across kinds: the index reads as the maps by ID do
		g.Phase = ObjectsAt(x.ix, phaseAt, nil, len(phaseAt))
		has, n := make([]bool, len(nextAt)), 0
		for i, agent := range nextAt {
			if has[i] = agent != ""; has[i] {
				n++
			}
		}
		g.Next = ObjectsAt(x.ix, nextAt, has, n)
	}
	wg.Wait()
	if x.ranked {
		x.st = nil // the statements are the snapshot's: an updated graph keeps no old ones
		for _, r := range roots {
			d.root[r] = true
		}
		g.dense = d
	}
	return g
}

// inDegrees counts each node's edges in: all of them, and for a problem its subgoal
// edges (it is a root without one).
type inDegrees struct{ all, subgoal []int32 }

// link fills the index's edges and targets and g.Dangling, and counts each node's edges
// in; withIn, it returns them too (Graph.In). The nodes are split in parts linked side
// by side: resolving tens of thousands of references was the most of Derive's time left.
func (g *Graph) link(s *Snapshot, x *index, withIn bool) (in [][]Edge, indeg inDegrees) {
	n, nodes := len(x.ids), x.np+x.ns // experiences reference nothing
	parts := make([]linkPart, max(1, min(runtime.GOMAXPROCS(0), nodes/1024)))
	var wg sync.WaitGroup
	for p := range parts {
		wg.Go(func() { parts[p].link(s, x, nodes*p/len(parts), nodes*(p+1)/len(parts), withIn) })
	}
	wg.Wait()
	indeg = inDegrees{all: make([]int32, n), subgoal: make([]int32, x.np)}
	for _, pt := range parts {
		g.Dangling = append(g.Dangling, pt.dangling...)
		for j, c := range pt.indeg {
			indeg.all[j] += c
		}
		for e, j := range pt.targets {
			if j >= 0 && int(j) < x.np && pt.kinds[e] == EdgeSubgoal {
				indeg.subgoal[j]++
			}
		}
	}
	if !withIn {
		return nil, indeg
	}
	// In, in the order of Out: a counting sort of the edges by target.
	at := make([]int32, n+1) // where the next edge into j goes, then where j's end
	for j, c := range indeg.all {
		at[j+1] = at[j] + c
	}
	into := make([]Edge, at[n])
	in = make([][]Edge, n)
	for j := range n {
		if a, b := at[j], at[j+1]; a < b {
			in[j] = into[a:b:b]
		}
	}
	for _, pt := range parts {
		for e, j := range pt.targets {
			if j >= 0 {
				into[at[j]] = pt.edges[e]
				at[j]++
			}
		}
	}
	return in, indeg
}

// linkPart is what link finds in one range of nodes.
type linkPart struct {
	edges    []Edge     // the range's edges, node by node (with edges)
	kinds    []EdgeKind // each edge's kind
	targets  []int32    // for each edge the node it leads to, or -1
	dangling []Edge
	indeg    []int32 // how many of the edges lead to each node
}

// link resolves the references of nodes lo to hi, and sets their kinds and targets in
// x, and with edges their edges (Graph.Out): DeriveStatus reads none but the dangling
// ones, and an Edge is 56 bytes, each a fresh page's share under status's paused
// collector.
func (pt *linkPart) link(s *Snapshot, x *index, lo, hi int, edges bool) {
	if edges {
		pt.edges = make([]Edge, 0, 3*(hi-lo))
	}
	pt.kinds = make([]EdgeKind, 0, 3*(hi-lo))
	pt.targets = make([]int32, 0, cap(pt.kinds))
	pt.indeg = make([]int32, len(x.ids))
	start := make([]int32, hi-lo+1) // node lo+k's edges are edges[start[k]:start[k+1]]
	var from string                 // the node whose edges are being added
	add := func(kind EdgeKind, item string) {
		to, ok := RefID(item)
		if !ok {
			return
		}
		j := x.lookup(to)
		pt.kinds, pt.targets = append(pt.kinds, kind), append(pt.targets, j)
		if edges {
			pt.edges = append(pt.edges, Edge{From: from, To: to, Kind: kind, Item: item})
		}
		if j >= 0 {
			pt.indeg[j]++
		} else {
			pt.dangling = append(pt.dangling, Edge{From: from, To: to, Kind: kind, Item: item})
		}
	}
	for i := lo; i < hi; i++ {
		start[i-lo], from = int32(len(pt.kinds)), x.ids[i]
		if i < x.np {
			problemLinks(s.Problems[from], add)
		} else {
			statementLinks(x.st[i-x.np], add)
		}
	}
	start[hi-lo] = int32(len(pt.kinds))
	for i := lo; i < hi; i++ {
		if a, b := start[i-lo], start[i-lo+1]; a < b {
			x.kinds[i], x.out[i] = pt.kinds[a:b:b], pt.targets[a:b:b]
			if edges {
				x.edges[i] = pt.edges[a:b:b]
			}
		}
	}
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
	ids    []string
	ix     *IDIndex // the numbers by ID
	np, ns int
	st     []*Statement // statement k is node np+k
	edges  [][]Edge     // node i's edges, as in Graph.Out (Derive's; DeriveStatus keeps none)
	kinds  [][]EdgeKind // the kind of each of node i's edges
	out    [][]int32
	// ranked: the order of ids is the order of CompareIDs (every problem's and
	// statement's ID is valid and of its kind), so an index compares as its ID does.
	ranked bool
}

// newIndex numbers the problems pids, the statements sids (sts, in the same order) and
// the snapshot's experiences.
func newIndex(s *Snapshot, pids, sids []string, sts []*Statement) *index {
	eids := sortedKeys(s.Experiences)
	x := &index{np: len(pids), ns: len(sids)}
	x.ids = make([]string, 0, len(pids)+len(sids)+len(eids))
	x.ids = append(append(append(x.ids, pids...), sids...), eids...)
	x.out = make([][]int32, len(x.ids))
	x.edges = make([][]Edge, len(x.ids))
	x.kinds = make([][]EdgeKind, len(x.ids))
	x.st = sts
	x.ranked = validOfKind(pids, 'p') && validOfKind(sids, 's')
	return x
}

// find is the index of id, if it is one of the index's IDs.
func (x *index) find(id string) (int32, bool) { return x.ix.Find(id) }

func validOfKind(ids []string, kind byte) bool {
	for _, id := range ids {
		if k, _, _, ok := parseID(id); !ok || k != kind {
			return false
		}
	}
	return true
}

// lookup is the index of the object id names, or -1 when it does not exist (as
// Snapshot.Exists: a problem ID among the problems, and so on).
func (x *index) lookup(id string) int32 {
	i, ok := x.find(id)
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

// sortedKeys is the keys of m in the order of CompareIDs. When every key is an ID it
// sorts them by a number that orders them as CompareIDs does (idKey), or compares them
// without parsing them again: sorting was a third of Derive's time at 10k.
func sortedKeys[V any](m map[string]V) []string { return sortIDs(maps.Keys(m), len(m)) }

// sortedIDs is sortedKeys of a snapshot's Objects.
func sortedIDs[V any](o Objects[V]) []string { return sortIDs(o.Keys(), o.Len()) }

func sortIDs(ids iter.Seq[string], n int) []string {
	keys := make([]string, 0, n)
	keyed := make([]keyedID, 0, n)
	valid := true
	for k := range ids {
		keys = append(keys, k)
		if valid {
			_, _, _, valid = parseID(k)
			if key, ok := idKey(k); ok && valid && keyed != nil {
				keyed = append(keyed, keyedID{key, k})
			} else {
				keyed = nil
			}
		}
	}
	switch {
	case valid && keyed != nil:
		keyed = radixSortKeyed(keyed)
		for i, k := range keyed {
			keys[i] = k.id
		}
	case valid:
		slices.SortFunc(keys, compareValidIDs)
	default:
		slices.SortFunc(keys, CompareIDs)
	}
	return keys
}

type keyedID struct {
	key uint64
	id  string
}

// radixSortKeyed sorts by key, a byte at a time from the lowest (a stable counting sort
// per byte, skipping the bytes every key shares: the kind, mostly the length). It
// returns the sorted list, which is either keyed or a list of the same length. At 100k
// statements it is several times faster than comparing: sorting was a fifth of Derive.
func radixSortKeyed(keyed []keyedID) []keyedID {
	return radixSortBy(keyed, func(k keyedID) uint64 { return k.key })
}

// radixSortBy is radixSortKeyed of any list with a key.
func radixSortBy[T any](keyed []T, key func(T) uint64) []T {
	if len(keyed) < 256 {
		slices.SortFunc(keyed, func(a, b T) int { return cmp.Compare(key(a), key(b)) })
		return keyed
	}
	var or, and uint64 = 0, ^uint64(0)
	for _, k := range keyed {
		or, and = or|key(k), and&key(k)
	}
	differ := or ^ and // the bits that are not the same in every key
	tmp := make([]T, len(keyed))
	src, dst := keyed, tmp
	var count [256]int
	for shift := uint(0); shift < 64; shift += 8 {
		if (differ>>shift)&0xff == 0 {
			continue
		}
		clear(count[:])
		for _, k := range src {
			count[(key(k)>>shift)&0xff]++
		}
		at := 0
		for b, c := range count {
			count[b] = at
			at += c
		}
		for _, k := range src {
			b := (key(k) >> shift) & 0xff
			dst[count[b]] = k
			count[b]++
		}
		src, dst = dst, src
	}
	return src
}

// sortedStatements is sortedIDs of the statements, and the statements in that order:
// Derive reads them by index, not by a lookup of each ID.
func sortedStatements(o Objects[*Statement]) ([]string, []*Statement) {
	type keyedSt struct {
		key uint64
		id  string
		st  *Statement
	}
	keyed := make([]keyedSt, 0, o.Len())
	byKey := true // every ID is valid and has an idKey
	for id, st := range o.All() {
		k := keyedSt{id: id, st: st}
		if byKey {
			_, _, _, valid := parseID(id)
			var ok bool
			k.key, ok = idKey(id)
			byKey = valid && ok
		}
		keyed = append(keyed, k)
	}
	if byKey {
		keyed = radixSortBy(keyed, func(k keyedSt) uint64 { return k.key })
	} else {
		slices.SortFunc(keyed, func(a, b keyedSt) int { return CompareIDs(a.id, b.id) })
	}
	ids, sts := make([]string, len(keyed)), make([]*Statement, len(keyed))
	for i, k := range keyed {
		ids[i], sts[i] = k.id, k.st
	}
	return ids, sts
}

// idKey is a number that orders valid IDs of up to three letters as CompareIDs does:
// the kind, the length, then the bytes after "k-" (at most six) as a big-endian number.
func idKey(id string) (uint64, bool) {
	if len(id) < 2 || len(id) > 8 {
		return 0, false
	}
	key := uint64(id[0])<<56 | uint64(len(id))<<48
	for i := 2; i < len(id); i++ {
		key |= uint64(id[i]) << (8 * (7 - i))
	}
	return key, true
}

// compareValidIDs is CompareIDs for two valid IDs: by kind, then by the length of the
// letters (the digits are always three), then letters and digits as text.
func compareValidIDs(a, b string) int {
	if a[0] != b[0] {
		return int(a[0]) - int(b[0])
	}
	if len(a) != len(b) {
		return len(a) - len(b)
	}
	return strings.Compare(a, b)
}

// depths is the shortest structural distance from a root problem (breadth first);
// what only premises or citations reach gets a depth one below its first referrer.
// It returns the depth of every node, -1 where there is none.
func (x *index) depths(roots []int32) []int32 {
	depth := make([]int32, len(x.ids))
	for i := range depth {
		depth[i] = -1
	}
	// A node is queued once (when its depth is set), so a queue of every node never
	// grows: a queue sliced from the front and appended to was copied again and again.
	queue := make([]int32, 0, len(x.ids))
	queue = append(queue, roots...)
	if len(queue) == 0 { // every problem is someone's subgoal: a cycle; start anywhere
		for i := range x.np {
			queue = append(queue, int32(i))
		}
	}
	for _, i := range queue {
		depth[i] = 0
	}
	walk := func(from int, all bool) {
		for head := from; head < len(queue); head++ {
			i := queue[head]
			for k, j := range x.out[i] {
				if j < 0 || !all && !x.kinds[i][k].Structural() {
					continue
				}
				if depth[j] < 0 {
					depth[j] = depth[i] + 1
					queue = append(queue, j)
				}
			}
		}
	}
	walk(0, false)
	walk(0, true) // then everything, from everything reached, in the order reached
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
// counts exactly as the agents' orchestrator (current.py) does: a preliminary that exists
// and is not true → waiting for sub-statements (one that does not exist counts as
// satisfied); more issues than responses → the fixer; else the checker.
func StatementPhase(s *Snapshot, st *Statement) Phase { return statementPhase(st, s.Statements.Get) }

// statementPhase is StatementPhase, finding statements by ID with get.
func statementPhase(st *Statement, get func(string) *Statement) Phase {
	ph, _, _ := StatusInfo(st.Status)
	if ph != PhaseValidating {
		return ph
	}
	for _, id := range st.Preliminaries {
		if sub := get(id); sub != nil && sub.Status != "true" {
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

// phases fills Phase, Next, Counts, ProblemCounts and Unknown, and each object's next
// agent by index in nextAt. It reads neither the links nor the depths.
func (g *Graph) phases(s *Snapshot, x *index, nextAt []string, phaseAt []Phase) {
	byID := !x.ranked // else Derive makes Phase and Next from phaseAt and nextAt
	if byID {
		g.Phase = NewObjects[Phase](x.np + x.ns)
	}
	for i, id := range x.ids[:x.np] {
		p := s.Problems[id]
		g.ProblemCounts[p.Status]++
		ph := ProblemPhase(p.Status)
		if byID {
			g.Phase.Set(id, ph)
		}
		phaseAt[i] = ph
		if ph == PhaseUnknown {
			g.Unknown = append(g.Unknown, id)
		}
		if agent := problemNext(s, p, ph); agent != "" {
			if byID {
				g.Next.Set(id, agent)
			}
			nextAt[i] = agent
		}
	}
	var counts tally
	var phaseCounts [256]int // by Phase, a byte
	defer func() {
		counts.into(g.Counts)
		for ph, n := range phaseCounts {
			if n > 0 {
				g.PhaseCounts[Phase(ph)] += n
			}
		}
	}()
	get := func(id string) *Statement { // Statements.Get, by the index where it can
		if j := x.lookup(id); j >= int32(x.np) && j < int32(x.np+x.ns) {
			return x.st[int(j)-x.np]
		}
		return s.Statements.Get(id)
	}
	for k, id := range x.ids[x.np : x.np+x.ns] {
		st := x.st[k]
		counts.add(st.Status)
		ph := statementPhase(st, get)
		if byID {
			g.Phase.Set(id, ph)
		}
		phaseAt[x.np+k] = ph
		phaseCounts[ph]++
		if ph == PhaseUnknown {
			g.Unknown = append(g.Unknown, id)
		}
		if agent := statementNextBy(st, ph, get); agent != "" {
			if byID {
				g.Next.Set(id, agent)
			}
			nextAt[x.np+k] = agent
		}
	}
}

// tally counts strings of which a folder has a few (statuses) by comparing each with
// those seen, not hashing it into a map: counting 100k statuses in a map was a fifth of
// the phases' time. Past tallyKeys different ones the rest go to a map.
type tally struct {
	keys []string
	n    []int
	more map[string]int
}

const tallyKeys = 16

func (t *tally) add(s string) {
	for i, k := range t.keys {
		if k == s {
			t.n[i]++
			return
		}
	}
	if len(t.keys) < tallyKeys {
		t.keys, t.n = append(t.keys, s), append(t.n, 1)
		return
	}
	if t.more == nil {
		t.more = map[string]int{}
	}
	t.more[s]++
}

// into adds the counts to m.
func (t *tally) into(m map[string]int) {
	for i, k := range t.keys {
		m[k] += t.n[i]
	}
	for k, n := range t.more {
		m[k] += n
	}
}

// actionable is Graph.Actionable: the objects with a next agent, ordered by
// compareActions. In index order a stable sort by depth alone gives that order when the
// index is ranked.
func actionable(x *index, nextAt []string, depth []int32) []Action {
	if !x.ranked {
		var out []Action
		for i, agent := range nextAt {
			if agent != "" {
				out = append(out, Action{ID: x.ids[i], Agent: agent, Depth: int(depth[i])})
			}
		}
		slices.SortFunc(out, compareActions)
		return out
	}
	// A counting sort by depth, deepest first (-1 last), keeping the index order, made
	// straight into the one list (status makes it after its read, without the collector:
	// a list grown by appending, then sorted into another, was three lists' fresh pages).
	deepest, n := 0, 0
	for i, agent := range nextAt {
		if agent != "" {
			deepest, n = max(deepest, int(depth[i])), n+1
		}
	}
	if n == 0 {
		return nil
	}
	at := make([]int, deepest+3) // depth d goes from at[deepest-d+1]
	for i, agent := range nextAt {
		if agent != "" {
			at[deepest-int(depth[i])+1]++
		}
	}
	for d := 1; d < len(at); d++ {
		at[d] += at[d-1]
	}
	sorted := make([]Action, n)
	for i, agent := range nextAt {
		if agent != "" {
			d := int(depth[i])
			sorted[at[deepest-d]] = Action{ID: x.ids[i], Agent: agent, Depth: d}
			at[deepest-d]++
		}
	}
	return sorted
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

// problemNext is the agent a problem in phase ph waits for, or "". Like the agents'
// orchestrator, only "unresolved" is open for work (the plan's "pending" is shown as open
// but not dispatched).
func problemNext(s *Snapshot, p *Problem, ph Phase) string {
	if ph == PhaseProblemOpen && p.Status == "unresolved" && problemPrelimsDone(s, p.Preliminaries) {
		return AgentSolve
	}
	return ""
}

// statementNext is the agent a statement in phase ph waits for, or "".
func statementNext(s *Snapshot, st *Statement, ph Phase) string {
	return statementNextBy(st, ph, s.Statements.Get)
}

// statementNextBy is statementNext, finding statements by ID with get.
func statementNextBy(st *Statement, ph Phase, get func(string) *Statement) string {
	if !ph.Open() || !statementPrelimsDone(st.Preliminaries, get) {
		return ""
	}
	switch ph {
	case PhaseNeedsProof:
		return AgentProve
	case PhaseAwaitingCheck:
		if st.Status == "validating" && len(st.Responses) > len(st.Issues) {
			// More responses than issues: the orchestrator reports an invalid state and
			// leaves it to a human.
			return AgentHuman
		}
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
		case st.Proof.Empty():
			return AgentProve
		default:
			return AgentCheck
		}
	}
	return ""
}

// statementPrelimsDone is the orchestrator's test of a statement's preliminaries: every
// item that names an existing statement is true; an item that names nothing is satisfied.
func statementPrelimsDone(prelims []string, get func(string) *Statement) bool {
	for _, it := range prelims {
		if st := get(it); st != nil && st.Status != "true" {
			return false
		}
	}
	return true
}

// problemPrelimsDone is the orchestrator's test of a problem's preliminaries: an existing
// p- item is resolved (or the seed-era "solved"), an existing s- item true; anything
// missing or of another form is satisfied.
func problemPrelimsDone(s *Snapshot, prelims []string) bool {
	for _, it := range prelims {
		switch {
		case strings.HasPrefix(it, "p-"):
			if p := s.Problems[it]; p != nil && ProblemPhase(p.Status) != PhaseProblemSolved {
				return false
			}
		case strings.HasPrefix(it, "s-"):
			if st := s.Statements.Get(it); st != nil && st.Status != "true" {
				return false
			}
		}
	}
	return true
}

// provedAndStale computes fully proved (true, and every preliminary fully proved;
// withProved only) and stale (true, but resting on something false, abandoned, missing or
// itself stale), each by a walk in index order.
func (g *Graph) provedAndStale(x *index, withProved bool) {
	const (
		unvisited = iota
		visiting
		done
	)
	np, ns := x.np, x.ns
	g.FullyProved = NewObjects[bool](0)
	state := make([]uint8, ns)
	proved := make([]bool, ns)
	var isProved func(k int) bool
	provedAt := func(j int32) bool { // not a statement: it proves nothing
		return j >= int32(np) && j < int32(np+ns) && isProved(int(j)-np)
	}
	isProved = func(k int) bool {
		switch state[k] {
		case visiting:
			return false // a cycle proves nothing
		case done:
			return proved[k]
		}
		state[k] = visiting
		st := x.st[k]
		ok := st.Status == "true"
		if ok {
			// The sub-statement edges come first, one per preliminary that is a
			// reference; an item that is not one is looked up as it stands.
			es, ts := x.kinds[np+k], x.out[np+k]
			subs := 0
			for subs < len(es) && es[subs] == EdgeSub {
				subs++
			}
			if subs == len(st.Preliminaries) {
				for _, j := range ts[:subs] {
					if !provedAt(j) {
						ok = false
					}
				}
			} else {
				for _, it := range st.Preliminaries {
					if !provedAt(x.lookup(refOr(it))) {
						ok = false
					}
				}
			}
		}
		state[k] = done
		if ok {
			proved[k] = true
			g.FullyProved.Set(x.ids[np+k], true)
		}
		return ok
	}
	staleState := make([]uint8, ns)
	staleAt := make([]string, ns)
	var stale func(k int) string
	stale = func(k int) string {
		switch staleState[k] {
		case visiting:
			return ""
		case done:
			return staleAt[k]
		}
		staleState[k] = visiting
		reason := ""
		if x.st[k].Status == "true" {
			for e, kind := range x.kinds[np+k] {
				j := x.out[np+k][e]
				var target *Statement
				if j >= int32(np) && j < int32(np+ns) {
					target = x.st[int(j)-np]
				}
				edge := Edge{Kind: kind} // what restsOn and staleBecause read: the kind and the target's ID
				if j >= 0 {
					edge.To = x.ids[j]
				} else { // a target that does not exist: its ID from the statement's references
					edge.To = x.statementEdge(k, e).To
				}
				var onStale bool
				reason, onStale = restsOn(edge, target)
				if onStale && stale(int(j)-np) != "" {
					reason = staleBecause(edge)
				}
				if reason != "" {
					break
				}
			}
		}
		staleState[k] = done
		if reason != "" {
			staleAt[k] = reason
			g.Stale.Set(x.ids[np+k], reason)
		}
		return reason
	}
	// The two walks share nothing: the second runs beside the first.
	var wg sync.WaitGroup
	wg.Go(func() {
		for k := range ns {
			stale(k)
		}
	})
	if withProved {
		for k := range ns {
			isProved(k)
		}
	}
	wg.Wait()
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
// leads to target when that is an existing statement (nil otherwise); onStale says the
// statement is stale, because of this edge, exactly when target is (see staleBecause).
func restsOn(edge Edge, target *Statement) (reason string, onStale bool) {
	if edge.Kind != EdgeSub && edge.Kind != EdgeCites && edge.Kind != EdgePremise {
		return "", false
	}
	switch {
	case target == nil && KindOf(edge.To) == KindStatement:
		return fmt.Sprintf("rests on %s, which does not exist", edge.To), false
	case target == nil:
		return "", false
	case target.Status == "false" || target.Status == "abandoned":
		return fmt.Sprintf("rests on %s, which is %s", edge.To, target.Status), false
	}
	return "", true
}

// staleBecause is the reason of a statement that rests, through edge, on a stale one.
func staleBecause(edge Edge) string {
	return fmt.Sprintf("rests on %s, which is stale", edge.To)
}

// Plain is g with each per-object map folded into one plain map, and its actions into one
// list: two graphs that hold
// the same are then reflect.DeepEqual, whatever the forks their Objects went through
// (and without what Derive kept by index, which Update drops).
func (g *Graph) Plain() *Graph {
	n := *g
	n.dense = nil
	n.Phase, n.Next = ObjectsOf(g.Phase.Map()), ObjectsOf(g.Next.Map())
	n.FullyProved, n.Stale = ObjectsOf(g.FullyProved.Map()), ObjectsOf(g.Stale.Map())
	n.Actionable = ActionsOf(g.Actionable.Slice())
	return &n
}

// statementEdge is edge e of statement k (node np+k) as Graph.Out has it, made again
// from the statement's references (DeriveStatus keeps no edges).
func (x *index) statementEdge(k, e int) Edge {
	var found Edge
	n := 0
	statementLinks(x.st[k], func(kind EdgeKind, item string) {
		to, ok := RefID(item)
		if !ok {
			return
		}
		if n == e {
			found = Edge{From: x.ids[x.np+k], To: to, Kind: kind, Item: item}
		}
		n++
	})
	return found
}
