package store

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"referee/internal/testutil"
	"referee/model"
	"referee/model/pyjson"
	"referee/skill"
)

// openFolder is the fixture with p-001 open again (as before l-003), ready for wrap-ups.
func openFolder(t testing.TB) string {
	dir := testutil.Copy(t, fixtureDir)
	write(t, dir, "problem/p-001.json", read(t, fixtureDir, "history/l-003/p-001.json"))
	return dir
}

// onceAt runs do at the first crash point (a file operation of a batch) where when
// holds, then never again; it restores crashPoint when the test ends.
func onceAt(t *testing.T, when func() bool, do func()) *bool {
	done := false
	crashPoint = func() {
		if !done && when() {
			done = true
			do()
		}
	}
	t.Cleanup(func() { crashPoint = func() {} })
	return &done
}

func TestRenameNoReplace(t *testing.T) {
	dir := t.TempDir()
	from, to := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	write(t, dir, "a", "new")
	write(t, dir, "b", "theirs")
	if err := renameNoReplace(from, to); !errors.Is(err, fs.ErrExist) {
		t.Fatalf("rename over an existing file: %v, want it refused as existing", err)
	}
	if read(t, dir, "b") != "theirs" || read(t, dir, "a") != "new" {
		t.Error("a refused rename changed a file")
	}
	os.Remove(to)
	if err := renameNoReplace(from, to); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(from); !errors.Is(err, fs.ErrNotExist) || read(t, dir, "b") != "new" {
		t.Error("the rename did not move the file")
	}
}

// A clash for a new object: the file appears after the change took its ID and before
// it publishes. The change takes the next free ID everywhere (the statement, the
// problem's progress, the log line) and leaves the other writer's file alone.
func TestCreatedObjectClashTakesTheNextID(t *testing.T) {
	for _, late := range []bool{false, true} {
		name := "before publishing"
		if late {
			name = "after config.json and the backups are in place"
		}
		t.Run(name, func(t *testing.T) {
			dir := openFolder(t)
			theirs := `{"id": "s-008", "written by": "an agent"}`
			config := read(t, dir, ConfigFile)
			onceAt(t, func() bool {
				if late { // the pre-check has passed: the rename itself must refuse
					return read(t, dir, ConfigFile) != config
				}
				return true
			}, func() { write(t, dir, "statement/s-008.json", theirs) })
			res := mustRun(t, dir, "prob-wrapup-statement", skill.Args{"problem_id": "p-001", "claim": []string{"c"}})
			if strings.Join(res.Created, ",") != "s-009" || res.Change != "l-007" {
				t.Fatalf("created %v in %s, want s-009 in l-007", res.Created, res.Change)
			}
			if read(t, dir, "statement/s-008.json") != theirs {
				t.Error("the other writer's s-008 was replaced")
			}
			if st := statement(t, dir, "s-009"); st == nil || st.Conclusion[0] != "c" {
				t.Error("s-009 not written")
			}
			p := read(t, dir, "problem/p-001.json")
			if !strings.Contains(p, `"(s-009) c"`) || strings.Contains(p, "s-008") {
				t.Errorf("p-001's progress does not name s-009:\n%s", p)
			}
			if !strings.HasPrefix(lastLogLine(t, dir), `{"l-007": {"creation": ["s-009"], "modification": ["p-001"]}, "current": ["p-001", "s-009", "e-000"]`) {
				t.Errorf("log line %s", lastLogLine(t, dir))
			}
			if c := configCounters([]byte(read(t, dir, ConfigFile))); c["s"] != "s-009" || c["l"] != "l-007" {
				t.Errorf("config %v", c)
			}
			if rep := planRepair(dir); len(rep.items) > 0 {
				t.Errorf("the retry left something behind: %v", rep.items[0])
			}
		})
	}
}

