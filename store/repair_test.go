package store

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"referee/skill"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"

	"referee/internal/testutil"
)

// A change stopped after each of its file operations in turn (as a crash would stop it)
// leaves every object old or new, check explains what is left, and repair brings the
// folder to exactly the state before the change or after it: after it when every object
// was written, before it otherwise.

// crashScenario is one change made on a prepared folder.
type crashScenario struct {
	name   string
	setup  func(t *testing.T) string // a fresh folder to change
	change func(dir string) error
}

func openProblemFolder(t *testing.T) string {
	dir := testutil.Copy(t, fixtureDir)
	write(t, dir, "problem/p-001.json", read(t, fixtureDir, "history/l-003/p-001.json"))
	return dir
}

var crashScenarios = []crashScenario{
	{
		name:  "wrap-up: creates s-008, modifies p-001",
		setup: openProblemFolder,
		change: func(dir string) error {
			s, _ := skill.Lookup("prob-wrapup-statement")
			_, err := Run(dir, s, skill.Args{"problem_id": "p-001", "claim": []string{"Ivy is a Knave"}}, Options{Actor: "tester", Now: pinned})
			return err
		},
	},
	{
		name: "undo: restores p-001, deletes s-008",
		setup: func(t *testing.T) string {
			dir := openProblemFolder(t)
			s, _ := skill.Lookup("prob-wrapup-statement")
			if _, err := Run(dir, s, skill.Args{"problem_id": "p-001", "claim": []string{"Ivy is a Knave"}}, Options{Actor: "tester", Now: pinned}); err != nil {
				t.Fatal(err)
			}
			return dir
		},
		change: func(dir string) error {
			_, err := Undo(dir, "l-007", Options{Actor: "tester", Now: pinned})
			return err
		},
	},
	{
		name:  "init: no config before",
		setup: func(t *testing.T) string { return t.TempDir() },
		change: func(dir string) error {
			_, err := Init(dir, []string{"Find the spy"}, []string{"There is one spy"}, Options{Actor: "tester", Now: pinned})
			return err
		},
	},
}

