package store

import (
	"errors"
	"referee/skill"
	"slices"
	"strings"
	"testing"
)

// Every multi-object change referee makes (skills, undo, rewind, branch save and switch),
// stopped after each of its file operations in turn: while a journal is left every write
// is refused naming referee repair and check fails; repair then finishes without a
// refusal and leaves the objects, config and log exactly as before the change or after
// it, never a mix.

func TestCrashLoopEveryChange(t *testing.T) {
	opts := Options{Actor: "tester", Now: pinned}
	run := func(dir, name string, args skill.Args) error {
		s, _ := skill.Lookup(name)
		_, err := Run(dir, s, args, opts)
		return err
	}
	wrapUp := func(dir string) error {
		return run(dir, "prob-wrapup-statement", skill.Args{"problem_id": "p-001", "claim": []string{"Ivy is a Knave"}})
	}
	lastID := func(dir string) string {
		entries := ParseLog(string(mustRead(dir, LogFile)))
		return entries[len(entries)-1].ID
	}
	must := func(t *testing.T, err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	scenarios := []crashScenario{
		{name: "skill prob-setup-subgoal", setup: openProblemFolder, change: func(dir string) error {
			return run(dir, "prob-setup-subgoal", skill.Args{"parent_problem_id": "p-001", "subproblem_objective": []string{"Find Ivy"},
				"subproblem_hypothesis": []string{"Ivy speaks once"}, "rationale": "smaller"})
		}},
		{name: "rewind", setup: openProblemFolder, change: func(dir string) error {
			_, err := Rewind(dir, "l-002", false, opts)
			return err
		}},
		{name: "undo of a rewind", setup: func(t *testing.T) string {
			dir := openProblemFolder(t)
			_, err := Rewind(dir, "l-002", false, opts)
			must(t, err)
			return dir
		}, change: func(dir string) error {
			_, err := Undo(dir, lastID(dir), opts)
			return err
		}},
		{name: "branch save (no object)", setup: openProblemFolder, change: func(dir string) error {
			_, err := BranchSave(dir, "fix", opts)
			return err
		}},
		{name: "undo of a branch save", setup: func(t *testing.T) string {
			dir := openProblemFolder(t)
			_, err := BranchSave(dir, "fix", opts)
			must(t, err)
			return dir
		}, change: func(dir string) error {
			_, err := Undo(dir, lastID(dir), opts)
			return err
		}},
		{name: "branch switch to an identical line", setup: func(t *testing.T) string {
			dir := openProblemFolder(t)
			_, err := BranchSave(dir, "fix", opts)
			must(t, err)
			return dir
		}, change: func(dir string) error {
			_, err := BranchSwitch(dir, "main", false, opts)
			return err
		}},
		{name: "branch switch", setup: func(t *testing.T) string {
			dir := openProblemFolder(t)
			_, err := BranchSave(dir, "fix", opts)
			must(t, err)
			must(t, wrapUp(dir))
			return dir
		}, change: func(dir string) error {
			_, err := BranchSwitch(dir, "main", false, opts)
			return err
		}},
	}
	// The state that must be old or new: objects, config.json and the log.
	visible := func(state map[string]string) map[string]string {
		out := objectFiles(state)
		out[ConfigFile] = state[ConfigFile]
		out[LogFile] = state[LogFile]
		return out
	}
	for _, sc := range scenarios {
		t.Run(sc.name, func(t *testing.T) {
			pre := visible(folderState(t, sc.setup(t)))
			probe := sc.setup(t)
			n := crashAt(t, probe, sc.change, 0)
			post := visible(folderState(t, probe))
			if n < 2 {
				t.Fatalf("only %d crash points", n)
			}
			for k := 1; k <= n; k++ {
				dir := sc.setup(t)
				crashAt(t, dir, sc.change, k)
				if j, listed := pendingJournal(dir), listedJournal(dir); j != listed {
					t.Errorf("point %d: a writer looks for %q by name, a listing of history/ finds %q", k, j, listed)
				}
				if j := pendingJournal(dir); j != "" {
					err := wrapUp(dir)
					var be *BusyError
					if !errors.As(err, &be) || !strings.Contains(err.Error(), "run `referee repair` first") || !strings.Contains(err.Error(), j) {
						t.Errorf("point %d: with %s left, a skill gave %v, want a refusal naming referee repair", k, j, err)
					}
					findings, err := Check(dir)
					must(t, err)
					if !slices.ContainsFunc(findings, func(f Finding) bool { return f.Severity == SeverityError && f.Path == j }) {
						t.Errorf("point %d: check reports no error for %s: %v", k, j, findings)
					}
				}
				rep, err := Repair(dir, false)
				must(t, err)
				if len(rep.Refused) > 0 {
					t.Fatalf("point %d of %d: repair refused %v", k, n, rep.Refused)
				}
				got := visible(folderState(t, dir))
				if dOld, dNew := diffStates(got, pre), diffStates(got, post); len(dOld) > 0 && len(dNew) > 0 {
					t.Errorf("point %d of %d: after repair, neither the old state (differs in %v) nor the new (differs in %v)", k, n, dOld, dNew)
				}
				if j := pendingJournal(dir); j != "" {
					t.Errorf("point %d: %s is left after repair", k, j)
				}
				// And the folder takes writes again.
				if err := wrapUp(dir); err != nil && strings.Contains(err.Error(), "referee repair") {
					t.Errorf("point %d: after repair, %v", k, err)
				}
			}
		})
	}
}
