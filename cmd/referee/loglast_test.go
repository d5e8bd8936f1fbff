package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"referee/model"
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
