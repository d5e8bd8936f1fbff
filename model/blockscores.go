package model

import "math/bits"

// BlockScores is BlockingOf(g, id).Score for each of ids, in one pass over the graph
// instead of a walk per item (a chain of 8,000 statements each citing the next made
// those walks quadratic: 22 s). What waits for an object is what waits for the objects
// waiting for it, so the sets are unions along the graph, kept as bit sets over the
// unfinished objects above those asked for, made in dependency order (cycles as one
// set); past 64 MB of bit sets the objects are taken a slice at a time. Its cost is
// the edges among those objects times their number / 64: well under a millisecond for
// a review queue at 10k, a few ms for every open item.
func BlockScores(g *Graph, ids []string) map[string]int {
	scores := blockScoreList(g, ids)
	out := make(map[string]int, len(ids))
	for i, id := range ids {
		out[id] = scores[i]
	}
	return out
}

// blockScoreList is BlockScores as a list, in the order of ids.
func blockScoreList(g *Graph, ids []string) []int {
	if d := g.dense; d != nil {
		return d.blockScores(ids)
	}
	// The unfinished objects that wait for one asked for, directly or not, numbered: the
	// only ones any score counts (a few at 10k when a handful are asked for).
	num := map[string]int32{}
	var names []string
	waiters := func(id string, f func(string)) {
		for _, e := range g.In[id] {
			if blockingEdge(e.Kind) && !finished(g, e.From) {
				f(e.From)
			}
		}
	}
	visit := func(id string) {
		if _, ok := num[id]; !ok {
			num[id] = int32(len(names))
			names = append(names, id)
		}
	}
	for _, id := range ids {
		if finished(g, id) {
			waiters(id, visit)
		} else {
			visit(id)
		}
	}
	for i := 0; i < len(names); i++ {
		waiters(names[i], visit)
	}
	n := len(names)
	succ := make([][]int32, n)
	for i, id := range names {
		waiters(id, func(w string) { succ[i] = append(succ[i], num[w]) })
	}
	roots := map[string]bool{}
	for _, r := range g.Roots {
		roots[r] = true
	}
	// Each object's weight, as two masks: a root problem, another problem (else a statement).
	words := (n + 63) / 64
	rootMask, problemMask := make([]uint64, words), make([]uint64, words)
	for v, id := range names {
		if KindOf(id) == KindProblem {
			if roots[id] {
				rootMask[v/64] |= 1 << (uint(v) % 64)
			} else {
				problemMask[v/64] |= 1 << (uint(v) % 64)
			}
		}
	}
	qs := make([]blockQuery, len(ids))
	for i, id := range ids {
		if !finished(g, id) {
			v := num[id]
			qs[i] = blockQuery{self: v, from: []int32{v}}
			continue
		}
		qs[i].self = -1
		waiters(id, func(w string) { qs[i].from = append(qs[i].from, num[w]) })
	}
	return blockScoresOf(succ, rootMask, problemMask, qs)
}

// blockScoresOf scores the queries over the numbered objects that wait for them: succ
// lists what waits for each, the masks weigh them, and each query's from lists the
// objects it starts from (itself when unfinished, else what waits for it).
func blockScoresOf(succ [][]int32, rootMask, problemMask []uint64, qs []blockQuery) []int {
	n := len(succ)
	comp, comps := components(succ)
	// Per component, the components it reaches (deduplicated: seen[d] == c+1 when c has d).
	compSucc := make([][]int32, len(comps))
	seen := make([]int32, len(comps))
	for c, members := range comps {
		for _, v := range members {
			for _, w := range succ[v] {
				if d := comp[w]; d != int32(c) && seen[d] != int32(c)+1 {
					seen[d] = int32(c) + 1
					compSucc[c] = append(compSucc[c], d)
				}
			}
		}
	}
	// What each asked-for object starts from: its own component when unfinished (it
	// is then left out of its own count), else the components that wait for it.
	for qi := range qs {
		for k, v := range qs[qi].from {
			qs[qi].from[k] = comp[v]
		}
	}
	if scores, ok := blockScoresByCounting(comps, compSucc, rootMask, problemMask, qs); ok {
		return scores
	}
	words := (n + 63) / 64
	chunk := max(1, min(words, blockChunkWords/max(len(comps), 1)))
	reach := make([]uint64, len(comps)*chunk)
	acc := make([]uint64, chunk)
	for lo := 0; lo < words; lo += chunk {
		k := min(chunk, words-lo)
		clear(reach)
		// components() lists components so that those a component reaches come first.
		for c, members := range comps {
			row := reach[c*chunk : c*chunk+k]
			for _, v := range members {
				if w := int(v)/64 - lo; w >= 0 && w < k {
					row[w] |= 1 << (uint(v) % 64)
				}
			}
			for _, d := range compSucc[c] {
				for i, x := range reach[int(d)*chunk : int(d)*chunk+k] {
					row[i] |= x
				}
			}
		}
		for qi := range qs {
			q := &qs[qi]
			clear(acc[:k])
			for _, c := range q.from {
				for i, x := range reach[int(c)*chunk : int(c)*chunk+k] {
					acc[i] |= x
				}
			}
			if w := int(q.self)/64 - lo; q.self >= 0 && w >= 0 && w < k {
				acc[w] &^= 1 << (uint(q.self) % 64)
			}
			for i, x := range acc[:k] {
				r, p := rootMask[lo+i], problemMask[lo+i]
				q.score += BlockWeightRoot*bits.OnesCount64(x&r) + BlockWeightProblem*bits.OnesCount64(x&p) +
					BlockWeightStatement*bits.OnesCount64(x&^(r|p))
			}
		}
	}
	scores := make([]int, len(qs))
	for i := range qs {
		scores[i] = qs[i].score
	}
	return scores
}

