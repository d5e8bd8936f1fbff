package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"referee/internal/testutil"
	"referee/model"
	"referee/store"
)

// log --last N lists what the whole listing ends with, reading only the end of a log
// longer than the workbench's window (64k lines) when N is in it, and further back when
// it is not.
func TestLogLast(t *testing.T) {
	root := copyFixture(t)
	pastTheWindow(t, root, "")
	all := referee(t, root, "", "log")
	if all.code != 0 {
		t.Fatalf("log: %d %s", all.code, all.stderr)
	}
	lines := strings.SplitAfter(all.stdout, "\n")
	lines = lines[:len(lines)-1]
	for _, n := range []int{3, 70004, 80000} {
		want := strings.Join(lines[max(len(lines)-n, 0):], "")
		if got := referee(t, root, "", "log", "--last", fmt.Sprint(n)); got.code != 0 || got.stdout != want {
			t.Errorf("--last %d: %d lines (%s), want %d", n, strings.Count(got.stdout, "\n"), got.stderr, strings.Count(want, "\n"))
		}
	}
	referee(t, root, "", "log", "--last", "2", "--follow").want(t, 2, "", "referee: --last: a number of changes, without --follow\n")
}

// pastTheWindow appends 70,000 changes touching nothing to the fixture's log after
// l-006, more than the workbench's window (64k lines), then tail (it may be a torn line).
func pastTheWindow(t *testing.T, root, tail string) {
	t.Helper()
	path := filepath.Join(root, "contents", "history", "log.jsonl")
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	lid := "l-006"
	for range 70000 {
		if lid, err = model.NextID(lid); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(f, `{"%s": {"creation": [], "modification": []}, "current": ["p-001", "s-007", "e-000"]}`+"\n", lid)
	}
	f.WriteString(tail)
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// referee log, listed a window of changes at a time, prints what listing the whole log
// printed: the same JSON array and the same lines, on the fixture and on the demo after
// an undo (a deletion) with a torn last line.
func TestLogStreamedAsListedWhole(t *testing.T) {
	demo := t.TempDir()
	testutil.CopyTree(t, testutil.DemoDir(), filepath.Join(demo, "contents"))
	referee(t, demo, "", "undo", "l-037").want(t, 0, "undo of l-037: change l-039: deleted s-017\n", "")
	f, err := os.OpenFile(filepath.Join(demo, "contents", "history", "log.jsonl"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"l-900": {"creat`)
	f.Close()
	for _, root := range []string{copyFixture(t), demo} {
		dir := filepath.Join(root, "contents")
		snap, err := store.Load(dir)
		if err != nil {
			t.Fatal(err)
		}
		changes := store.NewHistory(dir, snap).Activity()
		var want bytes.Buffer
		a := &app{stdout: &want}
		if err := a.writeJSON(changes); err != nil {
			t.Fatal(err)
		}
		referee(t, root, "", "log", "-o", "json").want(t, 0, want.String(), "")
		var lines strings.Builder
		for _, c := range changes {
			lines.WriteString(changeLine(c) + "\n")
		}
		referee(t, root, "", "log").want(t, 0, lines.String(), "")
		referee(t, root, "", "log", "--actor", "nobody").want(t, 0, "no changes\n", "")
		referee(t, root, "", "log", "--actor", "nobody", "-o", "json").want(t, 0, "[]\n", "")
	}
}
