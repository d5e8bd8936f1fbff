package store

import (
	"errors"
	"fmt"
	stdmaps "maps"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"referee/internal/testutil"
	"referee/model"
	"referee/model/pyjson"
	"referee/skill"
)

// Files written by language models and by tools that write in place: every kind of
// broken file loads without a panic, the rest of the folder loads, and check names each
// with its reason.

// hostileFiles are files of a contents folder, each broken in its own way, with what
// Load says about it ("" when the object loads) and what check says about it.
var hostileFiles = []struct {
	path, data string
	broken     string   // Snapshot.Broken reason
	check      []string // check's findings for the file, in order
}{
	{path: "statement/s-020.json", data: "", broken: "not valid JSON: line 1 (byte 0): empty file"},
	{path: "statement/s-021.json", data: "{\n    \"id\": \"s-021\",\n    \"type\": \"nor",
		broken: "not valid JSON: line 3 (byte 37): unterminated string (truncated?)"},
	{path: "statement/s-022.json", data: "{\n    \"id\": \"s-022\",\n    \"conclusion\": [\n        \"a\",\n",
		broken: "not valid JSON: line 5 (byte 54): unexpected end of file (truncated?)"},
	{path: "statement/s-023.json", data: randomBytes(1, 300), broken: "not valid JSON: line 1 (byte 0): unexpected byte 0xb8 (not UTF-8 text)"},
	{path: "statement/s-024.json", data: `{"id": "s-024", "conclusion": ["` + "caf\xe9" + `"]}`,
		broken: "not valid JSON: line 1 (byte 35): invalid UTF-8 in a string"},
	{path: "statement/s-025.json", data: strings.Repeat("[", 100000) + strings.Repeat("]", 100000),
		broken: "not valid JSON: line 1 (byte 513): nesting deeper than 512 levels"},
	{path: "statement/s-026.json", data: `{"id": "s-026", "x": ` + strings.Repeat(`{"a": `, 600) + "1" + strings.Repeat("}", 600) + "}",
		broken: "not valid JSON: line 1 (byte 3093): nesting deeper than 512 levels"},
	{path: "statement/s-027.json", data: "\ufeff{}", broken: "not valid JSON: line 1 (byte 0): unexpected UTF-8 byte-order mark"},
	{path: "statement/s-028.json", data: `[1, 2]`, check: []string{
		"error: statement/s-028.json: s-028: (file): expected an object, found a list"}},
	{path: "statement/S-001.json", data: `{}`, broken: `file name "S-001" is not a statement ID`},
	{path: "statement/s-029.json.", data: `{}`},
	{path: "problem/s-030.json", data: `{}`, broken: `file name "s-030" is not a problem ID`},
	{path: "statement/s-031.json", data: hostileStatement("s-031", "proving-ish", nil), check: []string{
		`warning: statement/s-031.json: s-031: unknown status "proving-ish" (neither vocabulary has it)`}},
	{path: "statement/s-032.json", data: hostileStatement("s-033", "pending", nil), check: []string{
		`error: statement/s-032.json: s-032: its "id" is "s-033", not the file name's s-032`}},
	{path: "statement/s-034.json", data: hostileStatement("s-034", "pending\x00\u202e", nil), check: []string{
		`warning: statement/s-034.json: s-034: unknown status "pending\x00\u202e" (neither vocabulary has it)`}},
	// References that dangle, loop, or look like paths.
	{path: "statement/s-035.json", data: hostileStatement("s-035", "pending", []string{"s-999", "../../etc/passwd", "s-035", "(s-../x) lemma"}), check: []string{
		`error: statement/s-035.json: s-035: preliminaries names s-999, which does not exist`,
		`error: statement/s-035.json: s-035: references itself (a cycle)`,
		`error: statement/s-035.json: s-035: preliminaries item 2, "../../etc/passwd", is not a reference (expected an ID such as s-007, or "(s-007) text")`,
		`error: statement/s-035.json: s-035: preliminaries item 4 starts like a reference, but "(s-../x)" is not an ID`}},
	{path: "statement/s-036.json", data: hostileStatement("s-036", "pending", []string{"s-037"}), check: []string{
		`error: statement/s-036.json: s-036: is in a reference cycle with s-037`}},
	{path: "statement/s-037.json", data: hostileStatement("s-037", "pending", []string{"(s-036) the other half"})},
	{path: "problem/p-002.json", data: `{"id": "p-002", "hypothesis": ["(s-../../x) h"], "objectives": ["o"], "status": "open?", "priority": "", "summary": "", "progresses": [], "preliminaries": ["/etc/passwd"], "solution": {"cot": [], "full": "", "ref": []}}`, check: []string{
		`error: problem/p-002.json: p-002: preliminaries item 1, "/etc/passwd", is not a reference (expected an ID such as s-007, or "(s-007) text")`,
		`error: problem/p-002.json: p-002: hypothesis item 1 starts like a reference, but "(s-../../x)" is not an ID`,
		`warning: problem/p-002.json: p-002: unknown status "open?" (neither vocabulary has it)`}},
}

