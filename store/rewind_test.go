package store

import (
	"bytes"
	"errors"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/gofrs/flock"

	"referee/internal/testutil"
	"referee/model"
	"referee/model/pyjson"
	"referee/skill"
)

// tracked is every file a reader of the folder sees: objects and config.json, by path.
func tracked(t testing.TB, dir string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	for _, sub := range []string{ProblemDir, StatementDir, ExperienceDir} {
		entries, _ := os.ReadDir(filepath.Join(dir, sub))
		for _, e := range entries {
			data, err := os.ReadFile(filepath.Join(dir, sub, e.Name()))
			if err != nil {
				t.Fatal(err)
			}
			out[sub+"/"+e.Name()] = data
		}
	}
	data, err := os.ReadFile(filepath.Join(dir, ConfigFile))
	if err != nil {
		t.Fatal(err)
	}
	out[ConfigFile] = data
	return out
}

// withChangeCounter is config.json's bytes with its "l" counter set to lid: the one
// counter a rewind and its undo move on.
func withChangeCounter(t testing.TB, config []byte, lid string) []byte {
	t.Helper()
	doc, err := pyjson.Parse(config)
	if err != nil {
		t.Fatal(err)
	}
	doc.Set(model.KindChange, pyjson.Str(lid))
	return pyjson.EncodeIndent(doc)
}

func logIDs(t testing.TB, dir string) []string {
	t.Helper()
	var ids []string
	for _, e := range ParseLog(read(t, dir, LogFile)) {
		ids = append(ids, e.ID)
	}
	return ids
}

// agentsRead loads the folder the way the agents' scripts do: json.load of every
// object and of config.json, and of every log line, whose change key ("l-…") holds the
// creation and modification lists and whose "current" lists three IDs. Skipped without
// python3.
func agentsRead(t testing.TB, dir string) {
	t.Helper()
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 is not installed")
	}
	const script = `
import glob, json, os, sys
os.chdir(sys.argv[1])
n = 0
for pattern in ("problem/p-*.json", "statement/s-*.json", "experience/e-*.json", "config.json"):
    for path in glob.glob(pattern):
        with open(path) as f:
            obj = json.load(f)
        if pattern != "config.json":
            assert obj["id"] == os.path.basename(path)[:-5], path
        n += 1
with open("history/log.jsonl") as f:
    for line in f:
        entry = json.loads(line.strip())
        key = [k for k in entry if k.startswith("l-")][0]
        assert isinstance(entry[key].get("creation", []), list)
        assert isinstance(entry[key].get("modification", []), list)
        assert len(entry["current"]) == 3
print(n)
`
	out, err := exec.Command(py, "-c", script, dir).CombinedOutput()
	if err != nil {
		t.Fatalf("the agents' reader fails on %s: %v\n%s", dir, err, out)
	}
}

// TestRewindRoundTrips rewinds the fixture and the demo to each of their changes, checks
// the folder is what History.At shows for that change, then undoes the rewind and checks
// every object file is byte for byte as before and config.json differs only in its change
// counter.
func TestRewindRoundTrips(t *testing.T) {
	for _, src := range []string{fixtureDir, testutil.DemoDir()} {
		orig := testutil.Copy(t, src)
		changes := logIDs(t, orig)
		origHistory := NewHistory(orig, mustLoad(t, orig))
		for k, lid := range changes {
			dir := testutil.Copy(t, orig)
			before := tracked(t, dir)
			want, err := At(dir, lid)
			if err != nil {
				t.Fatal(err)
			}
			r, err := Rewind(dir, lid, false, Options{Actor: "human", Now: pinned})
			if k == len(changes)-1 {
				if err == nil || !strings.Contains(err.Error(), "nothing to do") {
					t.Errorf("%s: rewind to the last change: %v, want nothing to do", src, err)
				}
				continue
			}
			if err != nil {
				t.Fatalf("%s: rewind %s: %v", src, lid, err)
			}
			agentsRead(t, dir)
			now, err := Load(dir)
			if err != nil {
				t.Fatal(err)
			}
			if got, exp := slices.Sorted(now.Versions.Keys()), slices.Sorted(want.Versions.Keys()); !slices.Equal(got, exp) {
				t.Errorf("%s: after rewind to %s the objects are %v, want %v", src, lid, got, exp)
			}
			h := NewHistory(dir, now)
			for id := range want.Versions.All() {
				v, _ := h.Object(id, "")
				w, _ := origHistory.Object(id, lid)
				if !bytes.Equal(pyjson.EncodeIndent(v.Doc), pyjson.EncodeIndent(w.Doc)) {
					t.Errorf("%s: after rewind to %s, %s is not as it was", src, lid, id)
				}
			}
			cfg := now.Config
			current := want.Log[len(want.Log)-1].Current
			if got := []string{cfg.Last["p"], cfg.Last["s"], cfg.Last["e"]}; !slices.Equal(got, current) {
				t.Errorf("%s: rewind to %s: counters %v, want %v", src, lid, got, current)
			}
			if cfg.Last["l"] != r.Change {
				t.Errorf("%s: the change counter is %s, want the rewind's %s", src, cfg.Last["l"], r.Change)
			}
			last := ParseLog(read(t, dir, LogFile))
			line := last[len(last)-1]
			if line.ID != r.Change || line.Skill != "rewind" || !strings.Contains(line.Raw, `"rewind_to": "`+lid+`"`) {
				t.Errorf("%s: the rewind's log line is %s", src, line.Raw)
			}
			if !slices.Equal(line.Deleted, r.Removed) || !slices.Equal(line.Modification, append(slices.Clone(r.Modified), r.Removed...)) {
				t.Errorf("%s: the rewind's line lists %v/%v, want removed %v modified %v", src, line.Modification, line.Deleted, r.Removed, r.Modified)
			}
			if findings, err := Check(dir); err != nil || countErrors(findings, orig) > 0 {
				t.Errorf("%s: check after rewind to %s: %v %v", src, lid, findings, err)
			}
			u, err := Undo(dir, r.Change, Options{Actor: "human", Now: pinned})
			if err != nil {
				t.Fatalf("%s: undo the rewind to %s: %v", src, lid, err)
			}
			agentsRead(t, dir)
			after := tracked(t, dir)
			before[ConfigFile] = withChangeCounter(t, before[ConfigFile], u.Change)
			for path, data := range before {
				if !bytes.Equal(after[path], data) {
					t.Errorf("%s: rewind to %s then undo: %s differs:\n%s\nwant\n%s", src, lid, path, after[path], data)
				}
			}
			for path := range after {
				if _, ok := before[path]; !ok {
					t.Errorf("%s: rewind to %s then undo left %s", src, lid, path)
				}
			}
		}
	}
}

