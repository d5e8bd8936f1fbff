package store

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLogEndAsWholeRead checks that what the branch commands read backwards from the
// log's end (the branch the folder is on, the last change) is what the whole log parsed
// says, on logs with the edges a run leaves: blank lines, a torn last line, a line longer
// than MaxLogLine, a branch line followed by many others (reads across 64 KiB chunks),
// an invalid branch name, and none at all.
func TestLogEndAsWholeRead(t *testing.T) {
	change := func(id string) string {
		return `{"` + id + `": {"creation": [], "modification": ["s-001"]}, "current": ["p-001", "s-001", "e-000"]}` + "\n"
	}
	branch := func(id, name string) string {
		return `{"` + id + `": {"creation": [], "modification": []}, "current": ["p-001", "s-001", "e-000"], "branch": "` + name + `"}` + "\n"
	}
	many := func(from, n int) string {
		var b strings.Builder
		for i := range n {
			b.WriteString(change(fmt.Sprintf("l-%03d", from+i)))
		}
		return b.String()
	}
	long := `{"l-900": {"creation": [], "modification": ["` + strings.Repeat("x", MaxLogLine) + `"]}}` + "\n"
	cases := map[string]string{
		"empty":           "",
		"no branch":       many(1, 5),
		"branch last":     many(1, 3) + branch("l-004", "fix"),
		"branch far back": change("l-001") + branch("l-002", "fix") + many(3, 2000),
		"two branches":    branch("l-001", "a") + many(2, 10) + branch("l-012", "b") + many(13, 3),
		"main named":      branch("l-001", "a") + branch("l-002", "main") + many(3, 3),
		"invalid name":    branch("l-001", "a") + branch("l-002", "no/such") + many(3, 3),
		"torn last line":  branch("l-001", "b") + many(2, 3) + `{"l-005": {"creat`,
		"torn branch":     branch("l-001", "b") + many(2, 3) + `{"l-005": {"creation": [], "modification": []}, "branch": "c"`,
		"blank lines":     "\n\n" + branch("l-001", "b") + "\n  \n" + many(2, 2) + "\n\n",
		"long last line":  many(1, 3) + long,
		"long then torn":  many(1, 3) + long + "   ",
		"crlf":            strings.ReplaceAll(branch("l-001", "b")+many(2, 2), "\n", "\r\n"),
	}
	for name, log := range cases {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.MkdirAll(filepath.Join(dir, HistoryDir), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, LogFile), []byte(log), 0o644); err != nil {
				t.Fatal(err)
			}
			tx := &tx{dir: dir, skill: "branch list"}
			gotBranch, gotLast, err := tx.logEnd()
			if err != nil {
				t.Fatal(err)
			}
			entries := ParseLog(log)
			if want := branchOf(entries); gotBranch != want {
				t.Errorf("branch %q, the whole log says %q", gotBranch, want)
			}
			if want := lastChange(entries); gotLast != want {
				t.Errorf("last change %q, the whole log says %q", gotLast, want)
			}
			if got, err := LastChange(dir); err != nil || got != lastChange(entries) {
				t.Errorf("LastChange %q (%v), the whole log says %q", got, err, lastChange(entries))
			}
		})
	}
	t.Run("no log", func(t *testing.T) {
		tx := &tx{dir: t.TempDir(), skill: "branch list"}
		if b, l, err := tx.logEnd(); err != nil || b != DefaultBranch || l != "" {
			t.Errorf("no log: %q %q %v, want main, no change", b, l, err)
		}
	})
}
