package store

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"referee/internal/testutil"
	"referee/model"
	"referee/model/pyjson"
)

// What is read back from the log's end to a recent change (a rewind's plan, an object
// after the change as diff asks, the change as show asks, the last n changes as log
// --last lists them) is what the log's tail says, for every change of the demo run, as
// it is, with a torn last line, without a trailing newline, after an undo, a branch save,
// a rewind and a branch switch, with an object deleted and then written back by hand, and
// with a change logged twice; with the whole window
// and with one of a few lines. Where the back read cannot be sure it declines, and the
// tail answers.
func TestRecentAsTheTail(t *testing.T) {
	for name, setup := range logSetups() {
		t.Run(name, func(t *testing.T) {
			dir := setup(t)
			changes := logIDs(t, dir)
			taken := 0
			for _, window := range []int{64 << 10, 5} {
				restore := SetLogWindow(window, 1<<20)
				taken += compareRecent(t, dir, changes)
				restore()
			}
			if taken == 0 {
				t.Error("no change was read back from the log's end")
			}
			tx := &tx{dir: dir, skill: "branch list"}
			if branch, _, err := tx.logEnd(); err != nil || branch != branchOf(ParseLog(read(t, dir, LogFile))) {
				t.Errorf("the line the folder is on: %q (%v), the whole log says %q", branch, err, branchOf(ParseLog(read(t, dir, LogFile))))
			}
			if name == "a change logged twice" {
				if h, _ := RecentHistory(dir, []string{"l-030"}, false, func() (*model.Snapshot, error) { return &model.Snapshot{}, nil }); h != nil {
					t.Error("a change logged twice is read back from its last line")
				}
			}
		})
	}
}

// logSetups are the demo run and the shapes a run's log takes: torn, without a trailing
// newline, after an undo, a branch save, a rewind and a switch, with an object deleted
// and then written back by hand, with a change logged twice, and with backups missing.
func logSetups() map[string]func(t *testing.T) string {
	plain := func(t *testing.T) string { return testutil.Copy(t, demoDir) }
	appendLog := func(t *testing.T, dir, s string) {
		f, err := os.OpenFile(filepath.Join(dir, LogFile), os.O_APPEND|os.O_WRONLY, 0)
		if err != nil {
			t.Fatal(err)
		}
		f.WriteString(s)
		f.Close()
	}
	nothing := func(ids ...string) string {
		var b strings.Builder
		for _, id := range ids {
			fmt.Fprintf(&b, `{"%s": {"creation": [], "modification": []}, "current": ["p-003", "s-017", "e-000"]}`+"\n", id)
		}
		return b.String()
	}
	setups := map[string]func(t *testing.T) string{
		"demo": plain,
		"torn last line": func(t *testing.T) string {
			dir := plain(t)
			appendLog(t, dir, "\n"+`{"l-900": {"creation": ["s-0`)
			return dir
		},
		"no trailing newline": func(t *testing.T) string {
			dir := plain(t)
			path := filepath.Join(dir, LogFile)
			data, _ := os.ReadFile(path)
			if err := os.WriteFile(path, []byte(strings.TrimSuffix(string(data), "\n")), 0o644); err != nil {
				t.Fatal(err)
			}
			return dir
		},
		"after a branch switch": func(t *testing.T) string {
			dir := plain(t)
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
			appendLog(t, dir, nothing("l-950", "l-951", "l-952", "l-953", "l-954", "l-955"))
			return dir
		},
		"deleted, then put back by hand": func(t *testing.T) string {
			dir := plain(t)
			data, err := os.ReadFile(filepath.Join(dir, "statement", "s-017.json"))
			if err != nil {
				t.Fatal(err)
			}
			if _, err := Undo(dir, "l-037", Options{Actor: "human", Now: pinned}); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, "statement", "s-017.json"), data, 0o644); err != nil {
				t.Fatal(err)
			}
			appendLog(t, dir, nothing("l-970", "l-971", "l-972")+
				`{"l-973": {"creation": [], "modification": ["s-017"]}, "current": ["p-003", "s-017", "e-000"]}`+"\n"+nothing("l-974"))
			return dir
		},
		"backups missing": func(t *testing.T) string {
			dir := plain(t)
			var b strings.Builder
			for i := range 40 {
				fmt.Fprintf(&b, `{"l-9%02d": {"creation": [], "modification": ["s-001"]}, "current": ["p-003", "s-017", "e-000"]}`+"\n", i)
			}
			appendLog(t, dir, b.String())
			return dir
		},
		"a change logged twice": func(t *testing.T) string {
			dir := plain(t)
			var again string
			for _, e := range ParseLog(read(t, dir, LogFile)) {
				if e.ID == "l-030" {
					again = e.Raw + "\n"
				}
			}
			appendLog(t, dir, nothing("l-960")+again+nothing("l-961", "l-962"))
			return dir
		},
	}
	return setups
}

