package store

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"referee/internal/testutil"
	"referee/model"
	"referee/model/pyjson"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// A History of the log's tail, reaching back for the changes asked for, answers as the
// whole log's does: every object's version right after every change (Object, as diff
// asks), two changes at once, and the folder right after each change (At, as show --at
// and export --at ask), on the demo run taken through an undo, a branch save and
// switch, a rewind, and a torn last line.
func TestReachingAnswersAsTheWholeLog(t *testing.T) {
	dir := testutil.Copy(t, demoDir)
	if _, err := Undo(dir, "l-038", Options{Actor: "human", Now: pinned}); err != nil {
		t.Fatal(err)
	}
	if _, err := BranchSave(dir, "alt", Options{Now: pinned}); err != nil {
		t.Fatal(err)
	}
	if _, err := Rewind(dir, "l-020", false, Options{Actor: "human", Now: pinned}); err != nil {
		t.Fatal(err)
	}
	if _, err := BranchSwitch(dir, "main", false, Options{Now: pinned}); err != nil {
		t.Fatal(err)
	}
	// s-017 set back by hand to an older backup (an edit no log line names).
	backups, _ := filepath.Glob(filepath.Join(dir, HistoryDir, "*", "s-017.json"))
	if len(backups) == 0 {
		t.Fatal("no backup of s-017")
	}
	data, err := os.ReadFile(backups[0])
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "statement", "s-017.json"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.OpenFile(filepath.Join(dir, LogFile), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("\n" + `{"l-900": {"creation": ["s-0`) // blank, then torn
	f.Close()
	checkReachingAsWhole(t, dir)
}

// A line may write an ID with escapes ("\u0073-017" is s-017): Reaching and
// ObjectActivity, which parse only the lines holding the IDs asked of, find those lines
// too and answer as the whole log's History does.
func TestReachingReadsEscapedIDs(t *testing.T) {
	dir := testutil.Copy(t, demoDir)
	path := filepath.Join(dir, LogFile)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(data), "\n")
	escaped := 0
	for i, l := range lines {
		if i%2 == 1 && strings.Contains(l, `"s-0`) {
			lines[i] = strings.ReplaceAll(l, `"s-0`, `"\u0073-0`)
			escaped++
		}
	}
	if escaped < 5 {
		t.Fatalf("only %d lines name a statement", escaped)
	}
	if err := os.WriteFile(path, []byte(strings.Join(lines, "")), 0o644); err != nil {
		t.Fatal(err)
	}
	checkReachingAsWhole(t, dir)
}

