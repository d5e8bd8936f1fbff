package model

import "sync"

// denseGraph is what Derive knew of a graph by index (problems, then statements, then
// experiences, as its index numbers them), kept so that BlockScores can read the graph
// without a lookup by ID per edge and per object: at 100k statements those lookups were
// most of `referee status`'s time after the load. Update drops it (a graph it made
// reads by ID again), since the phases it holds are those Derive found.
type denseGraph struct {
	x     *index
	phase []Phase // each problem's and statement's phase (experiences: none)
	root  []bool  // each problem: a root (Graph.Roots)

	once sync.Once
	// What waits for each object, as BlockScores counts it (the unfinished objects with
	// a blocking edge to it): waiters[at[j]:at[j+1]], made on first use.
	at      []int32
	waiters []int32
}

// finished is finished(g, x.ids[i]).
func (d *denseGraph) finished(i int32) bool {
	var ph Phase
	if int(i) < len(d.phase) {
		ph = d.phase[i]
	}
	return phaseFinished(ph)
}

// waitersOf is what waits for object i: the sources of its blocking edges (Graph.In)
// that are not finished, as finished and blockingEdge decide for BlockScores.
func (d *denseGraph) waitersOf(i int32) []int32 {
	d.once.Do(d.findWaiters)
	return d.waiters[d.at[i]:d.at[i+1]]
}

// findWaiters makes the lists of waitersOf (once: see denseGraph.once).
func (d *denseGraph) findWaiters() {
	n := len(d.x.ids)
	d.at = make([]int32, n+1)
	for j := range n {
		if d.finished(int32(j)) {
			continue
		}
		for k, kind := range d.x.kinds[j] {
			if t := d.x.out[j][k]; t >= 0 && blockingEdge(kind) {
				d.at[t+1]++
			}
		}
	}
	for t := range n {
		d.at[t+1] += d.at[t]
	}
	d.waiters = make([]int32, d.at[n])
	next := append([]int32(nil), d.at[:n]...)
	for j := range n {
		if d.finished(int32(j)) {
			continue
		}
		for k, kind := range d.x.kinds[j] {
			if t := d.x.out[j][k]; t >= 0 && blockingEdge(kind) {
				d.waiters[next[t]] = int32(j)
				next[t]++
			}
		}
	}
}

// blockScores is blockScoreList read by index: the same numbering of the objects that
// wait (a list by index, not a map by ID), the same scoring.
func (d *denseGraph) blockScores(ids []string) []int {
	num := make([]int32, len(d.x.ids))      // compact number + 1 of each object that waits; 0: none
	names := make([]int32, 0, len(d.x.ids)) // the index of each numbered object; at most every one, never grown
	visit := func(i int32) {
		if num[i] == 0 {
			names = append(names, i)
			num[i] = int32(len(names))
		}
	}
	at := make([]int32, len(ids)) // each asked-for object's index, -1 if it is none
	for k, id := range ids {
		i := d.x.lookup(id)
		if at[k] = i; i < 0 {
			continue // nothing waits for what is not there: its score is 0
		}
		if d.finished(i) {
			for _, w := range d.waitersOf(i) {
				visit(w)
			}
		} else {
			visit(i)
		}
	}
	for v := 0; v < len(names); v++ {
		for _, w := range d.waitersOf(names[v]) {
			visit(w)
		}
	}
	n := len(names)
	edges := 0
	for _, i := range names {
		edges += len(d.waitersOf(i))
	}
	succ := make([][]int32, n)
	flat := make([]int32, 0, edges) // one allocation for every list
	for v, i := range names {
		start := len(flat)
		for _, w := range d.waitersOf(i) {
			flat = append(flat, num[w]-1)
		}
		succ[v] = flat[start:len(flat):len(flat)]
	}
	words := (n + 63) / 64
	rootMask, problemMask := make([]uint64, words), make([]uint64, words)
	for v, i := range names {
		if int(i) < d.x.np { // a problem (the index is ranked: every ID is of its kind)
			if d.root[i] {
				rootMask[v/64] |= 1 << (uint(v) % 64)
			} else {
				problemMask[v/64] |= 1 << (uint(v) % 64)
			}
		}
	}
	qs := make([]blockQuery, len(ids))
	for k, i := range at {
		switch {
		case i < 0:
			qs[k].self = -1
		case !d.finished(i):
			v := num[i] - 1
			qs[k] = blockQuery{self: v, from: []int32{v}}
		default:
			qs[k].self = -1
			for _, w := range d.waitersOf(i) {
				qs[k].from = append(qs[k].from, num[w]-1)
			}
		}
	}
	return blockScoresOf(succ, rootMask, problemMask, qs)
}
