package skill

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

// What --params and the MCP tools take: a null is absent, a number may come as a JSON
// number or a string, a text list may be one string; anything else is refused by name.
func TestArgsFromJSON(t *testing.T) {
	s, _ := Lookup("fix-create-substatement")
	a, err := ArgsFromJSON(s, []byte(`{"parent_statement_id": "s-007", "issue_number": "2", "sub_claim": "c",
		"sub_premises": "(s-001) p", "gap_location": null, "purpose": "fills it"}`))
	want := Args{"parent_statement_id": "s-007", "issue_number": 2, "sub_claim": "c", "sub_premises": []string{"(s-001) p"}, "purpose": "fills it"}
	if err != nil || !reflect.DeepEqual(a, want) {
		t.Fatalf("ArgsFromJSON = %#v, %v", a, err)
	}
	if err := s.Validate(a); err == nil || err.Error() != "fix-create-substatement needs --gap-location (where the gap is, e.g. \"sentence 4\")" {
		t.Errorf("Validate without gap_location: %v", err)
	}
	if a, err := ArgsFromJSON(s, []byte(`{"issue_number": " 3 "}`)); err != nil || a.Int("issue_number") != 3 {
		t.Errorf("a number in a string with spaces: %v, %v", a, err)
	}
	for in, want := range map[string]string{
		`{"issue_number": 2.5}`:  `"issue_number": "2.5" is not a whole number`,
		`{"issue_number": true}`: `"issue_number": expected a whole number, found a boolean`,
		`{"sub_premises": [1]}`:  `"sub_premises" must be a list of strings, and some items are not strings`,
		`{"sub_claim": ["a"]}`:   `"sub_claim" must be a string, found a list`,
		`{"nope": 1}`:            `fix-create-substatement has no parameter "nope" (referee skill fix-create-substatement --help lists them)`,
		`["s-007"]`:              `expected a JSON object keyed by parameter names, found a list`,
		`{"sub_claim": "a" "b"}`: `not valid JSON: `,
	} {
		_, err := ArgsFromJSON(s, []byte(in))
		var ie *InputError
		if !errors.As(err, &ie) || !strings.HasPrefix(err.Error(), want) || !strings.HasSuffix(want, " ") && err.Error() != want {
			t.Errorf("%s: %v, want %q", in, err, want)
		}
	}
}
