package model

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unsafe"

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
	checkReader(t, "Skimmer, StatementSkim", k.Statement, StatementSkim, data)
}

// checkSkimmerLean compares a Skimmer's lean read of data with StatementLean's, as checkSkimmer.
func checkSkimmerLean(t *testing.T, k *Skimmer, data []byte) {
	t.Helper()
	checkReader(t, "Skimmer.Lean, StatementLean", k.Lean, StatementLean, data)
}

// checkReader compares read's statement of data with parse's (names says which, in
// that order): the same statement, proof body and all, or the same error.
func checkReader(t *testing.T, names string, read, parse func([]byte, *File) (*Statement, error), data []byte) {
	t.Helper()
	file := fileOf(data)
	wantS, wantErr := parse(data, file)
	gotS, err := read(data, file)
	if (err == nil) != (wantErr == nil) || err != nil && err.Error() != wantErr.Error() {
		t.Fatalf("%s: %v; %v", names, err, wantErr)
	}
	if err != nil {
		return
	}
	if (gotS.Proof.Body == nil) != (wantS.Proof.Body == nil) {
		t.Fatalf("proof left in the file (%s): %v, %v", names, gotS.Proof.Body != nil, wantS.Proof.Body != nil)
	}
	if b := gotS.Proof.Body; b != nil {
		w := wantS.Proof.Body
		if b.file != w.file || b.off != w.off || b.blank != w.blank {
			t.Fatalf("proof body (%s): %+v, %+v", names, b, w)
		}
		gotText, gotErr := b.Text()
		wantText, wantErr := w.Text()
		if gotText != wantText || (gotErr == nil) != (wantErr == nil) {
			t.Fatalf("proof text (%s): %q, %v; %q, %v", names, gotText, gotErr, wantText, wantErr)
		}
	}
	g, w := *gotS, *wantS
	g.Proof.Body, w.Proof.Body = nil, nil
	if g.Reliability != g.Reliability && w.Reliability != w.Reliability {
		g.Reliability, w.Reliability = 0, 0 // NaN both: equal, as DeepEqual does not see
	}
	if !reflect.DeepEqual(g, w) {
		t.Fatalf("%s:\n%#v\n%#v", names, g, w)
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
		if !(&Skimmer{}).read(&s, data, fileOf(data), false) {
			t.Errorf("%s: left to the parser", name)
		}
	}
	for _, name := range []string{"an unknown key", "a repeated key", "reliability NaN", "a bad escape in an issue", "empty stats"} {
		data := []byte(skimShapes[name])
		var s Statement
		if (&Skimmer{}).read(&s, data, fileOf(data), false) {
			t.Errorf("%s: read by the Skimmer", name)
		}
	}
}

// FuzzSkimmer: a Skimmer reads any input as StatementSkim does, whole files and the texts
// of a usual statement's fields alike (field picks which string of it data replaces).
func FuzzSkimmer(f *testing.F) { fuzzStatements(f, checkSkimmer) }

// FuzzSkimmerLean: a Skimmer's lean read of any input is StatementLean's, as FuzzSkimmer.
func FuzzSkimmerLean(f *testing.F) { fuzzStatements(f, checkSkimmerLean) }

// fuzzStatements fuzzes check with whole files (field 0) and with the texts of a usual
// statement's fields (field picks which string of it data replaces).
func fuzzStatements(f *testing.F, check func(*testing.T, *Skimmer, []byte)) {
	for _, data := range skimShapes {
		f.Add([]byte(data), uint8(0))
	}
	for i, s := range hostileTexts {
		f.Add([]byte(s), uint8(1+i%6))
	}
	fields := []string{`s-001`, `normal`, `A $\\le$ B`, `p2`, `c`, `i1`, `validating`}
	usual := skimShapes["usual"]
	k := &Skimmer{}
	f.Fuzz(func(t *testing.T, data []byte, field uint8) {
		if field > 0 {
			data = []byte(strings.Replace(usual, `"`+fields[int(field)%len(fields)]+`"`, `"`+string(data)+`"`, 1))
		}
		check(t, k, data)
	})
}

