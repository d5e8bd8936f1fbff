package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"referee/model"
	"referee/model/pyjson"
	"referee/store"
)

// The agents' real run is clean: no errors and no warnings.
func TestCheckFixture(t *testing.T) {
	root := copyFixture(t)
	referee(t, root, "", "check").want(t, 0, "0 errors, 0 warnings\n", "")
	referee(t, root, "", "check", "--output", "json").want(t, 0, "[]\n", "")
	referee(t, root, "", "check", "--contents", "nowhere").want(t, 2, "",
		"referee: contents folder nowhere: no such file or directory\n")
}

// editJSON rewrites an object file through the model codec.
func editJSON(t *testing.T, path string, edit func(doc *pyjson.Value)) {
	t.Helper()
	doc, err := pyjson.Parse([]byte(readFile(t, path)))
	if err != nil {
		t.Fatal(err)
	}
	edit(&doc)
	writeFile(t, path, string(pyjson.EncodeIndent(doc)))
}

func TestCheckBrokenFolder(t *testing.T) {
	root := copyFixture(t)
	dir := filepath.Join(root, "contents")
	p := func(rel string) string { return filepath.Join(dir, filepath.FromSlash(rel)) }

	// 1. A truncated file (an agent caught mid-write).
	writeFile(t, p("statement/s-002.json"), readFile(t, p("statement/s-002.json"))[:100])
	// 2. A file whose id is not its name.
	editJSON(t, p("statement/s-004.json"), func(d *pyjson.Value) { d.Set("id", pyjson.Str("s-040")) })
	// 3. A field of the wrong shape.
	editJSON(t, p("statement/s-005.json"), func(d *pyjson.Value) { d.Set("conclusion", pyjson.Str("a lone string")) })
	// 4. A dangling reference; 5. issue and response numbering; status true with an open issue.
	editJSON(t, p("statement/s-007.json"), func(d *pyjson.Value) {
		proof, _ := d.Get("proof")
		ref, _ := proof.Get("ref")
		ref.Arr = append(ref.Arr, pyjson.Str("s-099"))
		v, _ := d.Get("validation")
		v.Set("issues", pyjson.Strs([]string{"[Issue #2] Sentence 3: 'x' | Type: gap | Explanation: e | Fix: f"}))
		v.Set("responses", pyjson.Strs([]string{"[Response #1] Fixes Issue #5 | Type: patch | Change: c"}))
	})
	// 6. A cycle, and a status that does not fit the counts (has_gap, no issue open).
	editJSON(t, p("statement/s-001.json"), func(d *pyjson.Value) { d.Set("preliminaries", pyjson.Strs([]string{"s-006"})) })
	editJSON(t, p("statement/s-006.json"), func(d *pyjson.Value) {
		d.Set("preliminaries", pyjson.Strs([]string{"s-001"}))
		d.Set("status", pyjson.Str("has_gap"))
	})
	// 7. An unknown status.
	editJSON(t, p("statement/s-003.json"), func(d *pyjson.Value) { d.Set("status", pyjson.Str("done")) })
	// 8. Counters behind the disk: a problem beyond "p", a change folder beyond "l".
	writeFile(t, p("problem/p-002.json"), strings.Replace(readFile(t, p("problem/p-001.json")), `"id": "p-001"`, `"id": "p-002"`, 1))
	writeFile(t, p("config.json"), strings.Replace(readFile(t, p("config.json")), `"l-006"`, `"l-005"`, 1))
	// 9. A log line that does not parse; a change whose backup is gone.
	writeFile(t, p("history/log.jsonl"), readFile(t, p("history/log.jsonl"))+"not json\n")
	if err := os.Remove(p("history/l-004/s-007.json")); err != nil {
		t.Fatal(err)
	}
	// 10. A symbolic link, a folder named like an object, a file that is no ID, a stray file.
	if err := os.Symlink("s-001.json", p("statement/s-010.json")); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(p("experience/e-001.json"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, p("statement/notes.json"), "{}")
	writeFile(t, p("statement/README"), "hello")
	// 11. An orphan: a statement nothing references (the counter is set for it).
	writeFile(t, p("statement/s-008.json"), string(pyjson.EncodeIndent(model.NewStatement("s-008", "normal", []string{"lost"}, nil, "pending"))))

	want := `error: config.json: e-001: the "e" counter is e-000 but experience/e-001.json exists: new experience IDs would collide with it (set the counter to e-001)
error: config.json: l-006: the "l" counter is l-005 but history/l-006/ exists: new change IDs would collide with it (set the counter to l-006)
error: config.json: p-002: the "p" counter is p-001 but problem/p-002.json exists: new problem IDs would collide with it (set the counter to p-002)
error: config.json: s-010: the "s" counter is s-007 but statement/s-010.json exists: new statement IDs would collide with it (set the counter to s-010)
error: experience/e-001.json: e-001: is a directory, expected a JSON file
error: history/log.jsonl: line 7 does not parse: byte 0: invalid literal (expected null)
error: history/log.jsonl: l-006: line 6: l-006 is beyond the config.json counter l-005: the next change would reuse an ID
error: problem/p-001.json: p-001: hypothesis names s-002, whose file cannot be read
error: problem/p-002.json: p-002: hypothesis names s-002, whose file cannot be read
error: statement/notes.json: file name "notes" is not a statement ID
error: statement/s-001.json: s-001: is in a reference cycle with s-006
error: statement/s-002.json: s-002: not valid JSON: line 5 (byte 100): unterminated string (truncated?)
error: statement/s-004.json: s-004: its "id" is "s-040", not the file name's s-004
error: statement/s-005.json: s-005: conclusion: expected a list of strings, found a string
error: statement/s-006.json: s-006: status has_gap, but no issue is without a response (the fixer has nothing to answer)
error: statement/s-007.json: s-007: issue #2 is number 1 in the list (issues must be #1..#1 in order)
error: statement/s-007.json: s-007: response #1 fixes issue #5, which does not exist
error: statement/s-007.json: s-007: proof.ref names s-002, whose file cannot be read
error: statement/s-007.json: s-007: proof.ref names s-099, which does not exist
error: statement/s-007.json: s-007: hypothesis names s-002, whose file cannot be read
error: statement/s-010.json: s-010: is a symbolic link (links are not followed)
warning: history/log.jsonl: l-004: line 4: l-004 modified s-007 but history/l-004/s-007.json is missing, so it cannot be rewound
warning: statement/README: not an object file (the agents and referee ignore it)
warning: statement/s-003.json: s-003: unknown status "done" (neither vocabulary has it)
warning: statement/s-007.json: s-007: status true, but issue #2 has no response
warning: statement/s-008.json: s-008: nothing references it (did an agent stop between creating and linking it?)
21 errors, 5 warnings
`
	referee(t, root, "", "check").want(t, 1, want, "")

	o := referee(t, root, "", "check", "--output", "json")
	var findings []store.Finding
	if err := json.Unmarshal([]byte(o.stdout), &findings); err != nil || o.code != 1 {
		t.Fatalf("check json: %v %+v", err, o)
	}
	var lines []string
	for _, f := range findings {
		lines = append(lines, f.Severity+": "+f.String())
	}
	if got := strings.Join(lines, "\n") + "\n21 errors, 5 warnings\n"; got != want {
		t.Errorf("json findings:\n%s", got)
	}
	if f := findings[0]; f.Severity != "error" || f.Path != "config.json" || f.Object != "e-001" {
		t.Errorf("first finding: %+v", f)
	}

	// Warnings alone do not fail.
	clean := copyFixture(t)
	writeFile(t, filepath.Join(clean, "contents/statement/README"), "hello")
	referee(t, clean, "", "check").want(t, 0,
		"warning: statement/README: not an object file (the agents and referee ignore it)\n0 errors, 1 warning\n", "")
}

func TestCheckMissingConfigAndCounts(t *testing.T) {
	root := copyFixture(t)
	dir := filepath.Join(root, "contents")
	if err := os.Remove(filepath.Join(dir, "config.json")); err != nil {
		t.Fatal(err)
	}
	editJSON(t, filepath.Join(dir, "statement/s-007.json"), func(d *pyjson.Value) {
		d.Set("status", pyjson.Str("awaiting_verification"))
		v, _ := d.Get("validation")
		v.Set("issues", pyjson.Strs([]string{
			"[Issue #1] Sentence 3: 'x' | Type: gap | Explanation: e | Fix: f",
			"[Issue #1] Sentence 4: 'y' | Type: gap | Explanation: e | Fix: f",
			"[Issue #3] Sentence 5: 'z' | Type: gap | Explanation: e | Fix: f",
		}))
		v.Set("responses", pyjson.Strs([]string{"[Response #2] Fixes Issue #1 | Type: patch | Change: c", "no response at all"}))
	})
	referee(t, root, "", "check").want(t, 1, `error: config.json: missing: no new ID can be issued (referee init sets up a folder)
error: statement/s-007.json: s-007: two issues are numbered #1
error: statement/s-007.json: s-007: response #2 is number 1 in the list (responses must be #1..#2 in order)
error: statement/s-007.json: s-007: status awaiting_verification, but issue #3 has no response (the checker will refuse it)
warning: statement/s-007.json: s-007: response 2 of 2 does not parse (no "[Response #N]" header); it is shown as written
4 errors, 1 warning
`, "")
}

func TestStatus(t *testing.T) {
	root := copyFixture(t)
	referee(t, root, "", "status", "--output", "json").want(t, 0, `{
  "vocabulary": "P014",
  "next": [],
  "counts": {
    "true": 7
  },
  "problem_counts": {
    "resolved": 1
  },
  "stale": {},
  "orphans": [],
  "unreachable": [],
  "dangling": [],
  "cycles": [],
  "unknown": {},
  "broken": 0
}
`, "")
	referee(t, root, "", "status").want(t, 0, `contents: ./contents (P014 vocabulary)
statements: 7 (true 7)
problems: 1 (resolved 1)
next: nothing to run
`, "")
	// Reopen the problem, withdraw s-007's proof, add an orphan and trouble.
	dir := filepath.Join(root, "contents")
	editJSON(t, filepath.Join(dir, "problem/p-001.json"), func(d *pyjson.Value) { d.Set("status", pyjson.Str("unresolved")) })
	editJSON(t, filepath.Join(dir, "statement/s-007.json"), func(d *pyjson.Value) {
		d.Set("status", pyjson.Str("validating"))
		d.Set("preliminaries", pyjson.Strs([]string{"s-008"}))
	})
	writeFile(t, filepath.Join(dir, "statement/s-008.json"), string(pyjson.EncodeIndent(model.NewStatement("s-008", "normal", []string{"Alice is not a Knave"}, nil, "pending"))))
	writeFile(t, filepath.Join(dir, "statement/s-009.json"), string(pyjson.EncodeIndent(model.NewStatement("s-009", "normal", []string{"Lost\x1b[31m red"}, []string{"(s-099) gone"}, "pending"))))
	writeFile(t, filepath.Join(dir, "statement/s-011.json"), string(pyjson.EncodeIndent(model.NewStatement("s-011", "normal", []string{"Refuted"}, nil, "false"))))
	editJSON(t, filepath.Join(dir, "statement/s-005.json"), func(d *pyjson.Value) { d.Set("preliminaries", pyjson.Strs([]string{"s-011"})) })
	writeFile(t, filepath.Join(dir, "statement/s-010.json"), "{")
	editJSON(t, filepath.Join(dir, "statement/s-006.json"), func(d *pyjson.Value) { d.Set("status", pyjson.Str("done")) })
	referee(t, root, "", "status", "--output", "json").want(t, 0, `{
  "vocabulary": "P014",
  "next": [
    {
      "id": "s-008",
      "agent": "agent-prove",
      "depth": 2,
      "blocks": 11
    },
    {
      "id": "p-001",
      "agent": "agent-solve",
      "depth": 0,
      "blocks": 0
    },
    {
      "id": "s-009",
      "agent": "agent-prove",
      "depth": -1,
      "blocks": 0
    }
  ],
  "counts": {
    "done": 1,
    "false": 1,
    "pending": 2,
    "true": 5,
    "validating": 1
  },
  "problem_counts": {
    "unresolved": 1
  },
  "stale": {
    "s-005": "rests on s-011, which is false"
  },
  "orphans": [
    "s-009"
  ],
  "unreachable": [
    "s-009"
  ],
  "dangling": [
    {
      "from": "s-009",
      "to": "s-099",
      "kind": "premise"
    }
  ],
  "cycles": [],
  "unknown": {
    "s-006": "done"
  },
  "broken": 1
}
`, "")
	// Text from the files is made inert for the terminal (ESC shows as a picture).
	referee(t, root, "", "status").want(t, 0, `contents: ./contents (P014 vocabulary)
statements: 10 (pending 2, validating 1, true 5, false 1, done 1)
problems: 1 (unresolved 1)
next (3; what holds up the most of the root first, then deepest):
  agent-prove  s-008  depth 2    blocks 11  Alice is not a Knave
  agent-solve  p-001  depth 0    blocks 0   Determine the role of each player: Olivia, Alice, and Ivy
  agent-prove  s-009  unattached blocks 0   Lost␛[31m red
stale:
  s-005  rests on s-011, which is false
orphans: s-009
unreachable: s-009
dangling:
  s-009 -> s-099 (premise)
unknown statuses: s-006 "done"
broken files: 1 (referee check lists them)
`, "")
}