// hostileStatement is a well-formed statement with the given id, status and preliminaries.
func hostileStatement(id, status string, prelims []string) string {
	doc := model.NewStatement(id, "normal", []string{"claim of " + id}, nil, status)
	doc.Set("preliminaries", pyjson.Strs(prelims))
	return string(pyjson.EncodeIndent(doc))
}

func randomBytes(seed uint64, n int) string {
	r := rand.New(rand.NewPCG(seed, seed))
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.UintN(256))
	}
	return string(b)
}

// hostileFolder is the fixture with every hostile file, a directory, a symlink, a FIFO
// and an oversized file named like objects.
func hostileFolder(t *testing.T) string {
	dir := testutil.Copy(t, fixtureDir)
	for _, f := range hostileFiles {
		write(t, dir, f.path, f.data)
	}
	os.Mkdir(filepath.Join(dir, "statement", "s-040.json"), 0o755)
	os.Symlink("/etc/passwd", filepath.Join(dir, "statement", "s-041.json"))
	os.Symlink("s-001.json", filepath.Join(dir, "statement", "s-042.json"))
	if err := syscall.Mkfifo(filepath.Join(dir, "statement", "s-043.json"), 0o644); err != nil {
		t.Fatal(err)
	}
	big, _ := os.Create(filepath.Join(dir, "statement", "s-044.json"))
	big.Truncate(MaxObjectSize + 1) // sparse: costs nothing
	big.Close()
	return dir
}

var hostileSpecial = map[string]string{
	"statement/s-040.json": "is a directory, expected a JSON file",
	"statement/s-041.json": "is a symbolic link (links are not followed)",
	"statement/s-042.json": "is a symbolic link (links are not followed)",
	"statement/s-043.json": "is not a regular file",
	"statement/s-044.json": fmt.Sprintf("is %d bytes, more than the %d an object file may have", MaxObjectSize+1, MaxObjectSize),
}

func TestHostileFilesLoad(t *testing.T) {
	dir := hostileFolder(t)
	snap, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, b := range snap.Broken {
		got[b.Path] = b.Reason
	}
	want := stdmaps.Clone(hostileSpecial)
	for _, f := range hostileFiles {
		if f.broken != "" {
			want[f.path] = f.broken
		}
	}
	for path, reason := range want {
		if got[path] != reason {
			t.Errorf("%s: Load says %q, want %q", path, got[path], reason)
		}
	}
	if len(got) != len(want) {
		t.Errorf("broken: %v, want %d entries", got, len(want))
	}
	// The rest of the folder loads: the fixture's seven statements and the readable
	// hostile ones.
	for _, id := range []string{"s-001", "s-007", "s-028", "s-031", "s-032", "s-034", "s-035", "s-036", "s-037"} {
		if snap.Statements.Get(id) == nil {
			t.Errorf("%s did not load", id)
		}
	}
	if snap.Statements.Len() != 14 || len(snap.Problems) != 2 || len(snap.Log) != 6 {
		t.Errorf("loaded %d statements, %d problems, %d log lines", snap.Statements.Len(), len(snap.Problems), len(snap.Log))
	}
	model.Derive(snap) // never loops on the cycles
}

