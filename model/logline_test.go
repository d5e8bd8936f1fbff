package model

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"referee/internal/testutil"
	"referee/model/pyjson"
)

// oldParseLogLine is ParseLogLine as it was before the scanner: parseLogLine is that
// code, which kept the line's tree as Doc, with two fields more; here they are taken
// from the tree as their readers did (store's logDeleted and activity).
func oldParseLogLine(n int, line string) LogEntry {
	e := parseLogLine(n, line)
	e.Deleted, e.Reverts = nil, ""
	doc := e.Document() // the zero Value, with no keys, when the line does not parse
	if v, ok := doc.Get("deleted"); ok {
		e.Deleted, _ = v.StringList()
	}
	if v, ok := doc.Get("reverts"); ok && v.Kind == pyjson.String {
		e.Reverts = v.Str
	}
	return e
}

// sameAsOld fails the test when ParseLogLine and the reference disagree on a line
// (nil and empty lists told apart), and reports whether the scanner read it.
func sameAsOld(t testing.TB, where string, line string) (scanned bool) {
	t.Helper()
	got, want := ParseLogLine(7, line), oldParseLogLine(7, line)
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%s: %q\n got %#v\nwant %#v", where, line, got, want)
	}
	_, scanned = scanLogLine(line, nil)
	return scanned
}

// The demo, the fixture and (when a benchmark made them) the generated folders: every
// line the same as before, and read by the scanner, not by the fallback.
func TestParseLogLineMatchesOldOnLogs(t *testing.T) {
	needShared(t)
	logs := []string{filepath.Join(testutil.DemoDir(), "history/log.jsonl"), fixture + "/history/log.jsonl"}
	for _, n := range []int{1_000, 10_000} { // package bench's folders, seed 1 (100k takes seconds)
		path := filepath.Join(os.TempDir(), fmt.Sprintf("referee-bench-%d-1/contents/history/log.jsonl", n))
		if _, err := os.Stat(path); err != nil {
			t.Logf("%s: %v (a benchmark makes it): not checked", path, err)
			continue
		}
		logs = append(logs, path)
	}
	for _, path := range logs {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		lines, fallbacks := 0, 0
		for i, line := range strings.Split(string(data), "\n") {
			if strings.TrimSpace(line) == "" {
				continue
			}
			lines++
			if !sameAsOld(t, fmt.Sprintf("%s:%d", path, i+1), line) {
				fallbacks++
			}
		}
		if lines == 0 || fallbacks > 0 {
			t.Errorf("%s: %d lines, %d not read by the scanner", path, lines, fallbacks)
		}
	}
}

// logLineCases are lines the scanner must read, or leave to Parse, exactly as before.
var logLineCases = []struct {
	line    string
	scanned bool
}{
	{`{"l-001": {"creation": ["s-001", "p-001"], "modification": []}, "current": ["p-001", "s-001", "e-000"]}`, true},
	{`{"l-002": {"creation": [], "modification": ["s-001"]}, "current": ["p-001", "s-001", "e-000"], "at": "2026-11-20T09:00:00Z", "by": "human", "skill": "init"}`, true},
	{`{"l-003": {"creation": [], "modification": []}, "current": [], "deleted": ["s-002"], "reverts": "l-002", "at": "", "by": "human", "skill": "undo"}`, true},
	{" \t{\"l-004\":{\"modification\":[\"s-001\"],\"creation\":[],\"note\":{\"a\":\"b\"}},\"extra\":[\"x\",[]],\"by\":\"agent\"}\r", true},
	{`{"current": ["p-001"], "l-a005": {"creation": ["s-001"], "modification": []}, "l-006": {}}`, true}, // a second change key: nobody reads it
	{`{"current": ["p-001"], "l-a005": {"creation": ["s-001"], "modification": []}, "l-006": "x"}`, true},
	{`{"l-005": {"creation": [], "modification": []}, "x": [[[[[[[["deep"]]]]]]]]}`, true},
	{`{"l-005": {"creation": [], "modification": []}, "x": [[[[[[[[["deeper"]]]]]]]]]}`, false},
	{`{"l-005": {"creation": [], "modification": [], "x": [[[[[[["deep"]]]]]]]}}`, true},
	{`{"l-005": {"creation": [], "modification": [], "x": [[[[[[[["deeper"]]]]]]]]}}`, false},
	{`{"l-007": {"creation": [], "modification": []}, "by": "Zoë ∑"}`, true},
	{`{"l-008": {"creation": [], "modification": []}, "by": "Zo\u00eb"}`, false},
	{`{"l-008": {"creation": [], "modification": []}, "by": "a\"b"}`, false},
	{"{\"l-008\": {\"creation\": [], \"modification\": []}, \"by\": \"a\xffb\"}", false},
	{"{\"l-008\": {\"creation\": [], \"modification\": []}, \"by\": \"a\tb\"}", false},
	{"{\"l-008\": {\"creation\": [], \"modification\": []}, \"by\": \"a\xed\xa0\x80\"}", false},
	{"\ufeff{\"l-009\": {\"creation\": [], \"modification\": []}}", false},
	{`{"l-010": {"creation": [], "modification": []}, "at": 3}`, false},
	{`{"l-011": {"creation": [], "modification": []}, "current": "p-001"}`, false},
	{`{"l-012": {"creation": [], "modification": []}, "current": ["p-001", 1]}`, false},
	{`{"l-013": {"creation": [], "modification": []}, "deleted": null}`, false},
	{`{"l-014": {"creation": [], "modification": []}, "deleted": ["s-001", false]}`, false},
	{`{"l-015": {"creation": [], "modification": []}, "reverts": ["l-001"]}`, false},
	{`{"l-016": {"creation": [], "modification": []}, "by": "a", "by": "b"}`, false},
	{`{"l-017": {"creation": [], "creation": ["s-001"], "modification": []}}`, false},
	{`{"l-018": {"creation": ["s-001"]}}`, false},
	{`{"l-019": {"creation": "s-001", "modification": []}}`, false},
	{`{"l-020": {}}`, false},
	{`{"l-020": []}`, false},
	{`{"l-000": {"creation": [], "modification": []}}`, false},
	{`{"l-x": {"creation": [], "modification": []}}`, false},
	{`{"current": ["p-001"]}`, false},
	{`{}`, false},
	{`[]`, false},
	{`"l-001"`, false},
	{`{"l-021": {"creation": [], "modification": []}} x`, false},
	{`{"l-022": {"creation": [], "modification": []}`, false},
	{`{"l-023": {"creation": [], "modification": [], }}`, false},
	{`{"l-024": {"creation": [,], "modification": []}}`, false},
	{`{"l-025" {"creation": [], "modification": []}}`, false},
	{`{"l-026": {"creation": [], "modification": []}, "x": {"y": {"z": {}, "z": "dup"}}}`, true},
	{`{"l-027": {"creation": [], "modification": []}, "n": 1.5e3, "t": true, "f": null}`, false},
	{`{"a": "1", "b": "2", "c": "3", "d": "4", "e": "5", "f": "6", "g": "7", "h": "8", "l-028": {"creation": [], "modification": []}}`, false}, // more keys than the scanner tracks
	{"", false},
}

