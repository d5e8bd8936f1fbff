package store

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A kill during the write of a change's log line can leave the start of the line: the
// kernel copies a write page by page and stops at a fatal signal between two pages
// (TestKilledMidBranchSwitch met it once under load). Repair then completes the change
// with the whole line in the fragment's place, or, undoing the change, removes the
// fragment: the log never keeps half a line of a change repair finished.
func TestRepairFinishesAHalfWrittenLogLine(t *testing.T) {
	sc := crashScenarios[0]
	for _, c := range []struct {
		point  int
		logged bool // repair completes the change (its line is in the log after)
	}{
		{point: 11, logged: true},  // every object written, no log line
		{point: 10, logged: false}, // s-008 written, p-001 not: undone
	} {
		dir := sc.setup(t)
		if n := crashAt(t, dir, sc.change, c.point); n != c.point {
			t.Fatalf("stopped after %d operations, want %d", n, c.point)
		}
		logPath := filepath.Join(dir, LogFile)
		before, err := os.ReadFile(logPath)
		if err != nil {
			t.Fatal(err)
		}
		line := journalLine(t, dir, "l-007")
		half := line[:len(line)/2]
		if err := os.WriteFile(logPath, append(bytes.Clone(before), half...), 0o644); err != nil {
			t.Fatal(err)
		}
		rep, err := Repair(dir, false)
		if err != nil {
			t.Fatal(err)
		}
		if len(rep.Refused) > 0 {
			t.Fatalf("point %d: repair refused %v", c.point, rep.Refused)
		}
		after, err := os.ReadFile(logPath)
		if err != nil {
			t.Fatal(err)
		}
		want := string(before)
		if c.logged {
			want += line + "\n"
		}
		if string(after) != want {
			t.Fatalf("point %d: after repair (%v) the log ends\n%q\nwant\n%q", c.point, rep.Done,
				tail(string(after), 300), tail(want, 300))
		}
		if findings, err := Check(dir); err != nil || countErrors(findings, "") > 0 {
			t.Fatalf("point %d: check after repair: %v %v", c.point, findings, err)
		}
	}
}

// A fragment at the log's end that is not the start of the interrupted change's line
// (an agent's own write under way, say) is not repair's to cut: it stays as it is.
func TestRepairLeavesAFragmentThatIsNotTheChangesLine(t *testing.T) {
	sc := crashScenarios[0]
	dir := sc.setup(t)
	if n := crashAt(t, dir, sc.change, 11); n != 11 {
		t.Fatalf("stopped after %d operations, want 11", n)
	}
	logPath := filepath.Join(dir, LogFile)
	before, err := os.ReadFile(logPath)
	if err != nil {
		t.Fatal(err)
	}
	other := `{"id": "l-999", "skill"`
	if err := os.WriteFile(logPath, append(bytes.Clone(before), other...), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Repair(dir, false); err != nil {
		t.Fatal(err)
	}
	after, _ := os.ReadFile(logPath)
	if !strings.HasPrefix(string(after), string(before)+other) {
		t.Fatalf("the fragment was cut: the log ends %q", tail(string(after), 200))
	}
}

// journalLine is the log line the pending journal of change holds.
func journalLine(t *testing.T, dir, change string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(journalFile(change))))
	if err != nil {
		t.Fatal(err)
	}
	j, err := parseJournal(change, data)
	if err != nil {
		t.Fatal(err)
	}
	return j.line
}

func tail(s string, n int) string { return s[max(0, len(s)-n):] }
