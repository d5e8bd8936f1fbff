package live

import (
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"referee/model"
)

// Group node keys: path elements that are not object IDs.
const (
	GroupPremises   = "#premises"   // an object's premises, folded by default
	GroupUnattached = "#unattached" // objects nothing leads to from a problem
	GroupBroken     = "#broken"     // files that do not parse and have no last good version
)

// child is one child of a node in the work tree.
type child struct {
	id   string
	kind RowKind
	edge string // shown when notable ("solution")
}

// Forest is the work tree of one snapshot: children of every object, the top level,
// and each object's canonical (first) position. It is built off the UI goroutine when a
// snapshot arrives and never changed after; folds are applied to it on the UI side
// (Flatten), which touches only the rows that end up visible.
type Forest struct {
	snap   *model.Snapshot
	g      *model.Graph
	broken map[string]bool // objects shown in their last good version: the file does not parse
	*shape
	kept *keptValues // what screens derive from this tree alone (Kept)
	// first are the rows of a tree that holds only its start (firstForest, Partial).
	first []TreeRow
	// logFrom is the folder whose log's tail Whole reads, when the snapshot holds only
	// the log's last change (LoadFirst).
	logFrom string
}

// keptValues are the values Kept made for one Forest.
type keptValues struct {
	m sync.Map
	n atomic.Int32
}

// keptMax bounds the values a Forest keeps: a screen shows a few dozen rows of it, and a
// row's text is clipped to a few KB.
const keptMax = 2048

// Kept is the value draw derives from this tree (its snapshot, graph and broken files)
// alone under key, made once for every screen that shows the tree: referee serve's
// sessions each draw the rows of the same frame. The value is shared: never change it.
func (f *Forest) Kept(key any, draw func() any) any {
	if f.kept == nil {
		return draw()
	}
	if v, ok := f.kept.m.Load(key); ok {
		return v
	}
	v := draw()
	if f.kept.n.Load() < keptMax {
		if old, loaded := f.kept.m.LoadOrStore(key, v); loaded {
			return old
		}
		f.kept.n.Add(1)
	}
	return v
}

// shape is the part of a Forest that rests on the links alone (and on the files that do
// not parse at all): the rows under any folds. A snapshot that keeps its links keeps the
// shape of the one before, so the tree neither rebuilds nor re-flattens it (with). It is
// never changed once built.
type shape struct {
	top      []child            // the roots, then the unattached group if any (the broken group: brokenKids)
	kids     map[string][]child // by object ID, and the "unattached" group by key
	premises map[string][]child // the premises group of an object, by the object's ID
	shared   map[string]bool
	// canon is the path of each object's first position in tree order ("@" + its ID,
	// canonPath), canonDir the path of the row above it there; order lists objects in
	// that order (statements and problems), for n/N and search.
	canon         map[string]string
	canonDir      map[string]string
	order         []string
	unattached    []string
	brokenOrphans []model.BrokenFile // broken files with no last good object
	brokenKids    []child            // the "broken" group's rows, last at the top level

	flat flatCache // the rows flattened lately, by folds
}

// flatCache keeps the rows of the last few Flatten calls on a shape, with the folds they
// were made under: every session of referee serve flattens the same shape under the
// same (default) folds after each change of links, and a 10k tree's rows cost
// milliseconds each time. The rows are read only, as Flatten's always were.
type flatCache struct {
	mu      sync.Mutex
	entries []flatEntry // newest last
}

type flatEntry struct {
	folds map[string]bool
	rows  []TreeRow
}

// flatKept is how many fold sets a shape keeps rows for (a 100k tree's rows are ~10 MB).
const flatKept = 2

// brokenOf splits a snapshot's broken files: the objects that keep a last good version,
// and the files that have none.
func brokenOf(snap *model.Snapshot) (broken map[string]bool, orphans []model.BrokenFile) {
	broken = map[string]bool{}
	for _, b := range snap.Broken {
		if b.ID != "" && snap.Exists(b.ID) {
			broken[b.ID] = true
		} else {
			orphans = append(orphans, b)
		}
	}
	return broken, orphans
}

