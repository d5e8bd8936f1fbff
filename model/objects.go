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
	// An indexed base (ObjectsAt) stands for base when at is not nil: the object of ID
	// id is vals[at.Find(id)] where has says so. Derive makes its per-object maps so,
	// filling lists by index under the one index of IDs it has, not a map per field, and
	// `referee status` loads its statements so.
	at   *IDIndex
	vals []V
	has  []bool
}

// ObjectsAt is an Objects over an indexed base: id's object is vals[i], i its place in
// at, where i is in vals and has is true there (has nil: everywhere); n is how many
// there are. The caller hands at, vals and has over and no longer writes them.
func ObjectsAt[V any](at *IDIndex, vals []V, has []bool, n int) Objects[V] {
	return Objects[V]{at: at, vals: vals, has: has, n: n}
}

// fromBase is the base's object of the ID.
func (o Objects[V]) fromBase(id string) (V, bool) {
	if o.at == nil {
		v, ok := o.base[id]
		return v, ok
	}
	if i, ok := o.at.Find(id); ok && int(i) < len(o.vals) && (o.has == nil || o.has[i]) {
		return o.vals[i], true
	}
	var zero V
	return zero, false
}

// baseAll yields the base's objects.
func (o Objects[V]) baseAll(yield func(string, V) bool) {
	if o.at == nil {
		for id, v := range o.base {
			if !yield(id, v) {
				return
			}
		}
		return
	}
	for i, id := range o.at.ids {
		if i < len(o.vals) && (o.has == nil || o.has[i]) && o.at.owns(id, i) && !yield(id, o.vals[i]) {
			return
		}
	}
}

// unindex makes an indexed base a map, for a builder's write.
func (o *Objects[V]) unindex() {
	if o.at == nil {
		return
	}
	base := make(map[string]V, o.n)
	o.baseAll(func(id string, v V) bool { base[id] = v; return true })
	o.base, o.at, o.vals, o.has = base, nil, nil, nil
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
	return o.fromBase(id)
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
		o.baseAll(func(id string, v V) bool {
			if _, changed := o.over[id]; changed {
				return true
			}
			return yield(id, v)
		})
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
	f := Objects[V]{base: o.base, n: o.n, forked: true, at: o.at, vals: o.vals, has: o.has}
	if len(o.over) > 0 {
		f.over = maps.Clone(o.over)
	}
	return f
}

// Set puts an object (builder only).
func (o *Objects[V]) Set(id string, v V) {
	if !o.forked {
		o.unindex()
		if o.base == nil {
			o.base = map[string]V{}
		}
		o.base[id] = v
		o.n = len(o.base) // not a lookup first: a load sets every object, two hashes each
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
		o.unindex()
		delete(o.base, id)
		return
	}
	if _, inBase := o.fromBase(id); !inBase {
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
	size := len(o.base)
	if o.at != nil {
		size = o.n
	}
	if len(o.over) <= max(64, int(math.Sqrt(float64(size)))) {
		return
	}
	base := make(map[string]V, o.n)
	for id, v := range o.All() {
		base[id] = v
	}
	o.base, o.over, o.forked = base, nil, false
	o.at, o.vals, o.has = nil, nil, nil
}

// SortedIDs is o's ids in CompareIDs order.
func SortedIDs[V any](o Objects[V]) []string { return sortedIDs(o) }
