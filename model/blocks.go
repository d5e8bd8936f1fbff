package model

import (
	"cmp"
	"maps"
	"slices"
)

// Weights of what an open item holds up. A root problem is the goal of the run, so
// holding one up outweighs any number of intermediate steps; a subproblem is a milestone
// several statements feed; a statement counts once.
const (
	BlockWeightRoot      = 10
	BlockWeightProblem   = 3
	BlockWeightStatement = 1
)

// Blocking is how much of the tree an open item holds up: every object above it that
// cannot be finished before it is, up to the root problems.
type Blocking struct {
	ID         string   `json:"id"`
	Above      []string `json:"above"` // unfinished objects above it, in ID order
	Statements int      `json:"statements"`
	Problems   int      `json:"problems"` // subproblems (not roots)
	Roots      int      `json:"roots"`
	Score      int      `json:"score"` // the weighted sum (BlockWeight*)
}

// blockingEdge says whether the object an edge starts from must wait for the object it
// points at: a sub-statement, a statement a problem needs or was set up to resolve, a
// subgoal, a statement a proof cites. Premises are assumed and solutions already done.
func blockingEdge(k EdgeKind) bool {
	switch k {
	case EdgeSub, EdgeNeeds, EdgeSubgoal, EdgeProgress, EdgeCites:
		return true
	}
	return false
}

// finished says whether nothing above an object can still wait for it: proved,
// refuted, abandoned, or a solved problem.
func finished(g *Graph, id string) bool { return phaseFinished(g.Phase.Get(id)) }

func phaseFinished(ph Phase) bool { return ph.Decided() || ph == PhaseProblemSolved }

// Above lists the unfinished objects that wait, directly or through other unfinished
// objects, for id, in ID order. It stops at finished objects (nothing waits through a
// proved statement or a solved problem, and work under a refuted one is moot) and is
// cycle-safe.
func Above(g *Graph, id string) []string { return above(g, id, nil, false) }

// above is Above; with looking, it calls look with id and every object it looks at
// (each once), the finished ones it stops at too.
func above(g *Graph, id string, look func(string), looking bool) []string {
	seen := map[string]bool{id: true}
	if looking {
		look(id)
	}
	var out []string
	queue := []string{id}
	for len(queue) > 0 {
		cur := queue[0]
		queue = queue[1:]
		for _, e := range g.In[cur] {
			if !blockingEdge(e.Kind) || seen[e.From] {
				continue
			}
			seen[e.From] = true
			if looking {
				look(e.From)
			}
			if finished(g, e.From) {
				continue
			}
			out = append(out, e.From)
			queue = append(queue, e.From)
		}
	}
	slices.SortFunc(out, CompareIDs)
	return out
}

// BlockingOf weighs what id holds up.
func BlockingOf(g *Graph, id string) Blocking {
	b := Blocking{ID: id, Above: Above(g, id)}
	for _, a := range b.Above {
		switch {
		case KindOf(a) == KindProblem && slices.Contains(g.Roots, a):
			b.Roots++
		case KindOf(a) == KindProblem:
			b.Problems++
		default:
			b.Statements++
		}
	}
	b.Score = b.Roots*BlockWeightRoot + b.Problems*BlockWeightProblem + b.Statements*BlockWeightStatement
	if b.Above == nil {
		b.Above = []string{}
	}
	return b
}

// Blocks weighs every open statement and problem.
func Blocks(s *Snapshot, g *Graph) map[string]Blocking {
	out := map[string]Blocking{}
	for id, ph := range g.Phase.All() {
		if ph.Open() && s.Exists(id) {
			out[id] = BlockingOf(g, id)
		}
	}
	return out
}

// NextByBlocking is the orchestrator's actionable list with what holds up the most of
// the root first; ties keep the orchestrator's order (deepest first).
func NextByBlocking(s *Snapshot, g *Graph) []Action {
	next, _ := NextWithScores(s, g)
	return next
}

// NextWithScores is NextByBlocking with each action's score (BlockingOf(g, id).Score),
// scores[i] that of next[i], for callers that show both: the scores are worked out once.
func NextWithScores(s *Snapshot, g *Graph) (next []Action, scores []int) {
	acts := g.Actionable.Slice()
	ids := make([]string, len(acts))
	for i, a := range acts {
		ids[i] = a.ID
	}
	score := blockScoreList(g, ids)
	// Sorted by place, not by ID: a map lookup per comparison was a tenth of a status.
	order := make([]int32, len(ids))
	for i := range order {
		order[i] = int32(i)
	}
	slices.SortStableFunc(order, func(a, b int32) int { return score[b] - score[a] })
	next, scores = make([]Action, len(ids)), make([]int, len(ids))
	for k, i := range order {
		next[k], scores[k] = acts[i], score[i]
	}
	return next, scores
}