// with is the Forest of snap and g, which keep f's links (model.Graph.Update said so):
// f's shape, or, when the files that do not parse at all changed, a shape that shares
// all of f's but its broken group (and the rows it flattened). A file caught half
// written by its writer is such a file for a moment: the whole tree was built again
// twice for it, about a second of CPU at 100k statements.
func (f *Forest) with(snap *model.Snapshot, g *model.Graph) *Forest {
	broken, orphans := brokenOf(snap)
	sh := f.shape
	if !slices.Equal(orphans, f.brokenOrphans) {
		sh = &shape{top: sh.top, kids: sh.kids, premises: sh.premises, shared: sh.shared,
			canon: sh.canon, canonDir: sh.canonDir, order: sh.order, unattached: sh.unattached}
		sh.setOrphans(orphans)
	}
	return &Forest{snap: snap, g: g, broken: broken, shape: sh, kept: &keptValues{}}
}

// setOrphans sets the broken files with no last good object, and their group's rows.
func (sh *shape) setOrphans(orphans []model.BrokenFile) {
	sh.brokenOrphans, sh.brokenKids = orphans, nil
	for _, b := range orphans {
		sh.brokenKids = append(sh.brokenKids, child{id: b.Path, kind: RowBroken})
	}
}

// newForest builds the tree of a snapshot. It runs on every load and on every write that
// changes links, so at 10k statements it keeps allocations down: the children of all
// objects share one array, and a path string is made only where an object is placed
// (the walks and flatten compare the others in place, and reuse the placed ones).
func newForest(snap *model.Snapshot, g *model.Graph) *Forest {
	n := len(snap.Problems) + snap.Statements.Len()
	f := &Forest{snap: snap, g: g, kept: &keptValues{}, shape: &shape{kids: make(map[string][]child, n), premises: map[string][]child{},
		shared: map[string]bool{}, canon: make(map[string]string, n), canonDir: make(map[string]string, n),
		order: make([]string, 0, n)}}
	// A node is shared when a second, different parent leads to it. Only the first parent
	// is kept (a set of parents per node cost most of the build at 10k statements).
	firstParent := make(map[string]string, n)
	addParent := func(to, from string) {
		if p, ok := firstParent[to]; !ok {
			firstParent[to] = from
		} else if p != from {
			f.shared[to] = true
		}
	}
	edges := 0
	for _, out := range g.Out {
		edges += len(out)
	}
	// Each object's children are a piece of all, capped so that no append runs into the
	// next piece: structural children, then the premises group's entry, then its premises.
	b := &kidsBuilder{snap: snap, g: g, sh: f.shape, all: make([]child, 0, edges+n), addParent: addParent}
	build := b.build
	for id := range snap.Problems {
		build(id)
	}
	for id := range snap.Statements.All() {
		build(id)
	}
	var orphans []model.BrokenFile
	f.broken, orphans = brokenOf(snap)
	f.setOrphans(orphans)

	f.top = make([]child, 0, len(g.Roots)+1)
	for _, r := range g.Roots {
		f.top = append(f.top, child{id: r, kind: RowProblem})
	}
	// Canonical positions: a structural walk from the roots first, then premises groups.
	f.walk(f.top, "", false)
	f.walk(f.top, "", true)
	// Whatever is still unplaced hangs in "unattached": orphans first, then one entry per
	// remaining unreachable part (a cycle nothing leads into).
	var un []string
	place := func(id string) {
		if _, ok := f.canon[id]; ok {
			return
		}
		un = append(un, id)
		c := []child{{id: id, kind: kindOf(id)}}
		f.walk(c, GroupUnattached, false)
		f.walk(c, GroupUnattached, true)
	}
	for _, id := range g.Orphans {
		place(id)
	}
	// Only the objects still unplaced are sorted (usually none of 10k).
	var rest []string
	for id := range snap.Problems {
		if _, ok := f.canon[id]; !ok {
			rest = append(rest, id)
		}
	}
	for id := range snap.Statements.All() {
		if _, ok := f.canon[id]; !ok {
			rest = append(rest, id)
		}
	}
	slices.SortFunc(rest, model.CompareIDs)
	for _, id := range rest {
		place(id)
	}
	f.unattached = un
	if len(un) > 0 {
		f.top = append(f.top, child{id: GroupUnattached, kind: RowGroup})
		var kids []child
		for _, id := range un {
			kids = append(kids, child{id: id, kind: kindOf(id)})
		}
		f.kids[GroupUnattached] = kids
	}
	return f
}

