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

// TestIDIndexRunsAsMap: IDs of the agents' shape numbered in a row (s-001 to s-z999,
// s-aa001 on) are found through lists by value, one per kind and length, and answer as
// a map does: around and between the runs, with an ID there twice (its last place),
// beside IDs of the same kind and length too sparse for a list (in the key table), and
// IDs of other shapes.
func TestIDIndexRunsAsMap(t *testing.T) {
	r := rand.New(rand.NewPCG(27, 7))
	name := func(kind byte, v int) string { // the v-th ID of its kind with two letters
		return fmt.Sprintf("%c-%c%c%03d", kind, 'a'+v/26000, 'a'+v/1000%26, v%1000)
	}
	var ids []string
	for v := range 3000 {
		ids = append(ids, fmt.Sprintf("s-%03d", v%1000), name('s', 5000+v))
	}
	for range 50 {
		ids = append(ids, name('p', r.IntN(600000)))            // sparse: the key table
		ids = append(ids, fmt.Sprintf("e-b%03d", r.IntN(1000))) // few, in a short span: a run
	}
	ids = append(ids, "s-ab017", "s-A001", "s-a00x", "x-1", "s-abcdef")
	r.Shuffle(len(ids), func(i, j int) { ids[i], ids[j] = ids[j], ids[i] })
	want := map[string]int32{}
	for i, id := range ids {
		want[id] = int32(i)
	}
	ix := NewIDIndex(ids)
	if !ix.dups {
		t.Error("IDs there twice: not told")
	}
	runs := map[string]bool{}
	for _, run := range ix.runs {
		runs[fmt.Sprintf("%c%d", run.kind, run.len)] = true
	}
	if !runs["s5"] || !runs["s7"] || !runs["e6"] || runs["p7"] || len(runs) != 3 {
		t.Errorf("runs by kind and length: %v; want s5, s7 and e6", runs)
	}
	probes := append([]string{"s-000", "s-999", "s-aa999", "s-ah000", "s-zz999", "s-hz999", "p-aa000", "e-z999", "s-A001", "s-a00x", "s-0001"}, ids...)
	for v := 4990; v < 8010; v++ {
		probes = append(probes, name('s', v), name('p', v), name('e', v)[:2]+name('e', v)[3:])
	}
	for _, id := range probes {
		i, ok := ix.Find(id)
		if w, wok := want[id]; ok != wok || ok && i != w {
			t.Fatalf("Find(%q) = %d, %v; want %d, %v", id, i, ok, w, wok)
		}
	}
}
