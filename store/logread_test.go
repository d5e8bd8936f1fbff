package store

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"referee/model"
)

func logLine(i int) string {
	return fmt.Sprintf(`{"l-%03d": {"creation": [], "modification": ["s-001"]}, "current": ["p-001", "s-001", "e-000"]}`, i)
}

func appendLog(t *testing.T, dir, text string) {
	t.Helper()
	f, err := os.OpenFile(filepath.Join(dir, "history", "log.jsonl"), os.O_APPEND|os.O_WRONLY|os.O_CREATE, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(text); err != nil {
		t.Fatal(err)
	}
	f.Close()
}

func snapLogIDs(snap *model.Snapshot) string {
	var ids []string
	for _, e := range snap.Log {
		ids = append(ids, fmt.Sprintf("%d:%s", e.Line, e.ID))
	}
	return strings.Join(ids, " ")
}

// A reload parses what was appended to the log, and reads it all again only when it is
// another file, shorter, or rewritten.
func TestReloadReadsTheLogOnFromItsOffset(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "history"), 0o755)
	appendLog(t, dir, logLine(1)+"\n\n"+logLine(2)+"\n")
	snap, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if got := snapLogIDs(snap); got != "1:l-001 3:l-002" {
		t.Fatalf("loaded %q", got)
	}
	reload := func(want string) {
		t.Helper()
		next := Reload(dir, snap, []string{LogFile})
		if got := snapLogIDs(next); got != want {
			t.Fatalf("reloaded %q, want %q", got, want)
		}
		snap = next
	}
	first := &snap.Log[0]
	appendLog(t, dir, logLine(3)+"\n")
	reload("1:l-001 3:l-002 4:l-003")
	if &snap.Log[0] != first {
		t.Fatal("the entries read before were not kept")
	}
	// A line being written is listed, and read again once whole.
	appendLog(t, dir, logLine(4)[:20])
	reload("1:l-001 3:l-002 4:l-003 5:")
	if snap.Log[3].Err == "" {
		t.Fatalf("half a line parsed: %+v", snap.Log[3])
	}
	before := snap
	appendLog(t, dir, logLine(4)[20:]+"\n"+logLine(5)+"\n")
	reload("1:l-001 3:l-002 4:l-003 5:l-004 6:l-005")
	if snap.Log[3].Err != "" || before.Log[3].Err == "" || len(before.Log) != 4 {
		t.Fatalf("the whole line %+v, the older snapshot's %+v", snap.Log[3], before.Log[3])
	}
	// Rewritten in place, as long as before: read again.
	data, _ := os.ReadFile(filepath.Join(dir, "history", "log.jsonl"))
	os.WriteFile(filepath.Join(dir, "history", "log.jsonl"), []byte(strings.ReplaceAll(string(data), "l-00", "l-10")), 0o644)
	reload("1:l-101 3:l-102 4:l-103 5:l-104 6:l-105")
	// Shorter: read again.
	os.WriteFile(filepath.Join(dir, "history", "log.jsonl"), []byte(logLine(7)+"\n"), 0o644)
	reload("1:l-007")
	// Replaced by another file, longer: read again.
	tmp := filepath.Join(dir, "history", "new")
	os.WriteFile(tmp, []byte(logLine(8)+"\n"+logLine(9)+"\n"), 0o644)
	os.Rename(tmp, filepath.Join(dir, "history", "log.jsonl"))
	reload("1:l-008 2:l-009")
	// Two reloads from one snapshot: the second does not see the first's lines.
	base := snap
	appendLog(t, dir, logLine(10)+"\n")
	a := Reload(dir, base, []string{LogFile})
	b := Reload(dir, base, []string{LogFile})
	if snapLogIDs(a) != "1:l-008 2:l-009 3:l-010" || snapLogIDs(a) != snapLogIDs(b) || len(base.Log) != 2 {
		t.Fatalf("from one snapshot: %q and %q (base %q)", snapLogIDs(a), snapLogIDs(b), snapLogIDs(base))
	}
}

// A log line longer than MaxLogLine is a bad line saying so, not parsed.
func TestLogLineBound(t *testing.T) {
	long := `{"l-002": {"creation": [], "modification": [], "x": "` + strings.Repeat("a", MaxLogLine) + `"}}`
	got := ParseLog(logLine(1) + "\n" + long + "\n")
	if len(got) != 2 || got[0].Err != "" || !strings.Contains(got[1].Err, fmt.Sprintf("more than the %d a log line may have", MaxLogLine)) {
		t.Fatalf("entries %+v", slices.Collect(func(yield func(string) bool) {
			for _, e := range got {
				yield(e.Err)
			}
		}))
	}
}
