package model

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"referee/internal/testutil"
)

// blanks is items with every string made "": what a skimmed read keeps of a list.
func blanks(items []string) []string {
	if items == nil {
		return nil
	}
	return make([]string, len(items))
}

// checkSkim compares a skimmed read of data with a lean one: both fail, or both read
// the same statement but for the skimmed texts, which are "" in lists of the same length.
func checkSkim(t *testing.T, data []byte) {
	t.Helper()
	lean, leanErr := StatementLean(data, fileOf(data))
	skim, skimErr := StatementSkim(data, fileOf(data))
	if (leanErr == nil) != (skimErr == nil) {
		t.Fatalf("lean read: %v; skimmed read: %v", leanErr, skimErr)
	}
	if leanErr != nil {
		if leanErr.Error() != skimErr.Error() {
			t.Fatalf("lean read fails with %q, skimmed with %q", leanErr, skimErr)
		}
		return
	}
	lean.Progresses, lean.Proof.Cot = blanks(lean.Progresses), blanks(lean.Proof.Cot)
	lean.Issues, lean.Responses = blanks(lean.Issues), blanks(lean.Responses)
	lean.Proof.Body, skim.Proof.Body = nil, nil
	lean.File, skim.File = nil, nil
	if !reflect.DeepEqual(lean, skim) {
		t.Fatalf("skimmed read:\n%+v\nlean, texts blanked:\n%+v", skim, lean)
	}
}

func TestStatementSkimReadsWhatLeanReads(t *testing.T) {
	var files []string
	if testutil.Has(fixture) {
		files, _ = filepath.Glob(filepath.Join(fixture, "statement", "*.json"))
	}
	demo, _ := filepath.Glob(filepath.Join(testutil.DemoDir(), "statement/*.json"))
	files = append(files, demo...)
	if len(files) < 5 {
		t.Fatalf("only %d statement files found", len(files))
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(filepath.Base(f), func(t *testing.T) { checkSkim(t, data) })
	}
	long := strings.Repeat("x", leanProof+1)
	cases := map[string]string{
		"every text":                    `{"id": "s-001", "type": "normal", "conclusion": ["A"], "hypothesis": ["(s-002) B"], "preliminaries": ["s-003"], "status": "validating", "reliability": 0.5, "stats": {"count_usage": 1}, "progresses": ["p1", "p2"], "proof": {"cot": ["c"], "full": "` + long + `", "ref": ["s-004"]}, "validation": {"issues": ["i1", "i2"], "responses": ["r1"]}}`,
		"a bad escape in an issue":      `{"id": "s-001", "validation": {"issues": ["a \q"], "responses": []}}`,
		"a control character in a note": `{"id": "s-001", "progresses": ["a` + "\x01" + `"]}`,
		"invalid UTF-8 in the outline":  `{"id": "s-001", "proof": {"cot": ["a` + "\xff" + `"], "full": ""}}`,
		"a note list that is an object": `{"id": "s-001", "progresses": {"a": ["b"], "proof": {"cot": ["c"]}}, "status": "true"}`,
		"issues that are not strings":   `{"id": "s-001", "validation": {"issues": [1, null, ["x"], {"k": "v"}], "responses": "r"}}`,
		"repeated validation":           `{"id": "s-001", "validation": {"issues": ["a"]}, "validation": {"issues": ["b", "c"], "responses": []}}`,
		"issues outside validation":     `{"id": "s-001", "issues": ["kept"], "proof": {"issues": ["kept"], "full": "f"}, "validation": {"issues": []}}`,
		"a truncated issue":             `{"id": "s-001", "validation": {"issues": ["a`,
		"the older format":              `{"id": "s-001", "dependencies": ["s-002"], "status": "has_gap", "proof": {"cot": ["x"], "full": "` + long + `", "reference": ["s-005"]}}`,
	}
	for name, data := range cases {
		t.Run(name, func(t *testing.T) { checkSkim(t, []byte(data)) })
	}
}
