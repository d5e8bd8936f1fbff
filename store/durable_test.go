package store

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// Power loss can keep any subset of what was not fsynced, so a change makes its files
// durable in rounds, each before the next file operation that depends on it (batch.go):
// the temp files' and the journal's bytes before the journal has its name; the journal's
// name before config.json is replaced; config.json's and the backups' names before an
// object is replaced; the objects' names before the log line. The rounds of a wrap-up
// (creates s-008, modifies p-001), between its 12 file operations (see TestRepairWords):
func TestDurableRounds(t *testing.T) {
	dir := crashScenarios[0].setup(t)
	var events []string
	ops := 0
	crashPoint = func() { ops++ }
	syncPoint = func(paths []string) {
		var rels []string
		for _, p := range paths {
			rel, err := filepath.Rel(dir, p)
			if err != nil {
				t.Fatal(err)
			}
			rels = append(rels, maskTemp(filepath.ToSlash(rel)))
		}
		slices.Sort(rels)
		events = append(events, fmt.Sprintf("after %d: %s", ops, strings.Join(rels, " ")))
	}
	defer func() { crashPoint, syncPoint = func() {}, func([]string) {} }()
	if err := crashScenarios[0].change(dir); err != nil {
		t.Fatal(err)
	}
	want := []string{
		// 1 the backup folder, 2–5 temp files (config, backup of p-001, s-008, p-001),
		// 6 the config copy (only for undoing in this process: never fsynced).
		"after 6: .config.json.tmp-* history/..journal-mark.tmp-* history/..pending-l-007.json.tmp-* history/l-007/.p-001.json.tmp-* problem/.p-001.json.tmp-* statement/.s-008.json.tmp-*",
		// 7 the journal renamed into place.
		"after 7: history",
		// 8 config.json, 9 the backup renamed into place.
		"after 9: . history/l-007",
		// 10 s-008, 11 p-001 renamed into place; 12 the log line (appended and fsynced).
		"after 11: problem statement",
	}
	if !slices.Equal(events, want) || ops != 12 {
		t.Errorf("fsync rounds, after 12 file operations:\n%s\n(%d operations), want\n%s", strings.Join(events, "\n"), ops, strings.Join(want, "\n"))
	}
}
