package model

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"referee/internal/testutil"
	"referee/model/pyjson"
)

// fileOf is a File whose Read gives data, as the store's gives the bytes on disk.
func fileOf(data []byte) *File {
	return &File{Path: "statement/s-001.json", Version: Version(data), Read: func() ([]byte, error) { return data, nil }}
}

// longProof is a statement whose proof.full is the JSON string body raw (between the
// quotes), padded past leanProof so that a lean read leaves it in the file.
func longProof(raw string) []byte {
	pad := strings.Repeat("x", leanProof+1)
	return []byte(`{"id": "s-001", "status": "pending", "proof": {"cot": ["a"], "full": "` + pad + raw + `", "ref": []}, "validation": {"issues": [], "responses": []}}`)
}

// checkLean compares a lean read of data with Parse + StatementFrom: the same statement
// where Parse accepts data; where it does not, the lean read fails too, or the fault is
// in the proof text, which Text reports.
func checkLean(t *testing.T, data []byte) {
	t.Helper()
	lean, leanErr := StatementLean(data, fileOf(data))
	doc, err := pyjson.Parse(data)
	if err != nil {
		if leanErr != nil {
			return
		}
		if lean.Proof.Body == nil {
			t.Fatalf("Parse fails (%v), the lean read does not and left nothing in the file", err)
		}
		if _, terr := lean.Proof.Text(); terr == nil {
			t.Fatalf("Parse fails (%v), the lean read and its Text do not", err)
		}
		return
	}
	if leanErr != nil {
		t.Fatalf("Parse accepts, the lean read fails: %v", leanErr)
	}
	eager := StatementFrom(doc)
	text, err := lean.Proof.Text()
	if err != nil {
		t.Fatalf("Text: %v", err)
	}
	if text != eager.Proof.Full {
		t.Fatalf("Text = %.80q, Parse read %.80q", text, eager.Proof.Full)
	}
	if lean.Proof.Blank() != (strings.TrimSpace(eager.Proof.Full) == "") || lean.Proof.Empty() != (eager.Proof.Full == "") {
		t.Fatalf("Blank %v Empty %v for %.80q", lean.Proof.Blank(), lean.Proof.Empty(), eager.Proof.Full)
	}
	if lean.Doc.Kind != pyjson.Null || lean.Doc.Obj != nil || lean.File == nil {
		t.Fatalf("a lean statement keeps its document (%v) or has no file", lean.Doc.Kind)
	}
	got, err := lean.Document()
	if err != nil || !reflect.DeepEqual(got, doc) {
		t.Fatalf("Document: %v, or not the document Parse reads", err)
	}
	lean.Doc, lean.File, lean.Proof.Body, lean.Proof.Full = eager.Doc, nil, nil, eager.Proof.Full
	if !reflect.DeepEqual(lean, eager) {
		t.Fatalf("lean read:\n%+v\nParse:\n%+v", lean, eager)
	}
}

func TestStatementLeanReadsWhatParseReads(t *testing.T) {
	needShared(t)
	files, _ := filepath.Glob(filepath.Join(fixture, "statement", "*.json"))
	demo, _ := filepath.Glob(filepath.Join(testutil.DemoDir(), "statement/*.json"))
	files = append(files, demo...)
	if len(files) < 20 {
		t.Fatalf("only %d statement files found", len(files))
	}
	left := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(filepath.Base(filepath.Dir(filepath.Dir(filepath.Dir(f))))+"/"+filepath.Base(f), func(t *testing.T) { checkLean(t, data) })
		if s, _ := StatementLean(data, fileOf(data)); s != nil && s.Proof.Body != nil {
			left++
		}
	}
	if left == 0 {
		t.Fatal("no proof was left in its file: the lean path is not exercised")
	}
	cases := map[string][]byte{
		"escaped quotes and backslashes":  longProof(`a \"quoted\" \\ and \\\" end \\\\`),
		"escapes of every kind":           longProof(`\n\t\r\b\f\/ \u00e9 \ud83d\ude00 \ud800 $\\frac{1}{2}$`),
		"short proof, decoded at once":    []byte(`{"id": "s-001", "proof": {"full": "short"}}`),
		"full outside proof":              []byte(`{"id": "s-001", "full": "` + strings.Repeat("y", 400) + `", "proof": {"full": "p"}}`),
		"full nested deeper":              []byte(`{"proof": {"x": {"full": "` + strings.Repeat("y", 400) + `"}, "full": "p"}}`),
		"repeated proof, last is short":   []byte(`{"proof": {"full": "` + strings.Repeat("y", 400) + `"}, "proof": {"full": "p"}}`),
		"repeated full, last is long":     []byte(`{"proof": {"full": "p", "full": "` + strings.Repeat("z", 400) + `"}}`),
		"repeated full, last is short":    []byte(`{"proof": {"full": "` + strings.Repeat("z", 400) + `", "full": ""}}`),
		"repeated full, last is null":     []byte(`{"proof": {"full": "` + strings.Repeat("z", 400) + `", "full": null}}`),
		"repeated full, last a number":    []byte(`{"proof": {"full": "` + strings.Repeat("z", 400) + `", "full": 1}}`),
		"repeated full, first not valid":  []byte(`{"proof": {"full": "` + strings.Repeat("z", 400) + "\x01" + `", "full": ""}}`),
		"repeated proof, first not valid": []byte(`{"proof": {"full": "` + strings.Repeat("z", 400) + "\x01" + `"}, "proof": {}}`),
		"proof as a bare string":          []byte(`{"proof": "` + strings.Repeat("w", 400) + `"}`),
		"full not a string":               []byte(`{"proof": {"full": ["` + strings.Repeat("w", 400) + `"]}}`),
		"not an object":                   []byte(`[1, 2]`),
		"blank long proof":                []byte(`{"proof": {"full": "` + strings.Repeat(` \n\t\u00a0\u2003`, 40) + `"}}`),
	}
	for name, data := range cases {
		t.Run(name, func(t *testing.T) { checkLean(t, data) })
	}
}

