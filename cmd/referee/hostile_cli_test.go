package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"referee/model"
	"referee/model/pyjson"
)

// hostileContents is the fixture with broken and malicious files next to its objects.
func hostileContents(t *testing.T) string {
	root := copyFixture(t)
	c := filepath.Join(root, "contents")
	st := func(id, status string, prelims []string) string {
		doc := model.NewStatement(id, "normal", []string{"claim \u202eevil\u202c of " + id}, nil, status)
		doc.Set("preliminaries", pyjson.Strs(prelims))
		return string(pyjson.EncodeIndent(doc))
	}
	for rel, data := range map[string]string{
		"statement/s-020.json":                 "",
		"statement/s-021.json":                 "{\n    \"id\": \"s-021\",\n    \"type\": \"nor",
		"statement/s-022.json":                 "\xb8\x00garbage",
		"statement/s-023.json":                 strings.Repeat("[", 600) + strings.Repeat("]", 600),
		"statement/s-024.json":                 st("s-024", "\x1b]52;c;aGk=\x07pending", nil),
		"statement/s-025.json":                 st("s-026", "pending", nil),
		"statement/s-027.json":                 st("s-027", "pending", []string{"../../etc/passwd", "(s-../x) y", "s-999"}),
		"statement/.s-001.json.tmp-1234567890": "{",
		"statement/\u202es-030.json":           "{}",
	} {
		writeFile(t, filepath.Join(c, filepath.FromSlash(rel)), data)
	}
	os.Symlink("/etc/passwd", filepath.Join(c, "statement", "s-028.json"))
	os.Mkdir(filepath.Join(c, "statement", "s-029.json"), 0o755)
	return root
}

// check names every broken file with its reason; status still answers; nothing an
// agent wrote reaches the terminal as an escape sequence.
func TestHostileFolderCLI(t *testing.T) {
	root := hostileContents(t)
	want := `error: config.json: s-029: the "s" counter is s-007 but statement/s-029.json exists: new statement IDs would collide with it (set the counter to s-029)
error: statement/s-020.json: s-020: not valid JSON: line 1 (byte 0): empty file
error: statement/s-021.json: s-021: not valid JSON: line 3 (byte 37): unterminated string (truncated?)
error: statement/s-022.json: s-022: not valid JSON: line 1 (byte 0): unexpected byte 0xb8 (not UTF-8 text)
error: statement/s-023.json: s-023: not valid JSON: line 1 (byte 513): nesting deeper than 512 levels
error: statement/s-025.json: s-025: its "id" is "s-026", not the file name's s-025
error: statement/s-027.json: s-027: preliminaries names s-999, which does not exist
error: statement/s-027.json: s-027: preliminaries item 1, "../../etc/passwd", is not a reference (expected an ID such as s-007, or "(s-007) text")
error: statement/s-027.json: s-027: preliminaries item 2 starts like a reference, but "(s-../x)" is not an ID
error: statement/s-028.json: s-028: is a symbolic link (links are not followed)
error: statement/s-029.json: s-029: is a directory, expected a JSON file
error: statement/<U+202E>s-030.json: file name "\u202es-030" is not a statement ID
warning: statement/.s-001.json.tmp-1234567890: a temp file left by an interrupted write (referee repair would remove it)
warning: statement/s-024.json: s-024: unknown status "\x1b]52;c;aGk=\apending" (neither vocabulary has it)
warning: statement/s-024.json: s-024: nothing references it (did an agent stop between creating and linking it?)
warning: statement/s-025.json: s-025: nothing references it (did an agent stop between creating and linking it?)
warning: statement/s-027.json: s-027: nothing references it (did an agent stop between creating and linking it?)
12 errors, 5 warnings
`
	referee(t, root, "", "check").want(t, 1, want, "")

	out := referee(t, root, "", "status", "--output", "json")
	var st map[string]any
	if out.code != 0 || out.stderr != "" || json.Unmarshal([]byte(out.stdout), &st) != nil {
		t.Fatalf("status --output json: exit %d, stderr %q, stdout %s", out.code, out.stderr, out.stdout)
	}
	if st["broken"] != float64(7) {
		t.Errorf("status counts %v broken files, want 7", st["broken"])
	}
	check := referee(t, root, "", "check", "--output", "json")
	if !strings.Contains(check.stdout, `"path": "statement/\u202es-030.json"`) {
		t.Errorf("check --output json does not escape the bidi override in a file name:\n%s", check.stdout)
	}
	text := referee(t, root, "", "status")
	if text.code != 0 || text.stderr != "" {
		t.Errorf("status: exit %d, %q", text.code, text.stderr)
	}
	referee(t, root, "", "show", "s-020").want(t, 1, "", "referee: statement/s-020.json: not valid JSON: line 1 (byte 0): empty file\n")
	show := referee(t, root, "", "show", "s-024")
	for _, o := range []outcome{out, text, show, check} {
		if strings.ContainsAny(o.stdout+o.stderr, "\x1b\x07\u202e") {
			t.Errorf("an escape sequence or bidi override reached the terminal: %q", o.stdout)
		}
	}
	if show.code != 0 || !strings.Contains(show.stdout, "␛]52;c;aGk=␇pending") {
		t.Errorf("show s-024: exit %d\n%s", show.code, show.stdout)
	}

	// repair removes the temp file and refuses nothing; the broken files are not its to fix.
	referee(t, root, "", "repair", "--dry-run").want(t, 0,
		"statement/.s-001.json.tmp-1234567890: a temp file left by an interrupted write: would remove it\n1 to repair, 0 refused\n", "")
	referee(t, root, "", "repair").want(t, 0,
		"statement/.s-001.json.tmp-1234567890: a temp file left by an interrupted write: removed it\n1 repaired, 0 refused\n", "")
	referee(t, root, "", "repair").want(t, 0, "nothing to repair\n", "")
}
