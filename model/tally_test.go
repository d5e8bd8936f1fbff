package model

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
