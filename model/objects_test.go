package model

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"testing"
)

// Objects behaves as a map whatever the history of forks, sets and deletes, and a fork
// never changes the version it was made from.
func TestObjectsBehavesAsAMap(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var o Objects[int]
	want := map[string]int{}
	for i := range 500 { // a folder loaded: writes go to the base
		id := fmt.Sprintf("s-%03d", i)
		o.Set(id, i)
		want[id] = i
	}
	check := func(step int, o Objects[int], want map[string]int) {
		t.Helper()
		if o.Len() != len(want) {
			t.Fatalf("step %d: Len %d, want %d", step, o.Len(), len(want))
		}
		if got := o.Map(); !maps.Equal(got, want) {
			t.Fatalf("step %d: Map differs from the reference (%d vs %d entries)", step, len(got), len(want))
		}
		seen := 0
		for id, v := range o.All() {
			seen++
			if w, ok := want[id]; !ok || w != v {
				t.Fatalf("step %d: All yields %s=%d, want %d (present %v)", step, id, v, w, ok)
			}
		}
		if seen != len(want) {
			t.Fatalf("step %d: All yields %d objects, want %d", step, seen, len(want))
		}
		for id, w := range want {
			if v, ok := o.Lookup(id); !ok || v != w || o.Get(id) != w || !o.Has(id) {
				t.Fatalf("step %d: Lookup(%s) = %d, %v; want %d", step, id, v, ok, w)
			}
		}
	}
	check(0, o, want)
	type version struct {
		o    Objects[int]
		want map[string]int
	}
	var kept []version
	for step := 1; step <= 3000; step++ { // reloads: each a fork with a few changes
		next, nextWant := o.Fork(), maps.Clone(want)
		for range 1 + r.IntN(3) {
			id := fmt.Sprintf("s-%03d", r.IntN(700))
			if r.IntN(4) == 0 {
				next.Delete(id)
				delete(nextWant, id)
			} else {
				next.Set(id, step)
				nextWant[id] = step
			}
		}
		if step%500 == 0 {
			kept = append(kept, version{o, want})
		}
		o, want = next, nextWant
		check(step, o, want)
	}
	for i, v := range kept { // versions forked from long ago are untouched
		check(-i, v.o, v.want)
	}
}

// A fork copies its changes, not the whole map, and folds them once they outgrow √n.
func TestObjectsForkCopiesOnlyChanges(t *testing.T) {
	base := map[string]int{}
	for i := range 10_000 {
		base[fmt.Sprintf("s-%05d", i)] = i
	}
	o := ObjectsOf(base)
	for i := range 100 {
		o = o.Fork()
		o.Set(fmt.Sprintf("s-%05d", i), -i)
		if len(o.over) != i+1 {
			t.Fatalf("after %d changes the fork carries %d", i+1, len(o.over))
		}
	}
	o = o.Fork()
	o.Set("s-00100", -100) // the 101st change: over √10000 = 100
	if len(o.over) != 0 || o.forked || len(o.base) != 10_000 {
		t.Fatalf("not folded: %d changes over a base of %d (forked %v)", len(o.over), len(o.base), o.forked)
	}
	if base["s-00005"] != 5 || o.Get("s-00005") != -5 {
		t.Fatalf("the fold wrote into the shared base or lost a change: %d, %d", base["s-00005"], o.Get("s-00005"))
	}
}

// FuzzObjects: any sequence of forks, sets and deletes (the bytes pick them) leaves an
// Objects equal to a plain map kept beside it, and every version forked on the way
// equal to the map it had then.
func FuzzObjects(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 200, 4, 5, 130, 6, 7, 255, 8})
	f.Add([]byte{1, 1, 1, 129, 129, 129, 255, 255, 2, 2})
	f.Fuzz(func(t *testing.T, ops []byte) {
		var o Objects[int]
		want := map[string]int{}
		type version struct {
			o    Objects[int]
			want map[string]int
		}
		var kept []version
		for i, op := range ops {
			id := fmt.Sprintf("s-%03d", op%97)
			switch {
			case op == 255: // a reload: the version so far is published, the next forked from it
				kept = append(kept, version{o, maps.Clone(want)})
				o = o.Fork()
			case op >= 128:
				o.Delete(id)
				delete(want, id)
			default:
				o.Set(id, i)
				want[id] = i
			}
		}
		kept = append(kept, version{o, want})
		for k, v := range kept {
			if v.o.Len() != len(v.want) || !maps.Equal(v.o.Map(), v.want) {
				t.Fatalf("version %d: %d objects %v, want %d %v", k, v.o.Len(), v.o.Map(), len(v.want), v.want)
			}
			for id, w := range v.want {
				if got, ok := v.o.Lookup(id); !ok || got != w {
					t.Fatalf("version %d: Lookup(%s) = %d, %v; want %d", k, id, got, ok, w)
				}
			}
		}
	})
}