// kidsBuilder makes objects' children lists (the tree's kids and premises groups) as
// pieces of one array: for every object when a whole tree is built, for the few a
// first frame shows otherwise (firstForest).
type kidsBuilder struct {
	snap *model.Snapshot
	g    *model.Graph
	sh   *shape
	all  []child
	seen map[string]bool
	// addParent is told each parent → child link made (newForest counts the parents
	// to find shared nodes); nil when nobody counts.
	addParent func(to, from string)
}

// manyKids is how many children are scanned for a duplicate before a set is used
// (20,000 children scanned each other: 200M compares).
const manyKids = 32

// has says whether id is among all[from:].
func (b *kidsBuilder) has(from int, id string) bool {
	if b.seen == nil {
		return hasChild(b.all[from:], id)
	}
	return b.seen[id]
}

func (b *kidsBuilder) mark(id string) {
	if b.seen != nil {
		b.seen[id] = true
	}
}

func (b *kidsBuilder) parent(to, from string) {
	if b.addParent != nil {
		b.addParent(to, from)
	}
}

// build makes one object's children: structural children, then the premises group's
// entry, then its premises.
func (b *kidsBuilder) build(id string) {
	out := b.g.Out[id]
	if len(out) == 0 {
		return
	}
	b.seen = nil
	if len(out) > manyKids {
		b.seen = make(map[string]bool, len(out))
	}
	s0 := len(b.all)
	for _, e := range out {
		switch e.Kind {
		case model.EdgeSubgoal, model.EdgeNeeds, model.EdgeProgress, model.EdgeSub, model.EdgeSolution:
			if b.has(s0, e.To) {
				continue
			}
			b.mark(e.To)
			c := child{id: e.To, kind: rowKind(b.snap, e.To)}
			if e.Kind == model.EdgeSolution {
				c.edge = "solution"
			}
			if e.Kind == model.EdgeNeeds {
				c.edge = "needs"
			}
			b.all = append(b.all, c)
			b.parent(e.To, id)
		}
	}
	// Subgoals first, then statements, keeping list order within each.
	slices.SortStableFunc(b.all[s0:], func(a, b child) int {
		return rank(a) - rank(b)
	})
	g0 := len(b.all)
	b.all = append(b.all, child{id: GroupPremises, kind: RowGroup})
	p0 := len(b.all)
	if b.seen != nil {
		clear(b.seen) // premises are deduplicated among themselves
	}
	for _, e := range out {
		if e.Kind != model.EdgePremise {
			continue
		}
		kind := rowKind(b.snap, e.To)
		if kind == RowMissing || b.has(p0, e.To) {
			continue
		}
		b.mark(e.To)
		b.all = append(b.all, child{id: e.To, kind: kind})
		b.parent(e.To, id)
	}
	if p := len(b.all); p > p0 {
		b.sh.premises[id] = b.all[p0:p:p]
		b.sh.kids[id] = b.all[s0:p0:p0]
		return
	}
	b.all = b.all[:g0]
	if g0 > s0 {
		b.sh.kids[id] = b.all[s0:g0:g0]
	}
}

// rowKind is how a reference to id shows: a problem, a statement, or missing.
func rowKind(snap *model.Snapshot, id string) RowKind {
	switch {
	case !snap.Exists(id):
		return RowMissing
	case model.KindOf(id) == model.KindProblem:
		return RowProblem
	}
	return RowStatement
}

func hasChild(cs []child, id string) bool {
	for _, c := range cs {
		if c.id == id {
			return true
		}
	}
	return false
}

