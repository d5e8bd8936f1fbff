package store

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"referee/internal/testutil"
	"referee/skill"
)

func TestCheckFixtureIsClean(t *testing.T) {
	findings, err := Check(testutil.Dir(t, "fixtures/mra-knights/contents"))
	if err != nil || findings == nil || len(findings) != 0 {
		t.Errorf("Check(fixture) = %v, %v; want an empty list", findings, err)
	}
	var ie *skill.InputError
	if _, err := Check(filepath.Join(t.TempDir(), "nowhere")); !errors.As(err, &ie) {
		t.Errorf("missing folder: %v", err)
	}
}

func TestFindingOrder(t *testing.T) {
	in := []Finding{
		{SeverityWarning, "statement/s-001.json", "s-001", "w"},
		{SeverityError, "statement/s-a001.json", "s-a001", "late"},
		{SeverityError, "statement/s-999.json", "s-999", "first of two"},
		{SeverityError, "statement/s-999.json", "s-999", "second of two"},
		{SeverityError, "config.json", "", "c"},
		{SeverityError, "statement/s-b001.json", "s-b001", "b"},
		{SeverityError, "statement/s-aa001.json", "s-aa001", "aa"},
	}
	slices.SortStableFunc(in, compareFindings)
	var got []string
	for _, f := range in {
		got = append(got, f.Msg)
	}
	want := []string{"c", "first of two", "second of two", "late", "b", "aa", "w"}
	if !slices.Equal(got, want) {
		t.Errorf("order %v, want %v", got, want)
	}
	if s := (Finding{SeverityError, "config.json", "", "missing"}).String(); s != "config.json: missing" {
		t.Errorf("String() = %q", s)
	}
}

// Objects in the agents' earlier formats (their own repository's history: statements with
// dependencies and proof.reference and no validation, problems with motivation) are read
// as such: one warning per kind, no error per missing key, dependencies as preliminaries.
func TestCheckReadsTheAgentsEarlierFormat(t *testing.T) {
	dir := t.TempDir()
	write := func(rel, data string) {
		t.Helper()
		path := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("config.json", `{"p": "p-001", "s": "s-002", "e": "e-000", "l": "l-001"}`)
	write("history/log.jsonl", `{"l-001": {"creation": ["s-001", "s-002", "p-001"], "modification": []}}`+"\n")
	write("problem/p-001.json", `{"id": "p-001", "hypothesis": ["(s-001) Knights tell the truth"], "objectives": ["Find the knight"], "status": "unresolved", "motivation": "", "solution": {"cot": [], "full": ""}}`)
	write("statement/s-001.json", `{"id": "s-001", "type": "assumption", "conclusion": ["Knights tell the truth"], "hypothesis": [], "dependencies": [], "status": "true", "reliability": 0.0, "stats": {"count_usage": 0}, "proof": {"cot": [], "full": ""}}`)
	write("statement/s-002.json", `{"id": "s-002", "type": "normal", "conclusion": ["Alice is the knight"], "hypothesis": [], "dependencies": ["s-001"], "status": "pending", "reliability": 0.0, "stats": {"count_usage": 0}, "proof": {"cot": [], "full": "", "reference": ["s-001"]}}`)
	findings, err := Check(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range findings {
		got = append(got, f.Severity+": "+f.String())
	}
	want := []string{
		"warning: problem/: 1 problem in the agents' earlier format (motivation; no priority, summary, progresses or preliminaries), read as such: p-001",
		"warning: statement/: 2 statements in the agents' earlier format (dependencies, proof.reference, no validation), read as such: s-001, s-002",
		"warning: statement/s-002.json: s-002: nothing references it (did an agent stop between creating and linking it?)",
	}
	if !slices.Equal(got, want) {
		t.Errorf("findings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	snap, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	st := snap.Statements.Get("s-002")
	if !st.Older || !slices.Equal(st.Preliminaries, []string{"s-001"}) || !slices.Equal(st.Proof.Ref, []string{"s-001"}) || len(st.Problems) != 0 {
		t.Errorf("s-002 read as older %v, preliminaries %q, proof.ref %q, problems %v", st.Older, st.Preliminaries, st.Proof.Ref, st.Problems)
	}
	if fresh := snap.Statements.Get("s-001"); !fresh.Older {
		t.Error("s-001 not recognised as the earlier format")
	}
}
