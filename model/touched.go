package model

import (
	"reflect"
	"slices"
	"unsafe"
)

// Touched is what differs between two versions of a folder, for what is kept from one
// version to the next (the graveyard, the review queue): the objects rewritten, added or
// removed, and the objects whose phase moved (a phase can move without its object: a
// problem is solved when what it needs is proved).
type Touched struct {
	Objects []string // problems, statements and experiences, in ID order
	Phases  []string // in ID order
	// Finished lists those of Phases that became finished or stopped being (finished):
	// only those change what waits for what (Above, BlockScores) while the links stay.
	Finished []string
}

// TouchedBetween is what differs between prev with its phases and s with its. Objects
// that share their maps with the version before (Objects.Fork) are compared by their
// changes only; otherwise (after a full derivation) object by object.
func TouchedBetween(prev, s *Snapshot, prevPhase, phase Objects[Phase]) Touched {
	var t Touched
	add := func(id string) { t.Objects = append(t.Objects, id) }
	diffMaps(prev.Problems, s.Problems, add)
	diffMaps(prev.Experiences, s.Experiences, add)
	s.Statements.Diff(prev.Statements, func(a, b *Statement) bool { return a == b }, add)
	phase.Diff(prevPhase, func(a, b Phase) bool { return a == b }, func(id string) {
		t.Phases = append(t.Phases, id)
		if phaseFinished(prevPhase.Get(id)) != phaseFinished(phase.Get(id)) {
			t.Finished = append(t.Finished, id)
		}
	})
	slices.SortFunc(t.Objects, CompareIDs)
	slices.SortFunc(t.Phases, CompareIDs)
	slices.SortFunc(t.Finished, CompareIDs)
	return t
}

// Empty says whether nothing differs.
func (t Touched) Empty() bool { return len(t.Objects) == 0 && len(t.Phases) == 0 }

// Relinked says whether the graph's links may differ between prev and s: an object
// appeared or went away (a reference to it resolves or dangles now), or one changed
// its references.
func (t Touched) Relinked(prev, s *Snapshot) bool {
	for _, id := range t.Objects {
		if prev.Exists(id) != s.Exists(id) {
			return true
		}
		var was, is []Edge
		linksOf(prev, id, func(e Edge) { was = append(was, e) })
		linksOf(s, id, func(e Edge) { is = append(is, e) })
		if !slices.Equal(was, is) {
			return true
		}
	}
	return false
}

// linksOf yields the references of an object of s as edges (whether their targets
// exist or not); experiences reference nothing.
func linksOf(s *Snapshot, id string, f func(Edge)) {
	add := func(kind EdgeKind, item string) {
		if to, ok := RefID(item); ok {
			f(Edge{From: id, To: to, Kind: kind, Item: item})
		}
	}
	if p := s.Problems[id]; p != nil && KindOf(id) == KindProblem {
		problemLinks(p, add)
	}
	if st := s.Statements.Get(id); st != nil && KindOf(id) == KindStatement {
		statementLinks(st, add)
	}
}

// diffMaps calls f for each key whose value differs between a and b (pointers compared).
func diffMaps[V comparable](a, b map[string]V, f func(string)) {
	for id, v := range b {
		if w, ok := a[id]; !ok || w != v {
			f(id)
		}
	}
	for id := range a {
		if _, ok := b[id]; !ok {
			f(id)
		}
	}
}

// Diff calls f once for each ID whose object differs between prev and o (set in one,
// not the other, or not same). When o was forked from prev, or both from one version,
// they share a base and only their changes over it are compared (at most √n each);
// otherwise every object is.
func (o Objects[V]) Diff(prev Objects[V], same func(a, b V) bool, f func(id string)) {
	differs := func(id string) bool {
		a, okA := prev.Lookup(id)
		b, okB := o.Lookup(id)
		return okA != okB || okA && !same(a, b)
	}
	if sameBase(o, prev) {
		for id := range o.over {
			if differs(id) {
				f(id)
			}
		}
		for id := range prev.over {
			if _, both := o.over[id]; !both && differs(id) {
				f(id)
			}
		}
		return
	}
	added := 0
	for id, b := range o.All() {
		if a, ok := prev.Lookup(id); !ok {
			added++
			f(id)
		} else if !same(a, b) {
			f(id)
		}
	}
	if prev.Len() > o.Len()-added { // some went away
		for id := range prev.All() {
			if !o.Has(id) {
				f(id)
			}
		}
	}
}

// sameBase reports whether two Objects share their base: the same map, or the same
// indexed base.
func sameBase[V any](a, b Objects[V]) bool {
	return sameMap(a.base, b.base) && a.at == b.at && unsafe.SliceData(a.vals) == unsafe.SliceData(b.vals) &&
		unsafe.SliceData(a.has) == unsafe.SliceData(b.has)
}

// sameMap says whether a and b are one map (not two with equal contents).
func sameMap[K comparable, V any](a, b map[K]V) bool {
	return reflect.ValueOf(a).UnsafePointer() == reflect.ValueOf(b).UnsafePointer()
}