func kindOf(id string) RowKind {
	if model.KindOf(id) == model.KindProblem {
		return RowProblem
	}
	return RowStatement
}

func rank(c child) int {
	switch {
	case c.kind == RowProblem:
		return 0
	case c.edge == "solution":
		return 2
	}
	return 1
}

// Paths name rows, and stay short whatever the depth: an object at its canonical
// position (its first in tree order) is "@" + its ID; any other row is its parent row's
// path, "/", and its own ID (or group key). So a chain of 50,000 sub-statements has
// 50,000 short paths, not 50,000 paths of up to 50,000 elements (9 GB). What lies above
// a canonical position is in canonDir (ancestors, onPath).

// canonPath is the path of an object at its canonical position.
func canonPath(id string) string { return "@" + id }

// walk assigns canonical positions depth first; with groups it also enters premises
// groups. It is iterative, so a very deep chain cannot exhaust the stack.
func (f *Forest) walk(start []child, prefix string, groups bool) {
	type frame struct {
		c   child
		dir string
	}
	var stack []frame
	for i := len(start) - 1; i >= 0; i-- {
		stack = append(stack, frame{start[i], prefix})
	}
	for len(stack) > 0 {
		fr := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		id := fr.c.id
		var path string
		if fr.c.kind == RowGroup {
			if !groups {
				continue
			}
			path = join(fr.dir, id)
		} else {
			if fr.c.kind != RowProblem && fr.c.kind != RowStatement {
				continue
			}
			if canon, seen := f.canon[id]; seen {
				if f.canonDir[id] != fr.dir {
					continue // placed elsewhere; a second walk re-enters it only there
				}
				path = canon
			} else {
				path = canonPath(id)
				f.canon[id], f.canonDir[id] = path, fr.dir
				f.order = append(f.order, id)
			}
		}
		kids := f.childrenOf(path, fr.c)
		for i := len(kids) - 1; i >= 0; i-- {
			stack = append(stack, frame{kids[i], path})
		}
	}
}

func join(prefix, id string) string {
	if prefix == "" {
		return id
	}
	return prefix + "/" + id
}

// childrenOf returns a node's children; a group's are keyed by its parent object.
func (f *Forest) childrenOf(path string, c child) []child {
	if c.kind == RowGroup {
		switch c.id {
		case GroupPremises:
			return f.premises[ParentID(path)]
		case GroupBroken:
			return f.brokenKids
		}
		return f.kids[c.id]
	}
	if c.kind == RowProblem || c.kind == RowStatement {
		return f.kids[c.id]
	}
	return nil
}

// ParentID is the object ID above the last element of a path (a group's object).
func ParentID(path string) string {
	i := strings.LastIndexByte(path, '/')
	if i < 0 {
		return ""
	}
	path = path[:i]
	if j := strings.LastIndexByte(path, '/'); j >= 0 {
		path = path[j+1:]
	}
	return strings.TrimPrefix(path, "@")
}

// LastID is the last element of a path: the row's object ID or group key.
func LastID(path string) string {
	if i := strings.LastIndexByte(path, '/'); i >= 0 {
		return path[i+1:]
	}
	return strings.TrimPrefix(path, "@")
}

// Ancestors lists the paths of the rows above a path, from the top (for opening them):
// the elements of the path, and above its first, the rows above that object's
// canonical position.
func (f *Forest) Ancestors(path string) []string {
	out, _ := f.NearestAncestors(path, -1)
	return out
}

// NearestAncestors is Ancestors cut to the n nearest the node (all when n < 0), and
// whether there are more: a breadcrumb shows only the few that fit, and walking 50,000
// levels up a chain per selection was a frame over budget.
func (f *Forest) NearestAncestors(path string, n int) (ancestors []string, more bool) {
	var out []string // from the nearest up, reversed at the end
	if f == nil || f.shape == nil {
		f = &Forest{shape: &shape{}}
	}
walk:
	for seen := 0; path != "" && seen <= len(f.canonDir); seen++ {
		for i := len(path) - 1; i >= 0; i-- {
			if path[i] == '/' {
				if len(out) == n {
					more = true
					break walk
				}
				out = append(out, path[:i])
			}
		}
		head, _, _ := strings.Cut(path, "/")
		id, canonical := strings.CutPrefix(head, "@")
		if !canonical {
			break
		}
		if path = f.canonDir[id]; path != "" {
			if len(out) == n {
				more = true
				break
			}
			out = append(out, path)
		}
	}
	slices.Reverse(out)
	return out, more
}

