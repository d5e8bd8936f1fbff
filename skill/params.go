package skill

import (
	"fmt"
	"strconv"
	"strings"

	"referee/model/pyjson"
)

// ArgsFromJSON reads a skill call's parameters from a JSON object keyed by their
// snake_case names: what the CLI's --params and the MCP tools take. A null value counts
// as absent. Errors are InputErrors; the caller says where the object came from.
func ArgsFromJSON(s *Skill, data []byte) (Args, error) {
	doc, err := pyjson.Parse(data)
	if err != nil {
		return nil, inputf("not valid JSON: %v", err)
	}
	return ArgsFromValue(s, doc)
}

// ArgsFromValue is ArgsFromJSON on a parsed document.
func ArgsFromValue(s *Skill, doc pyjson.Value) (Args, error) {
	if doc.Kind != pyjson.Object {
		return nil, inputf("expected a JSON object keyed by parameter names, found a %s", doc.Kind)
	}
	args := Args{}
	for _, m := range doc.Obj {
		p, ok := s.Param(m.Key)
		if !ok {
			return nil, inputf("%s has no parameter %q (referee skill %s --help lists them)", s.Name, m.Key, s.Name)
		}
		v := m.Value
		if v.Kind == pyjson.Null {
			continue
		}
		bad := func(want string) error {
			return inputf("%q must be %s, found a %s", m.Key, want, v.Kind)
		}
		switch p.Kind {
		case ParamString, ParamID:
			if v.Kind != pyjson.String {
				return nil, bad("a string")
			}
			args[p.Name] = v.Str
		case ParamStrings, ParamIDs:
			switch v.Kind {
			case pyjson.String:
				args[p.Name] = []string{v.Str}
			case pyjson.Array:
				list, ok := v.StringList()
				if !ok {
					return nil, inputf("%q must be a list of strings, and some items are not strings", m.Key)
				}
				args[p.Name] = list
			default:
				return nil, bad("a string or a list of strings")
			}
		case ParamInt:
			n, err := WholeNumber(v)
			if err != nil {
				return nil, inputf("%q: %v", m.Key, err)
			}
			args[p.Name] = n
		case ParamSubStatements:
			subs, err := SubStatements(v)
			if err != nil {
				return nil, inputf("%q: %v", m.Key, err)
			}
			args[p.Name] = subs
		}
	}
	return args, nil
}

// WholeNumber reads a number parameter: a JSON number or a string holding a whole number.
func WholeNumber(v pyjson.Value) (int, error) {
	switch v.Kind {
	case pyjson.Number, pyjson.String:
		text := strings.TrimSpace(v.Str)
		if n, err := strconv.Atoi(text); err == nil {
			return n, nil
		}
		if f, err := strconv.ParseFloat(text, 64); err == nil && v.Kind == pyjson.Number && f == float64(int(f)) {
			return int(f), nil
		}
		return 0, fmt.Errorf("%q is not a whole number", v.Str)
	}
	return 0, fmt.Errorf("expected a whole number, found a %s", v.Kind)
}

// SubStatements reads a list of {"claim": str, "premises": [str]}.
func SubStatements(v pyjson.Value) ([]SubStatement, error) {
	if v.Kind != pyjson.Array {
		return nil, fmt.Errorf(`expected a list of {"claim": text, "premises": [text]}, found a %s`, v.Kind)
	}
	subs := make([]SubStatement, 0, len(v.Arr))
	for i, item := range v.Arr {
		if item.Kind != pyjson.Object {
			return nil, fmt.Errorf("item %d: expected an object, found a %s", i+1, item.Kind)
		}
		var sub SubStatement
		for _, m := range item.Obj {
			switch m.Key {
			case "claim":
				if m.Value.Kind != pyjson.String {
					return nil, fmt.Errorf(`item %d: "claim" must be a string, found a %s`, i+1, m.Value.Kind)
				}
				sub.Claim = m.Value.Str
			case "premises":
				switch m.Value.Kind {
				case pyjson.Null:
				case pyjson.String:
					sub.Premises = []string{m.Value.Str}
				case pyjson.Array:
					list, ok := m.Value.StringList()
					if !ok {
						return nil, fmt.Errorf(`item %d: "premises" must be a list of strings`, i+1)
					}
					sub.Premises = list
				default:
					return nil, fmt.Errorf(`item %d: "premises" must be a list of strings, found a %s`, i+1, m.Value.Kind)
				}
			default:
				return nil, fmt.Errorf(`item %d: unknown key %q (expected "claim" and "premises")`, i+1, m.Key)
			}
		}
		subs = append(subs, sub)
	}
	return subs, nil
}
