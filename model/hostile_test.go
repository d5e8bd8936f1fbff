package model

import (
	"slices"
	"testing"

	"referee/model/pyjson"
)

// A byte that starts no UTF-8 character is named as a byte; a character as itself.
func TestParseNamesWhatItFound(t *testing.T) {
	for in, want := range map[string]string{
		"\xb8\x00":    "line 1 (byte 0): unexpected byte 0xb8 (not UTF-8 text)",
		"é":           "line 1 (byte 0): unexpected character 'é'",
		"\n  \x1b[2J": "line 2 (byte 3): unexpected character '\\x1b'",
	} {
		if _, err := pyjson.Parse([]byte(in)); err == nil || err.Error() != want {
			t.Errorf("%q: %v, want %q", in, err, want)
		}
	}
}

// Containers of the wrong kind are named as such, not as their fields missing; null is
// a wrong kind too.
func TestWrongShapes(t *testing.T) {
	doc, _ := pyjson.Parse([]byte(`{"id": null, "type": "normal", "conclusion": null, "hypothesis": [], "preliminaries": [],
		"status": "pending", "stats": [], "progresses": [], "proof": {"cot": [], "full": null, "ref": []}, "validation": "none"}`))
	var got []string
	for _, p := range StatementFrom(doc).Problems {
		got = append(got, p.String())
	}
	want := []string{"id: expected a string, found null", "conclusion: expected a list of strings, found null",
		"stats: expected {count_usage}, found a list", "proof.full: expected a string, found null",
		"validation: expected {issues, responses}, found a string"}
	if !slices.Equal(got, want) {
		t.Errorf("problems\n%q\nwant\n%q", got, want)
	}
	if _, err := ConfigFrom(pyjson.Obj(pyjson.M("s", pyjson.Obj()))); err == nil || err.Error() != `"s": expected an ID string, found an object` {
		t.Errorf("config: %v", err)
	}
}
