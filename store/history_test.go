package store

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"referee/internal/testutil"
	"referee/model"
	"referee/model/pyjson"
	"referee/skill"
)

func historyOf(t *testing.T, dir string) *History {
	t.Helper()
	snap, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	return NewHistory(dir, snap)
}

func at(t *testing.T, h *History, change string) *model.Snapshot {
	t.Helper()
	snap, err := h.At(change)
	if err != nil {
		t.Fatalf("At(%s): %v", change, err)
	}
	return snap
}

// The fixture's six changes: l-001 sets up s-001..s-006 and p-001, l-002 creates s-007,
// l-003 links it under p-001, l-004 proves it, l-005 verifies it, l-006 resolves p-001.
// A backup history/l-N/x.json is x as it was BEFORE l-N, so x right after l-4 is the
// backup l-005 made.
func TestAtFixture(t *testing.T) {
	testutil.Need(t, fixtureDir)
	h := historyOf(t, fixtureDir)
	if n := len(h.Changes()); n != 6 {
		t.Fatalf("%d changes, want 6", n)
	}
	s1 := at(t, h, "l-001")
	if s1.Statements.Get("s-007") != nil || s1.Statements.Len() != 6 || s1.Problems["p-001"] == nil {
		t.Errorf("l-001: statements %v, p-001 %v", slices.SortedFunc(s1.Statements.Keys(), model.CompareIDs), s1.Problems["p-001"] != nil)
	}
	if p := s1.Problems["p-001"]; p.Status != "unresolved" || len(p.Progresses) != 0 {
		t.Errorf("l-001: p-001 %s %q", p.Status, p.Progresses)
	}
	if s1.Config.Last["l"] != "l-001" || s1.Config.Last["s"] != "s-006" || len(s1.Log) != 1 || len(s1.Broken) != 0 {
		t.Errorf("l-001: config %v, %d log lines, broken %v", s1.Config.Last, len(s1.Log), s1.Broken)
	}

	s2 := at(t, h, "l-002")
	if st := s2.Statements.Get("s-007"); st == nil || st.Status != "pending" || proofText(t, st) != "" || len(s2.Problems["p-001"].Progresses) != 0 {
		t.Errorf("l-002: s-007 %+v, p-001 progresses %q", st, s2.Problems["p-001"].Progresses)
	}
	s3 := at(t, h, "l-003")
	if got := s3.Problems["p-001"].Progresses; !reflect.DeepEqual(got, []string{"(s-007) The unique solution: Olivia=Knave, Alice=Spy, Ivy=Knave"}) {
		t.Errorf("l-003: p-001 progresses %q", got)
	}
	if st := s3.Statements.Get("s-007"); st.Status != "pending" || proofText(t, st) != "" || len(st.Progresses) != 0 {
		t.Errorf("l-003: s-007 %s, proof %q", st.Status, proofText(t, st))
	}
	s4 := at(t, h, "l-004")
	if st := s4.Statements.Get("s-007"); st.Status != "validating" || !strings.HasPrefix(proofText(t, st), "We prove that (Olivia=Knave") ||
		len(st.Progresses) != 1 || !strings.HasPrefix(st.Progresses[0], "PROOF: Case analysis") || st.Reliability != 0 {
		t.Errorf("l-004: s-007 %s, %q, reliability %v", st.Status, st.Progresses, st.Reliability)
	}
	s5 := at(t, h, "l-005")
	if st := s5.Statements.Get("s-007"); st.Status != "true" || st.Reliability != 1 || len(st.Progresses) != 2 || s5.Problems["p-001"].Status != "unresolved" {
		t.Errorf("l-005: s-007 %s %v, p-001 %s", st.Status, st.Reliability, s5.Problems["p-001"].Status)
	}
	// Versions are those of the backup files the objects came from.
	backup, _ := os.ReadFile(filepath.Join(fixtureDir, "history/l-005/s-007.json"))
	if s4.Versions.Get("s-007") != model.Version(backup) {
		t.Errorf("l-004: s-007 version %s, want the l-005 backup's %s", s4.Versions.Get("s-007"), model.Version(backup))
	}
	// Right after the last change is the folder now, byte for byte.
	sameSnapshot(t, "l-006", at(t, h, "l-006"), h.snap)
	if vocab := at(t, h, "l-004").Vocab; vocab != model.P014 {
		t.Errorf("l-004 vocabulary %v", vocab)
	}

	var ie *skill.InputError
	if _, err := h.At("l-007"); !errors.As(err, &ie) || err.Error() != "l-007 is not in history/log.jsonl" {
		t.Errorf("At(l-007): %v", err)
	}
	if _, err := h.At("s-001"); !errors.As(err, &ie) {
		t.Errorf("At(s-001): %v", err)
	}
	if _, err := At("/nonexistent", "l-001"); !errors.As(err, &ie) {
		t.Errorf("At on a missing folder: %v", err)
	}
}

