package store

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// TestSortNamesAsStrings: a listing sorted by radix is in strings.Compare order, to the
// entry: names of every length (shorter and longer than the eight bytes the radix
// reads), many sharing those eight bytes, names that are prefixes of others, bytes above
// 0x7f, each carrying its own regular flag.
func TestSortNamesAsStrings(t *testing.T) {
	r := rand.New(rand.NewPCG(27, 4))
	for _, n := range []int{0, 1, 5, 1023, 1024, 5000, 40000} {
		var names []listed
		seen := map[string]bool{}
		for len(names) < n {
			var name string
			switch r.IntN(6) {
			case 0:
				name = fmt.Sprintf("s-%03d.json", 1+r.IntN(999))
			case 1:
				name = fmt.Sprintf("s-%s%03d.json", strings.Repeat(string(rune('a'+r.IntN(26))), 1+r.IntN(4)), 1+r.IntN(999))
			case 2:
				name = "statement-" + fmt.Sprint(r.IntN(100000)) // shares its first eight bytes
			case 3:
				name = strings.Repeat("x", r.IntN(12)) // prefixes of one another, "" among them
			case 4:
				name = string([]byte{byte(r.IntN(256)), byte(r.IntN(256)), 'é'}[:1+r.IntN(2)]) + "\xff.tmp"
			default:
				name = fmt.Sprintf("p-%03d.json~", r.IntN(1000))
			}
			if seen[name] {
				continue
			}
			seen[name] = true
			names = append(names, listed{name, r.IntN(2) == 0})
		}
		got, want := slices.Clone(names), slices.Clone(names)
		sortNames(got)
		slices.SortFunc(want, func(a, b listed) int { return strings.Compare(a.name, b.name) })
		if !slices.Equal(got, want) {
			for i := range got {
				if got[i] != want[i] {
					t.Fatalf("%d names: at %d got %q, want %q", n, i, got[i].name, want[i].name)
				}
			}
		}
	}
}
