package store

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"runtime/debug"
	"strings"
	"sync"
	"testing"

	"referee/internal/testutil"
	"referee/model"
)

func TestLoadFixture(t *testing.T) {
	testutil.Need(t, fixtureDir)
	snap, err := Load(fixtureDir)
	if err != nil {
		t.Fatal(err)
	}
	if len(snap.Problems) != 1 || snap.Statements.Len() != 7 || len(snap.Log) != 6 || len(snap.Broken) != 0 {
		t.Fatalf("loaded %d problems, %d statements, %d log lines, broken %v", len(snap.Problems), snap.Statements.Len(), len(snap.Log), snap.Broken)
	}
	if snap.Config.Last["l"] != "l-006" || snap.Vocab != model.P014 {
		t.Errorf("config %v vocab %v", snap.Config.Last, snap.Vocab)
	}
	if got := snap.Versions.Get("s-007"); got != model.Version([]byte(read(t, fixtureDir, "statement/s-007.json"))) || len(got) != 8 {
		t.Errorf("version %q", got)
	}
	e := snap.Log[0]
	if e.ID != "l-001" || len(e.Creation) != 7 || e.Creation[6] != "p-001" || e.Err != "" || e.By != "" {
		t.Errorf("first log entry %+v", e)
	}
}

// Broken files never fail a load: each is listed with its reason, the rest loads.
func TestLoadBrokenFiles(t *testing.T) {
	dir := testutil.Copy(t, fixtureDir)
	write(t, dir, "statement/s-002.json", "")                      // empty (an agent mid-write)
	write(t, dir, "statement/s-003.json", `{"id": "s-003", "stat`) // truncated
	write(t, dir, "statement/s-004.json", "\x00\xff\xfe garbage")  // random bytes
	write(t, dir, "statement/notes.json", `{}`)                    // not an ID
	write(t, dir, "statement/s-001.json.swp", "x")                 // editor file: ignored
	write(t, dir, "statement/s-008.json", `{"id": "s-009", "type": 3, "conclusion": "one string", "status": "weird", "validation": []}`)
	os.Mkdir(filepath.Join(dir, "statement", "s-010.json"), 0o755)           // a directory named like an object
	os.Symlink("/etc/passwd", filepath.Join(dir, "statement", "s-011.json")) // never followed
	write(t, dir, "history/log.jsonl", read(t, fixtureDir, "history/log.jsonl")+"not json\n")
	snap, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, b := range snap.Broken {
		got[b.Path] = b.Reason
	}
	want := map[string]string{
		"statement/s-002.json": "not valid JSON: line 1 (byte 0): empty file",
		"statement/s-003.json": "not valid JSON: line 1 (byte 21): unterminated string (truncated?)",
		"statement/s-004.json": "not valid JSON: line 1 (byte 0): unexpected character '\\x00'",
		"statement/notes.json": `file name "notes" is not a statement ID`,
		"statement/s-010.json": "is a directory, expected a JSON file",
		"statement/s-011.json": "is a symbolic link (links are not followed)",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("broken:\n got %v\nwant %v", got, want)
	}
	// The shape problems of s-008 are kept with the object, which still loads.
	s8 := snap.Statements.Get("s-008")
	if s8 == nil || s8.Claim() != "one string" || s8.Status != "weird" {
		t.Fatalf("s-008 %+v", s8)
	}
	var probs []string
	for _, p := range s8.Problems {
		probs = append(probs, p.String())
	}
	if !strings.Contains(strings.Join(probs, "\n"), "type: expected a string, found a number") ||
		!strings.Contains(strings.Join(probs, "\n"), "conclusion: expected a list of strings, found a string") {
		t.Errorf("s-008 problems %q", probs)
	}
	if snap.Statements.Len() != 5 { // s-001, s-005, s-006, s-007, s-008
		t.Errorf("%d statements loaded", snap.Statements.Len())
	}
	if last := snap.Log[len(snap.Log)-1]; last.Line != 7 || last.Err != "line 1 (byte 0): invalid literal (expected null)" {
		t.Errorf("bad log line %+v", last)
	}
}