// blockQuery is one asked-for object: the component it is in when unfinished (it is
// then left out of its own count), else the components that wait for it.
type blockQuery struct {
	self  int32 // -1: finished
	from  []int32
	score int
}

// blockScoresByCounting scores the queries without bit sets where the graph allows it.
// In a proof tree most components are waited for by one other component only, and then
// what waits for c is that one and what waits for it: a count carried down, not a set.
// Only a component waited for by several needs the union of their sets, found by a walk
// up from it; when those walks would cost more than the bit sets (a dense web of shared
// lemmas), it gives up (false) and the bit sets are used.
func blockScoresByCounting(comps [][]int32, compSucc [][]int32, rootMask, problemMask []uint64, qs []blockQuery) ([]int, bool) {
	if blockWalkBudget < 0 {
		return nil, false
	}
	weight := func(v int32) int {
		bit := uint64(1) << (uint(v) % 64)
		switch {
		case rootMask[v/64]&bit != 0:
			return BlockWeightRoot
		case problemMask[v/64]&bit != 0:
			return BlockWeightProblem
		}
		return BlockWeightStatement
	}
	own := make([]int, len(comps)) // the weight of a component's members
	edges := 0
	for c, members := range comps {
		for _, v := range members {
			own[c] += weight(v)
		}
		edges += len(compSucc[c])
	}
	budget := blockWalkBudget * (len(comps) + edges)
	stamp := make([]int32, len(comps))
	gen := int32(0)
	var stack []int32
	// union is the weight of the components given and all that wait for them, or -1 once
	// the budget is spent.
	union := func(from []int32) int {
		gen++
		total := 0
		stack = stack[:0]
		for _, c := range from {
			if stamp[c] != gen {
				stamp[c] = gen
				stack = append(stack, c)
			}
		}
		for len(stack) > 0 {
			c := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			total += own[c]
			budget -= 1 + len(compSucc[c])
			for _, d := range compSucc[c] {
				if stamp[d] != gen {
					stamp[d] = gen
					stack = append(stack, d)
				}
			}
		}
		if budget < 0 {
			return -1
		}
		return total
	}
	// above[c]: the weight of what waits for c, not counting c. Components come after all
	// those they reach, so each is worked out from ones already done.
	above := make([]int, len(comps))
	for c := range comps {
		switch succ := compSucc[c]; len(succ) {
		case 0:
		case 1:
			above[c] = own[succ[0]] + above[succ[0]]
		default:
			u := union(succ)
			if u < 0 {
				return nil, false
			}
			above[c] = u
		}
	}
	scores := make([]int, len(qs))
	for i, q := range qs {
		if q.self >= 0 {
			c := q.from[0]
			scores[i] = own[c] - weight(q.self) + above[c]
			continue
		}
		switch len(q.from) {
		case 0:
		case 1:
			scores[i] = own[q.from[0]] + above[q.from[0]]
		default:
			u := union(q.from)
			if u < 0 {
				return nil, false
			}
			scores[i] = u
		}
	}
	return scores, true
}

// blockWalkBudget is how many times the graph's size the walks of blockScoresByCounting
// may cost before the bit sets are cheaper (negative: always the bit sets; tests).
var blockWalkBudget = 16

// blockChunkWords bounds the bit sets BlockScores holds at once: 64 MB.
var blockChunkWords = 8 << 20

// components finds the strongly connected components of a graph given by successor
// lists (Tarjan's algorithm, without recursion: a chain of 50,000 would overflow no
// stack, but a loop is cheaper than growing one). It returns each node's component and
// the components' members, every component after all those it reaches.
func components(succ [][]int32) (comp []int32, comps [][]int32) {
	n := len(succ)
	comp = make([]int32, n)
	index := make([]int32, n)
	low := make([]int32, n)
	onStack := make([]bool, n)
	for i := range index {
		index[i] = -1
	}
	// Every list at the most it can hold, so that none grows: each growth was a copy in
	// fresh pages, and status, which runs this once after its read, runs without the
	// collector. The members of each component are a part of one list.
	stack := make([]int32, 0, n)
	type frame struct{ v, next int32 }
	calls := make([]frame, 0, n)
	flat := make([]int32, 0, n)
	comps = make([][]int32, 0, n)
	next := int32(0)
	for root := range int32(n) {
		if index[root] >= 0 {
			continue
		}
		calls = append(calls, frame{v: root})
		index[root], low[root] = next, next
		next++
		stack = append(stack, root)
		onStack[root] = true
		for len(calls) > 0 {
			f := &calls[len(calls)-1]
			v := f.v
			if int(f.next) < len(succ[v]) {
				w := succ[v][f.next]
				f.next++
				switch {
				case index[w] < 0:
					index[w], low[w] = next, next
					next++
					stack = append(stack, w)
					onStack[w] = true
					calls = append(calls, frame{v: w})
				case onStack[w]:
					low[v] = min(low[v], index[w])
				}
				continue
			}
			calls = calls[:len(calls)-1]
			if len(calls) > 0 {
				p := calls[len(calls)-1].v
				low[p] = min(low[p], low[v])
			}
			if low[v] == index[v] {
				start := len(flat)
				for {
					w := stack[len(stack)-1]
					stack = stack[:len(stack)-1]
					onStack[w] = false
					comp[w] = int32(len(comps))
					flat = append(flat, w)
					if w == v {
						break
					}
				}
				comps = append(comps, flat[start:len(flat):len(flat)])
			}
		}
	}
	return comp, comps
}