// EachChange lists the log a window at a time as Activity lists the whole log, with
// windows of one change up to the whole log; a log it cannot be sure of (a change logged
// twice) it leaves to Activity, listing nothing.
func TestEachChangeAsActivity(t *testing.T) {
	for name, setup := range logSetups() {
		t.Run(name, func(t *testing.T) {
			dir := setup(t)
			whole, err := Load(dir)
			if err != nil {
				t.Fatal(err)
			}
			want := NewHistory(dir, whole).Activity()
			snap, err := LoadNoLog(dir)
			if err != nil {
				t.Fatal(err)
			}
			for _, window := range []int{1, 2, 3, 7, 16 << 10} {
				defer func(w int) { streamWindow = w }(streamWindow)
				streamWindow = window
				var got []Change
				ok, err := EachChange(dir, snap, func(c Change) error { got = append(got, c); return nil })
				if err != nil {
					t.Fatal(err)
				}
				if name == "a change logged twice" {
					if ok || got != nil {
						t.Errorf("window %d: a change logged twice is listed in windows (%v, %d changes)", window, ok, len(got))
					}
					continue
				}
				if !ok {
					t.Fatalf("window %d: not listed", window)
				}
				if !reflect.DeepEqual(got, want) {
					for i := range min(len(got), len(want)) {
						if !reflect.DeepEqual(got[i], want[i]) {
							t.Errorf("window %d, change %d:\n%+v\nwant %+v", window, i, got[i], want[i])
							break
						}
					}
					t.Errorf("window %d: %d changes, want %d", window, len(got), len(want))
				}
			}
		})
	}
}

