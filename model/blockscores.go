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
	comp, comps := components(succ)
	// Per component, the components it reaches (deduplicated).
	compSucc := make([][]int32, len(comps))
	for c, members := range comps {
		seen := map[int32]bool{}
		for _, v := range members {
			for _, w := range succ[v] {
				if d := comp[w]; d != int32(c) && !seen[d] {
					seen[d] = true
					compSucc[c] = append(compSucc[c], d)
				}
			}
		}
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
	// What each asked-for object starts from: its own component when unfinished (it
	// is then left out of its own count), else the components that wait for it.
	type query struct {
		self  int32 // -1: finished
		from  []int32
		score int
	}
	qs := make([]query, len(ids))
	for i, id := range ids {
		if !finished(g, id) {
			v := num[id]
			qs[i] = query{self: v, from: []int32{comp[v]}}
			continue
		}
		qs[i].self = -1
		waiters(id, func(w string) { qs[i].from = append(qs[i].from, comp[num[w]]) })
	}
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
	out := make(map[string]int, len(ids))
	for i, id := range ids {
		out[id] = qs[i].score
	}
	return out
}

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
	var stack []int32
	type frame struct{ v, next int32 }
	var calls []frame
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
				var members []int32
				for {
					w := stack[len(stack)-1]
					stack = stack[:len(stack)-1]
					onStack[w] = false
					comp[w] = int32(len(comps))
					members = append(members, w)
					if w == v {
						break
					}
				}
				comps = append(comps, members)
			}
		}
	}
	return comp, comps
}