// onPath reports whether id is an element of path, or above it.
func (f *Forest) onPath(path, id string) bool {
	for seen := 0; path != "" && seen <= len(f.canonDir); seen++ {
		rest := path
		for {
			el, more, cut := strings.Cut(rest, "/")
			if strings.TrimPrefix(el, "@") == id {
				return true
			}
			if !cut {
				break
			}
			rest = more
		}
		head, _, _ := strings.Cut(path, "/")
		top, canonical := strings.CutPrefix(head, "@")
		if !canonical {
			return false
		}
		path = f.canonDir[top]
	}
	return false
}

// Flatten lists the visible rows under the folds. Cost: the visible rows only. A frame
// holds its parent's path; a row at its object's canonical position takes that path
// string, the others make their own.
func (f *Forest) Flatten(folds map[string]bool) []TreeRow {
	if f.first != nil {
		return f.first
	}
	c := &f.shape.flat
	c.mu.Lock()
	for i, e := range c.entries {
		if maps.Equal(e.folds, folds) {
			c.entries = append(append(c.entries[:i:i], c.entries[i+1:]...), e)
			c.mu.Unlock()
			return e.rows
		}
	}
	c.mu.Unlock()
	rows := f.flatten(folds)
	c.mu.Lock()
	if len(c.entries) >= flatKept {
		c.entries = slices.Delete(slices.Clone(c.entries), 0, len(c.entries)-flatKept+1)
	}
	c.entries = append(c.entries, flatEntry{folds: maps.Clone(folds), rows: rows})
	c.mu.Unlock()
	return rows
}

// Flattened reports whether the rows under folds are made (Flatten keeps them).
func (f *Forest) Flattened(folds map[string]bool) bool {
	if f.first != nil {
		return true
	}
	c := &f.shape.flat
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, e := range c.entries {
		if maps.Equal(e.folds, folds) {
			return true
		}
	}
	return false
}

// flatten is Flatten without the cache.
func (f *Forest) flatten(folds map[string]bool) []TreeRow {
	rows, _ := f.walkRows(folds, -1, nil)
	return rows
}

