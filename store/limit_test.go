package store

import (
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"referee/internal/testutil"
	"referee/model"
	"referee/model/pyjson"
	"referee/skill"
)

// What a reader refuses, no writer creates: a change that would make an object larger
// than the readers take is refused, naming the limit and the field.
func TestWriteRefusesAnObjectOverTheLimit(t *testing.T) {
	if writeLimit != MaxObjectSize {
		t.Fatalf("the write limit %d is not the readers' %d", writeLimit, MaxObjectSize)
	}
	writeLimit = 1 << 20
	defer func() { writeLimit = MaxObjectSize }()
	dir := openProblemFolder(t)
	wrap, _ := skill.Lookup("prob-wrapup-statement")
	opts := Options{Actor: "tester", Now: pinned}
	claim := strings.Repeat("Ivy is a Knave. ", 40<<10) // 640 KiB: p-001 takes it once, not twice
	if _, err := Run(dir, wrap, skill.Args{"problem_id": "p-001", "claim": []string{claim}}, opts); err != nil {
		t.Fatal(err)
	}
	before := folderState(t, dir)
	_, err := Run(dir, wrap, skill.Args{"problem_id": "p-001", "claim": []string{claim + "again"}}, opts)
	if err == nil || !strings.Contains(err.Error(), "prob-wrapup-statement: p-001 would be ") ||
		!strings.Contains(err.Error(), "over the 1 MiB (1048576 bytes) an object file may have; its largest field is progresses[1] (") {
		t.Fatalf("a change past the limit: %v", err)
	}
	if d := diffStates(folderState(t, dir), before); len(d) > 0 {
		t.Errorf("a refused change wrote %v", d)
	}
}

// A 2 GiB object (a sparse file) is refused from its size by every path that would
// read it, without reading it: what is allocated stays far below its size.
func TestHugeObjectRefusedInBoundedMemory(t *testing.T) {
	dir := openProblemFolder(t)
	huge := filepath.Join(dir, "statement", "s-002.json")
	if err := os.Truncate(huge, 2<<30); err != nil {
		t.Fatal(err)
	}
	why := "statement/s-002.json: is 2147483648 bytes, more than the 67108864 an object file may have"
	opts := Options{Actor: "tester", Now: pinned}
	prove, _ := skill.Lookup("state-complete-proof")
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	allocated := ms.TotalAlloc
	for _, c := range []struct {
		name string
		do   func() error
	}{
		{"skill", func() error {
			_, err := Run(dir, prove, skill.Args{"statement_id": "s-002", "proof_text": "It holds. QED.", "strategy": "direct"}, opts)
			return err
		}},
		{"branch save", func() error { _, err := BranchSave(dir, "fix", opts); return err }},
		// A rewind to l-001 would remove s-007 (created by l-002): made huge below.
		{"rewind", func() error { _, err := Rewind(dir, "l-001", false, opts); return err }},
		{"rewind --dry-run", func() error { _, err := Rewind(dir, "l-001", true, opts); return err }},
	} {
		if c.name == "rewind" {
			if err := os.Truncate(filepath.Join(dir, "statement", "s-007.json"), 2<<30); err != nil {
				t.Fatal(err)
			}
			why = strings.Replace(why, "s-002", "s-007", 1)
		}
		if err := c.do(); err == nil || !strings.Contains(err.Error(), why) {
			t.Errorf("%s: %v, want %q", c.name, err, why)
		}
	}
	snap, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(snap.Broken) != 2 || !strings.Contains(snap.Broken[0].Reason, "is 2147483648 bytes") || !strings.Contains(snap.Broken[1].Reason, "is 2147483648 bytes") {
		t.Errorf("load: %+v", snap.Broken)
	}
	findings, err := Check(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(findings, func(f Finding) bool {
		return f.Severity == SeverityError && f.Path == "statement/s-002.json" && strings.Contains(f.Msg, "is 2147483648 bytes")
	}) {
		t.Errorf("check: %v", findings)
	}
	runtime.ReadMemStats(&ms)
	if got := ms.TotalAlloc - allocated; got > 100<<20 {
		t.Errorf("refusing a 2 GiB object allocated %d MB", got>>20)
	}
}

// undo reads the log backwards from its end: a 16 MB last line is copied a few times,
// not once per 64 KB read (its length squared over two: gigabytes).
func TestUndoReadsALongLastLineOnce(t *testing.T) {
	dir := testutil.Copy(t, fixtureDir)
	f, err := os.OpenFile(filepath.Join(dir, LogFile), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"l-007": {"creation": [], "modification": []}, "by": "` + strings.Repeat("x", 16<<20) + `"}` + "\n")
	f.Close()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	allocated := ms.TotalAlloc
	entries, err := logFrom(filepath.Join(dir, LogFile), "l-006")
	if err != nil {
		t.Fatal(err)
	}
	runtime.ReadMemStats(&ms)
	if len(entries) != 2 || entries[0].ID != "l-006" || entries[1].ID != "l-007" {
		t.Errorf("the log from l-006: %d lines", len(entries))
	}
	if got := ms.TotalAlloc - allocated; got > 200<<20 {
		t.Errorf("reading back over a 16 MB line allocated %d MB", got>>20)
	}
}

// One validator for premises: what check reports, the skills refuse.
func TestSkillsRefusePremisesCheckReports(t *testing.T) {
	dir := openProblemFolder(t)
	wrap, _ := skill.Lookup("prob-wrapup-statement")
	opts := Options{Actor: "tester", Now: pinned}
	for _, bad := range []string{"(s-001/../../x) foo", "(s-../x) y", "(p-) z"} {
		before := folderState(t, dir)
		_, err := Run(dir, wrap, skill.Args{"problem_id": "p-001", "claim": []string{"Ivy is a Knave"}, "premises": []string{"(s-001) ok", bad}}, opts)
		m := model.BadRefPrefix(bad)
		want := `prob-wrapup-statement: premise 2 starts like a reference, but "` + m + `" is not an ID`
		if m == "" || err == nil || !strings.HasPrefix(err.Error(), want) {
			t.Errorf("%q: %v, want %q", bad, err, want)
		}
		if d := diffStates(folderState(t, dir), before); len(d) > 0 {
			t.Errorf("%q: a refused change wrote %v", bad, d)
		}
	}
	// check reports the same item, written by hand (as an agent's script may).
	doc := model.NewStatement("s-007", "normal", []string{"x"}, []string{"(s-001/../../x) foo"}, "pending")
	write(t, dir, "statement/s-007.json", string(pyjson.EncodeIndent(doc)))
	findings, err := Check(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(findings, func(f Finding) bool {
		return f.Msg == `hypothesis item 1 starts like a reference, but "(s-001/../../x)" is not an ID`
	}) {
		t.Errorf("check: %v", findings)
	}
}