// sharedJSON is every JSON file of the shared fixtures' folders (statements, problems,
// experiences, conformance data), if they are there.
func sharedJSON(t *testing.T) []string {
	root := testutil.Path("fixtures")
	if !testutil.Has(root) {
		return nil
	}
	var files []string
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".json") {
			files = append(files, path)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// hostileTexts are texts a statement's strings may hold, as written in JSON: escapes,
// controls, lone and paired surrogates, invalid UTF-8, bidi controls, a quote at a
// boundary of the scanner's eight bytes, and faults Parse refuses.
var hostileTexts = []string{
	``, ` `, `a \"b\" \\`, `\\\\\"`, `\u00e9\ud800`, `\ud83d\ude00`, `\/\b\f\r\t\n`, "caf\xc3\xa9", "\u202e\u2066x", "\x7f\xc2\x85",
	`1234567\"`, `12345678\\`, strings.Repeat(`\u0041`, 70), strings.Repeat("y", leanProof-1) + `\"`,
	"\x01", `\q`, "\xff", "\xed\xa0\x80", `\u12`, `\`, `\\`, `" , "status": "x`, `x", "full": null, "y": "`,
}

// generatedStatement is a statement of the usual shape from r: its keys in a random
// order, random white space, lists of random lengths whose texts are drawn from
// hostileTexts and plain words, a proof short or long.
func generatedStatement(r *rand.Rand) []byte {
	text := func() string {
		if r.IntN(8) == 0 {
			return hostileTexts[r.IntN(len(hostileTexts))]
		}
		return strings.Repeat("word ", r.IntN(20))
	}
	list := func() string {
		items := make([]string, r.IntN(4))
		for i := range items {
			items[i] = `"` + text() + `"`
		}
		return "[" + strings.Join(items, ", ") + "]"
	}
	full := text()
	if r.IntN(2) == 0 {
		full = strings.Repeat("proof ", r.IntN(200)) + full
	}
	members := []string{
		fmt.Sprintf(`"id": "s-%03d"`, 1+r.IntN(999)),
		`"type": "` + text() + `"`,
		`"conclusion": ` + list(),
		`"hypothesis": ` + list(),
		`"preliminaries": ` + list(),
		`"status": "` + text() + `"`,
		`"progresses": ` + list(),
		`"proof": {"cot": ` + list() + `, "full": "` + full + `", "ref": ` + list() + `}`,
		`"validation": {"responses": ` + list() + `, "issues": ` + list() + `}`,
	}
	if r.IntN(2) == 0 {
		members = append(members, `"reliability": `+strconv.FormatFloat(r.Float64(), 'g', -1, 64), `"stats": {"count_usage": `+strconv.Itoa(r.IntN(9))+`}`)
	}
	r.Shuffle(len(members), func(i, j int) { members[i], members[j] = members[j], members[i] })
	space := []string{" ", "\n    ", "", "\t", "\r\n"}
	return []byte("{" + space[r.IntN(len(space))] + strings.Join(members, ","+space[r.IntN(len(space))]) + "}" + space[r.IntN(len(space))])
}

func TestSkimmerLeanReadsAsStatementLean(t *testing.T) {
	k := &Skimmer{}
	demo, _ := filepath.Glob(filepath.Join(testutil.DemoDir(), "*", "*.json"))
	if len(demo) < 5 {
		t.Fatalf("only %d demo files found", len(demo))
	}
	for _, f := range append(sharedJSON(t), demo...) {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(f, func(t *testing.T) { checkSkimmerLean(t, k, data) })
	}
	for name, data := range skimShapes {
		t.Run(name, func(t *testing.T) { checkSkimmerLean(t, k, []byte(data)) })
	}
	usual := skimShapes["usual"]
	for i, text := range hostileTexts {
		for _, field := range []string{`"p2"`, `"c"`, `"i1"`, `"r1"`, `"A $\\le$ B"`, `"validating"`} {
			data := strings.Replace(usual, field, `"`+text+`"`, 1)
			t.Run(fmt.Sprintf("hostile %d in %s", i, field), func(t *testing.T) { checkSkimmerLean(t, k, []byte(data)) })
		}
	}
	r := rand.New(rand.NewPCG(7, 27))
	read := 0
	for i := range 2000 {
		data := generatedStatement(r)
		var s Statement
		if (&Skimmer{}).read(&s, data, fileOf(data), true) {
			read++
		}
		t.Run(fmt.Sprintf("generated %d", i), func(t *testing.T) { checkSkimmerLean(t, k, data) })
	}
	if read < 500 {
		t.Fatalf("only %d of 2000 generated statements were read by the Skimmer itself", read)
	}
}

// TestSkimmerLeanKeepsNothingOfTheBuffer: what a lean statement keeps, the texts a
// skimmed one drops included, is not in the bytes read: a buffer written over after the
// read leaves the statement as it was.
func TestSkimmerLeanKeepsNothingOfTheBuffer(t *testing.T) {
	k := &Skimmer{}
	for _, name := range []string{"usual", "indented", "short proof"} {
		data := []byte(skimShapes[name])
		var s Statement
		if !(&Skimmer{}).read(&s, data, fileOf(data), true) {
			t.Fatalf("%s: left to the parser", name)
		}
		got, err := k.Lean(data, fileOf(data))
		if err != nil {
			t.Fatal(err)
		}
		want, err := StatementLean(slices.Clone(data), got.File)
		if err != nil {
			t.Fatal(err)
		}
		for i := range data {
			data[i] = 'z'
		}
		g, w := *got, *want
		g.Proof.Body, w.Proof.Body = nil, nil
		if !reflect.DeepEqual(g, w) || len(g.Progresses) != 2 || g.Progresses[1] != "p2" || g.Issues[0] != "i1" {
			t.Fatalf("%s: the statement changed with the buffer:\n%#v\nwant\n%#v", name, g, w)
		}
	}
}

// TestStatusSkimmer: a Status Skimmer reads what a Skimmer reads but for the long
// proofs' bodies, one of two shared ones (blank or not, as the body read), which read no
// file back; with NoClaims the conclusions are "" each, their count kept. On generated
// statements (one of another shape is the parser's, as before).
func TestStatusSkimmer(t *testing.T) {
	r := rand.New(rand.NewPCG(6, 27))
	plain, status, noClaims := &Skimmer{}, &Skimmer{Status: true}, &Skimmer{Status: true, NoClaims: true}
	long, shared := 0, 0
	for i := range 400 {
		data := generatedStatement(r)
		want, err := plain.Statement(data, UnkeptFile)
		if err != nil {
			continue
		}
		usual := (&Skimmer{}).statement(data, UnkeptFile, false) != nil // else the parser's: a body of its own, the claims kept
		for _, k := range []*Skimmer{status, noClaims} {
			got, err := k.Statement(data, UnkeptFile)
			if err != nil {
				t.Fatalf("statement %d: %v", i, err)
			}
			if got.Proof.Empty() != want.Proof.Empty() || got.Proof.Blank() != want.Proof.Blank() {
				t.Fatalf("statement %d: empty %v, blank %v; want %v, %v", i, got.Proof.Empty(), got.Proof.Blank(), want.Proof.Empty(), want.Proof.Blank())
			}
			if want.Proof.Body != nil {
				long++
				if usual && got.Proof.Body != &statusBodies[0] && got.Proof.Body != &statusBodies[1] {
					t.Fatalf("statement %d: a body of its own", i)
				}
				if usual {
					shared++
				}
				if _, err := got.Proof.Text(); err == nil || !strings.Contains(err.Error(), "not kept by a status load") {
					t.Fatalf("statement %d: the shared body reads %v", i, err)
				}
			}
			wantClaims := want.Conclusion
			if k.NoClaims && usual {
				wantClaims = blanks(want.Conclusion)
			}
			g, w := *got, *want
			g.Proof.Body, w.Proof.Body, w.Conclusion = nil, nil, wantClaims
			if !reflect.DeepEqual(g, w) {
				t.Fatalf("statement %d (NoClaims %v): %+v\nwant %+v", i, k.NoClaims, g, w)
			}
		}
	}
	if long < 50 || shared < 20 {
		t.Errorf("%d long proofs, %d read by the Skimmer", long, shared)
	}
}

// TestSkimmerSharesStatusWords: a skimmed statement's status of the lifecycle's words
// is that word, one string shared by every statement (Derive counts statuses by
// comparing strings: the same one compares at once); another status, or one written
// with an escape, is read as written, as StatementSkim reads it.
func TestSkimmerSharesStatusWords(t *testing.T) {
	usual := `{"id": "s-003", "type": "normal", "conclusion": ["c"], "hypothesis": [], "preliminaries": [], "status": "STATUS", "reliability": 1.0, "stats": {"count_usage": 0}, "progresses": [], "proof": {"cot": [], "full": "", "ref": []}, "validation": {"issues": [], "responses": []}}`
	for _, k := range []*Skimmer{{}, {Status: true}} {
		for _, status := range append(slices.Clone(statusWords[:]), "tru", "truex", "", "r\u00e9solu", `tr\u0075e`, "true ") {
			data := []byte(strings.Replace(usual, "STATUS", status, 1))
			st, err := k.Statement(data, UnkeptFile)
			if err != nil {
				t.Fatalf("%q: %v", status, err)
			}
			want, err := StatementSkim(data, UnkeptFile)
			if err != nil || st.Status != want.Status {
				t.Fatalf("%q: skimmed %q, StatementSkim %q (%v)", status, st.Status, want.Status, err)
			}
			_, _, known := StatusInfo(st.Status)
			i := slices.Index(statusWords[:], st.Status)
			if shared := i >= 0 && unsafe.StringData(st.Status) == unsafe.StringData(statusWords[i]); known != shared && status != `tr\u0075e` {
				t.Errorf("%q: a word StatusInfo knows: %v; the shared word: %v", status, known, shared)
			}
		}
	}
	if len(statusWords) != 13 {
		t.Errorf("%d status words", len(statusWords))
	}
}
