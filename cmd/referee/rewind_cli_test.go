package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/gofrs/flock"

	"referee/internal/testutil"
)

// rewind, then undo: the objects are byte for byte as before; config.json differs only
// in its change counter.
func TestRewindUndoCLI(t *testing.T) {
	root := copyFixture(t)
	c := filepath.Join(root, "contents")
	before := testutil.Files(t, root)
	plan := "rewind to l-001 would be change l-007 (dry run: nothing was written)\n" +
		"  removes 1: s-007\n  sets back 1: p-001\n  counters p-001 s-007 e-000 -> p-001 s-006 e-000\n" +
		// What it does to the run: every status it changes, the changes it discards (the
		// agents' lines name no skill, actor or time), who is next.
		"status of the 2 objects it writes:\n" +
		"  p-001 solved (resolved) → open (unresolved), next agent-solve: becomes unsolved\n" +
		"  s-007 removed (was proved (true))\n" +
		"discards 5 changes (taken back with their work):\n" +
		"  l-002: s-007\n  l-003: p-001\n  l-004: s-007\n  l-005: s-007\n  l-006: p-001\n" +
		"and so: no other object changes phase or next agent\n" +
		"next: the orchestrator would run agent-solve on p-001 (now nothing to run)\n"
	referee(t, root, "", "rewind", "l-001", "--dry-run").want(t, 0, plan, "")
	undoPlan := "undo of l-006 would be change l-007 by agent (dry run: nothing was written)\n" +
		"  modified p-001\n" +
		"  note: l-006's log line records no versions (the agents' lines and older referee lines do not), so whether p-001 changed since cannot be checked\n" +
		"status of the 1 object it writes:\n" +
		"  p-001 solved (resolved) → open (unresolved), next agent-solve: becomes unsolved\n" +
		"discards 1 change (taken back with its work):\n  l-006: p-001\n" +
		"and so: no other object changes phase or next agent\n" +
		"next: the orchestrator would run agent-solve on p-001 (now nothing to run)\n"
	referee(t, root, "", "undo", "--dry-run").want(t, 0, undoPlan, "")
	sameTree(t, testutil.Files(t, root), before)
	referee(t, root, "", "rewind", "l-001", "--actor", "human").want(t, 0, "rewind to l-001: change l-007\n"+
		"  removes 1: s-007\n  sets back 1: p-001\n  counters p-001 s-007 e-000 -> p-001 s-006 e-000\n"+
		"take it back with: referee undo l-007\n", "")
	if !strings.Contains(readFile(t, filepath.Join(c, "history", "log.jsonl")), `"by": "human", "skill": "rewind", "deleted": ["s-007"], "rewind_to": "l-001"`) {
		t.Errorf("the rewind's log line:\n%s", readFile(t, filepath.Join(c, "history", "log.jsonl")))
	}
	referee(t, root, "", "undo").want(t, 0, "undo of l-007: change l-008: created s-007; modified p-001\n", "")
	after := testutil.Files(t, root)
	for path, data := range before {
		if strings.HasPrefix(path, "contents/problem/") || strings.HasPrefix(path, "contents/statement/") {
			if after[path] != data {
				t.Errorf("%s differs after rewind and undo", path)
			}
		}
	}
	if got, want := after["contents/config.json"], strings.Replace(before["contents/config.json"], `"l-006"`, `"l-008"`, 1); got != want {
		t.Errorf("config.json %s, want %s", got, want)
	}
	referee(t, root, "", "rewind", "l-1").want(t, 2, "", "referee: rewind: \"l-1\" is not a change ID (expected l-<letters><three digits>, e.g. l-007)\n")
	referee(t, root, "", "rewind", "l-099").want(t, 2, "", "referee: rewind: l-099 is not in history/log.jsonl\n")
	referee(t, root, "", "undo", "l-008", "l-007").want(t, 2, "", "referee: undo takes at most one change ID\n")
	// While another writer holds the lock: refused at once, exit 1, nothing written.
	l := flock.New(filepath.Join(c, "history", ".referee.lock"))
	if err := l.Lock(); err != nil {
		t.Fatal(err)
	}
	held := testutil.Files(t, root)
	busy := "is held); nothing was changed: try again when it is done\n"
	for _, args := range [][]string{{"rewind", "l-002"}, {"undo"}, {"branch", "save", "x"}, {"branch", "switch", "x"}} {
		o := referee(t, root, "", args...)
		if o.code != 1 || !strings.HasSuffix(o.stderr, busy) {
			t.Errorf("%v while locked: exit %d, %q", args, o.code, o.stderr)
		}
	}
	l.Unlock()
	sameTree(t, testutil.Files(t, root), held)
}

func TestBranchCLI(t *testing.T) {
	root := copyFixture(t)
	referee(t, root, "", "branch", "list").want(t, 0, "* main  (not saved; counters p-001 s-007 e-000)\nthe saved branches take 0 bytes\n", "")
	referee(t, root, "", "branch", "save", "fix").want(t, 0, "save branch fix: change l-007\n", "")
	referee(t, root, "", "rewind", "l-002")
	referee(t, root, "", "branch", "switch", "main", "--dry-run").want(t, 0,
		"switch from branch fix to main would be change l-009 (dry run: nothing was written)\n  changes 2: p-001, s-007\n"+
			"status of the 2 objects it writes:\n"+
			"  p-001 open (unresolved), next agent-solve → solved (resolved): becomes solved\n"+
			"  s-007 needs proof (pending), next agent-prove → proved (true)\n"+
			"and so: no other object changes phase or next agent\n"+
			"next: nothing for the orchestrator to run (now agent-solve on p-001)\n", "")
	referee(t, root, "", "branch", "switch", "main").want(t, 0,
		"switch from branch fix to main: change l-009\n  changes 2: p-001, s-007\ntake it back with: referee undo l-009\n", "")
	referee(t, root, "", "branch", "diff", "main", "fix").want(t, 0,
		"p-001  main: resolved  fix: unresolved\ns-007  main: true  fix: pending\n2 objects differ\n", "")
	o := referee(t, root, "", "branch", "list")
	if !strings.HasPrefix(o.stdout, "  fix  (saved 2026-") || !strings.Contains(o.stdout, "\n* main  (saved ") || o.code != 0 {
		t.Errorf("branch list: %d %q", o.code, o.stdout)
	}
	referee(t, root, "", "branch", "switch", "nope").want(t, 2, "", "referee: branch switch: there is no branch \"nope\" (branch list shows the saved ones)\n")
	referee(t, root, "", "branch", "save", "a/b").want(t, 2, "", "referee: branch: \"a/b\" is not a branch name (letters, digits, '.', '_' and '-', up to 64, not \"objects\")\n")
	referee(t, root, "", "check").want(t, 0, "0 errors, 0 warnings\n", "")
}
