package store

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"referee/gen"
	"referee/internal/testutil"
	"referee/model"
	"referee/model/pyjson"
	"referee/skill"
)

// A load leaves long proof texts in their files (model.StatementLean): they are read
// when asked for, from the version the snapshot read, and a fault in one is reported
// then, by `referee check`, and by a change to the statement, which reads it whole.

func TestLoadLeavesLongProofsInTheirFiles(t *testing.T) {
	dir := testutil.Copy(t, fixtureDir)
	path := filepath.Join(dir, "statement", "s-007.json")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want := model.StatementFrom(mustParseDoc(t, data)).Proof.Full
	snap, err := Load(dir)
	if err != nil || len(snap.Broken) > 0 {
		t.Fatalf("%v %v", err, snap.Broken)
	}
	st := snap.Statements.Get("s-007")
	if st.Proof.Body == nil || st.Proof.Full != "" || st.Doc.Obj != nil || st.File == nil || st.File.Path != "statement/s-007.json" {
		t.Fatalf("s-007 (a %d-byte proof) was not read lean: body %v, doc %v", len(want), st.Proof.Body != nil, st.Doc.Kind)
	}
	if got := proofText(t, st); got != want {
		t.Fatalf("Text = %.60q, want %.60q", got, want)
	}
	if doc := document(t, st); !bytes.Equal(pyjson.EncodeIndent(doc), data) {
		t.Fatal("Document does not encode to the file's bytes")
	}

	// Changed on disk: the old snapshot says so; the reload reads the new text.
	old := snap.Statements.Get("s-007")
	fresh, _ := Load(dir)
	changed := bytes.Replace(data, []byte("We prove that"), []byte("We show that"), 1)
	if err := os.WriteFile(path, changed, 0o644); err != nil {
		t.Fatal(err)
	}
	var ce *model.ChangedError
	if _, err := fresh.Statements.Get("s-007").Proof.Text(); !errors.As(err, &ce) || err.Error() != "statement/s-007.json has changed since it was loaded" {
		t.Fatalf("Text after the file changed: %v", err)
	}
	if got := proofText(t, old); got != want {
		t.Fatal("a text read before the change is not kept")
	}
	next := Reload(dir, fresh, []string{"statement/s-007.json"})
	unread := Reload(dir, fresh, []string{"statement/s-007.json"}).Statements.Get("s-007")
	if got := proofText(t, next.Statements.Get("s-007")); got != strings.Replace(want, "We prove that", "We show that", 1) {
		t.Fatalf("after the reload: %.60q", got)
	}

	// A text once read is kept; one not read yet, of a file gone or replaced by a link, is
	// refused with the file named (the link not followed).
	os.Remove(path)
	if _, err := unread.Proof.Text(); err == nil || err.Error() != "statement/s-007.json: no such file or directory" {
		t.Fatalf("Text of a file gone: %v", err)
	}
	if err := os.Symlink(filepath.Join(dir, "statement", "s-001.json"), path); err != nil {
		t.Fatal(err)
	}
	if _, err := unread.Proof.Text(); err == nil || err.Error() != "statement/s-007.json: is a symbolic link (links are not followed)" {
		t.Fatalf("Text of a link: %v", err)
	}
}

func TestAFaultInALongProofIsReportedWhenRead(t *testing.T) {
	dir := testutil.Copy(t, fixtureDir)
	path := filepath.Join(dir, "statement", "s-007.json")
	data, _ := os.ReadFile(path)
	data = bytes.Replace(data, []byte(`"status": "true"`), []byte(`"status": "pending"`), 1)
	full := bytes.Index(data, []byte(`"full": "`))
	at := full + bytes.Index(data[full:], []byte("unique solution")) + len("unique")
	data[at] = 0x01 // a raw control character: json.load refuses the file
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	where := fmt.Sprintf("line %d (byte %d): control character inside a string", 1+bytes.Count(data[:at], []byte("\n")), at)

	snap, err := Load(dir)
	if err != nil || len(snap.Broken) > 0 || snap.Statements.Get("s-007") == nil {
		t.Fatalf("the load: %v %v", err, snap.Broken)
	}
	if _, err := snap.Statements.Get("s-007").Proof.Text(); err == nil || err.Error() != "statement/s-007.json: proof.full: "+where {
		t.Fatalf("Text: %v, want statement/s-007.json: proof.full: %s", err, where)
	}
	whole, err := LoadWhole(dir) // as check and export read
	if err != nil || whole.Statements.Get("s-007") != nil || len(whole.Broken) != 1 || whole.Broken[0] != (model.BrokenFile{Path: "statement/s-007.json", ID: "s-007", Reason: "not valid JSON: " + where}) {
		t.Fatalf("LoadWhole: %v, broken %v", err, whole.Broken)
	}
	findings, err := Check(dir)
	if err != nil {
		t.Fatal(err)
	}
	// check reads every statement whole: the file is broken, as any file that is not JSON.
	wantFinding := Finding{SeverityError, "statement/s-007.json", "s-007", "not valid JSON: " + where}
	found := false
	for _, f := range findings {
		found = found || f == wantFinding
	}
	if !found {
		t.Fatalf("check found %v, want %v among them", findings, wantFinding)
	}
	err = runErr(t, dir, "state-complete-proof", skill.Args{"statement_id": "s-007", "proof_text": "Step 1: x. QED.", "strategy": "direct"})
	if err == nil || !strings.Contains(err.Error(), "statement/s-007.json") || !strings.Contains(err.Error(), where) {
		t.Fatalf("a change to the statement: %v", err)
	}
}

