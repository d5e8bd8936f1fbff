package live

import "referee/model"

// A first frame shows the top of the tree, not all of it. newForest walks every object
// (their children, their canonical positions) and Flatten lists every row: tens of
// milliseconds at 10k statements, before anything is drawn. firstForest lays out only
// the rows the tree starts with, under the default folds, at what those rows cost; the
// whole tree (Whole) is built next, off the UI goroutine, and takes its place.

// firstForest is the start of snap's tree: its first limit rows under the default folds
// (Partial). It is nil when the whole tree is as short, or when its own groups
// (unattached objects, files that do not parse) come within those rows: newForest then.
func firstForest(snap *model.Snapshot, g *model.Graph, limit int) *Forest {
	f := &Forest{snap: snap, g: g, kept: &keptValues{}, shape: &shape{kids: map[string][]child{},
		premises: map[string][]child{}, shared: map[string]bool{}, canon: map[string]string{}, canonDir: map[string]string{}}}
	f.broken, f.brokenOrphans = brokenOf(snap)
	b := &kidsBuilder{snap: snap, g: g, sh: f.shape}
	built := map[string]bool{}
	for _, r := range g.Roots {
		f.top = append(f.top, child{id: r, kind: RowProblem})
	}
	var dangling map[string][]string // a missing object's parents, made when a row needs it
	rows := make([]TreeRow, 0, limit)
	type frame struct {
		c     child
		dir   string
		depth int
	}
	var stack []frame
	for i := len(f.top) - 1; i >= 0; i-- {
		stack = append(stack, frame{f.top[i], "", 0})
	}
	// The walk of flatten under no folds. An object's canonical position is its first in
	// tree order outside premises groups; under the default folds no premises group is
	// open, so within these rows it is where the object first comes.
	for len(stack) > 0 && len(rows) < limit {
		fr := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		c := fr.c
		object := c.kind == RowStatement || c.kind == RowProblem
		var path string
		canonical := false
		if object {
			if _, placed := f.canon[c.id]; !placed {
				path, canonical = canonPath(c.id), true
				f.canon[c.id], f.canonDir[c.id] = path, fr.dir
				f.order = append(f.order, c.id)
			}
			if !built[c.id] {
				built[c.id] = true
				b.build(c.id)
			}
		}
		if !canonical {
			path = join(fr.dir, c.id)
		}
		if c.kind == RowGroup && c.id != GroupPremises {
			return nil // the unattached or broken group: past the roots' trees
		}
		var shared bool
		if c.kind == RowMissing {
			if dangling == nil {
				dangling = danglingParents(g)
			}
			shared = len(dangling[c.id]) > 1
		} else {
			shared = sharedNode(g.In[c.id])
		}
		if shared {
			f.shared[c.id] = true
		}
		row := TreeRow{Kind: c.kind, Path: path, ID: c.id, Depth: fr.depth, Edge: c.edge, Shared: shared}
		if object && !canonical && f.onPath(fr.dir, c.id) {
			row.Kind = RowCycle
			rows = append(rows, row)
			continue
		}
		kids := f.childrenOf(path, c)
		row.HasKids = len(kids) > 0
		if c.kind == RowGroup {
			row.Label = f.groupLabel(c.id, len(kids))
		}
		open := canonical || c.kind == RowGroup && c.id != GroupPremises
		row.Open = open && row.HasKids
		rows = append(rows, row)
		if row.Open {
			for i := len(kids) - 1; i >= 0; i-- {
				stack = append(stack, frame{kids[i], path, fr.depth + 1})
			}
		}
	}
	if len(stack) == 0 {
		return nil // the whole tree fits
	}
	f.first = rows
	return f
}

// treeEdge says whether an edge makes a row of the tree (a child or a premise).
func treeEdge(k model.EdgeKind) bool {
	switch k {
	case model.EdgeSubgoal, model.EdgeNeeds, model.EdgeProgress, model.EdgeSub, model.EdgeSolution, model.EdgePremise:
		return true
	}
	return false
}

// sharedNode says whether the edges into an object come from two parents or more, as
// newForest counts them (its rows are marked shared).
func sharedNode(in []model.Edge) bool {
	first := ""
	for _, e := range in {
		if !treeEdge(e.Kind) {
			continue
		}
		if first == "" {
			first = e.From
		} else if e.From != first {
			return true
		}
	}
	return false
}

// danglingParents lists, for each missing object, the parents whose children name it
// (premises of a missing object make no row).
func danglingParents(g *model.Graph) map[string][]string {
	out := map[string][]string{}
	for _, e := range g.Dangling {
		if !treeEdge(e.Kind) || e.Kind == model.EdgePremise {
			continue
		}
		if ps := out[e.To]; len(ps) == 0 || ps[len(ps)-1] != e.From && len(ps) < 2 {
			out[e.To] = append(ps, e.From)
		}
	}
	return out
}

// Partial reports whether the tree holds only its first rows (a first frame's): Flatten
// gives those whatever the folds, Canon and Order know only the objects among them.
// Whole is the tree in full.
func (f *Forest) Partial() bool { return f != nil && f.first != nil }

// Whole is the tree in full: f itself unless f is Partial, else the tree of the same
// snapshot and graph built whole, its rows under the default folds flattened already.
// It takes as long as a new tree: run it off the UI goroutine.
func (f *Forest) Whole() *Forest {
	if !f.Partial() {
		return f
	}
	w := newForest(f.snap, f.g)
	w.Flatten(map[string]bool{})
	return w
}
