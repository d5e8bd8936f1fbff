package live

import (
	"referee/model"
	"referee/store"
)

// A first frame shows the top of the tree, not all of it. newForest walks every object
// (their children, their canonical positions) and Flatten lists every row: tens of
// milliseconds at 10k statements, before anything is drawn. firstForest lays out only
// the rows the tree starts with, under the default folds, at what those rows cost; the
// whole tree (Whole) is built next, off the UI goroutine, and takes its place.

// firstForest is the start of snap's tree: its first limit rows under the default folds
// (Partial). It is nil when the whole tree is as short, or when its own groups
// (unattached objects, files that do not parse) come within those rows: newForest then.
func firstForest(snap *model.Snapshot, g *model.Graph, limit int) *Forest {
	f := newFirst(snap, g)
	rows, more := f.walkRows(nil, limit, &firstLayout{kids: &kidsBuilder{snap: snap, g: g, sh: f.shape}, g: g, built: map[string]bool{}})
	if !more {
		return nil // the whole tree fits, or its groups come within the rows
	}
	f.first = rows
	return f
}

// newFirst is an empty tree of snap and g for a walk that lays it out as it goes
// (walkRows with a firstLayout): the walk of Flatten under no folds. An object's
// canonical position is its first in tree order outside premises groups; under the
// default folds no premises group is open, so within the walk's rows it is where the
// object first comes.
func newFirst(snap *model.Snapshot, g *model.Graph) *Forest {
	f := &Forest{snap: snap, g: g, kept: &keptValues{}, shape: &shape{kids: map[string][]child{},
		premises: map[string][]child{}, shared: map[string]bool{}, canon: map[string]string{}, canonDir: map[string]string{}}}
	f.broken, f.brokenOrphans = brokenOf(snap)
	for _, r := range g.Roots {
		f.top = append(f.top, child{id: r, kind: RowProblem})
	}
	return f
}

// firstLayout is what firstForest's walk lays out as it meets the objects.
type firstLayout struct {
	kids     *kidsBuilder
	g        *model.Graph
	built    map[string]bool
	dangling map[string][]string // a missing object's parents, made when a row needs them
	// unshared: the graph knows part of the folder (a glimpse): no row is marked
	// shared, since the other parents may be in files not read.
	unshared bool
}

// build makes an object's children the first time it is met.
func (l *firstLayout) build(id string) {
	if !l.built[id] {
		l.built[id] = true
		l.kids.build(id)
	}
}

// shared says whether a row's object has two parents or more, as newForest counts them.
func (l *firstLayout) shared(c child) bool {
	if l.unshared {
		return false
	}
	if c.kind != RowMissing {
		return sharedNode(l.g.In[c.id])
	}
	if l.dangling == nil {
		l.dangling = danglingParents(l.g)
	}
	return len(l.dangling[c.id]) > 1
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
// graph built whole, its rows under the default folds flattened already, and of the
// same snapshot with the log's tail read when LoadFirst left it (Snapshot says which).
// It takes as long as a new tree: run it off the UI goroutine.
func (f *Forest) Whole() *Forest { return f.whole(true) }

// whole is Whole; withLog false leaves the log as the first frame read it (for a
// derivation that only needs the tree's shape).
func (f *Forest) whole(withLog bool) *Forest {
	if !f.Partial() {
		return f
	}
	var tail chan *model.Snapshot
	if withLog && f.logFrom != "" {
		// Read beside the tree's build, which needs only the objects; the tree then takes
		// the snapshot with the tail (with: a broken log is a row of its own).
		tail = make(chan *model.Snapshot, 1)
		go func() { tail <- store.WithLogTail(f.logFrom, f.snap) }()
	}
	w := newForest(f.snap, f.g)
	w.Flatten(map[string]bool{})
	if tail != nil {
		w = w.with(<-tail, f.g)
	}
	return w
}
