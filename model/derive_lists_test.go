package model

// Tests of the lists Derive fills by index: tally, radixSortKeyed, objectsAt.

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"testing"
)

// A tally counts as a map does, past its few compared keys too.
func TestTallyCountsAsAMap(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, distinct := range []int{1, tallyKeys, tallyKeys + 1, 40} {
		var tl tally
		want := map[string]int{}
		for range 500 {
			s := fmt.Sprintf("status-%d", r.IntN(distinct))
			if r.IntN(50) == 0 {
				s = ""
			}
			tl.add(s)
			want[s]++
		}
		got := map[string]int{"status-0": 0}
		want["status-0"] += 0
		tl.into(got)
		if !maps.Equal(got, want) {
			t.Fatalf("%d distinct: tally %v, map %v", distinct, got, want)
		}
	}
}

// The radix sort of keyed IDs orders as comparing the keys does.
func TestRadixSortKeyed(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, n := range []int{0, 1, 255, 256, 3000} {
		var keyed []keyedID
		seen := map[string]bool{}
		for len(keyed) < n {
			id := fmt.Sprintf("%c-%s%03d", "ps"[r.IntN(2)], []string{"", "a", "bz", "zzz"}[r.IntN(4)], r.IntN(1000))
			if k, ok := idKey(id); ok && !seen[id] {
				seen[id] = true
				keyed = append(keyed, keyedID{k, id})
			}
		}
		want := slices.Clone(keyed)
		slices.SortFunc(want, func(a, b keyedID) int { return CompareIDs(a.id, b.id) })
		if got := radixSortKeyed(keyed); !slices.Equal(got, want) {
			t.Fatalf("%d IDs: radix order differs from CompareIDs", n)
		}
	}
}

// An Objects over an indexed base (objectsAt, as Derive makes Phase and Next) reads,
// forks, writes and diffs as one over the same plain map.
func TestObjectsAtIsObjectsOf(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 1))
	at := map[string]int32{}
	var ids []string
	var vals []int
	var has []bool
	plain := map[string]int{}
	for i := range 3000 {
		id := fmt.Sprintf("s-%04d", i)
		at[id] = int32(i)
		ids = append(ids, id)
		if i < 2500 { // past vals: not there (as experiences past Phase's list)
			vals = append(vals, r.IntN(7))
			has = append(has, r.IntN(4) != 0)
			if has[i] {
				plain[id] = vals[i]
			}
		}
	}
	ix, pm := ObjectsAt(NewIDIndex(ids), vals, has, len(plain)), ObjectsOf(maps.Clone(plain))
	same := func(step string, a, b Objects[int]) {
		t.Helper()
		if a.Len() != b.Len() || !maps.Equal(a.Map(), b.Map()) {
			t.Fatalf("%s: indexed %d objects, plain %d (or they differ)", step, a.Len(), b.Len())
		}
		for id := range at {
			va, oka := a.Lookup(id)
			vb, okb := b.Lookup(id)
			if va != vb || oka != okb || a.Has(id) != b.Has(id) {
				t.Fatalf("%s: %s is %d,%v indexed, %d,%v plain", step, id, va, oka, vb, okb)
			}
		}
	}
	same("made", ix, pm)
	fi, fp := ix.Fork(), pm.Fork()
	for step := range 400 { // past √n changes: folded
		id := fmt.Sprintf("s-%04d", r.IntN(3100))
		if r.IntN(3) == 0 {
			fi.Delete(id)
			fp.Delete(id)
		} else {
			v := r.IntN(7)
			fi.Set(id, v)
			fp.Set(id, v)
		}
		if step%50 == 0 {
			same(fmt.Sprintf("fork, step %d", step), fi, fp)
			var di, dp []string
			fi.Diff(ix, func(a, b int) bool { return a == b }, func(id string) { di = append(di, id) })
			fp.Diff(pm, func(a, b int) bool { return a == b }, func(id string) { dp = append(dp, id) })
			slices.Sort(di)
			slices.Sort(dp)
			if !slices.Equal(di, dp) {
				t.Fatalf("step %d: Diff indexed %v, plain %v", step, di, dp)
			}
		}
	}
	same("the fork's base", ix, pm)
	ix.Set("s-0001", 99) // a builder's write to an unforked indexed base
	pm.Set("s-0001", 99)
	ix.Delete("s-0002")
	pm.Delete("s-0002")
	same("written", ix, pm)
}
