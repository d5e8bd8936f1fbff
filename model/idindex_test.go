package model

import (
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"
)

// TestIDIndexAsMap: an IDIndex finds what a map of each ID to its last place finds, for
// IDs of the usual shape (the flat table) and lists with one that is not (the map),
// with IDs there twice, and for strings that are no ID of the list: near misses (the
// byte idKey skips, one letter more), "" and long ones. A walk of an Objects over it
// meets each ID once, at its last place.
func TestIDIndexAsMap(t *testing.T) {
	r := rand.New(rand.NewPCG(27, 5))
	for _, odd := range []string{"", "statement-1", "s_001", "s-abcdef1"} {
		var ids []string
		for range 2000 {
			ids = append(ids, fmt.Sprintf("%c-%s%03d", "pse"[r.IntN(3)], "abc"[:r.IntN(3)], r.IntN(400)))
		}
		if odd != "" {
			ids = append(ids, odd)
		}
		want := map[string]int32{}
		for i, id := range ids {
			want[id] = int32(i)
		}
		ix := NewIDIndex(ids)
		probes := append([]string{"", "s", "s-", "sx001", "s-0010", "s-abcd001", "p-001", "s-aaa001", odd + "x"}, ids...)
		for _, id := range ids {
			probes = append(probes, id[:1]+"_"+id[2:], id+"0")
		}
		for _, id := range probes {
			i, ok := ix.Find(id)
			if w, wok := want[id]; ok != wok || ok && i != w {
				t.Fatalf("odd %q: Find(%q) = %d, %v; want %d, %v", odd, id, i, ok, w, wok)
			}
		}
		vals := make([]int, len(ids))
		for i := range vals {
			vals[i] = i
		}
		seen := map[string]int{}
		for id, v := range ObjectsAt(ix, vals, nil, len(want)).All() {
			if _, again := seen[id]; again || int32(v) != want[id] {
				t.Fatalf("odd %q: the walk meets %q at %d (again: %v), want once at %d", odd, id, v, again, want[id])
			}
			seen[id] = v
		}
		if len(seen) != len(want) {
			t.Fatalf("odd %q: the walk meets %d IDs, want %d", odd, len(seen), len(want))
		}
	}
}

// TestUniqueIDIndexAsMap: a NewUniqueIDIndex finds what a map finds, its table made on
// the first Find, from goroutines at once too (go test -race checks that).
func TestUniqueIDIndexAsMap(t *testing.T) {
	for _, odd := range []string{"", "statement-1"} {
		ids := []string{"p-001", "s-001", "s-a001", "e-001", "s-zz999"}
		if odd != "" {
			ids = append(ids, odd)
		}
		ix := NewUniqueIDIndex(ids)
		var wg sync.WaitGroup
		for range 4 {
			wg.Go(func() {
				for i, id := range ids {
					if j, ok := ix.Find(id); !ok || int(j) != i {
						t.Errorf("Find(%q) = %d, %v; want %d", id, j, ok, i)
					}
				}
				if _, ok := ix.Find("s-002"); ok {
					t.Error("Find(s-002) found it")
				}
			})
		}
		wg.Wait()
		n := 0
		for range ObjectsAt(ix, ids, nil, len(ids)).All() {
			n++
		}
		if n != len(ids) {
			t.Errorf("the walk meets %d IDs, want %d", n, len(ids))
		}
	}
}