// WaitsForHuman says whether a statement waits for a reviewer: a proof to verify, a gap
// to judge, a modification to decide.
func WaitsForHuman(s *Snapshot, g *Graph, id string) bool {
	if s.Statements.Get(id) == nil {
		return false
	}
	switch g.Phase.Get(id) {
	case PhaseAwaitingCheck, PhaseHasGap, PhaseNeedsDecision:
		return true
	}
	return false
}

// ReviewOrder is the review queue: the statements waiting for a human, what holds up
// the most of the root first, then the deepest, then by ID.
func ReviewOrder(s *Snapshot, g *Graph) []string {
	var ids []string
	for id := range s.Statements.All() {
		if WaitsForHuman(s, g, id) {
			ids = append(ids, id)
		}
	}
	return reviewSort(g, ids)
}

// reviewSort sorts ids in review order (ReviewOrder), in place, and returns them.
func reviewSort(g *Graph, ids []string) []string {
	score := BlockScores(g, ids)
	slices.SortFunc(ids, reviewCompare(g, score))
	return ids
}

// reviewCompare orders the review queue: the higher score first, then the deeper, then
// by ID.
func reviewCompare(g *Graph, score map[string]int) func(a, b string) int {
	depth := func(id string) int {
		if d, ok := g.Depth[id]; ok {
			return d
		}
		return -1
	}
	return func(a, b string) int {
		if c := cmp.Compare(score[b], score[a]); c != 0 {
			return c
		}
		if c := cmp.Compare(depth(b), depth(a)); c != 0 {
			return c
		}
		return CompareIDs(a, b)
	}
}

// ReviewQueue keeps the review queue (ReviewOrder) from one version of a folder to the
// next. While the links stay, what waits for what moves only where an object became
// finished or stopped being: the statements below it (within reach of its walk, Above)
// are weighed again (BlockScores, once for all of them), with those that started
// waiting; the rest keep their scores and places, and the newly weighed are merged in.
// A change of links weighs the whole queue again. The zero ReviewQueue is ready. Not
// safe for concurrent use; the lists it returns are never changed afterwards.
type ReviewQueue struct {
	snap  *Snapshot
	score map[string]int // each statement waiting → its score
	order []string
}

// Update brings the queue to s and g, where t is what differs from the version of the
// last Update (TouchedBetween), and returns it.
func (q *ReviewQueue) Update(s *Snapshot, g *Graph, t Touched) []string {
	prev := q.snap
	q.snap = s
	if prev == nil || t.Relinked(prev, s) {
		var ids []string
		for id := range s.Statements.All() {
			if WaitsForHuman(s, g, id) {
				ids = append(ids, id)
			}
		}
		q.score = BlockScores(g, ids)
		slices.SortFunc(ids, reviewCompare(g, q.score))
		q.order = ids
		return q.order
	}
	// What to weigh again: those that started waiting, and those below an object that
	// became finished or stopped being.
	again := map[string]bool{}
	left := false
	for _, ids := range [][]string{t.Objects, t.Phases} {
		for _, id := range ids {
			_, was := q.score[id]
			switch now := WaitsForHuman(s, g, id); {
			case now && !was:
				again[id] = true
			case !now && was:
				delete(q.score, id)
				left = true
			}
		}
	}
	q.below(g, t.Finished, func(id string) {
		if _, ok := q.score[id]; ok {
			again[id] = true
		}
	})
	if len(again) == 0 && !left {
		return q.order
	}
	add := slices.Collect(maps.Keys(again))
	for id, sc := range BlockScores(g, add) {
		q.score[id] = sc
	}
	less := reviewCompare(g, q.score)
	slices.SortFunc(add, less)
	order := make([]string, 0, len(q.score))
	i := 0
	for _, id := range q.order {
		if _, ok := q.score[id]; !ok || again[id] {
			continue // left the queue, or weighed again
		}
		for i < len(add) && less(add[i], id) < 0 {
			order = append(order, add[i])
			i++
		}
		order = append(order, id)
	}
	q.order = append(order, add[i:]...)
	return q.order
}

// below calls f for every object whose walk up the graph (Above) reaches one of from:
// down the blocking edges from them, through objects not finished.
func (q *ReviewQueue) below(g *Graph, from []string, f func(string)) {
	if len(from) == 0 {
		return
	}
	seen := map[string]bool{}
	stack := slices.Clone(from)
	for len(stack) > 0 {
		cur := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		for _, e := range g.Out[cur] {
			if !blockingEdge(e.Kind) || seen[e.To] {
				continue
			}
			seen[e.To] = true
			f(e.To)
			if !finished(g, e.To) {
				stack = append(stack, e.To)
			}
		}
	}
}