// walkRows lists the rows under the folds, at most limit of them (all when limit < 0).
// With first (firstForest) the tree is laid out as it is walked, under the default
// folds: an object's canonical position is where it first comes, its children are made
// when it is met, and the walk gives up (false) at a group of the top level other than
// the roots' trees.
func (f *Forest) walkRows(folds map[string]bool, limit int, first *firstLayout) ([]TreeRow, bool) {
	// Opened as by default: each object once, and the premises groups' rows (folded).
	rows := make([]TreeRow, 0, len(f.top)+1+len(f.order)+len(f.premises))
	if limit >= 0 {
		rows = make([]TreeRow, 0, limit)
	}
	type frame struct {
		c     child
		dir   string
		depth int
	}
	var stack []frame
	if len(f.brokenKids) > 0 {
		stack = append(stack, frame{child{id: GroupBroken, kind: RowGroup}, "", 0})
	}
	for i := len(f.top) - 1; i >= 0; i-- {
		stack = append(stack, frame{f.top[i], "", 0})
	}
	for len(stack) > 0 && len(rows) != limit {
		fr := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		c := fr.c
		object := c.kind == RowStatement || c.kind == RowProblem
		var path string
		canonical := false
		switch {
		case first != nil && object:
			if _, placed := f.canon[c.id]; !placed {
				path, canonical = canonPath(c.id), true
				f.canon[c.id], f.canonDir[c.id] = path, fr.dir
				f.order = append(f.order, c.id)
			}
			first.build(c.id)
		case first != nil && c.kind == RowGroup && c.id != GroupPremises:
			return nil, false // the unattached or broken group: past the roots' trees
		case object:
			if cp, ok := f.canon[c.id]; ok && f.canonDir[c.id] == fr.dir {
				path, canonical = cp, true
			}
		}
		if !canonical {
			path = join(fr.dir, c.id)
		}
		shared := f.shared[c.id]
		if first != nil && first.shared(c) {
			f.shared[c.id], shared = true, true
		}
		row := TreeRow{Kind: c.kind, Path: path, ID: c.id, Depth: fr.depth, Edge: c.edge, Shared: shared}
		// A reference back to an ancestor is cut here. (Never at a canonical position:
		// that is the object's first place in the tree, so it is not above itself.)
		if object && !canonical && f.onPath(fr.dir, c.id) {
			row.Kind = RowCycle
			rows = append(rows, row)
			continue
		}
		kids := f.childrenOf(path, c)
		row.HasKids = len(kids) > 0
		switch c.kind {
		case RowGroup:
			row.Label = f.groupLabel(c.id, len(kids))
		case RowBroken:
			row.Label = c.id
		}
		open, set := folds[path]
		if !set {
			// By default the tree opens down to the statements, each object at its
			// canonical position only (a shared node opens once), premises folded.
			open = canonical || c.kind == RowGroup && c.id != GroupPremises
		}
		row.Open = open && row.HasKids
		rows = append(rows, row)
		if row.Open {
			for i := len(kids) - 1; i >= 0; i-- {
				stack = append(stack, frame{kids[i], path, fr.depth + 1})
			}
		}
	}
	return rows, len(stack) > 0
}

func (f *Forest) groupLabel(key string, n int) string {
	switch key {
	case GroupPremises:
		if n < len(premisesLabels) {
			return premisesLabels[n]
		}
		return "premises (" + itoa(n) + ")"
	case GroupUnattached:
		return "unattached (" + itoa(n) + ")"
	case GroupBroken:
		return "files that do not parse (" + itoa(n) + ")"
	}
	return key
}

func itoa(n int) string { return strconv.Itoa(n) }

// premisesLabels are the premises groups' labels for the counts most objects have, made
// once: at 100k statements there is a group per statement, and a string each was a
// tenth of the workbench's objects for the collector to mark.
var premisesLabels = func() (out [16]string) {
	for n := range out {
		out[n] = "premises (" + itoa(n) + ")"
	}
	return out
}()

// Snapshot is the snapshot the tree is of; Graph its graph.
func (f *Forest) Snapshot() *model.Snapshot { return f.snap }

// Graph is the graph of the tree's snapshot.
func (f *Forest) Graph() *model.Graph { return f.g }

// Canon is the path of an object's first position in tree order, "" when it is not in
// the tree.
func (f *Forest) Canon(id string) string { return f.canon[id] }

// CanonDir is the path of the row above an object's first position ("" at the top).
func (f *Forest) CanonDir(id string) string { return f.canonDir[id] }

// Order lists the problems and statements in tree order (for n/N and search). The
// slice is the tree's own: read it, never change it.
func (f *Forest) Order() []string { return f.order }

// Children are the IDs (or group keys, or broken files' paths) of a row's children.
func (f *Forest) Children(r TreeRow) []string {
	var ids []string
	for _, c := range f.childrenOf(r.Path, child{id: r.ID, kind: r.Kind}) {
		ids = append(ids, c.id)
	}
	return ids
}

// Broken are the objects shown in their last good version: their file does not parse.
// The map is the tree's own: read it, never change it.
func (f *Forest) Broken() map[string]bool { return f.broken }

// BrokenOrphans are the files that do not parse and have no last good version.
func (f *Forest) BrokenOrphans() []model.BrokenFile { return f.brokenOrphans }

// SameShape reports whether two trees rest on the same links, so that rows flattened
// from one under some folds are the rows of the other.
func (f *Forest) SameShape(o *Forest) bool { return f != nil && o != nil && f.shape == o.shape }