// checkReachingAsWhole compares, for every change of dir's log, what a History of the
// log's tail reaching back answers with what the whole log's answers.
func checkReachingAsWhole(t *testing.T, dir string) {
	t.Helper()
	whole, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	full := NewHistory(dir, whole)
	changes := full.Changes()
	ids := map[string]bool{"s-999": true}
	full.objects(func(id string) { ids[id] = true })
	for id := range whole.Statements.All() {
		ids[id] = true
	}
	smallWindow(t, 2, 1<<20)
	snap, err := LoadTail(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	tail := NewHistory(dir, snap)
	if tail.Head().Offset == 0 || len(tail.Changes()) >= len(changes) {
		t.Fatalf("the tail holds %d of %d changes: the test needs a head", len(tail.Changes()), len(changes))
	}
	same := func(what string, got, want Version) {
		t.Helper()
		g, w := got, want
		g.Doc, w.Doc = pyjson.Value{}, pyjson.Value{}
		if string(pyjson.EncodeIndent(got.Doc)) != string(pyjson.EncodeIndent(want.Doc)) || !reflect.DeepEqual(g, w) {
			t.Errorf("%s: %+v\nwant %+v", what, got, want)
		}
	}
	for k, c := range changes {
		next := changes[min(k+1, len(changes)-1)].ID
		for id := range ids {
			h, err := tail.Reaching([]string{id}, []string{c.ID, next})
			if err != nil {
				t.Fatal(err)
			}
			for _, at := range []string{c.ID, next} {
				got, err := h.Object(id, at)
				if err != nil {
					t.Fatal(err)
				}
				want, _ := full.Object(id, at)
				same(id+" after "+at, got, want)
			}
		}
		h, err := tail.Reaching(nil, []string{c.ID})
		if err != nil {
			t.Fatal(err)
		}
		got, want := at(t, h, c.ID), at(t, full, c.ID)
		sameSnapshot(t, c.ID, got, want)
		if !reflect.DeepEqual(got.Config, want.Config) || !reflect.DeepEqual(got.Broken, want.Broken) {
			t.Errorf("%s: config %+v broken %v; want %+v %v", c.ID, got.Config, got.Broken, want.Config, want.Broken)
		}
	}
	// One object's changes (log --object), through the tail and the lines naming it.
	activity := full.Activity()
	for id := range ids {
		var want []Change
		for i, c := range activity {
			if names(changes[i], id) {
				want = append(want, c)
			}
		}
		got, err := tail.ObjectActivity(id)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(want) || len(want) > 0 && !reflect.DeepEqual(got, want) {
			t.Errorf("%s's changes:\n%+v\nwant %+v", id, got, want)
		}
	}
	if h, err := tail.Reaching([]string{"s-001"}, []string{"l-899"}); err != nil {
		t.Fatal(err)
	} else if _, err := h.Object("s-001", "l-899"); err == nil {
		t.Error("a change the log does not hold is found")
	}
	// Rewritten since the tail was read: refused, not answered from another log.
	data, _ := os.ReadFile(filepath.Join(dir, LogFile))
	os.WriteFile(filepath.Join(dir, LogFile), append([]byte("\n"), data...), 0o644)
	if _, err := tail.Reaching(nil, []string{changes[0].ID}); err == nil {
		t.Error("a rewritten log is read back")
	}
}

// reach.matters is false only for lines that add would not change anything for: on
// random logs, for every object asked of or all, each line is looked at first, and a
// line said not to matter must leave the reach as it was.
func TestReachMattersOnlyWhenAddChanges(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 27))
	ids := []string{"s-001", "s-002", "s-003", "p-001", "e-001"}
	pick := func() []string {
		var out []string
		for _, id := range ids {
			if rng.IntN(4) == 0 {
				out = append(out, id)
			}
		}
		return out
	}
	clone := func(r *reach) *reach {
		c := *r
		c.objects, c.changes, c.kept, c.created = maps.Clone(r.objects), maps.Clone(r.changes), maps.Clone(r.kept), maps.Clone(r.created)
		c.lastMade, c.lastGone, c.after = maps.Clone(r.lastMade), maps.Clone(r.lastGone), maps.Clone(r.after)
		c.keys, c.searched = slices.Clone(r.keys), maps.Clone(r.searched)
		return &c
	}
	skipped := 0
	for round := range 400 {
		lines := 20 + rng.IntN(60)
		var asked []string
		for range 1 + rng.IntN(3) {
			asked = append(asked, fmt.Sprintf("l-%03d", 1+rng.IntN(lines)))
		}
		var objects []string
		if rng.IntN(2) == 0 {
			objects = pick()
			if objects == nil {
				objects = []string{}
			}
		}
		r := newReach(objects, asked)
		for n := 1; n <= lines; n++ {
			e := model.LogEntry{ID: fmt.Sprintf("l-%03d", n), Line: n, Off: int64(n), Modification: pick()}
			if rng.IntN(3) == 0 {
				e.Creation = pick()
			}
			if rng.IntN(6) == 0 {
				e.Deleted = pick()
			}
			if rng.IntN(20) == 0 {
				e.ID = ""
			}
			before := clone(r)
			matters := r.matters(e)
			r.add(e)
			if !matters {
				skipped++
				if !reflect.DeepEqual(before, r) {
					t.Fatalf("round %d, line %+v: said not to matter, but add changed the reach", round, e)
				}
			}
		}
	}
	if skipped < 1000 {
		t.Errorf("only %d lines were found not to matter: the random logs do not exercise matters", skipped)
	}
}

// The agents' own run (their scripts wrote its log and backups): every answer read back
// from a tail of two lines is the whole log's.
func TestReachingOnTheAgentsRun(t *testing.T) {
	testutil.Need(t, fixtureDir)
	checkReachingAsWhole(t, testutil.Copy(t, fixtureDir))
}