func mustParseDoc(t *testing.T, data []byte) pyjson.Value {
	t.Helper()
	v, err := pyjson.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// An activity listing reads the documents of a lean snapshot again; one whose file an
// agent rewrote meanwhile is marked provisional (and named once, without its path twice),
// and the listing of the newer snapshot has the change right.
func TestActivityOfAFileChangedSinceTheLoadIsProvisional(t *testing.T) {
	dir := testutil.Copy(t, demoDir)
	snap, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "statement", "s-017.json")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, bytes.Replace(data, []byte(`"status": "pending"`), []byte(`"status": "validating"`), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	changes := NewHistory(dir, snap).Activity()
	for _, c := range changes {
		if c.Provisional != (c.ID == "l-037") { // l-037 created s-017; nothing touched it since
			t.Errorf("%s: provisional %v", c.ID, c.Provisional)
		}
	}
	l037 := changes[36]
	if l037.ID != "l-037" || len(l037.Objects) != 1 || l037.Objects[0].Unknown != "statement/s-017.json: has changed since it was loaded" {
		t.Fatalf("l-037: %+v", l037)
	}
	again, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if c := NewHistory(dir, again).Activity()[36]; c.Provisional || c.Objects[0].Unknown != "" || c.Objects[0].To != "validating" {
		t.Fatalf("l-037 listed for the newer snapshot: %+v", c)
	}
}

// TestLeanLoadAsStatementLean: the load reads each statement (by a worker's
// model.Skimmer) as model.StatementLean reads its file: the same statement, proof text
// and all, or the same fault in the broken list.
func TestLeanLoadAsStatementLean(t *testing.T) {
	t.Run("generated", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "contents")
		if err := gen.Generate(dir, gen.Config{Statements: 300, Problems: 5, Seed: 27}); err != nil {
			t.Fatal(err)
		}
		usual := `{"id": "s-003", "type": "normal", "conclusion": ["c"], "hypothesis": [], "preliminaries": [], "status": "true", "reliability": 1.0, "stats": {"count_usage": 0}, "progresses": ["p \u00e9"], "proof": {"cot": ["c"], "full": "` + strings.Repeat("x", 300) + `", "ref": []}, "validation": {"issues": ["i"], "responses": []}}`
		for id, data := range map[string]string{
			"s-003": strings.Replace(usual, `["i"]`, `["a \q"]`, 1),
			"s-004": strings.Replace(usual, `["c"]`, "[\"a\x01\"]", 1),
			"s-005": usual[:150],
			"s-006": usual,
			"s-007": strings.Replace(usual, `x"`, `x\q"`, 1), // a fault in the text left in the file
		} {
			write(t, dir, "statement/"+id+".json", strings.Replace(data, "s-003", id, 1))
		}
		checkLeanLoad(t, dir)
	})
	t.Run("demo", func(t *testing.T) { checkLeanLoad(t, testutil.DemoDir()) })
	t.Run("hostile", func(t *testing.T) { checkLeanLoad(t, hostileFolder(t)) })
}

// checkLeanLoad compares LoadNoLog's statements of dir with StatementLean's reads of
// their files, those a load reads (regular, not too big).
func checkLeanLoad(t *testing.T, dir string) {
	snap, err := LoadNoLog(dir)
	if err != nil {
		t.Fatal(err)
	}
	broken := func(rel string) string { // why the load lists rel as broken, if it does
		i := slices.IndexFunc(snap.Broken, func(b model.BrokenFile) bool { return b.Path == rel })
		if i < 0 {
			return ""
		}
		return snap.Broken[i].Reason
	}
	files, _ := filepath.Glob(filepath.Join(dir, "statement", "*.json"))
	if len(files) < 5 {
		t.Fatalf("%s: only %d statement files", dir, len(files))
	}
	for _, f := range files {
		if info, err := os.Lstat(f); err != nil || !info.Mode().IsRegular() || info.Size() > MaxObjectSize {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		rel := "statement/" + filepath.Base(f)
		want, err := model.StatementLean(data, &model.File{Path: rel, Version: model.Version(data), Read: rereader(dir, rel)})
		if err != nil {
			if broken(rel) != "not valid JSON: "+err.Error() {
				t.Errorf("%s: broken for %q, StatementLean: %v", rel, broken(rel), err)
			}
			continue
		}
		got := snap.Statements.Get(strings.TrimSuffix(filepath.Base(f), ".json"))
		if got == nil {
			if broken(rel) == "" {
				t.Errorf("%s: neither loaded nor broken", rel)
			}
			continue // an ID that is not its file's: apply's to judge
		}
		gotText, gotErr := got.Proof.Text()
		wantText, wantErr := want.Proof.Text()
		if gotText != wantText || (gotErr == nil) != (wantErr == nil) || gotErr != nil && gotErr.Error() != wantErr.Error() {
			t.Errorf("%s: proof text %q, %v; StatementLean %q, %v", rel, gotText, gotErr, wantText, wantErr)
		}
		if got.File.Path != rel || got.File.Version != want.File.Version {
			t.Errorf("%s: file %+v", rel, got.File)
		}
		g, w := *got, *want
		g.Proof.Body, w.Proof.Body, g.File, w.File = nil, nil, nil, nil
		if !reflect.DeepEqual(g, w) {
			t.Errorf("%s: loaded\n%#v\nStatementLean\n%#v", rel, g, w)
		}
	}
}
