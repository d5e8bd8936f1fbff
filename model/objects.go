package model

import (
	"iter"
	"maps"
	"math"
)

// Objects is a snapshot's map of object ID → V (statements, versions). A reload makes a
// new snapshot with a few objects read again and shares the rest: Fork copies only the
// changes the map already carries over its shared base, so a write at 100k statements
// copies what changed instead of cloning 100k entries (a clone was ~10 ms and ~10 MB of
// garbage a write, and the collections that garbage brought were the tail of write →
// frame). Once the changes outgrow √n they are folded into a new base, so lookups stay
// one or two map reads and the fold's cost, n, comes once per √n changes.
//
// The zero value is an empty map ready for Set. Like the snapshot holding it, an Objects
// is immutable once published: only its builder calls Set and Delete.
type Objects[V any] struct {
	base   map[string]V       // shared with earlier versions once forked: never written then
	over   map[string]slot[V] // this version's changes over base
	n      int
	forked bool // base is shared: writes go to over
}

// slot is a change over the base: a new value, or gone.
type slot[V any] struct {
	v    V
	gone bool
}

// ObjectsOf wraps a map the caller hands over (and no longer writes).
func ObjectsOf[V any](m map[string]V) Objects[V] {
	return Objects[V]{base: m, n: len(m)}
}

// NewObjects is an empty map with room for n objects.
func NewObjects[V any](n int) Objects[V] {
	return Objects[V]{base: make(map[string]V, n)}
}

// Get returns the object with the ID, or the zero V.
func (o Objects[V]) Get(id string) V {
	v, _ := o.Lookup(id)
	return v
}

// Lookup returns the object with the ID and whether there is one.
func (o Objects[V]) Lookup(id string) (V, bool) {
	if s, ok := o.over[id]; ok {
		return s.v, !s.gone
	}
	v, ok := o.base[id]
	return v, ok
}

// Has reports whether there is an object with the ID.
func (o Objects[V]) Has(id string) bool {
	_, ok := o.Lookup(id)
	return ok
}

// Len is the number of objects.
func (o Objects[V]) Len() int { return o.n }

// All yields every ID and object, in no particular order (as a map's range).
func (o Objects[V]) All() iter.Seq2[string, V] {
	return func(yield func(string, V) bool) {
		for id, s := range o.over {
			if !s.gone && !yield(id, s.v) {
				return
			}
		}
		for id, v := range o.base {
			if _, changed := o.over[id]; changed {
				continue
			}
			if !yield(id, v) {
				return
			}
		}
	}
}

// Keys yields every ID, in no particular order.
func (o Objects[V]) Keys() iter.Seq[string] {
	return func(yield func(string) bool) {
		for id := range o.All() {
			if !yield(id) {
				return
			}
		}
	}
}

// Map returns a plain map of the objects (a copy the caller owns, never nil).
func (o Objects[V]) Map() map[string]V {
	m := make(map[string]V, o.n)
	for id, v := range o.All() {
		m[id] = v
	}
	return m
}

// Fork returns a copy to build the next version on: it shares this version's base and
// copies its changes over it (at most √n of them).
func (o Objects[V]) Fork() Objects[V] {
	f := Objects[V]{base: o.base, n: o.n, forked: true}
	if len(o.over) > 0 {
		f.over = maps.Clone(o.over)
	}
	return f
}

// Set puts an object (builder only).
func (o *Objects[V]) Set(id string, v V) {
	if !o.forked {
		if o.base == nil {
			o.base = map[string]V{}
		}
		if _, ok := o.base[id]; !ok {
			o.n++
		}
		o.base[id] = v
		return
	}
	if !o.Has(id) {
		o.n++
	}
	if o.over == nil {
		o.over = map[string]slot[V]{}
	}
	o.over[id] = slot[V]{v: v}
	o.settle()
}

// Delete removes an object (builder only).
func (o *Objects[V]) Delete(id string) {
	if !o.Has(id) {
		return
	}
	o.n--
	if !o.forked {
		delete(o.base, id)
		return
	}
	if _, inBase := o.base[id]; !inBase {
		delete(o.over, id)
		return
	}
	if o.over == nil {
		o.over = map[string]slot[V]{}
	}
	o.over[id] = slot[V]{gone: true}
	o.settle()
}

// settle folds the changes into a new base once they outnumber √n (at least 64): the
// fold costs n, once per √n changes, and a Fork never copies more than √n.
func (o *Objects[V]) settle() {
	if len(o.over) <= max(64, int(math.Sqrt(float64(len(o.base))))) {
		return
	}
	base := make(map[string]V, o.n)
	for id, v := range o.All() {
		base[id] = v
	}
	o.base, o.over, o.forked = base, nil, false
}

// SortedIDs is o's ids in CompareIDs order.
func SortedIDs[V any](o Objects[V]) []string { return sortedIDs(o) }