func mustLoad(t testing.TB, dir string) *model.Snapshot {
	t.Helper()
	snap, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	return snap
}

// countErrors counts the errors check finds in the log, the config and history/ (the
// objects as they were may have had faults of their own: the demo had a cycle once).
func countErrors(fs []Finding, _ string) int {
	n := 0
	for _, f := range fs {
		if f.Severity == SeverityError && (f.Path == LogFile || f.Path == ConfigFile || strings.HasPrefix(f.Path, HistoryDir)) {
			n++
		}
	}
	return n
}

// TestRewindRewind rewinds, rewinds past the rewind, and undoes both; time travel shows
// every step, and an object created again after a rewind removed it is read right.
func TestRewindTwiceAndRecreate(t *testing.T) {
	dir := testutil.Copy(t, fixtureDir)
	before := tracked(t, dir)
	r1, err := Rewind(dir, "l-001", false, Options{Now: pinned})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(r1.Removed, []string{"s-007"}) || !slices.Equal(r1.Modified, []string{"p-001"}) {
		t.Fatalf("rewind to l-001: %+v", r1)
	}
	if _, err := os.Stat(filepath.Join(dir, "statement/s-007.json")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("s-007 is still there: %v", err)
	}
	// Rewinding to l-006 (before the rewind) is the folder as it was.
	r2, err := Rewind(dir, "l-006", false, Options{Now: pinned})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(r2.Created, []string{"s-007"}) {
		t.Errorf("rewind to l-006 creates %v, want s-007", r2.Created)
	}
	got := tracked(t, dir)
	before[ConfigFile] = withChangeCounter(t, before[ConfigFile], r2.Change)
	if !maps.EqualFunc(got, before, bytes.Equal) {
		t.Errorf("rewinding past a rewind is not the folder before it")
	}
	// Time travel: s-007 is absent right after the first rewind, and there again after
	// the second.
	snap := mustLoad(t, dir)
	h := NewHistory(dir, snap)
	if v, _ := h.Object("s-007", r1.Change); v.Exists {
		t.Errorf("s-007 exists right after %s", r1.Change)
	}
	if v, _ := h.Object("s-007", r2.Change); !v.Exists {
		t.Errorf("s-007 is missing right after %s", r2.Change)
	}
	// Undo the second, then the first.
	if _, err := Undo(dir, r2.Change, Options{Now: pinned}); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "statement/s-007.json")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("undo of the second rewind leaves s-007: %v", err)
	}
	if _, err := Undo(dir, r1.Change, Options{Now: pinned}); err == nil {
		t.Errorf("undo of the first rewind after a later change touched its objects was accepted")
	}
}