// Counters never move back: a skill that creates nothing keeps what another writer put
// in config.json after referee read it; IDs in use and the log's last line count too.
func TestCountersNeverMoveBack(t *testing.T) {
	agentConfig := "{\n    \"p\": \"p-003\",\n    \"s\": \"s-030\",\n    \"e\": \"e-000\",\n    \"l\": \"l-009\"\n}"
	t.Run("config.json moved on after the read", func(t *testing.T) {
		dir := openFolder(t)
		// l-007's check-confirm-proof creates nothing: it used to write back the s-007 it read.
		write(t, dir, "statement/s-007.json", read(t, fixtureDir, "history/l-005/s-007.json"))
		onceAt(t, func() bool { return true }, func() { write(t, dir, ConfigFile, agentConfig) })
		res := mustRun(t, dir, "check-confirm-proof", skill.Args{"statement_id": "s-007"})
		if res.Change != "l-007" {
			t.Errorf("change %s", res.Change)
		}
		if got := read(t, dir, ConfigFile); got != agentConfig {
			t.Errorf("config.json:\n%s\nwant the other writer's counters kept:\n%s", got, agentConfig)
		}
	})
	t.Run("config.json moved on before the change", func(t *testing.T) {
		dir := openFolder(t)
		write(t, dir, "statement/s-007.json", read(t, fixtureDir, "history/l-005/s-007.json"))
		write(t, dir, ConfigFile, agentConfig)
		if res := mustRun(t, dir, "check-confirm-proof", skill.Args{"statement_id": "s-007"}); res.Change != "l-010" {
			t.Errorf("change %s, want l-010", res.Change)
		}
		want := strings.Replace(agentConfig, "l-009", "l-010", 1)
		if got := read(t, dir, ConfigFile); got != want {
			t.Errorf("config.json:\n%s\nwant\n%s", got, want)
		}
	})
	t.Run("IDs in use and the log's last line", func(t *testing.T) {
		dir := openFolder(t)
		write(t, dir, "statement/s-009.json", read(t, dir, "statement/s-007.json"))
		f, _ := os.OpenFile(filepath.Join(dir, LogFile), os.O_APPEND|os.O_WRONLY, 0)
		f.WriteString(`{"l-008": {"creation": ["s-009"], "modification": []}, "current": ["p-001", "s-009", "e-000"]}` + "\n")
		f.Close()
		res := mustRun(t, dir, "prob-wrapup-statement", skill.Args{"problem_id": "p-001", "claim": []string{"c"}})
		if res.Change != "l-009" || res.Created[0] != "s-008" {
			t.Errorf("%s created %v, want l-009 creating s-008", res.Change, res.Created)
		}
		if c := configCounters([]byte(read(t, dir, ConfigFile))); c["s"] != "s-009" || c["l"] != "l-009" || c["p"] != "p-001" {
			t.Errorf("config %v, want s-009 (in use) and l-009", c)
		}
	})
	t.Run("a new ID another writer took meanwhile", func(t *testing.T) {
		dir := openFolder(t)
		taken := strings.Replace(read(t, dir, ConfigFile), "s-007", "s-008", 1)
		onceAt(t, func() bool { return true }, func() { write(t, dir, ConfigFile, taken) })
		res := mustRun(t, dir, "prob-wrapup-statement", skill.Args{"problem_id": "p-001", "claim": []string{"c"}})
		if res.Created[0] != "s-009" {
			t.Errorf("created %v, want s-009 (config.json says s-008 is taken)", res.Created)
		}
	})
}