// A half-written file keeps its last good version; a good write replaces it; a removed
// file disappears.
func TestReloadKeepsLastGoodVersion(t *testing.T) {
	dir := testutil.Copy(t, fixtureDir)
	snap, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	good := snap.Statements.Get("s-007")
	write(t, dir, "statement/s-007.json", `{"id": "s-007", "ty`)
	half := Reload(dir, snap, []string{"statement/s-007.json"})
	if half.Statements.Get("s-007") != good || len(half.Broken) != 1 || half.Broken[0].ID != "s-007" {
		t.Errorf("half-written: %v %+v", half.Statements.Get("s-007") == good, half.Broken)
	}
	if snap.Statements.Get("s-007") != good || len(snap.Broken) != 0 {
		t.Error("Reload changed the previous snapshot")
	}
	write(t, dir, "statement/s-007.json", read(t, fixtureDir, "history/l-004/s-007.json"))
	fixed := Reload(dir, half, []string{"statement/s-007.json"})
	if fixed.Statements.Get("s-007").Status != "pending" || len(fixed.Broken) != 0 {
		t.Errorf("after the write completed: %q %+v", fixed.Statements.Get("s-007").Status, fixed.Broken)
	}
	if fixed.Statements.Get("s-001") != snap.Statements.Get("s-001") {
		t.Error("an unchanged object was reloaded")
	}
	os.Remove(filepath.Join(dir, "statement", "s-006.json"))
	gone := Reload(dir, fixed, []string{"statement/s-006.json"})
	if _, ok := gone.Statements.Lookup("s-006"); ok || gone.Versions.Get("s-006") != "" {
		t.Error("a removed file is still in the snapshot")
	}
}

func TestLoadMissingFolder(t *testing.T) {
	_, err := Load(filepath.Join(t.TempDir(), "nope"))
	if err == nil || !strings.HasSuffix(err.Error(), "nope: no such file or directory") {
		t.Errorf("err = %v", err)
	}
}

// The watcher reports backups too; they are history, not objects, and never broken.
func TestReloadIgnoresBackups(t *testing.T) {
	dir := testutil.Copy(t, fixtureDir)
	snap, _ := Load(dir)
	next := Reload(dir, snap, []string{"history/l-004/s-007.json", "history/log.jsonl", "config.json"})
	if len(next.Broken) != 0 || len(next.Log) != 6 || next.Statements.Get("s-007") != snap.Statements.Get("s-007") {
		t.Errorf("broken %v, %d log lines", next.Broken, len(next.Log))
	}
}

func TestInSnapshot(t *testing.T) {
	for rel, want := range map[string]bool{
		"config.json": true, "history/log.jsonl": true, "statement/s-001.json": true, "problem/p-001.json": true,
		"experience/e-001.json": true, "history/l-004/s-007.json": false, "statement/.s-001.json.tmp-1": false,
		"history/.referee.lock": false, "statement/s-001.json.swp": false, "history/.pending-l-009.json": false,
	} {
		if got := InSnapshot(rel); got != want {
			t.Errorf("InSnapshot(%q) = %v, want %v", rel, got, want)
		}
	}
}

// Loads turn the collector off while they run; overlapping loads must leave it as it was.
func TestOverlappingLoadsRestoreTheCollector(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, StatementDir), 0o755); err != nil {
		t.Fatal(err)
	}
	for i := range 50 {
		if err := os.WriteFile(filepath.Join(dir, StatementDir, fmt.Sprintf("s-%03d.json", i+1)), []byte(`{"status": "pending"}`), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	defer debug.SetGCPercent(debug.SetGCPercent(77))
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 20 {
				if _, err := Load(dir); err != nil {
					t.Error(err)
				}
			}
		})
	}
	wg.Wait()
	if got := debug.SetGCPercent(77); got != 77 {
		t.Fatalf("GC percent after the loads = %d, want 77", got)
	}
}

// LoadNoLog, for status, is Load without the log: the same objects, config and versions.
func TestLoadNoLogLeavesOnlyTheLog(t *testing.T) {
	testutil.Need(t, fixtureDir)
	full, err := Load(fixtureDir)
	if err != nil {
		t.Fatal(err)
	}
	noLog, err := LoadNoLog(fixtureDir)
	if err != nil {
		t.Fatal(err)
	}
	if len(full.Log) == 0 || len(noLog.Log) != 0 {
		t.Fatalf("log lines: Load %d, LoadNoLog %d", len(full.Log), len(noLog.Log))
	}
	if !reflect.DeepEqual(full.Versions, noLog.Versions) || !reflect.DeepEqual(full.Config, noLog.Config) || full.Vocab != noLog.Vocab ||
		full.Statements.Len() != noLog.Statements.Len() || len(full.Problems) != len(noLog.Problems) || len(noLog.Broken) != 0 {
		t.Fatal("LoadNoLog read other objects than Load")
	}
}
