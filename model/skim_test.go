package model

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
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

// checkSkimmer compares a Skimmer's read of data with StatementSkim's: the same
// statement, proof body and all, or the same error.
func checkSkimmer(t *testing.T, k *Skimmer, data []byte) {
	t.Helper()
	file := fileOf(data)
	want, wantErr := StatementSkim(data, file)
	got, err := k.Statement(data, file)
	if (err == nil) != (wantErr == nil) || err != nil && err.Error() != wantErr.Error() {
		t.Fatalf("Skimmer: %v; StatementSkim: %v", err, wantErr)
	}
	if err != nil {
		return
	}
	if (got.Proof.Body == nil) != (want.Proof.Body == nil) {
		t.Fatalf("proof left in the file: Skimmer %v, StatementSkim %v", got.Proof.Body != nil, want.Proof.Body != nil)
	}
	if b := got.Proof.Body; b != nil {
		w := want.Proof.Body
		if b.file != w.file || b.off != w.off || b.blank != w.blank {
			t.Fatalf("proof body: Skimmer %+v, StatementSkim %+v", b, w)
		}
		gotText, gotErr := b.Text()
		wantText, wantErr := w.Text()
		if gotText != wantText || (gotErr == nil) != (wantErr == nil) {
			t.Fatalf("proof text: Skimmer %q, %v; StatementSkim %q, %v", gotText, gotErr, wantText, wantErr)
		}
	}
	g, w := *got, *want
	g.Proof.Body, w.Proof.Body = nil, nil
	if g.Reliability != g.Reliability && w.Reliability != w.Reliability {
		g.Reliability, w.Reliability = 0, 0 // NaN both: equal, as DeepEqual does not see
	}
	if !reflect.DeepEqual(g, w) {
		t.Fatalf("Skimmer:\n%#v\nStatementSkim:\n%#v", g, w)
	}
}

// skimShapes are statements of the usual shape and of every other one the Skimmer
// leaves to StatementSkim: keys missing, repeated, unknown or escaped, values of another
// type, faults in kept and dropped strings, numbers Parse reads or refuses.
var skimShapes = func() map[string]string {
	long := strings.Repeat("x", leanProof+1)
	usual := `{"id": "s-001", "type": "normal", "conclusion": ["A $\\le$ B", "caf\u00e9 \ud800 \ud83d\ude00"], "hypothesis": ["(s-002) B"], "preliminaries": ["s-003"], "status": "validating", "reliability": 0.5, "stats": {"count_usage": 1}, "progresses": ["p1", "p2"], "proof": {"cot": ["c"], "full": "` + long + `", "ref": ["s-004"]}, "validation": {"issues": ["i1", "i2"], "responses": ["r1"]}}`
	with := func(old, new string) string {
		if !strings.Contains(usual, old) {
			panic(old)
		}
		return strings.Replace(usual, old, new, 1)
	}
	return map[string]string{
		"usual":                      usual,
		"indented":                   "\n\t" + strings.ReplaceAll(strings.ReplaceAll(usual, ", ", ",\n        "), ": ", " :\r\n ") + " \n",
		"short proof":                with(long, `short \"proof\" \n`),
		"proof of 256 bytes":         with(long, strings.Repeat("y", leanProof)),
		"blank long proof":           with(long, strings.Repeat(`\n `, leanProof)),
		"empty lists":                with(`"preliminaries": ["s-003"]`, `"preliminaries": []`),
		"no stats, no reliability":   with(`"reliability": 0.5, "stats": {"count_usage": 1}, `, ""),
		"empty stats":                with(`{"count_usage": 1}`, `{}`),
		"stats with more":            with(`{"count_usage": 1}`, `{"count_usage": 1, "x": 2}`),
		"a count of 1e3":             with(`"count_usage": 1`, `"count_usage": 1e3`),
		"reliability -0.25E-2":       with(`0.5`, `-0.25E-2`),
		"reliability NaN":            with(`0.5`, `NaN`),
		"reliability -Infinity":      with(`0.5`, `-Infinity`),
		"reliability 1e999":          with(`0.5`, `1e999`),
		"reliability 01":             with(`0.5`, `01`),
		"reliability 1.":             with(`0.5`, `1.`),
		"reliability a string":       with(`0.5`, `"0.5"`),
		"no id":                      with(`"id": "s-001", `, ""),
		"an empty id":                with(`"s-001"`, `""`),
		"a problem's id":             with(`"s-001"`, `"p-001"`),
		"an escaped key":             with(`"type"`, `"typ\u0065"`),
		"a repeated key":             with(`"status": "validating"`, `"status": "true", "status": "validating"`),
		"a repeated proof text":      with(`"ref": ["s-004"]`, `"ref": ["s-004"], "full": ""`),
		"an unknown key":             with(`"type"`, `"note": 1, "type"`),
		"dependencies":               with(`"type"`, `"dependencies": ["s-009"], "type"`),
		"proof.reference":            with(`"ref"`, `"reference"`),
		"no validation":              with(`, "validation": {"issues": ["i1", "i2"], "responses": ["r1"]}`, ""),
		"no responses":               with(`, "responses": ["r1"]`, ""),
		"a type that is a number":    with(`"normal"`, `7`),
		"a conclusion string":        with(`["A $\\le$ B", "caf\u00e9 \ud800 \ud83d\ude00"]`, `"A"`),
		"an issue that is null":      with(`"i2"`, `null`),
		"a proof that is a string":   with(`{"cot": ["c"], "full": "`+long+`", "ref": ["s-004"]}`, `"p"`),
		"a bad escape in an issue":   with(`"i2"`, `"i\q"`),
		"a control byte in a note":   with(`"p2"`, "\"p\x012\""),
		"invalid UTF-8 in the cot":   with(`"c"`, "\"\xffc\""),
		"invalid UTF-8 in a claim":   with(`"A $`, "\"\xc3A $"),
		"a bad \\u in the status":    with(`"validating"`, `"valid\u00g0"`),
		"a bad escape in the proof":  with(long, long+`\q`),
		"a trailing comma":           with(`["p1", "p2"]`, `["p1", "p2",]`),
		"extra data":                 usual + ` {}`,
		"a byte-order mark":          "\ufeff" + usual,
		"not an object":              `["s-001"]`,
		"empty":                      ``,
		"truncated in a note":        usual[:strings.Index(usual, `"p2`)+2],
		"truncated in the proof":     usual[:strings.Index(usual, long)+10],
		"a backslash before the end": with(long, long+`\\`),
	}
}()