func TestStatementLeanReportsFaultsInTheProofWhenRead(t *testing.T) {
	for raw, want := range map[string]string{
		"a\x01b":       "control character inside a string",
		`a \x b`:       `invalid escape \x`,
		`a \u12G4`:     `invalid \u escape`,
		"a \xff b":     "invalid UTF-8 in a string",
		"line\nbreak ": "control character inside a string",
	} {
		data := longProof(raw)
		s, err := StatementLean(data, fileOf(data))
		if err != nil {
			t.Fatalf("%q: the lean read fails: %v", raw, err)
		}
		if s.Proof.Blank() || s.Proof.Empty() {
			t.Fatalf("%q: a proof with text is blank or empty", raw)
		}
		_, err = s.Proof.Text()
		if err == nil || !strings.HasPrefix(err.Error(), "statement/s-001.json: proof.full: line 1 (byte ") || !strings.HasSuffix(err.Error(), want) {
			t.Fatalf("%q: Text error %v, want statement/s-001.json: proof.full: line 1 (byte …): %s", raw, err, want)
		}
	}
	// The rest of the document is checked at once.
	data := []byte(strings.Replace(string(longProof("ok")), `"pending"`, "\"pen\x01ding\"", 1))
	if _, err := StatementLean(data, fileOf(data)); err == nil || !strings.Contains(err.Error(), "control character inside a string") {
		t.Fatalf("a fault outside the proof text: %v", err)
	}
	data = longProof("never closed")
	cut := data[:strings.Index(string(data), "never")+5]
	if _, err := StatementLean(cut, fileOf(cut)); err == nil || !strings.Contains(err.Error(), "unterminated string (truncated?)") {
		t.Fatalf("a truncated file: %v", err)
	}
}

func TestLeanStatementReadsItsFileOnceAndOnlyTheVersionRead(t *testing.T) {
	data := longProof("the proof")
	reads := 0
	onDisk := data
	file := &File{Path: "statement/s-001.json", Version: Version(data), Read: func() ([]byte, error) { reads++; return onDisk, nil }}
	s, err := StatementLean(data, file)
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Repeat("x", leanProof+1) + "the proof"
	for range 3 {
		if text, err := s.Proof.Text(); err != nil || text != want {
			t.Fatalf("Text = %.40q, %v", text, err)
		}
	}
	if reads != 1 {
		t.Fatalf("the file was read %d times for three Texts, want once", reads)
	}

	// Changed: said, and settled for this statement (its snapshot read the old version).
	s, _ = StatementLean(data, file)
	onDisk = longProof("a newer proof")
	reads = 0
	var changed *ChangedError
	for range 2 {
		if _, err := s.Proof.Text(); !errors.As(err, &changed) || err.Error() != "statement/s-001.json has changed since it was loaded" {
			t.Fatalf("Text of a changed file: %v", err)
		}
	}
	if _, err := s.Document(); !errors.As(err, &changed) {
		t.Fatalf("Document of a changed file: %v", err)
	}
	if reads != 2 {
		t.Fatalf("%d reads for two Texts and a Document of a changed file, want 2", reads)
	}

	// A fault in the text: settled too.
	bad := longProof("a\\x")
	bad[len(bad)-len(`", "ref": []}, "validation": {"issues": [], "responses": []}}`)-2] = 0x01
	onDisk, reads = bad, 0
	file.Version = Version(bad)
	s, err = StatementLean(bad, file)
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if _, err := s.Proof.Text(); err == nil || !strings.HasSuffix(err.Error(), "control character inside a string") {
			t.Fatalf("Text of a bad text: %v", err)
		}
	}
	if reads != 1 {
		t.Fatalf("a bad text was read %d times, want once", reads)
	}

	// Gone: said, and tried again next time (it may be back).
	s, _ = StatementLean(data, &File{Path: "statement/s-001.json", Version: Version(data), Read: func() ([]byte, error) { reads++; return nil, os.ErrNotExist }})
	reads = 0
	for range 2 {
		if _, err := s.Proof.Text(); err == nil || err.Error() != "statement/s-001.json: file does not exist" {
			t.Fatalf("Text of a file gone: %v", err)
		}
	}
	if reads != 2 {
		t.Fatalf("a file gone was read %d times for two Texts, want 2", reads)
	}
}

// FuzzStatementLean: a lean read agrees with Parse + StatementFrom on any input, whole
// files and proof texts long enough to be left in the file alike.
func FuzzStatementLean(f *testing.F) {
	needShared(f)
	files, _ := filepath.Glob(filepath.Join(fixture, "statement", "*.json"))
	for _, file := range files {
		if data, err := os.ReadFile(file); err == nil {
			f.Add(data, false)
		}
	}
	for _, s := range []string{`a \"b\" \\`, `\\\\\"`, "\x01", `\u00e9\ud800`, `" , "status": "x`, `\`, `\\`, `x", "full": null, "y": "`} {
		f.Add([]byte(s), true)
	}
	f.Fuzz(func(t *testing.T, data []byte, asProof bool) {
		if asProof {
			data = longProof(string(data))
		}
		checkLean(t, data)
	})
}