func TestHostileFilesCheck(t *testing.T) {
	dir := hostileFolder(t)
	findings, err := Check(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range findings {
		got = append(got, f.Severity+": "+f.String())
	}
	for _, f := range hostileFiles {
		want := f.check
		if f.broken != "" {
			id := ""
			if kind, fid, ok := objectPath(f.path); ok && model.ValidID(fid, kind) {
				id = fid + ": "
			}
			want = []string{"error: " + f.path + ": " + id + f.broken}
		}
		for _, w := range want {
			if !slices.Contains(got, w) {
				t.Errorf("check does not say %q", w)
			}
		}
	}
	for path, reason := range hostileSpecial {
		w := "error: " + path + ": " + strings.TrimSuffix(filepath.Base(path), ".json") + ": " + reason
		if !slices.Contains(got, w) {
			t.Errorf("check does not say %q", w)
		}
	}
	if !slices.Contains(got, "warning: statement/s-029.json.: not an object file (the agents and referee ignore it)") {
		t.Errorf("check does not name statement/s-029.json.")
	}
	if t.Failed() {
		t.Logf("check said:\n%s", strings.Join(got, "\n"))
	}
}

// Every field of a statement and of a problem, one at a time, with every wrong JSON
// type: the object still loads, and check names the field and what it found.
func TestWrongTypeForEveryField(t *testing.T) {
	wrong := []struct {
		name string
		v    pyjson.Value
	}{
		{"null", pyjson.Value{Kind: pyjson.Null}},
		{"a boolean", pyjson.Value{Kind: pyjson.Bool, Str: "true"}},
		{"a number", pyjson.Int(7)},
		{"a string", pyjson.Str("x")},
		{"a list", pyjson.Value{Kind: pyjson.Array, Arr: []pyjson.Value{pyjson.Int(1)}}},
		{"an object", pyjson.Obj(pyjson.M("k", pyjson.Str("v")))},
	}
	// What each field expects, and the kinds it accepts.
	type field struct {
		path   []string
		expect string
		ok     []string
	}
	text := func(path ...string) field { return field{path, "a string", []string{"a string"}} }
	list := func(path ...string) field { return field{path, "a list of strings", []string{"a list"}} }
	number := func(path ...string) field { return field{path, "a number", []string{"a number"}} }
	proof := func(key string) field { return field{[]string{key}, "{cot, full, ref}", []string{"an object"}} }
	statementFields := []field{text("id"), text("type"), list("conclusion"), list("hypothesis"), list("preliminaries"),
		text("status"), number("reliability"), {[]string{"stats"}, "{count_usage}", []string{"an object"}},
		number("stats", "count_usage"), list("progresses"), proof("proof"), list("proof", "cot"), text("proof", "full"),
		list("proof", "ref"), {[]string{"validation"}, "{issues, responses}", []string{"an object"}},
		list("validation", "issues"), list("validation", "responses")}
	problemFields := []field{text("id"), list("hypothesis"), list("objectives"), text("status"), text("priority"),
		text("summary"), list("progresses"), list("preliminaries"), proof("solution"), list("solution", "cot"),
		text("solution", "full"), list("solution", "ref")}
	cases := 0
	for _, kind := range []string{"statement", "problem"} {
		fields, id, base := statementFields, "s-008", model.NewStatement("s-008", "normal", []string{"c"}, nil, "pending")
		if kind == "problem" {
			fields, id, base = problemFields, "p-002", model.NewProblem("p-002", nil, []string{"o"}, "unresolved", "", "")
		}
		rel := kind + "/" + id + ".json"
		for _, f := range fields {
			for _, w := range wrong {
				if slices.Contains(f.ok, w.name) {
					continue
				}
				cases++
				doc := base.Clone()
				v := &doc
				for _, k := range f.path[:len(f.path)-1] {
					v, _ = v.Get(k)
				}
				v.Set(f.path[len(f.path)-1], w.v)
				dir := testutil.Copy(t, fixtureDir)
				write(t, dir, rel, string(pyjson.EncodeIndent(doc)))
				snap, err := Load(dir)
				if err != nil || !snap.Exists(id) || len(snap.Broken) > 0 {
					t.Errorf("%s.%s = %s: the object did not load (%v %v)", id, strings.Join(f.path, "."), w.name, err, snap.Broken)
					continue
				}
				findings, _ := Check(dir)
				want := fmt.Sprintf("%s: %s: %s: expected %s, found %s", rel, id, strings.Join(f.path, "."), f.expect, w.name)
				if w.name == "a string" && f.expect == "{cot, full, ref}" {
					want = fmt.Sprintf("%s: %s: %s: expected {cot, full, ref}, found a string", rel, id, f.path[0])
				}
				found := false
				var all []string
				for _, fd := range findings {
					found = found || fd.String() == want
					all = append(all, fd.String())
				}
				if !found {
					t.Errorf("check does not say %q; it says:\n%s", want, strings.Join(all, "\n"))
				}
			}
		}
	}
	// A list with an item that is not a string.
	dir := testutil.Copy(t, fixtureDir)
	doc := model.NewStatement("s-008", "normal", []string{"c"}, nil, "pending")
	doc.Set("conclusion", pyjson.Value{Kind: pyjson.Array, Arr: []pyjson.Value{pyjson.Str("c"), pyjson.Int(1)}})
	write(t, dir, "statement/s-008.json", string(pyjson.EncodeIndent(doc)))
	findings, _ := Check(dir)
	if !slices.ContainsFunc(findings, func(f Finding) bool {
		return f.String() == "statement/s-008.json: s-008: conclusion: expected a list of strings, some items are not strings"
	}) {
		t.Errorf("a list with a number: %v", findings)
	}
	if cases != (17+12)*5 {
		t.Errorf("%d cases, want %d", cases, (17+12)*5)
	}
}

// A wrong-shaped object is never half rewritten: a skill on it either refuses or writes
// a file that parses, and the backup holds the object exactly as it was.
func TestSkillsOnHostileObjects(t *testing.T) {
	for _, f := range hostileFiles {
		if f.broken != "" || !strings.HasPrefix(f.path, "statement/") {
			continue
		}
		dir := openProblemFolder(t)
		id := strings.TrimSuffix(filepath.Base(f.path), ".json")
		write(t, dir, f.path, f.data)
		abandon, _ := skill.Lookup("abandon")
		res, err := Run(dir, abandon, skill.Args{"statement_id": id, "reason": "hostile"}, Options{Actor: "tester", Now: pinned})
		if err != nil {
			continue // refused: nothing written (the skill tests assert that)
		}
		if got := read(t, dir, "history/"+res.Change+"/"+id+".json"); got != f.data {
			t.Errorf("%s: the backup is not the file as it was", id)
		}
		if _, err := pyjson.Parse([]byte(read(t, dir, f.path))); err != nil {
			t.Errorf("%s: the rewritten file does not parse: %v", id, err)
		}
	}
}

// Lone surrogates ("\ud800", legal in Python) survive a rewrite; NUL and bidi overrides
// are kept as written; a 5 MB proof loads, is checked, and is rewritten byte for byte.
func TestHostileTextRoundTrips(t *testing.T) {
	dir := openProblemFolder(t)
	const sentence = "Step 1: Suppose $x$ is odd. Then $x^2$ is odd. "
	proof := strings.Repeat(sentence, 5<<20/len(sentence)+1) + "QED."
	doc := model.NewStatement("s-008", "normal", nil, nil, "pending")
	doc.Set("conclusion", pyjson.Strs([]string{"lone " + wtf8(0xd800) + " and " + wtf8(0xdfff) + ", NUL \x00, bidi \u202eevil\u202c"}))
	doc.Set("proof", pyjson.Obj(pyjson.M("cot", pyjson.Strs(nil)), pyjson.M("full", pyjson.Str(proof)), pyjson.M("ref", pyjson.Strs(nil))))
	written := pyjson.EncodeIndent(doc)
	if !strings.Contains(string(written), `"lone \ud800 and \udfff, NUL \u0000, bidi \u202eevil\u202c"`) {
		t.Fatalf("encoded as %s", written[:200])
	}
	write(t, dir, "statement/s-008.json", string(written))
	if len(written) < 5<<20 {
		t.Fatalf("the proof is only %d bytes", len(written))
	}
	snap, err := Load(dir)
	if err != nil || snap.Statements.Get("s-008") == nil || len(snap.Broken) > 0 {
		t.Fatalf("%v %v", err, snap.Broken)
	}
	if got := proofText(t, snap.Statements.Get("s-008")); got != proof {
		t.Errorf("the proof read back is %d bytes, want %d", len(got), len(proof))
	}
	if _, err := Check(dir); err != nil {
		t.Fatal(err)
	}
	abandon, _ := skill.Lookup("abandon")
	if _, err := Run(dir, abandon, skill.Args{"statement_id": "s-008"}, Options{Actor: "tester", Now: pinned}); err != nil {
		t.Fatal(err)
	}
	after := read(t, dir, "statement/s-008.json")
	want := strings.Replace(string(written), `"status": "pending"`, `"status": "abandoned"`, 1)
	if after != want {
		t.Errorf("the rewrite changed more than the status (%d bytes, want %d)", len(after), len(want))
	}
}

// wtf8 is a lone surrogate as the parser keeps it.
func wtf8(r rune) string {
	return string([]byte{0xe0 | byte(r>>12), 0x80 | byte(r>>6)&0x3f, 0x80 | byte(r)&0x3f})
}

// Links out of the folder are never followed, for reading or writing: an object folder,
// history/, config.json, the log or the lock as a link.
func TestLinkedFoldersAreRefused(t *testing.T) {
	outside := testutil.Copy(t, fixtureDir)
	outsideState := folderState(t, outside)
	for _, link := range []string{"statement", "history", "config.json", "history/log.jsonl", "history/.referee.lock"} {
		t.Run(link, func(t *testing.T) {
			dir := testutil.Copy(t, fixtureDir)
			target := filepath.Join(outside, filepath.FromSlash(link))
			if link == LockFile {
				target = filepath.Join(outside, "lock-target") // a file the lock would create
			}
			os.RemoveAll(filepath.Join(dir, filepath.FromSlash(link)))
			if err := os.Symlink(target, filepath.Join(dir, filepath.FromSlash(link))); err != nil {
				t.Fatal(err)
			}
			snap, err := Load(dir)
			if err != nil {
				t.Fatal(err)
			}
			switch link {
			case "statement":
				if snap.Statements.Len() != 0 || !slices.Contains(snap.Broken, model.BrokenFile{Path: "statement", Reason: linkReason}) {
					t.Errorf("statements %d, broken %v", snap.Statements.Len(), snap.Broken)
				}
			case "history", "history/log.jsonl", "config.json":
				if snap.Log != nil && link != "config.json" || snap.Config != nil && link == "config.json" {
					t.Errorf("read through the link")
				}
				if !slices.ContainsFunc(snap.Broken, func(b model.BrokenFile) bool { return b.Reason == linkReason }) {
					t.Errorf("broken %v", snap.Broken)
				}
			}
			abandon, _ := skill.Lookup("abandon")
			_, err = Run(dir, abandon, skill.Args{"statement_id": "s-001"}, Options{Actor: "tester", Now: pinned})
			want := link + " is a symbolic link (links are not followed); referee does not read or write through links in a contents folder"
			var ie *skill.InputError
			if !errors.As(err, &ie) || err.Error() != want {
				t.Errorf("Run: %v, want %q", err, want)
			}
			if d := diffStates(folderState(t, outside), outsideState); len(d) > 0 {
				t.Errorf("wrote outside the folder: %v", d)
			}
			if _, err := os.Lstat(filepath.Join(outside, "lock-target")); err == nil {
				t.Error("created the lock's target outside the folder")
			}
			if _, err := Check(dir); err != nil {
				t.Fatal(err)
			}
			if _, err := Repair(dir, false); err == nil || err.Error() != want {
				t.Errorf("Repair: %v", err)
			}
		})
	}
}

// A FIFO in place of config.json, the log or the lock would block a reader forever:
// nothing opens one.
func TestFIFOsDoNotBlock(t *testing.T) {
	for _, rel := range []string{ConfigFile, LogFile, LockFile} {
		t.Run(rel, func(t *testing.T) {
			dir := openProblemFolder(t)
			os.Remove(filepath.Join(dir, filepath.FromSlash(rel)))
			if err := syscall.Mkfifo(filepath.Join(dir, filepath.FromSlash(rel)), 0o644); err != nil {
				t.Fatal(err)
			}
			done := make(chan string, 1)
			go func() {
				snap, err := Load(dir)
				if err != nil {
					done <- err.Error()
					return
				}
				Check(dir)
				Repair(dir, true)
				_, rerr := Run(dir, mustSkill("abandon"), skill.Args{"statement_id": "s-001"}, Options{Now: pinned})
				var reasons []string
				for _, b := range snap.Broken {
					reasons = append(reasons, b.Path+": "+b.Reason)
				}
				done <- fmt.Sprint(reasons, " | ", rerr)
			}()
			select {
			case got := <-done:
				want := map[string]string{
					ConfigFile: "[config.json: is not a regular file] | config.json is not a regular file",
					LogFile:    "[history/log.jsonl: is not a regular file] | history/log.jsonl is not a regular file",
					LockFile:   "[] | history/.referee.lock is not a regular file",
				}[rel]
				if got != want {
					t.Errorf("got %q, want %q", got, want)
				}
			case <-time.After(waitLong):
				t.Fatal("blocked on the FIFO")
			}
		})
	}
}

func mustSkill(name string) *skill.Skill {
	s, ok := skill.Lookup(name)
	if !ok {
		panic(name)
	}
	return s
}

// init in a folder whose history/ is a link out of it writes nothing there.
func TestInitRefusesLinkedHistory(t *testing.T) {
	dir, outside := t.TempDir(), t.TempDir()
	os.Symlink(outside, filepath.Join(dir, "history"))
	_, err := Init(dir, []string{"o"}, []string{"h"}, Options{Now: pinned})
	if err == nil || err.Error() != "history is a symbolic link (links are not followed); referee does not read or write through links in a contents folder" {
		t.Errorf("Init: %v", err)
	}
	if entries, _ := os.ReadDir(outside); len(entries) > 0 {
		t.Errorf("wrote %v outside the folder", entries)
	}
}
