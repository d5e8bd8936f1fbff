package live

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"referee/internal/testutil"
	"referee/store"
)

// openFeed copies the demo, watches it and loads it: the feed and the head frame's tree.
func openFeed(t *testing.T) (string, *Feed, *Forest) {
	t.Helper()
	dir := testutil.Demo(t)
	feed, err := Watch(dir, store.WatchOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = feed.Close() })
	fr := ReloadAll(dir)
	if fr.LoadErr != nil || !fr.Full || fr.Forest == nil || fr.Forest.Snapshot() != fr.Snap || fr.Forest.Graph() != fr.Graph {
		t.Fatalf("ReloadAll: %+v", fr)
	}
	return dir, feed, fr.Forest
}

// next runs Next the way the tui does, in a goroutine, for at most 5 s.
func next(t *testing.T, feed *Feed, head *Forest) Frame {
	t.Helper()
	got := make(chan Frame, 1)
	go func() { got <- feed.Next(head) }()
	select {
	case fr := <-got:
		return fr
	case <-time.After(5 * time.Second):
		t.Fatal("no frame within 5 s")
	}
	return Frame{}
}

func edit(t *testing.T, dir, rel, old, new string) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(rel))
	b, err := os.ReadFile(p)
	if err != nil || !strings.Contains(string(b), old) {
		t.Fatalf("%s has no %q (%v)", rel, old, err)
	}
	if err := os.WriteFile(p, []byte(strings.Replace(string(b), old, new, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
}

// An agent's status write comes as one frame: the file read again from the head, the
// graph the one a full derivation gives, the tree the head's shape; the head itself is
// not changed. Two writes in one batch come as one frame naming both.
func TestNextReadsTheBatchFromTheHead(t *testing.T) {
	dir, feed, head := openFeed(t)
	was := head.Snapshot().Statements.Get("s-017").Status
	edit(t, dir, "statement/s-017.json", `"pending"`, `"abandoned"`)
	fr := next(t, feed, head)
	if fr.Snap == nil || fr.Full || fr.Closed || fr.LoadErr != nil || !reflect.DeepEqual(fr.Paths, []string{"statement/s-017.json"}) {
		t.Fatalf("frame: %+v", fr)
	}
	if got := fr.Snap.Statements.Get("s-017").Status; got != "abandoned" || head.Snapshot().Statements.Get("s-017").Status != was {
		t.Fatalf("s-017 is %q in the frame, %q in the head (was %q)", got, head.Snapshot().Statements.Get("s-017").Status, was)
	}
	wantG, _ := Derive(fr.Snap)
	if !fr.Forest.SameShape(head) || !reflect.DeepEqual(fr.Graph.Plain(), wantG.Plain()) || fr.Forest.Snapshot() != fr.Snap {
		t.Fatal("a status write rebuilt the tree, or the graph is not the derived one")
	}
	if ids := ChangedIDs(fr.Paths); !reflect.DeepEqual(ids, []string{"s-017"}) {
		t.Fatalf("changed %v", ids)
	}
}

// A batch of files that are not part of a snapshot (a temporary file) brings no
// snapshot; a closed watcher ends the chain.
func TestNextWithoutSnapshotAndClosed(t *testing.T) {
	dir, feed, head := openFeed(t)
	if err := os.WriteFile(filepath.Join(dir, "statement", "s-017.json.tmp"), []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}
	if fr := next(t, feed, head); fr.Snap != nil || fr.Forest != nil || fr.Closed {
		t.Fatalf("a temporary file brought %+v", fr)
	}
	_ = feed.Close()
	if fr := next(t, feed, head); !fr.Closed {
		t.Fatalf("after Close: %+v", fr)
	}
	if feed.Wait() {
		t.Fatal("Wait after Close says the watcher runs")
	}
}

// Reload is what Next makes of a batch, without a watcher.
func TestReloadIsNextWithoutTheWatcher(t *testing.T) {
	dir := testutil.Demo(t)
	head := ReloadAll(dir).Forest
	edit(t, dir, "statement/s-004.json", `"preliminaries": []`, `"preliminaries": ["s-017"]`)
	fr := Reload(dir, head, []string{"statement/s-004.json", "statement/s-004.json.tmp"})
	wantG, wantF := Derive(fr.Snap)
	if !reflect.DeepEqual(fr.Paths, []string{"statement/s-004.json"}) || fr.Forest.SameShape(head) ||
		!reflect.DeepEqual(fr.Graph.Plain(), wantG.Plain()) || !reflect.DeepEqual(fr.Forest, wantF) {
		t.Fatalf("a new sub-statement: paths %v, same shape %v", fr.Paths, fr.Forest.SameShape(head))
	}
}

// Load derives the tree while config.json and the log's tail are read: its frame is
// LoadTail's snapshot with Derive's tree, and a config.json found broken after the
// derivation is still a row of the tree's broken group.
func TestLoadDerivesBesideTheLogAndKeepsLateBrokenFiles(t *testing.T) {
	dir := testutil.Demo(t)
	rows := func(f *Forest) []string {
		var out []string
		for _, r := range f.Flatten(map[string]bool{}) {
			out = append(out, r.Path+" "+r.Label)
		}
		return out
	}
	check := func(t *testing.T, wantBroken bool) {
		fr := Load(dir, nil, nil)
		if fr.LoadErr != nil || fr.Forest.Snapshot() != fr.Snap || fr.Forest.Graph() != fr.Graph {
			t.Fatalf("Load: %+v", fr)
		}
		snap, err := store.LoadTail(dir, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(fr.Snap.Log, snap.Log) || fr.Snap.LogHead != snap.LogHead ||
			!reflect.DeepEqual(fr.Snap.Config, snap.Config) || !reflect.DeepEqual(fr.Snap.Broken, snap.Broken) {
			t.Fatalf("Load's snapshot differs from LoadTail's: log %d/%d lines, broken %v / %v",
				len(fr.Snap.Log), len(snap.Log), fr.Snap.Broken, snap.Broken)
		}
		_, f := Derive(snap)
		if got, want := rows(fr.Forest), rows(f); !reflect.DeepEqual(got, want) {
			t.Fatalf("rows:\n%v\nwant\n%v", got, want)
		}
		if got := strings.Contains(strings.Join(rows(fr.Forest), "\n"), store.ConfigFile); got != wantBroken {
			t.Fatalf("config.json among the rows: %v, want %v: %v", got, wantBroken, rows(fr.Forest))
		}
		if len(fr.Snap.Log) == 0 {
			t.Fatal("Load read no log line")
		}
	}
	t.Run("whole", func(t *testing.T) { check(t, false) })
	if err := os.WriteFile(filepath.Join(dir, store.ConfigFile), []byte("{not json"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Run("broken config", func(t *testing.T) { check(t, true) })
}
