package store

import (
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"referee/model"
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
			names = append(names, listed{name: name, path: "statement/" + name, regular: r.IntN(2) == 0})
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

// TestReadFolderAsReadDir: readFolder lists what os.ReadDir lists, each entry's type
// alike, its path sub/name, over more entries than one read of the listing holds.
func TestReadFolderAsReadDir(t *testing.T) {
	dir := t.TempDir()
	long := strings.Repeat("n", 200) // 1,500 of them fill more than one getdents buffer
	for i := range 1500 {
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("%s-%04d.json", long, i)), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, name := range []string{"s-001.json", "é\xff.tmp", ".hidden", "x y"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("{}"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "s-002.json"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("s-001.json", filepath.Join(dir, "s-003.json")); err != nil {
		t.Fatal(err)
	}
	got, err := readFolder(dir, "statement")
	if err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var want []listed
	for _, e := range entries {
		want = append(want, listed{name: e.Name(), path: "statement/" + e.Name(), regular: e.Type().IsRegular()})
	}
	sortNames(got)
	if !slices.Equal(got, want) {
		t.Fatalf("readFolder lists %d entries, os.ReadDir %d, or they differ", len(got), len(want))
	}
	if _, err := readFolder(filepath.Join(dir, "missing"), "statement"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a missing folder: %v", err)
	}
	if _, err := readFolder(filepath.Join(dir, "s-001.json"), "statement"); err == nil || unwrapPath(err).Error() != "not a directory" {
		t.Errorf("a file: %v", err)
	}
}

// TestListStatementsByID: a status load lists its statements in the order Derive numbers
// them (by kind, then length, then as text: s-z999 before s-aa001), the order the agents
// create them in, so that its numbering finds them sorted; a folder with a name that is
// no ID's is listed by name, as every other load lists.
func TestListStatementsByID(t *testing.T) {
	dir := t.TempDir()
	var ids []string
	for v := range 1300 { // past the small listing's sort
		ids = append(ids, fmt.Sprintf("s-%c%03d", 'a'+v/999, v%999+1))
	}
	ids = append(ids, "s-001", "s-999", "s-z999", "s-aa001", "s-ab017")
	for _, id := range ids {
		if err := os.WriteFile(filepath.Join(dir, id+".json"), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	names := func(out []listed) []string {
		var got []string
		for _, e := range out {
			got = append(got, strings.TrimSuffix(e.name, ".json"))
		}
		return got
	}
	got, err := listFolder(dir, "statement", true)
	if err != nil {
		t.Fatal(err)
	}
	want := slices.SortedFunc(slices.Values(ids), model.CompareIDs)
	if !slices.Equal(names(got), want) || want[0] != "s-001" || !slices.Equal(want[len(want)-2:], []string{"s-aa001", "s-ab017"}) {
		t.Errorf("listed by ID: %v ... %v", names(got)[:3], names(got)[len(got)-3:])
	}
	if slices.IsSorted(want) {
		t.Error("the order by ID is the names' order: the test shows nothing")
	}
	byName, err := listFolder(dir, "statement", false)
	if err != nil || !slices.IsSortedFunc(byName, func(a, b listed) int { return strings.Compare(a.name, b.name) }) {
		t.Errorf("listed by name: %v", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	odd, err := listFolder(dir, "statement", true)
	if err != nil || len(odd) != len(ids)+1 || !slices.IsSortedFunc(odd, func(a, b listed) int { return strings.Compare(a.name, b.name) }) {
		t.Errorf("with a name no ID's: %d entries, not by name (%v)", len(odd), err)
	}
}