func TestSkimmerReadsAsStatementSkim(t *testing.T) {
	k := &Skimmer{}
	var files []string
	if testutil.Has(fixture) {
		files, _ = filepath.Glob(filepath.Join(fixture, "statement", "*.json"))
	}
	demo, _ := filepath.Glob(filepath.Join(testutil.DemoDir(), "statement/*.json"))
	for _, f := range append(files, demo...) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(filepath.Base(f), func(t *testing.T) { checkSkimmer(t, k, data) })
	}
	for name, data := range skimShapes {
		t.Run(name, func(t *testing.T) { checkSkimmer(t, k, []byte(data)) })
	}
	// What a statement keeps is not in the bytes read: a buffer written over after the
	// read leaves the statement as it was.
	data := []byte(skimShapes["usual"])
	s, err := k.Statement(data, fileOf(data))
	if err != nil {
		t.Fatal(err)
	}
	want := *s
	want.Conclusion, want.Hypothesis = slices.Clone(s.Conclusion), slices.Clone(s.Hypothesis)
	for i := range data {
		data[i] = 'z'
	}
	if s.ID != "s-001" || s.Status != "validating" || !reflect.DeepEqual(*s, want) {
		t.Fatalf("the statement changed with the buffer: %+v", s)
	}
}

// TestSkimmerUsualShapeIsRead: a statement of the agents' usual shape is read by the
// Skimmer itself, not handed to the parser (which would make it as slow as before).
func TestSkimmerUsualShapeIsRead(t *testing.T) {
	for _, name := range []string{"usual", "indented", "short proof", "empty lists", "no stats, no reliability", "reliability -0.25E-2", "a backslash before the end"} {
		data := []byte(skimShapes[name])
		var s Statement
		if !(&Skimmer{}).read(&s, data, fileOf(data)) {
			t.Errorf("%s: left to the parser", name)
		}
	}
	for _, name := range []string{"an unknown key", "a repeated key", "reliability NaN", "a bad escape in an issue", "empty stats"} {
		data := []byte(skimShapes[name])
		var s Statement
		if (&Skimmer{}).read(&s, data, fileOf(data)) {
			t.Errorf("%s: read by the Skimmer", name)
		}
	}
}

// FuzzSkimmer: a Skimmer reads any input as StatementSkim does, whole files and the texts
// of a usual statement's fields alike (field picks which string of it data replaces).
func FuzzSkimmer(f *testing.F) {
	for _, data := range skimShapes {
		f.Add([]byte(data), uint8(0))
	}
	for i, s := range []string{`a \"b\" \\`, `\\\\\"`, "\x01", `\u00e9\ud800`, `" , "status": "x`, `\`, `\\`, `x", "full": null, "y": "`, `\ud83d\ude00`, "\xed\xa0\x80", `\/\b\f\r\t`} {
		f.Add([]byte(s), uint8(1+i%6))
	}
	fields := []string{`s-001`, `normal`, `A $\\le$ B`, `p2`, `c`, `i1`, `validating`}
	usual := skimShapes["usual"]
	k := &Skimmer{}
	f.Fuzz(func(t *testing.T, data []byte, field uint8) {
		if field > 0 {
			data = []byte(strings.Replace(usual, `"`+fields[int(field)%len(fields)]+`"`, `"`+string(data)+`"`, 1))
		}
		checkSkimmer(t, k, data)
	})
}