// An object changed in place after the skill read it: the skill is applied again to the
// new version, so the other writer's progress entry is kept; if it keeps changing, the
// change stops with a conflict naming it, and nothing of it is written.
func TestStaleObjectIsReappliedOrRefused(t *testing.T) {
	agentVersion := func(t *testing.T, dir string, n int) string {
		doc, _ := pyjson.Parse([]byte(read(t, dir, "problem/p-001.json")))
		appendStr(&doc, "progresses", "agent entry "+string(rune('0'+n)))
		return string(pyjson.EncodeIndent(doc))
	}
	t.Run("reapplied", func(t *testing.T) {
		dir := openFolder(t)
		onceAt(t, func() bool { return true }, func() {
			writeInPlace(filepath.Join(dir, "problem/p-001.json"), []byte(agentVersion(t, dir, 1)), 2, 0)
		})
		res := mustRun(t, dir, "prob-wrapup-statement", skill.Args{"problem_id": "p-001", "claim": []string{"c"}})
		p := problemDoc(t, dir)
		if !slices.Equal(p.Progresses, []string{"agent entry 1", "(" + res.Created[0] + ") c"}) {
			t.Errorf("progresses %q, want the other writer's entry and then the skill's", p.Progresses)
		}
		if !strings.Contains(read(t, dir, "history/"+res.Change+"/p-001.json"), "agent entry 1") {
			t.Error("the backup is not the version the skill was applied to")
		}
	})
	t.Run("refused", func(t *testing.T) {
		dir := openFolder(t)
		// Once per attempt, while it prepares, the other writer adds an entry in place.
		n, attempt := 0, 0
		raceHook = func(event, _ string, _ []byte) {
			if event == "retry" {
				attempt++
			}
		}
		crashPoint = func() {
			if n == attempt {
				n++
				writeInPlace(filepath.Join(dir, "problem/p-001.json"), []byte(agentVersion(t, dir, n)), 1, 0)
			}
		}
		defer func() { crashPoint, raceHook = func() {}, nil }()
		before := testutil.Files(t, dir)
		_, err := run(t, dir, "prob-wrapup-statement", skill.Args{"problem_id": "p-001", "claim": []string{"c"}})
		var ce *ConflictError
		if !errors.As(err, &ce) || ce.Object != "p-001" {
			t.Fatalf("error %v, want a conflict naming p-001", err)
		}
		want := "p-001: another writer kept changing it while referee wrote (3 tries; the last: problem/p-001.json was changed by another writer after referee read it); nothing was written, try again"
		if err.Error() != want {
			t.Errorf("error\n%s\nwant\n%s", err, want)
		}
		after := testutil.Files(t, dir)
		for path, data := range before {
			if path != "problem/p-001.json" && after[path] != data {
				t.Errorf("%s changed", path)
			}
		}
		if len(after) != len(before) {
			t.Errorf("%d files, want %d: the attempts left files behind", len(after), len(before))
		}
		if n != 3 || problemDoc(t, dir).Progresses[2] != "agent entry 3" {
			t.Errorf("%d in-place writes; p-001 progresses %q", n, problemDoc(t, dir).Progresses)
		}
	})
}

// versionsKey is the "versions" key of a referee log line.
var versionsKey = regexp.MustCompile(`, "versions": \{[^{}]*\}`)

func problemDoc(t testing.TB, dir string) *model.Problem {
	doc, err := pyjson.Parse([]byte(read(t, dir, "problem/p-001.json")))
	if err != nil {
		t.Fatal(err)
	}
	return model.ProblemFrom(doc)
}

// agentsRewind is the agents' src/rewind.py rewind_to, step for step: config from the
// target's "current", delete what was created after it, restore each object modified
// after it from the backup of the first change after it that modified it, cut the log.
func agentsRewind(t *testing.T, dir, target string) {
	var after []model.LogEntry
	var current []string
	found := false
	for _, e := range ParseLog(read(t, dir, LogFile)) {
		if found {
			after = append(after, e)
		} else if e.ID == target {
			found, current = true, e.Current
		}
	}
	if !found {
		t.Fatalf("rewind: %s not in the log", target)
	}
	write(t, dir, ConfigFile, "{\n    \"p\": \""+current[0]+"\",\n    \"s\": \""+current[1]+"\",\n    \"e\": \""+current[2]+"\",\n    \"l\": \""+target+"\"\n}")
	restore := map[string]string{}
	var order []string
	for _, e := range after {
		for _, id := range e.Creation {
			os.Remove(filepath.Join(dir, objectFile(id)))
		}
		for _, id := range e.Modification {
			if _, ok := restore[id]; !ok {
				restore[id] = e.ID
				order = append(order, id)
			}
		}
	}
	for _, id := range order {
		if data, err := os.ReadFile(filepath.Join(dir, HistoryDir, restore[id], id+".json")); err == nil {
			write(t, dir, objectFile(id), string(data))
		}
	}
	lines := strings.SplitAfter(read(t, dir, LogFile), "\n")
	write(t, dir, LogFile, strings.Join(lines[:len(lines)-1-len(after)], ""))
	for _, e := range after {
		os.RemoveAll(filepath.Join(dir, HistoryDir, e.ID))
	}
}

// objectsOf is a folder's problem, statement and experience files.
func objectsOf(t testing.TB, dir string) map[string]string {
	out := map[string]string{}
	for path, data := range testutil.Files(t, dir) {
		if !strings.HasPrefix(path, HistoryDir+"/") && path != ConfigFile {
			out[path] = data
		}
	}
	return out
}