// l-000 is refused with the reason, nothing written: a rewind is a change of its own, so
// the agents' current.py would read the emptied folder as solved (issue 21).
func TestRewindBeforeTheFirstChangeIsRefused(t *testing.T) {
	dir := testutil.Copy(t, fixtureDir)
	before := tracked(t, dir)
	for _, dry := range []bool{false, true} {
		_, err := Rewind(dir, "l-000", dry, Options{Now: pinned})
		var ie *skill.InputError
		if !errors.As(err, &ie) || !strings.Contains(err.Error(), "Puzzle Solved") || !strings.Contains(err.Error(), "nothing was changed") {
			t.Errorf("rewind to l-000 (dry run %v): %v", dry, err)
		}
	}
	if !maps.EqualFunc(tracked(t, dir), before, bytes.Equal) {
		t.Errorf("a refused rewind to l-000 changed the folder")
	}
}

func TestRewindDryRunWritesNothing(t *testing.T) {
	dir := testutil.Copy(t, fixtureDir)
	before := tracked(t, dir)
	logBefore := read(t, dir, LogFile)
	r, err := Rewind(dir, "l-002", true, Options{Now: pinned})
	if err != nil {
		t.Fatal(err)
	}
	if !r.DryRun || r.Change != "l-007" || !slices.Equal(r.Modified, []string{"p-001", "s-007"}) || len(r.Removed) != 0 {
		t.Errorf("dry run: %+v", r)
	}
	if !maps.EqualFunc(tracked(t, dir), before, bytes.Equal) || read(t, dir, LogFile) != logBefore {
		t.Errorf("the dry run wrote")
	}
	if s := r.Summary(); s != "sets back 2 (p-001, s-007)" {
		t.Errorf("summary %q", s)
	}
}

func TestRewindRefusesWhileLocked(t *testing.T) {
	dir := testutil.Copy(t, fixtureDir)
	l := flock.New(filepath.Join(dir, filepath.FromSlash(LockFile)))
	if err := l.Lock(); err != nil {
		t.Fatal(err)
	}
	defer l.Unlock()
	var busy *BusyError
	if _, err := Rewind(dir, "l-001", false, Options{}); !errors.As(err, &busy) || !strings.Contains(err.Error(), "is held") {
		t.Errorf("rewind while locked: %v", err)
	}
	if _, err := BranchSave(dir, "x", Options{}); !errors.As(err, &busy) {
		t.Errorf("branch save while locked: %v", err)
	}
	if err := Busy(dir, "undo"); !errors.As(err, &busy) {
		t.Errorf("Busy while locked: %v", err)
	}
	l.Unlock()
	if err := Busy(dir, "undo"); err != nil {
		t.Errorf("Busy unlocked: %v", err)
	}
	// An interrupted change's journal: refuse, and say to repair.
	if err := os.WriteFile(filepath.Join(dir, "history/.pending-l-007.json"), []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Rewind(dir, "l-001", false, Options{}); !errors.As(err, &busy) || !strings.Contains(err.Error(), "repair") {
		t.Errorf("rewind with a journal left: %v", err)
	}
}

func TestRewindRefusesLinks(t *testing.T) {
	dir := testutil.Copy(t, fixtureDir)
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "x.json"), []byte(`{"id":"s-007"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "statement/s-007.json")
	os.Remove(path)
	if err := os.Symlink(filepath.Join(outside, "x.json"), path); err != nil {
		t.Fatal(err)
	}
	if _, err := Rewind(dir, "l-001", false, Options{}); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("rewind over a link: %v", err)
	}
	if data, _ := os.ReadFile(filepath.Join(outside, "x.json")); string(data) != `{"id":"s-007"}` {
		t.Errorf("the file behind the link changed")
	}
}

// A rewind reads the log's tail when its target is in it: the plan is the one a whole
// read gives, for every change of the demo, whatever part of the log the tail holds.
func TestRewindPlanFromTheTail(t *testing.T) {
	dir := testutil.Copy(t, testutil.DemoDir())
	changes := logIDs(t, dir)
	plans := map[string]string{}
	plan := func(lid string) string {
		r, err := PlanRewind(dir, lid)
		if err != nil {
			return "error: " + err.Error()
		}
		r.At = ""
		// The discarded lines are known by their IDs and offsets: a plan read back from
		// the log's end does not count the lines before them, so their numbers say only
		// their order (nothing shows them).
		for i := range r.Discarded {
			r.Discarded[i].Line = 0
		}
		return fmt.Sprintf("%+v", *r)
	}
	for _, lid := range append(changes, beforeFirst) {
		plans[lid] = plan(lid)
	}
	for _, lines := range []int{1, 3, 10} {
		t.Run(fmt.Sprintf("tail of %d lines", lines), func(t *testing.T) {
			smallWindow(t, lines, 1<<20)
			for _, lid := range append(changes, beforeFirst) {
				if got := plan(lid); got != plans[lid] {
					t.Errorf("rewind to %s from a tail of %d lines:\n%s\nfrom the whole log:\n%s", lid, lines, got, plans[lid])
				}
			}
		})
	}
}
