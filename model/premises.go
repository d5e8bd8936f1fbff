package model

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"referee/model/pyjson"
)

// The agents' scripts (state.py, prob.py at d8d7638) normalise the premises of a statement
// and the hypotheses of a problem when they create it — never on update. These functions
// do the same, character for character, so that a skill call through referee writes the
// bytes the agents' own call would (shared/fixtures/mra-conformance has every case).

// PyIsSpace is Python's str.isspace for one character: what str.strip() removes. It is
// Go's unicode.IsSpace plus the information separators U+001C…U+001F.
func PyIsSpace(r rune) bool {
	return unicode.IsSpace(r) || r >= 0x1c && r <= 0x1f
}

// PyStrip is Python's str.strip().
func PyStrip(s string) string { return strings.TrimFunc(s, PyIsSpace) }

// premiseRef is the agents' parse_statement_id: after leading whitespace, the item starts
// with ^\(([se]-[a-z]*\d+)\). It returns the ID and the item after the parenthesis and
// any whitespace that follows it (the script's re.sub of ^\([se]-[a-z]*\d+\)\s*).
func premiseRef(item string) (id, rest string, ok bool) {
	s := strings.TrimLeftFunc(item, PyIsSpace)
	if len(s) < 5 || s[0] != '(' || s[1] != 's' && s[1] != 'e' || s[2] != '-' {
		return "", "", false
	}
	i := 3
	for i < len(s) && 'a' <= s[i] && s[i] <= 'z' {
		i++
	}
	j := i
	for j < len(s) {
		r, size := utf8.DecodeRuneInString(s[j:])
		if !unicode.IsDigit(r) { // Python's \d is any decimal digit
			break
		}
		j += size
	}
	if j == i || j >= len(s) || s[j] != ')' {
		return "", "", false
	}
	return s[1:j], strings.TrimLeftFunc(s[j+1:], PyIsSpace), true
}

// Conclusions looks up the conclusion the agents' scripts would quote for a statement
// ID: ok is false where their load_statement_conclusion finds nothing (no such file, a
// file that does not parse, an empty conclusion).
type Conclusions func(id string) (text string, ok bool)

// ConclusionText is load_statement_conclusion on a parsed statement: a list is joined
// with spaces, a text, number, true/false or null written as Python's str() would; ""
// counts as nothing. An object (Python would print its dict repr) counts as nothing too.
func ConclusionText(doc pyjson.Value) (string, bool) {
	c, found := doc.Get("conclusion")
	if !found {
		return "", false
	}
	var text string
	switch c.Kind {
	case pyjson.Array:
		parts := make([]string, 0, len(c.Arr))
		for _, v := range c.Arr {
			if v.Kind != pyjson.String {
				return "", false // ' '.join raises on a non-string; the script says None
			}
			parts = append(parts, v.Str)
		}
		text = strings.Join(parts, " ")
	case pyjson.String:
		text = c.Str
	case pyjson.Null:
		text = "None"
	case pyjson.Bool:
		text = "False"
		if c.Str == "true" {
			text = "True"
		}
	case pyjson.Number:
		text = pyStrNumber(c.Str)
	default: // an object: Python's dict repr, which referee does not mimic
		return "", false
	}
	return text, text != ""
}

// pyStrNumber is Python's str() of a number json.load read: an integer as written, a
// float as its repr, nan/inf for the values Python's json reads as such. An integer of
// more than 4300 digits makes json.load fail (Python's int limit): "" (nothing found).
func pyStrNumber(lit string) string {
	if !strings.ContainsAny(lit, ".eEIN") && len(strings.TrimPrefix(lit, "-")) > 4300 {
		return ""
	}
	switch s := pyjson.PyNumber(lit); s {
	case "NaN":
		return "nan"
	case "Infinity":
		return "inf"
	case "-Infinity":
		return "-inf"
	default:
		return s
	}
}

// NormalizePremise is one premise of a new statement, as state.py's
// process_hypothesis_item writes it: a known "(s-XXX)" becomes "(s-XXX) <its conclusion>"
// (a paraphrase after the ID is replaced, a bare ID expanded); an unknown ID followed by
// text is dropped, leaving the text; a bare unknown ID stays; every item is trimmed.
func NormalizePremise(item string, look Conclusions) string {
	id, rest, ok := premiseRef(item)
	if !ok {
		return PyStrip(item)
	}
	if c, found := look(id); found {
		return "(" + id + ") " + c
	}
	if rest = PyStrip(rest); rest != "" {
		return rest
	}
	return PyStrip(item)
}

// NormalizePremises applies NormalizePremise to each item.
func NormalizePremises(items []string, look Conclusions) []string {
	if items == nil {
		return nil
	}
	out := make([]string, len(items))
	for i, it := range items {
		out[i] = NormalizePremise(it, look)
	}
	return out
}

// SubgoalHypothesis is one hypothesis of a new problem, as prob.py's
// process_hypothesis_item reads it: a known "(s-XXX)" is expanded to "(s-XXX) <its
// conclusion>" (existing is true); any other item is the claim of a new pending
// statement: its text trimmed, an unknown ID in front dropped.
func SubgoalHypothesis(item string, look Conclusions) (text string, existing bool) {
	id, rest, ok := premiseRef(item)
	if !ok {
		return PyStrip(item), false
	}
	if c, found := look(id); found {
		return "(" + id + ") " + c, true
	}
	return PyStrip(rest), false
}