// compareRecent compares, for each of changes, what is read back from the log's end with
// what the log's tail says, and returns how many changes were read back.
func compareRecent(t *testing.T, dir string, changes []string) (taken int) {
	t.Helper()
	plan := func(lid string) string {
		r, err := PlanRewind(dir, lid)
		if err != nil {
			return "error: " + err.Error()
		}
		r.At = ""
		for i := range r.Discarded {
			r.Discarded[i].Line = 0 // not counted when read back (Restore.Discarded)
		}
		return fmt.Sprintf("%+v", *r)
	}
	snap, err := LoadTail(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	tail := NewHistory(dir, snap)
	ids := map[string]bool{"s-999": true}
	tail.objects(func(id string) { ids[id] = true })
	for id := range snap.Statements.All() {
		ids[id] = true
	}
	loadNoLog := func() (*model.Snapshot, error) { return LoadNoLog(dir) }
	for _, c := range changes {
		if c == "" {
			continue
		}
		recentOff = true
		want := plan(c)
		recentOff = false
		if got := plan(c); got != want {
			t.Errorf("rewind to %s, read back:\n%s\nfrom the tail:\n%s", c, got, want)
		}
		ref, err := tail.Reaching(nil, []string{c})
		if err != nil {
			t.Fatal(err)
		}
		for _, lines := range []bool{true, false} {
			h, err := RecentHistory(dir, []string{c}, lines, loadNoLog)
			if err != nil {
				t.Fatal(err)
			}
			if h == nil {
				continue
			}
			taken++
			i, err := h.Index(c)
			j, err2 := ref.Index(c)
			if err != nil || err2 != nil {
				t.Fatalf("%s: %v %v", c, err, err2)
			}
			got, want := h.Changes()[i], ref.Changes()[j]
			if !lines {
				got.Line = want.Line
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("%s (lines %v) read back:\n%+v\nfrom the tail:\n%+v", c, lines, got, want)
			}
			for id := range ids {
				got, err := h.Object(id, c)
				if err != nil {
					t.Fatal(err)
				}
				want, _ := ref.Object(id, c)
				g, w := got, want
				g.Doc, w.Doc = pyjson.Value{}, pyjson.Value{}
				if string(pyjson.EncodeIndent(got.Doc)) != string(pyjson.EncodeIndent(want.Doc)) || !reflect.DeepEqual(g, w) {
					t.Errorf("%s after %s read back: %+v\nfrom the tail: %+v", id, c, got, want)
				}
			}
		}
	}
	// The last n changes, as log --last lists them (through Back when the tail holds
	// fewer).
	for n := 1; n <= len(changes)+1; n++ {
		ref := tail
		for len(ref.Changes()) < n && ref.Head().Offset > 0 {
			if ref, err = ref.Back(max(n-len(ref.Changes()), 1024)); err != nil {
				t.Fatal(err)
			}
		}
		want := ref.ActivityFrom(max(len(ref.Changes())-n, 0))
		for _, lines := range []bool{true, false} {
			h, err := LastChanges(dir, n, lines, loadNoLog)
			if err != nil {
				t.Fatal(err)
			}
			if h == nil {
				continue
			}
			got := h.ActivityFrom(max(len(h.Changes())-n, 0))
			if !lines && len(got) == len(want) {
				for i := range got {
					got[i].Line = want[i].Line
				}
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("the last %d changes (lines %v) read back:\n%+v\nfrom the tail:\n%+v", n, lines, got, want)
			}
		}
	}
	return taken
}

// The window's lines before a recent change are searched a megabyte at a time: a line
// naming the change again (or deleting an object) makes the read decline wherever the
// key falls, across the boundary between two reads too.
func TestRecentLooksAcrossReads(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, HistoryDir), 0o755); err != nil {
		t.Fatal(err)
	}
	filler := `{"l-001": {"creation": [], "modification": []}, "current": ["p-001", "s-001", "e-000"]}` + "\n"
	var head strings.Builder
	for head.Len() < 1<<20-4096 {
		head.WriteString(filler)
	}
	target := `{"l-900": {"creation": [], "modification": []}, "current": ["p-001", "s-001", "e-000"]}` + "\n"
	stop := func(line []byte) bool { return changeLine(line, "l-900") }
	for _, key := range []string{`"l-900"`, `"deleted"`} {
		for at := 1<<20 - 24; at <= 1<<20+24; at++ {
			// A line whose key starts at byte at of the file.
			prefix := `{"l-002": {"creation": [], "modification": []}, "note": ["`
			pad := at - head.Len() - len(prefix) - len(`", `)
			line := prefix + strings.Repeat("x", pad) + `", ` + key + `]}` + "\n"
			log := head.String() + line + filler + target
			if got := strings.Index(log, key); got != at {
				t.Fatalf("the key is at %d, not %d", got, at)
			}
			if err := os.WriteFile(filepath.Join(dir, LogFile), []byte(log), 0o644); err != nil {
				t.Fatal(err)
			}
			if _, ok := readRecent(dir, false, stop); ok {
				t.Errorf("%s at byte %d: read back", key, at)
			}
		}
	}
	// Without it, the change is read back.
	if err := os.WriteFile(filepath.Join(dir, LogFile), []byte(head.String()+filler+target), 0o644); err != nil {
		t.Fatal(err)
	}
	if r, ok := readRecent(dir, true, stop); !ok || len(r.entries) != 1 || r.entries[0].ID != "l-900" || r.entries[0].Line != strings.Count(head.String(), "\n")+2 {
		t.Errorf("read back: %v %+v", ok, r.entries)
	}
}
