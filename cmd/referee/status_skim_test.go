package main

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"referee/gen"
	"referee/internal/testutil"
	"referee/model"
	"referee/store"
)

// TestStatusSkimmedAsWhole: status reads statements skimmed (store.LoadStatusNumbered)
// and derives only what it reads (model.DeriveStatusNumbered), and prints the same bytes, as JSON and as text with every row, as when it reads them whole:
// on the demo, on every contents folder of the shared fixtures, on generated folders of
// both vocabularies, and on one with the shapes a skim could get wrong (the older format,
// a fault inside a skimmed text, no validation, issues without responses).
func TestStatusSkimmedAsWhole(t *testing.T) {
	same := func(t *testing.T, dir string) {
		t.Helper()
		for _, output := range []string{"json", "text"} {
			var whole, skim bytes.Buffer
			errWhole := newApp(nil, &whole, &whole).printStatusFrom(store.LoadWholeNoLog, model.Derive, dir, output, 0)
			load, derive := statusLoad(output)
			errSkim := newApp(nil, &skim, &skim).printStatusFrom(load, derive, dir, output, 0)
			if errWhole != nil || errSkim != nil {
				t.Fatalf("%s: whole: %v, skimmed: %v", dir, errWhole, errSkim)
			}
			if whole.String() != skim.String() {
				t.Errorf("%s, %s: skimmed prints\n%s\nwhole prints\n%s", dir, output, skim.String(), whole.String())
			}
			if whole.Len() == 0 {
				t.Errorf("%s, %s: nothing printed", dir, output)
			}
		}
	}
	t.Run("demo", func(t *testing.T) { same(t, testutil.DemoDir()) })
	t.Run("fixtures", func(t *testing.T) {
		root := testutil.Dir(t, "fixtures")
		n := 0
		filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err == nil && d.Name() == store.ConfigFile {
				same(t, filepath.Dir(path))
				n++
			}
			return err
		})
		if n < 2 {
			t.Errorf("%d contents folders among the fixtures", n)
		}
	})
	for _, vocab := range []model.Vocab{model.P013, model.P014} {
		t.Run("gen "+vocab.String(), func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "contents")
			if err := gen.Generate(dir, gen.Config{Statements: 1200, Problems: 12, Seed: 9, Vocabulary: vocab}); err != nil {
				t.Fatal(err)
			}
			same(t, dir)
		})
	}
	t.Run("shapes", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "contents")
		if err := gen.Generate(dir, gen.Config{Statements: 60, Problems: 2, Seed: 4}); err != nil {
			t.Fatal(err)
		}
		write := func(id, body string) {
			if err := os.WriteFile(filepath.Join(dir, "statement", id+".json"), []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		long := strings.Repeat("Step 1: since $x \\\\le y$, done. ", 20)
		// A bad escape in an issue: broken, skimmed or not.
		write("s-001", `{"id": "s-001", "type": "normal", "conclusion": ["A."], "hypothesis": [], "preliminaries": [], "status": "validating", "reliability": 0.0, "stats": {"count_usage": 0}, "progresses": [], "proof": {"cot": [], "full": "`+long+`", "ref": []}, "validation": {"issues": ["Issue #1 \q"], "responses": []}}`)
		// The older format: dependencies, proof.reference, no validation.
		write("s-002", `{"id": "s-002", "type": "normal", "conclusion": ["B."], "hypothesis": ["(s-003) C."], "dependencies": ["s-004"], "status": "has_gap", "proof": {"cot": ["x"], "full": "`+long+`", "reference": ["s-005"]}}`)
		// Issues without responses, a control character in a note, a proof outline that is not a list.
		write("s-006", `{"id": "s-006", "type": "normal", "conclusion": ["D."], "hypothesis": [], "preliminaries": ["s-007"], "status": "validating", "reliability": 0.0, "stats": {"count_usage": 0}, "progresses": ["a`+"\x01"+`"], "proof": {"cot": "outline", "full": "short", "ref": ["s-008"]}, "validation": {"issues": ["one", "two"], "responses": ["r"]}}`)
		write("s-008", `{"id": "s-008", "type": "normal", "conclusion": ["E."], "hypothesis": [], "preliminaries": [], "status": "validating", "reliability": 0.0, "stats": {"count_usage": 0}, "progresses": {"a": ["b"]}, "proof": {"cot": [], "full": "", "ref": []}, "validation": {"issues": [], "responses": ["r", "s"]}}`)
		same(t, dir)
		var out bytes.Buffer
		if err := newApp(nil, &out, &out).printStatusFrom(store.LoadStatus, model.DeriveStatus, dir, "text", 0); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(out.String(), "broken files: 2 ") {
			t.Errorf("the bad escape and the control character are not both broken files:\n%s", out.String())
		}
	})
}
