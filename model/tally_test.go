package model

import (
	"fmt"
	"maps"
	"math/rand/v2"
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
