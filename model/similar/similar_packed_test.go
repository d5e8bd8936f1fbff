package similar

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// A packed vector reads back as the vector it packs, and its cosines are the vector's,
// bit for bit (the same products summed in the same order), whatever the gaps between
// terms (one- to five-byte uvarints).
func TestPackedIsTheVector(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	random := func() vector {
		var v vector
		term := int32(0)
		for range r.IntN(60) {
			switch r.IntN(4) {
			case 0:
				term += 1 + r.Int32N(100)
			case 1:
				term += 1 + r.Int32N(20000)
			case 2:
				term += 1 + r.Int32N(5_000_000)
			default:
				term += 1 + r.Int32N(3)
			}
			v = append(v, entry{term: term, w: r.Float32()})
		}
		return v
	}
	if pack(nil) != nil || pack(vector{}) != nil {
		t.Error("an empty vector packs to something")
	}
	for range 300 {
		a, b := random(), random()
		pa, pb := pack(a), pack(b)
		var back vector
		for e := range pa.all {
			back = append(back, e)
		}
		if !slices.Equal(back, a) || len(pa) != cap(pa) {
			t.Fatalf("packed %v reads back as %v (len %d, cap %d)", a, back, len(pa), cap(pa))
		}
		if got, want := pa.dot(pb), a.dot(b); got != want {
			t.Fatalf("dot %v, want %v", got, want)
		}
		// Half of a's terms, other weights, and some of b's: shared terms met in turn.
		c := slices.DeleteFunc(slices.Clone(a), func(entry) bool { return r.IntN(2) == 0 })
		for i := range c {
			c[i].w = r.Float32()
		}
		c = append(c, b[:len(b)/2]...)
		slices.SortFunc(c, func(x, y entry) int { return int(x.term - y.term) })
		c = slices.CompactFunc(c, func(x, y entry) bool { return x.term == y.term })
		if got, want := pa.dot(pack(c)), a.dot(c); got != want || pack(c).dot(pb) != c.dot(b) {
			t.Fatalf("dot with shared terms %v, want %v", got, want)
		}
		// Weighed in place, a packed vector of counts is the packed weighed vector.
		var counts vector // terms under 2,000, a df for each
		tm := &terms{df: make([]int, 2000)}
		for term := int32(r.IntN(50)); term < 2000 && len(counts) < 80; term += 1 + r.Int32N(300) {
			counts = append(counts, entry{term: term, w: float32(1 + r.IntN(5))})
			tm.df[term] = 1 + r.IntN(9)
		}
		packedCounts := pack(counts)
		if got, want := tm.weighPacked(packedCounts, 20), pack(tm.weigh(slices.Clone(counts), 20)); !slices.Equal(got, want) {
			t.Fatalf("weighed in place %v, want %v", got, want)
		}
		if got, want := pa.dot(pa), a.dot(a); got != want {
			t.Fatalf("self dot %v, want %v", got, want)
		}
	}
}