// document is a statement's whole object, read again from its file when a lean load
// left it out.
func document(t *testing.T, st *model.Statement) pyjson.Value {
	t.Helper()
	doc, err := st.Document()
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

// proofText is a statement's proof text, read from its file when a lean load left it there.
func proofText(t *testing.T, st *model.Statement) string {
	t.Helper()
	text, err := st.Proof.Text()
	if err != nil {
		t.Fatal(err)
	}
	return text
}

func sameSnapshot(t *testing.T, name string, got, want *model.Snapshot) {
	t.Helper()
	if !reflect.DeepEqual(checkSortedIDs(got.Problems), checkSortedIDs(want.Problems)) || !reflect.DeepEqual(slices.SortedFunc(got.Statements.Keys(), model.CompareIDs), slices.SortedFunc(want.Statements.Keys(), model.CompareIDs)) {
		t.Fatalf("%s: objects %v %v, want %v %v", name, checkSortedIDs(got.Problems), slices.SortedFunc(got.Statements.Keys(), model.CompareIDs), checkSortedIDs(want.Problems), slices.SortedFunc(want.Statements.Keys(), model.CompareIDs))
	}
	for id, st := range want.Statements.All() {
		if string(pyjson.EncodeIndent(document(t, got.Statements.Get(id)))) != string(pyjson.EncodeIndent(document(t, st))) || got.Versions.Get(id) != want.Versions.Get(id) {
			t.Errorf("%s: %s differs", name, id)
		}
	}
	for id, p := range want.Problems {
		if string(pyjson.EncodeIndent(got.Problems[id].Doc)) != string(pyjson.EncodeIndent(p.Doc)) || got.Versions.Get(id) != want.Versions.Get(id) {
			t.Errorf("%s: %s differs", name, id)
		}
	}
}

// On the demo (38 changes): each change's state holds exactly the objects created so far;
// between two consecutive states only the objects the change names differ; each object a
// change modifies is, right before it, what its backup holds; the last state is the
// folder now.
func TestAtDemo(t *testing.T) {
	h := historyOf(t, demoDir)
	changes := h.Changes()
	if len(changes) != 38 {
		t.Fatalf("%d changes, want 38", len(changes))
	}
	var prev *model.Snapshot
	created := map[string]bool{}
	for i, e := range changes {
		snap := at(t, h, e.ID)
		for _, id := range e.Creation {
			created[id] = true
		}
		var have []string
		for id := range snap.Statements.All() {
			have = append(have, id)
		}
		for id := range snap.Problems {
			have = append(have, id)
		}
		if len(have) != len(created) || len(snap.Log) != i+1 || snap.Config.Last["l"] != e.ID || len(snap.Broken) != 0 {
			t.Errorf("%s: %d objects, want %d; %d log lines; broken %v", e.ID, len(have), len(created), len(snap.Log), snap.Broken)
		}
		touched := map[string]bool{}
		for _, id := range append(slices.Clone(e.Creation), e.Modification...) {
			touched[id] = true
		}
		if prev != nil {
			for id, v := range snap.Versions.All() {
				if !touched[id] && prev.Versions.Get(id) != v {
					t.Errorf("%s changed %s, which it does not name", e.ID, id)
				}
			}
			for _, id := range e.Modification {
				backup, err := os.ReadFile(filepath.Join(demoDir, HistoryDir, e.ID, id+".json"))
				if err != nil {
					t.Fatal(err)
				}
				if prev.Versions.Get(id) != model.Version(backup) {
					t.Errorf("right before %s, %s is not its backup", e.ID, id)
				}
			}
		}
		prev = snap
	}
	sameSnapshot(t, "l-038", prev, h.snap)
	for change, want := range map[string]map[string]string{
		"l-005": {"s-004": "validating"}, "l-006": {"s-004": "validating"}, "l-007": {"s-004": "false"},
		"l-011": {"s-008": "validating"}, "l-027": {"s-013": "validating", "s-012": "validating"},
		"l-028": {"s-013": "abandoned"}, "l-029": {"s-012": "validating", "s-014": "pending"},
		"l-036": {"s-016": "validating"}, "l-037": {"s-017": "pending", "s-014": "pending"},
		"l-020": {"p-003": "resolved", "p-001": "unresolved"},
	} {
		snap := at(t, h, change)
		for id, status := range want {
			var got string
			if st := snap.Statements.Get(id); st != nil {
				got = st.Status
			} else if p := snap.Problems[id]; p != nil {
				got = p.Status
			}
			if got != status {
				t.Errorf("%s right after %s is %q, want %q", id, change, got, status)
			}
		}
	}
}

// A missing backup is reported and the next version stands in; nothing fails.
func TestAtMissingBackup(t *testing.T) {
	dir := testutil.Copy(t, fixtureDir)
	if err := os.Remove(filepath.Join(dir, "history/l-005/s-007.json")); err != nil {
		t.Fatal(err)
	}
	h := historyOf(t, dir)
	s4 := at(t, h, "l-004")
	if st := s4.Statements.Get("s-007"); st.Status != "true" {
		t.Errorf("s-007 right after l-004 stands in as %s, want the file now (true)", st.Status)
	}
	want := []model.BrokenFile{{Path: "history/l-005/s-007.json", ID: "s-007", Reason: "the backup is missing"}}
	if !reflect.DeepEqual(s4.Broken, want) {
		t.Errorf("broken %v", s4.Broken)
	}
	changes := h.Activity()
	oc := changes[4].Objects[0] // l-005 modified s-007: its own backup is the one missing
	if oc.ID != "s-007" || oc.From != "" || oc.To != "true" || oc.Unknown != "history/l-005/s-007.json: the backup is missing" {
		t.Errorf("l-005: %+v", oc)
	}
}

// Undo writes a "deleted" list; the deleted object lives on in the undo's backup.
func TestHistoryThroughUndo(t *testing.T) {
	dir := testutil.Copy(t, fixtureDir)
	if _, err := Undo(dir, "l-006", Options{Actor: "human", Now: pinned}); err != nil { // l-007: p-001 open again
		t.Fatal(err)
	}
	if _, err := run(t, dir, "prob-wrapup-statement", skill.Args{"problem_id": "p-001", "claim": []string{"Alice is the spy"}, "purpose": "narrow it"}); err != nil { // l-008
		t.Fatal(err)
	}
	if _, err := Undo(dir, "l-008", Options{Actor: "human", Now: pinned}); err != nil { // l-009
		t.Fatal(err)
	}
	h := historyOf(t, dir)
	if st := at(t, h, "l-008").Statements.Get("s-008"); st == nil || st.Status != "pending" || st.Claim() != "Alice is the spy" {
		t.Errorf("s-008 right after l-008: %+v", st)
	}
	if at(t, h, "l-009").Statements.Get("s-008") != nil || at(t, h, "l-007").Statements.Get("s-008") != nil {
		t.Error("s-008 exists outside l-008")
	}
	if p := at(t, h, "l-007").Problems["p-001"]; p.Status != "unresolved" {
		t.Errorf("p-001 right after l-007: %s", p.Status)
	}
	changes := h.Activity()
	got := []string{}
	for _, c := range changes[6:] {
		var objs []string
		for _, oc := range c.Objects {
			objs = append(objs, oc.Action+" "+oc.ID+" "+oc.From+">"+oc.To)
		}
		got = append(got, c.ID+" "+c.Skill+" reverts="+c.Reverts+": "+strings.Join(objs, ", "))
	}
	want := []string{
		"l-007 undo reverts=l-006: modified p-001 resolved>unresolved",
		"l-008 prob-wrapup-statement reverts=: created s-008 >pending, modified p-001 unresolved>unresolved",
		"l-009 undo reverts=l-008: modified p-001 unresolved>unresolved, deleted s-008 pending>",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("activity\n got %q\nwant %q", got, want)
	}
}

// Goal: the UI scrubs through the log; rebuilding any state of the demo takes well
// under a millisecond once the backups are cached.
func BenchmarkAtDemo(b *testing.B) {
	snap, err := Load(demoDir)
	if err != nil {
		b.Fatal(err)
	}
	h := NewHistory(demoDir, snap)
	changes := h.Changes()
	i := 0
	for b.Loop() {
		if _, err := h.At(changes[i%len(changes)].ID); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

// Goal: the whole activity list of the demo (38 changes) in a few milliseconds.
func BenchmarkActivityDemo(b *testing.B) {
	snap, err := Load(demoDir)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		NewHistory(demoDir, snap).Activity()
	}
}

// A History for a newer snapshot shares the backups already read; a linked backup is
// not followed.
func TestHistoryWithAndLinks(t *testing.T) {
	dir := testutil.Copy(t, fixtureDir)
	h := historyOf(t, dir)
	at(t, h, "l-003") // reads history/l-006/p-001.json and history/l-004/s-007.json
	backup := filepath.Join(dir, "history/l-004/s-007.json")
	if err := os.Remove(backup); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(dir, "statement/s-007.json"), backup); err != nil {
		t.Fatal(err)
	}
	if st := at(t, h.With(h.snap), "l-003").Statements.Get("s-007"); st.Status != "pending" {
		t.Errorf("the shared cache was not used: s-007 is %s", st.Status)
	}
	fresh := historyOf(t, dir)
	s3 := at(t, fresh, "l-003")
	if len(s3.Broken) != 1 || s3.Broken[0].Reason != "the backup is not a regular file (links are not followed)" || s3.Statements.Get("s-007").Status != "validating" {
		t.Errorf("broken %v; s-007 %s", s3.Broken, s3.Statements.Get("s-007").Status)
	}
}

// At shares the snapshot's objects that no later change touched, lean statements as they
// are, instead of reading their files again; the others come from the backups.
func TestAtSharesWhatNoLaterChangeTouched(t *testing.T) {
	h := historyOf(t, demoDir)
	s := at(t, h, "l-036")
	shared, rebuilt := 0, 0
	for id, st := range s.Statements.All() {
		if st == h.snap.Statements.Get(id) {
			shared++
		} else {
			rebuilt++
		}
	}
	// What l-037 and l-038 touched is rebuilt from backups, the rest shared.
	if rebuilt == 0 || shared == 0 || shared+rebuilt != s.Statements.Len() {
		t.Fatalf("At(l-036): %d statements shared, %d rebuilt", shared, rebuilt)
	}
	for _, e := range h.snap.Log {
		if e.ID == "l-037" || e.ID == "l-038" {
			for _, id := range append(slices.Clone(e.Creation), e.Modification...) {
				if st := s.Statements.Get(id); st != nil && st == h.snap.Statements.Get(id) {
					t.Errorf("%s, touched by %s, is the snapshot's own", id, e.ID)
				}
			}
		}
	}
	last := at(t, h, h.snap.Log[len(h.snap.Log)-1].ID)
	for id, st := range h.snap.Statements.All() {
		if last.Statements.Get(id) != st {
			t.Errorf("At(last change): %s is not the snapshot's own", id)
		}
	}
}
