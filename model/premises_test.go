package model

import (
	"strings"
	"testing"

	"referee/model/pyjson"
)

// ConclusionText against what the agents' load_statement_conclusion returns (Python's
// str() of what json.load read; None where it finds nothing), for conclusions that are
// not a list of texts.
func TestConclusionTextAsTheAgentsRead(t *testing.T) {
	cases := []struct {
		json, want string
		found      bool
	}{
		{`["a", "b"]`, "a b", true},
		{`[]`, "", false},
		{`[""]`, "", false},
		{`["a", null]`, "", false}, // ' '.join raises: None
		{`"plain"`, "plain", true},
		{`null`, "None", true},
		{`true`, "True", true},
		{`3`, "3", true},
		{`-0`, "0", true},
		{`-0.0`, "-0.0", true},
		{`1.5`, "1.5", true},
		{`1e20`, "1e+20", true},
		{`1E5`, "100000.0", true},
		{`1e15`, "1000000000000000.0", true},
		{`1e-7`, "1e-07", true},
		{`123.0e0`, "123.0", true},
		{`100000000000000000000`, "100000000000000000000", true},
		{`1e400`, "inf", true},
		{`-1e400`, "-inf", true},
		{`NaN`, "nan", true},
		{`-Infinity`, "-inf", true},
		{strings.Repeat("1", 4300), strings.Repeat("1", 4300), true},
		{strings.Repeat("1", 4301), "", false}, // json.load fails past Python's 4300 digits
		{`{}`, "", false},                      // Python says "{}"; referee does not mimic dict reprs
	}
	for _, c := range cases {
		doc, err := pyjson.Parse([]byte(`{"conclusion": ` + c.json + `}`))
		if err != nil {
			t.Fatalf("%s: %v", c.json, err)
		}
		got, found := ConclusionText(doc)
		if got != c.want || found != c.found {
			t.Errorf("conclusion %.40s: %q %v, want %q %v", c.json, got, found, c.want, c.found)
		}
	}
	if got := NormalizePremise("  (s-007) a paraphrase ", func(string) (string, bool) { return "1.5", true }); got != "(s-007) 1.5" {
		t.Errorf("premise on a number conclusion: %q", got)
	}
}