func TestParseLogLineCases(t *testing.T) {
	for i, c := range logLineCases {
		if scanned := sameAsOld(t, fmt.Sprint("case ", i), c.line); scanned != c.scanned {
			t.Errorf("case %d: %q: scanned %v, want %v", i, c.line, scanned, c.scanned)
		}
	}
	e := ParseLogLine(3, logLineCases[2].line)
	if e.Line != 3 || e.ID != "l-003" || e.Creation == nil || len(e.Creation) != 0 || e.Current == nil ||
		!reflect.DeepEqual(e.Deleted, []string{"s-002"}) || e.Reverts != "l-002" || e.By != "human" || e.Skill != "undo" || e.Err != "" {
		t.Errorf("undo line: %#v", e)
	}
	if e := ParseLogLine(1, logLineCases[0].line); e.Deleted != nil || e.At != "" {
		t.Errorf("agents' line: %#v", e)
	}
}

// The lists of a scanned line share one array: an append to one must not reach another.
func TestParseLogLineListsAreCapped(t *testing.T) {
	e := ParseLogLine(1, `{"l-001": {"creation": ["s-001"], "modification": ["s-002"]}, "current": ["p-001", "s-002", "e-000"]}`)
	_ = append(e.Creation, "s-009")
	if e.Modification[0] != "s-002" {
		t.Errorf("append to Creation changed Modification: %v", e.Modification)
	}
}

func TestLogEntryDocument(t *testing.T) {
	line := `{"l-001": {"creation": [], "modification": []}, "n": 2}`
	doc := ParseLogLine(1, line).Document()
	if string(pyjson.EncodeLine(doc)) != line {
		t.Errorf("Document: %s", pyjson.EncodeLine(doc))
	}
	if doc := ParseLogLine(1, "{").Document(); doc.Kind != pyjson.Null || doc.Obj != nil {
		t.Errorf("Document of a broken line: %#v", doc)
	}
}

func FuzzParseLogLine(f *testing.F) {
	for _, c := range logLineCases {
		f.Add(c.line)
	}
	f.Fuzz(func(t *testing.T, line string) {
		sameAsOld(t, "fuzz", line)
	})
}

// BenchmarkParseLogLine reads the 10k benchmark folder's log (the demo's without it),
// with the scanner and with the reference.
func BenchmarkParseLogLine(b *testing.B) {
	data, err := os.ReadFile(filepath.Join(os.TempDir(), "referee-bench-10000-1/contents/history/log.jsonl"))
	if err != nil {
		data, err = os.ReadFile(filepath.Join(testutil.DemoDir(), "history/log.jsonl"))
	}
	if err != nil {
		b.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	for name, parse := range map[string]func(int, string) LogEntry{"scanner": ParseLogLine, "reference": oldParseLogLine} {
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				for i, line := range lines {
					parse(i+1, line)
				}
			}
		})
	}
}

func TestLogVersions(t *testing.T) {
	line := `{"l-007": {"creation": ["s-008"], "modification": ["p-001"]}, "current": ["p-001", "s-008", "e-000"], "by": "x", "versions": {"s-008": "0badc0de", "p-001": "9f1c2e3a"}}`
	got := LogVersions(line)
	if len(got) != 2 || got["s-008"] != "0badc0de" || got["p-001"] != "9f1c2e3a" {
		t.Errorf("LogVersions = %v", got)
	}
	// Escapes are not in the scanner's subset: the whole line is parsed instead.
	if got := LogVersions(`{"l-001": {"creation": [], "modification": []}, "versions": {"s-\u0030": "ab"}}`); got["s-0"] != "ab" {
		t.Errorf("escaped key: %v", got)
	}
	if got := LogVersions(`{"l-001": {"creation": [], "modification": []}}`); got != nil {
		t.Errorf("no versions: %v", got)
	}
}