// folderState is every file and folder under dir (folders as "/"), the lock file and
// the journal mark (referee's own bookkeeping) aside.
func folderState(t testing.TB, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		rel = filepath.ToSlash(rel)
		switch {
		case rel == "." || rel == LockFile || rel == journalMark:
		case d.IsDir() && !strings.Contains(rel, "/"):
			// problem/, statement/, history/…: made empty by whatever wrote first.
		case d.IsDir():
			out[rel+"/"] = ""
		default:
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			out[rel] = string(data)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// diffStates names the paths where two folder states differ.
func diffStates(a, b map[string]string) []string {
	var out []string
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			out = append(out, k)
		}
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return out
}

// crashAt runs the change and stops it for good after its k-th file operation (k = 0:
// never); it returns how many operations the change made.
func crashAt(t *testing.T, dir string, change func(string) error, k int) int {
	t.Helper()
	n := 0
	crashPoint = func() {
		n++
		if n == k {
			runtime.Goexit() // deferred unlocks run, as the kernel drops a dead process's lock
		}
	}
	defer func() { crashPoint = func() {} }()
	done := make(chan error, 1)
	go func() {
		defer close(done)
		done <- change(dir)
	}()
	if err, ok := <-done; ok && err != nil {
		t.Fatalf("the change failed: %v", err)
	} else if ok && k > 0 {
		t.Fatalf("the change finished although it was to stop after operation %d of %d", k, n)
	}
	return n
}

// objectFiles is the object files of a folder state.
func objectFiles(state map[string]string) map[string]string {
	out := map[string]string{}
	for k, v := range state {
		if _, _, ok := objectPath(k); ok {
			out[k] = v
		}
	}
	return out
}

func TestRepairAfterEveryCrashPoint(t *testing.T) {
	for _, sc := range crashScenarios {
		t.Run(sc.name, func(t *testing.T) {
			before := sc.setup(t)
			preState := folderState(t, before)
			n := crashAt(t, before, sc.change, 0)
			postState := folderState(t, before)
			preObjects, postObjects := objectFiles(preState), objectFiles(postState)
			if n < 8 {
				t.Fatalf("only %d crash points", n)
			}
			for k := 1; k <= n; k++ {
				dir := sc.setup(t)
				if d := diffStates(folderState(t, dir), preState); len(d) > 0 {
					t.Fatalf("setup is not repeatable: %v", d)
				}
				crashAt(t, dir, sc.change, k)
				// Every object file is its old or its new version, never a mix.
				crashed := folderState(t, dir)
				for path, data := range objectFiles(crashed) {
					if data != preObjects[path] && data != postObjects[path] {
						t.Errorf("point %d: %s is neither its old nor its new version:\n%s", k, path, data)
					}
				}
				for path := range preObjects {
					if _, ok := crashed[path]; !ok && postObjects[path] != "" {
						t.Errorf("point %d: %s is missing", k, path)
					}
				}
				// check explains whatever is left; repair puts it right without refusing.
				findings, err := Check(dir)
				if err != nil {
					t.Fatal(err)
				}
				var explained []string
				for _, f := range findings {
					explained = append(explained, f.String())
				}
				leftover := diffStates(crashed, preState)
				if len(diffStates(crashed, postState)) > 0 && len(leftover) > 0 && !slices.ContainsFunc(findings, isInterruption) {
					t.Errorf("point %d left %v, and check says only %q", k, leftover, explained)
				}
				rep, err := Repair(dir, false)
				if err != nil {
					t.Fatal(err)
				}
				if len(rep.Refused) > 0 {
					t.Errorf("point %d: repair refused %v", k, rep.Refused)
				}
				want, which := preState, "before"
				if k >= n-1 { // every object written: the change is completed
					want, which = postState, "after"
				}
				if d := diffStates(folderState(t, dir), want); len(d) > 0 {
					t.Errorf("point %d of %d: after repair, differs from the state %s the change in %v (repair did %v)", k, n, which, d, rep.Done)
				}
				if again, _ := Repair(dir, false); len(again.Done)+len(again.Refused) > 0 {
					t.Errorf("point %d: a second repair still finds %v %v", k, again.Done, again.Refused)
				}
			}
		})
	}
}

// isInterruption tells the findings that explain an interrupted change.
func isInterruption(f Finding) bool {
	return strings.Contains(f.Msg, "referee repair")
}

// The exact words of check and repair at the main crash points of a wrap-up change
// (l-007: creates s-008, modifies p-001). Its 12 file operations: the backup folder,
// temp files for config, backup, s-008 and p-001, a copy of the old config, the
// journal; then config, backup, s-008, p-001 renamed into place; the log line.
func TestRepairWords(t *testing.T) {
	sc := crashScenarios[0]
	const (
		configTemp = ".config.json.tmp-*: a temp file left by an interrupted write"
		journal    = "history/.pending-l-007.json: l-007: change l-007 (prob-wrapup-statement by tester) was interrupted "
	)
	cases := []struct {
		point              int
		check, dry, repair []string
	}{
		{
			point: 3, // the backup folder and two temp files
			check: []string{
				"warning: " + configTemp + " (referee repair would remove it)",
				"warning: history/l-007/: l-007: change l-007 left an empty backup folder and no log line (referee repair would remove the folder)",
				"warning: history/l-007/.p-001.json.tmp-*: a temp file left by an interrupted write (referee repair would remove it)",
			},
			dry: []string{
				configTemp + ": would remove it",
				"history/l-007/.p-001.json.tmp-*: a temp file left by an interrupted write: would remove it",
				"history/l-007/: l-007: change l-007 left an empty backup folder and no log line: would remove the folder",
			},
			repair: []string{
				configTemp + ": removed it",
				"history/l-007/.p-001.json.tmp-*: a temp file left by an interrupted write: removed it",
				"history/l-007/: l-007: change l-007 left an empty backup folder and no log line: removed the folder",
			},
		},
		{
			point: 8, // the journal and config.json written
			check: []string{
				"error: " + journal + "before its log line, having written none of its objects; every write is refused until referee repair is run (it would undo it: set config.json back, remove history/l-007/, delete the journal)",
				"warning: " + configTemp + " (referee repair would remove it)",
				"warning: history/l-007/.p-001.json.tmp-*: a temp file left by an interrupted write (referee repair would remove it)",
				"warning: problem/.p-001.json.tmp-*: a temp file left by an interrupted write (referee repair would remove it)",
				"warning: statement/.s-008.json.tmp-*: a temp file left by an interrupted write (referee repair would remove it)",
			},
		},
		{
			point: 10, // s-008 written, p-001 not
			check: []string{
				"error: " + journal + "before its log line, having written s-008 but not p-001; every write is refused until referee repair is run (it would undo it: remove statement/s-008.json, set config.json back, remove history/l-007/, delete the journal)",
				"warning: " + configTemp + " (referee repair would remove it)",
				"warning: problem/.p-001.json.tmp-*: a temp file left by an interrupted write (referee repair would remove it)",
			},
			dry: []string{
				configTemp + ": would remove it",
				"problem/.p-001.json.tmp-*: a temp file left by an interrupted write: would remove it",
				journal + "before its log line, having written s-008 but not p-001: would undo it: remove statement/s-008.json, set config.json back, remove history/l-007/, delete the journal",
			},
			repair: []string{
				configTemp + ": removed it",
				"problem/.p-001.json.tmp-*: a temp file left by an interrupted write: removed it",
				journal + "before its log line, having written s-008 but not p-001: undid it: removed statement/s-008.json, set config.json back, removed history/l-007/, deleted the journal",
			},
		},
		{
			point: 11, // every object written, no log line
			check: []string{
				"error: " + journal + "after writing every object (s-008, p-001) but before its log line; every write is refused until referee repair is run (it would add the line to history/log.jsonl)",
				"warning: " + configTemp + " (referee repair would remove it)",
			},
			repair: []string{
				configTemp + ": removed it",
				journal + "after writing every object (s-008, p-001) but before its log line: added the line to history/log.jsonl",
			},
		},
		{
			point: 12, // the log line written; the journal and config copy not yet removed
			check: []string{
				"error: history/.pending-l-007.json: l-007: the journal of change l-007 (prob-wrapup-statement by tester), which is complete (its line is in the log); every write is refused until referee repair is run (it would remove it)",
				"warning: " + configTemp + " (referee repair would remove it)",
			},
			repair: []string{
				configTemp + ": removed it",
				"history/.pending-l-007.json: l-007: the journal of change l-007 (prob-wrapup-statement by tester), which is complete (its line is in the log): removed it",
			},
		},
	}
	for _, c := range cases {
		dir := sc.setup(t)
		if n := crashAt(t, dir, sc.change, c.point); n != c.point {
			t.Fatalf("stopped after %d operations, want %d", n, c.point)
		}
		check, dry, did, refused := interruptionWords(t, dir)
		at := fmt.Sprintf("point %d: ", c.point)
		wantWords(t, at+"check", check, c.check...)
		if c.dry != nil {
			wantWords(t, at+"dry run", dry, c.dry...)
		}
		if c.repair != nil {
			wantWords(t, at+"repair", did, c.repair...)
		}
		if len(dry) != len(did) || len(refused) > 0 {
			t.Errorf("%sdry run %v, repair %v, refused %v", at, dry, did, refused)
		}
	}
}

var tempSuffix = regexp.MustCompile(`\.tmp-[0-9]+`)

// maskTemp replaces the random part of temp file names.
func maskTemp(s string) string { return tempSuffix.ReplaceAllString(s, ".tmp-*") }

// interruptionWords is what check says about interruptions, and what a dry run and a
// repair then say and refuse.
func interruptionWords(t *testing.T, dir string) (check, dry, did, refused []string) {
	t.Helper()
	findings, err := Check(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range findings {
		if isInterruption(f) {
			check = append(check, f.Severity+": "+maskTemp(f.String()))
		}
	}
	d, err := Repair(dir, true)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range d.Done {
		dry = append(dry, maskTemp(s.String()))
	}
	r, err := Repair(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range r.Done {
		did = append(did, maskTemp(s.String()))
	}
	for _, s := range r.Refused {
		refused = append(refused, maskTemp(s.String()))
	}
	return
}

func wantWords(t *testing.T, what string, got []string, want ...string) {
	t.Helper()
	if !slices.Equal(got, want) {
		t.Errorf("%s:\n%s\nwant\n%s", what, strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// wrappedUp is the open-problem folder after one wrap-up (l-007 creates s-008, modifies p-001).
func wrappedUp(t *testing.T) string {
	dir := openProblemFolder(t)
	if err := crashScenarios[0].change(dir); err != nil {
		t.Fatal(err)
	}
	return dir
}

// The agents' own tools keep no journal: a change of theirs that stopped after config
// and backups is recognised from the backups alone.
func TestRepairUnjournaledChange(t *testing.T) {
	t.Run("wrote nothing", func(t *testing.T) {
		dir := wrappedUp(t)
		write(t, dir, "config.json", strings.Replace(read(t, dir, "config.json"), `"l-007"`, `"l-008"`, 1))
		os.Mkdir(filepath.Join(dir, "history", "l-008"), 0o755)
		write(t, dir, "history/l-008/p-001.json", read(t, dir, "problem/p-001.json"))
		want := folderState(t, dir)
		check, dry, did, refused := interruptionWords(t, dir)
		wantWords(t, "check", check,
			`warning: config.json: the "l" counter is l-008, ahead of the log and of every file: an ID issued to a change that was interrupted before its log line (referee repair would set it back to l-007)`,
			"warning: history/l-008/: l-008: change l-008 left a backup but no log line, and did not write its object (p-001 still equals its backup) (referee repair would remove the folder)")
		wantWords(t, "dry run", dry,
			"history/l-008/: l-008: change l-008 left a backup but no log line, and did not write its object (p-001 still equals its backup): would remove the folder",
			`config.json: the "l" counter is l-008, ahead of the log and of every file: an ID issued to a change that was interrupted before its log line: would set it back to l-007`)
		wantWords(t, "repair", did,
			"history/l-008/: l-008: change l-008 left a backup but no log line, and did not write its object (p-001 still equals its backup): removed the folder",
			`config.json: the "l" counter is l-008, ahead of the log and of every file: an ID issued to a change that was interrupted before its log line: set it back to l-007`)
		wantWords(t, "refused", refused)
		delete(want, "history/l-008/")
		delete(want, "history/l-008/p-001.json")
		want["config.json"] = strings.Replace(want["config.json"], `"l-008"`, `"l-007"`, 1)
		if d := diffStates(folderState(t, dir), want); len(d) > 0 {
			t.Errorf("after repair: %v", d)
		}
	})
	t.Run("wrote an object", func(t *testing.T) {
		dir := wrappedUp(t)
		write(t, dir, "config.json", strings.Replace(read(t, dir, "config.json"), `"l-007"`, `"l-008"`, 1))
		os.Mkdir(filepath.Join(dir, "history", "l-008"), 0o755)
		write(t, dir, "history/l-008/p-001.json", read(t, dir, "problem/p-001.json"))
		write(t, dir, "problem/p-001.json", strings.Replace(read(t, dir, "problem/p-001.json"), "unresolved", "solved", 1))
		before := folderState(t, dir)
		check, dry, did, refused := interruptionWords(t, dir)
		const why = "history/l-008/: l-008: change l-008 left backups but no log line, and problem/p-001.json differs from its backup history/l-008/p-001.json: referee repair will not guess whether l-008 wrote it; compare the two, keep the right one, then delete history/l-008/"
		wantWords(t, "check", check, "error: "+why)
		wantWords(t, "dry run", dry)
		wantWords(t, "repair", did)
		wantWords(t, "refused", refused, why)
		if d := diffStates(folderState(t, dir), before); len(d) > 0 {
			t.Errorf("a refused repair changed %v", d)
		}
	})
}

// A journal whose object changed since the crash, or whose backup is gone: refused.
func TestRepairRefusesToGuess(t *testing.T) {
	t.Run("object changed since", func(t *testing.T) {
		dir := openProblemFolder(t)
		crashAt(t, dir, crashScenarios[0].change, 11) // every object written, no log line
		write(t, dir, "problem/p-001.json", read(t, dir, "problem/p-001.json")+"\n")
		os.Remove(filepath.Join(dir, maskTempGlob(t, dir, ".config.json.tmp-*")))
		before := folderState(t, dir)
		const why = "history/.pending-l-007.json: l-007: change l-007 (prob-wrapup-statement by tester) was interrupted before its log line, and p-001 has changed since (it is neither the version before the change nor the one it wrote): referee repair will not guess which version to keep; compare problem/p-001.json with history/l-007/p-001.json, keep the right one, then delete history/.pending-l-007.json"
		check, _, did, refused := interruptionWords(t, dir)
		wantWords(t, "check", check, "error: "+why)
		wantWords(t, "repair", did)
		wantWords(t, "refused", refused, why)
		if d := diffStates(folderState(t, dir), before); len(d) > 0 {
			t.Errorf("a refused repair changed %v", d)
		}
	})
	t.Run("backup gone", func(t *testing.T) {
		dir := crashScenarios[1].setup(t)
		// The undo (l-008) restores p-001, then removes s-008: stop between the two.
		n := crashAt(t, dir, crashScenarios[1].change, 11)
		if n != 11 {
			t.Fatal(n)
		}
		if read(t, dir, "problem/p-001.json") != read(t, dir, "history/l-007/p-001.json") {
			t.Fatal("p-001 is not restored yet at point 11")
		}
		os.Remove(filepath.Join(dir, "history", "l-008", "p-001.json"))
		_, _, _, refused := interruptionWords(t, dir)
		wantWords(t, "refused", refused,
			"history/.pending-l-008.json: l-008: change l-008 (undo by tester) was interrupted before its log line, having written p-001 but not s-008: its backup history/l-008/p-001.json is missing or changed, so referee repair cannot restore p-001; restore it by hand, then delete history/.pending-l-008.json")
	})
}

// maskTempGlob finds the one file matching a pattern in dir.
func maskTempGlob(t *testing.T, dir, pattern string) string {
	m, _ := filepath.Glob(filepath.Join(dir, pattern))
	if len(m) != 1 {
		t.Fatalf("%s: %v", pattern, m)
	}
	return filepath.Base(m[0])
}

// A change that came after an interrupted one: the interrupted one cannot get its log
// line in order, so it is undone (its objects were not touched since).
func TestRepairUndoesWhenALaterChangeExists(t *testing.T) {
	dir := openProblemFolder(t)
	crashAt(t, dir, crashScenarios[0].change, 11) // every object written, no log line
	// referee refuses to write while the journal is left; a writer that does not look
	// (an agent, an older referee) makes the later change: here, with the journal aside.
	journal := filepath.Join(dir, "history", ".pending-l-007.json")
	if err := os.Rename(journal, journal+".aside"); err != nil {
		t.Fatal(err)
	}
	abandon, _ := skill.Lookup("abandon")
	if _, err := Run(dir, abandon, skill.Args{"statement_id": "s-001"}, Options{Actor: "tester", Now: pinned}); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(journal+".aside", journal); err != nil {
		t.Fatal(err)
	}
	_, _, did, refused := interruptionWords(t, dir)
	wantWords(t, "repair", did,
		".config.json.tmp-*: a temp file left by an interrupted write: removed it",
		"history/.pending-l-007.json: l-007: change l-007 (prob-wrapup-statement by tester) was interrupted before its log line (and l-008 came after it, so it cannot be completed in order), having written s-008, p-001: undid it: removed statement/s-008.json, restored p-001 from history/l-007/p-001.json, removed history/l-007/, deleted the journal")
	wantWords(t, "refused", refused)
	if read(t, dir, "problem/p-001.json") != read(t, fixtureDir, "history/l-003/p-001.json") {
		t.Error("p-001 is not as before l-007")
	}
	if !strings.Contains(read(t, dir, "statement/s-001.json"), `"abandoned"`) {
		t.Error("the later change was lost")
	}
}

// A log line whose object is missing cannot be repaired; check and repair say so.
func TestRepairMissingObject(t *testing.T) {
	dir := wrappedUp(t)
	os.Remove(filepath.Join(dir, "statement", "s-008.json"))
	const why = "history/log.jsonl: l-007: l-007 created s-008 but statement/s-008.json does not exist (and no later change deleted it): referee repair cannot recreate it"
	check, _, did, refused := interruptionWords(t, dir)
	wantWords(t, "check", check, "warning: "+why)
	wantWords(t, "repair", did)
	wantWords(t, "refused", refused, why)

	dir = wrappedUp(t)
	write(t, dir, "problem/p-001.json", read(t, dir, "history/l-007/p-001.json"))
	check, _, _, _ = interruptionWords(t, dir)
	wantWords(t, "check", check, "warning: history/log.jsonl: l-007: l-007 modified p-001 but problem/p-001.json is still byte for byte its backup from before l-007: the change's write may be missing; referee repair cannot recreate it")
}

func TestRepairOnlyContentsFolders(t *testing.T) {
	dir := t.TempDir()
	_, err := Repair(dir, false)
	if err == nil || err.Error() != dir+" is not a contents folder (it has neither config.json nor history/)" {
		t.Errorf("%v", err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) > 0 {
		t.Errorf("repair wrote %v", entries)
	}
}
