package store

import (
	"referee/skill"
	"reflect"
	"testing"

	"referee/internal/testutil"
)

// While the log only grows, the History of a newer snapshot indexes only the lines
// appended, on the index it shares with the older one, and lists exactly what a History
// made from scratch lists; the older History still sees only its own changes.
func TestHistoryWithIndexesOnlyTheLinesAppended(t *testing.T) {
	dir := testutil.Copy(t, demoDir)
	snap, err := LoadTail(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	h := NewHistory(dir, snap)
	before, n := h.Activity(), len(h.Changes())
	wrap, _ := skill.Lookup("prob-wrapup-statement")
	abandon, _ := skill.Lookup("abandon")
	res, err := Run(dir, wrap, skill.Args{"problem_id": "p-002", "claim": []string{"A new claim to check."}}, Options{Actor: "tester"})
	if err != nil {
		t.Fatal(err)
	}
	next := Reload(dir, snap, []string{LogFile, ConfigFile, "problem/p-002.json", "statement/" + res.Created[0] + ".json"})
	h2 := h.With(next)
	if h2.ix != h.ix {
		t.Fatal("a History of a snapshot whose log only grew indexed it all again")
	}
	if _, err := Run(dir, abandon, skill.Args{"statement_id": res.Created[0], "reason": "a test"}, Options{Actor: "tester"}); err != nil {
		t.Fatal(err)
	}
	last := Reload(dir, next, []string{LogFile, "statement/" + res.Created[0] + ".json"})
	h3 := h2.With(last)
	if h3.ix != h.ix || len(h3.Changes()) != n+2 || len(h2.Changes()) != n+1 || len(h.Changes()) != n {
		t.Fatalf("changes held: %d, %d, %d (want %d, %d, %d), shared %v", len(h.Changes()), len(h2.Changes()), len(h3.Changes()), n, n+1, n+2, h3.ix == h.ix)
	}
	if got, want := h3.Activity(), NewHistory(dir, last).Activity(); !reflect.DeepEqual(got, want) {
		t.Errorf("the extended History lists\n%+v\nwant\n%+v", got[len(got)-2:], want[len(want)-2:])
	}
	if got := h.Activity(); !reflect.DeepEqual(got, before) {
		t.Error("extending the index changed what the older History lists")
	}
	if _, err := h.Index(res.Change); err == nil {
		t.Errorf("the older History finds %s, a change after its snapshot", res.Change)
	}
	if i, err := h3.Index(res.Change); err != nil || i != n {
		t.Errorf("Index(%s) = %d, %v; want %d", res.Change, i, err, n)
	}
}