// Undo lists what it removes under modification too, so that the agents' rewind to any
// point across it restores the objects as they were there; it refuses (in the plan
// too, before y) when an object no longer holds the version the change wrote.
func TestUndoAndTheAgentsRewind(t *testing.T) {
	dir := openFolder(t)
	states := map[string]map[string]string{"l-006": objectsOf(t, dir)}
	wrap := mustRun(t, dir, "prob-wrapup-statement", skill.Args{"problem_id": "p-001", "claim": []string{"c"}}) // l-007: s-008
	states["l-007"] = objectsOf(t, dir)
	undo, err := Undo(dir, wrap.Change, Options{Actor: "human", Now: pinned}) // l-008: s-008 removed
	if err != nil {
		t.Fatal(err)
	}
	states["l-008"] = objectsOf(t, dir)
	// referee's own readers take s-008 as removed only, not modified too.
	snap, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	acts, _ := Activity(dir, snap)
	if c := acts[len(acts)-1]; c.ID != "l-008" || !slices.Equal(c.Modified, []string{"p-001"}) || !slices.Equal(c.Deleted, []string{"s-008"}) || len(c.Objects) != 2 {
		t.Errorf("activity of the undo: %s modified %v deleted %v, %d objects", c.ID, c.Modified, c.Deleted, len(c.Objects))
	}
	redo, err := Undo(dir, undo.Change, Options{Actor: "human", Now: pinned}) // l-009: s-008 back
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(redo.Created, ",") != "s-008" || strings.Join(redo.Modified, ",") != "p-001" {
		t.Errorf("undoing the undo: %+v", redo)
	}
	states["l-009"] = objectsOf(t, dir)
	if !maps.Equal(states["l-009"], states["l-007"]) {
		t.Error("undoing the undo does not give back l-007's folder")
	}
	if findings, err := Check(dir); err != nil {
		t.Fatal(err)
	} else {
		for _, f := range findings {
			if f.Severity == SeverityError {
				t.Errorf("check after undoing the undo: %v", f)
			}
		}
	}
	// Travelling in time through the undo and its undo sees s-008 come, go and come back.
	snap, err = Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	h := NewHistory(dir, snap)
	for change, want := range map[string]string{"l-006": "", "l-007": states["l-007"]["statement/s-008.json"], "l-008": "", "l-009": states["l-009"]["statement/s-008.json"]} {
		at, err := h.At(change)
		if err != nil {
			t.Fatal(err)
		}
		if (at.Versions.Get("s-008") == "") != (want == "") || (want != "" && at.Versions.Get("s-008") != model.Version([]byte(want))) {
			t.Errorf("at %s s-008 has version %q, want that of %q", change, at.Versions.Get("s-008"), want)
		}
	}
	for _, target := range []string{"l-008", "l-007", "l-006"} {
		rewound := testutil.Copy(t, dir)
		agentsRewind(t, rewound, target)
		got := objectsOf(t, rewound)
		if target == "l-006" {
			// rewind.py deletes what was created after the target, then restores what
			// was modified after it from backups: s-008, created in l-007 and backed up
			// by l-008, comes back. The agents' own runs do the same for an object
			// created and later modified; the rest must be as at l-006.
			delete(got, "statement/s-008.json")
		}
		if !maps.Equal(got, states[target]) {
			t.Errorf("the agents' rewind to %s does not give the folder as it was there", target)
		}
	}

	// An agent's later write in place, not in the log: undo refuses, in the plan too.
	s008 := read(t, dir, "statement/s-008.json")
	write(t, dir, "statement/s-008.json", strings.Replace(s008, `"progresses": []`, `"progresses": ["PROOF: by an agent"]`, 1))
	before := testutil.Files(t, dir)
	for _, do := range []func() error{
		func() error { _, err := PlanUndo(dir, "l-009", Options{}); return err },
		func() error { _, err := Undo(dir, "l-009", Options{}); return err },
	} {
		err := do()
		var ce *ConflictError
		if !errors.As(err, &ce) || ce.Object != "s-008" || !strings.HasPrefix(err.Error(), "s-008: changed after l-009 (l-009 wrote version ") ||
			!strings.HasSuffix(err.Error(), "and no change in the log since made it); undoing l-009 would drop that write, so nothing was written") {
			t.Errorf("undo of an object changed since: %v", err)
		}
	}
	if !maps.Equal(testutil.Files(t, dir), before) {
		t.Error("a refused undo wrote")
	}
	// A line without versions (the agents', an older referee's): the plan says the
	// check cannot be made.
	write(t, dir, "statement/s-008.json", s008)
	lines := strings.Split(read(t, dir, LogFile), "\n")
	lines[len(lines)-2] = versionsKey.ReplaceAllString(lines[len(lines)-2], "")
	write(t, dir, LogFile, strings.Join(lines, "\n"))
	plan, err := PlanUndo(dir, "l-009", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if want := "l-009's log line records no versions (the agents' lines and older referee lines do not), so whether s-008, p-001 changed since cannot be checked"; !slices.Contains(plan.Notes, want) {
		t.Errorf("plan notes %q", plan.Notes)
	}
}

// logFrom reads the log backwards, across its 64 KiB reads, to the same lines as the
// whole log gives.
func TestLogFromReadsBackwards(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	for i := 1; i <= 300; i++ {
		// Lines of varying length, so that lines straddle every read boundary.
		fmt.Fprintf(&b, `{"l-%03d": {"creation": [], "modification": ["s-001"]}, "pad": "%s"}`+"\n", i, strings.Repeat("x", 300+i*7))
		if i == 150 {
			b.WriteString("\n") // a blank line, as the agents' tools may leave
		}
	}
	b.WriteString(`{"l-120": {"creation": ["s-002"], "modification": []}}`) // a repeated ID, without a final newline
	write(t, dir, "log.jsonl", b.String())
	all := ParseLog(b.String())
	for _, id := range []string{"l-001", "l-002", "l-100", "l-120", "l-151", "l-299", "l-300", "l-301"} {
		got, err := logFrom(filepath.Join(dir, "log.jsonl"), id)
		if err != nil {
			t.Fatal(err)
		}
		from := -1
		for i, e := range all {
			if e.ID == id {
				from = i
			}
		}
		var want []string
		if from >= 0 {
			for _, e := range all[from:] {
				want = append(want, e.Raw)
			}
		}
		var gotRaw []string
		for _, e := range got {
			gotRaw = append(gotRaw, e.Raw)
		}
		if !slices.Equal(gotRaw, want) {
			t.Errorf("%s: %d lines from %.40q, want %d", id, len(gotRaw), gotRaw, len(want))
		}
	}
}

// A change undone because an object went stale after another of its objects was
// published, which the other writer then wrote over: that version stays, and the
// change is not made again (it could apply twice).
func TestUndoneInPartIsNotMadeAgain(t *testing.T) {
	dir := openFolder(t)
	theirs := `{"id": "s-008", "written over by": "an agent"}`
	onceAt(t, func() bool {
		_, err := os.Lstat(filepath.Join(dir, "statement/s-008.json"))
		return err == nil
	}, func() {
		write(t, dir, "statement/s-008.json", theirs)
		p := read(t, dir, "problem/p-001.json")
		write(t, dir, "problem/p-001.json", strings.Replace(p, `"progresses": []`, `"progresses": ["agent entry"]`, 1))
	})
	log := read(t, dir, LogFile)
	_, err := run(t, dir, "prob-wrapup-statement", skill.Args{"problem_id": "p-001", "claim": []string{"c"}})
	want := "problem/p-001.json was changed by another writer after referee read it; the change was undone, except statement/s-008.json, which another writer wrote over meanwhile (their version stays; it may hold part of this change); nothing was logged"
	if err == nil || err.Error() != want {
		t.Fatalf("error %v\nwant %s", err, want)
	}
	if read(t, dir, "statement/s-008.json") != theirs || read(t, dir, LogFile) != log || !strings.Contains(read(t, dir, "problem/p-001.json"), "agent entry") {
		t.Error("the other writer's versions did not stay, or a line was logged")
	}
	if _, err := os.Lstat(filepath.Join(dir, "history/l-007")); !errors.Is(err, fs.ErrNotExist) {
		t.Error("the backups were not removed")
	}
}
