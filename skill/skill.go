// Package skill is the registry of the agents' skills: each skill's contract (name,
// parameters, what it changes), its preconditions and its effect, defined once. The CLI's
// flags, SKILL.md and docs/skills.md, the workbench's forms, keys and palette reasons, and
// the MCP tools are all made from it. A skill's body runs against Tx, a change in the
// making; the store implements Tx with its journaled batch (store.Run, store.Plan), so
// this package reads and writes no files.
package skill

import (
	"fmt"
	"slices"

	"strings"

	"referee/model"
)

// ParamKind is the shape of a skill parameter.
type ParamKind uint8

const (
	ParamString        ParamKind = iota // free text
	ParamStrings                        // a list of texts (the CLI flag repeats)
	ParamInt                            // a positive whole number
	ParamID                             // one object ID
	ParamIDs                            // one or more object IDs (the CLI flag repeats)
	ParamSubStatements                  // a list of {claim, premises} (via --params)
)

// Param is one parameter of a skill, under the agents' own name.
type Param struct {
	Name     string
	Kind     ParamKind
	Required bool
	IDKind   string   // for ParamID/ParamIDs: which kind of ID
	Enum     []string // allowed values, when fixed
	Help     string
	// Long is a text of several lines or sentences (a proof, an explanation): a form
	// gives it a multi-line editor.
	Long bool
}

// Flag is the parameter's CLI flag name: the snake_case name in kebab-case.
func (p Param) Flag() string { return strings.ReplaceAll(p.Name, "_", "-") }

// SubStatement is one item of state-setup-substatement's sub_statements.
type SubStatement struct {
	Claim    string   `json:"claim"`
	Premises []string `json:"premises"`
}

// Args holds a skill call's parameter values, keyed by the snake_case names. Values are
// string, []string, int or []SubStatement.
type Args map[string]any

func (a Args) Str(name string) string {
	s, _ := a[name].(string)
	return s
}

func (a Args) List(name string) []string {
	switch v := a[name].(type) {
	case []string:
		return v
	case string:
		return []string{v}
	}
	return nil
}

func (a Args) Int(name string) int {
	n, _ := a[name].(int)
	return n
}

func (a Args) Has(name string) bool {
	switch v := a[name].(type) {
	case nil:
		return false
	case string:
		return v != ""
	case []string:
		return len(v) > 0
	case int:
		return true // present; Validate refuses numbers below 1
	case []SubStatement:
		return len(v) > 0
	}
	return true
}

func (a Args) Subs() []SubStatement {
	s, _ := a["sub_statements"].([]SubStatement)
	return s
}

// Objects gives a skill's preconditions the objects it needs: from the change being made
// (a Tx) when applying, from a snapshot when the UI asks whether a key is enabled. A missing
// object is (nil, nil).
type Objects interface {
	Statement(id string) (*model.Statement, error)
	Problem(id string) (*model.Problem, error)
}

// SnapshotObjects reads objects from a snapshot.
type SnapshotObjects struct{ Snap *model.Snapshot }

func (o SnapshotObjects) Statement(id string) (*model.Statement, error) {
	return o.Snap.Statements.Get(id), nil
}

func (o SnapshotObjects) Problem(id string) (*model.Problem, error) {
	return o.Snap.Problems[id], nil
}

// Skill is one of the agents' skills: its contract, preconditions and effect. The CLI
// flags, the SKILL.md files, the UI keys and the palette are all made from this registry.
type Skill struct {
	Name    string
	Aliases []string
	Agents  string // who uses it
	Summary string // one line
	When    string // when to use it
	Changes string // what it writes
	Params  []Param
	Target  string // the parameter naming the object the skill changes
	check   func(o Objects, a Args) error
	apply   func(t *change, a Args) error
}

// Param returns the parameter with the name.
func (s *Skill) Param(name string) (Param, bool) {
	for _, p := range s.Params {
		if p.Name == name {
			return p, true
		}
	}
	return Param{}, false
}

// Check tells whether the skill may run now on what o holds: nil, or a
// PreconditionError naming the object, its status and what the skill needs. It reads
// only the ID and number parameters, so the UI can ask before a form is filled.
func (s *Skill) Check(o Objects, a Args) error {
	if s.check == nil {
		return nil
	}
	return s.check(o, a)
}

// Apply checks the preconditions on what t holds and, when they hold, makes the skill's
// changes through t. The parameters must have passed Validate.
func (s *Skill) Apply(t Tx, a Args) error {
	if err := s.Check(t, a); err != nil {
		return err
	}
	return s.apply(&change{Tx: t, skill: s.Name}, a)
}

// Validate checks the parameters' presence and shape.
func (s *Skill) Validate(a Args) error {
	for name := range a {
		if _, ok := s.Param(name); !ok {
			return inputf("%s has no parameter %q (see referee skills list)", s.Name, name)
		}
	}
	for _, p := range s.Params {
		if p.Required && !a.Has(p.Name) {
			return inputf("%s needs --%s (%s)", s.Name, p.Flag(), p.Help)
		}
		v, present := a[p.Name]
		if !present {
			continue
		}
		switch p.Kind {
		case ParamString:
			if _, ok := v.(string); !ok {
				return inputf("--%s: expected one text", p.Flag())
			}
		case ParamStrings:
			if _, ok := v.([]string); !ok {
				if _, ok := v.(string); !ok {
					return inputf("--%s: expected a list of texts", p.Flag())
				}
			}
		case ParamInt:
			if n, ok := v.(int); !ok || n < 1 {
				return inputf("--%s: expected a whole number from 1 up", p.Flag())
			}
		case ParamID:
			id, _ := v.(string)
			if err := model.CheckID(id, p.IDKind); err != nil {
				return inputf("--%s: %v", p.Flag(), err)
			}
		case ParamIDs:
			for _, id := range a.List(p.Name) {
				if err := model.CheckID(id, p.IDKind); err != nil {
					return inputf("--%s: %v", p.Flag(), err)
				}
			}
		case ParamSubStatements:
			subs, ok := v.([]SubStatement)
			if !ok {
				return inputf("--%s: expected a list of {\"claim\": …, \"premises\": […]}", p.Flag())
			}
			for i, sub := range subs {
				if strings.TrimSpace(sub.Claim) == "" {
					return inputf("--%s: item %d has no claim", p.Flag(), i+1)
				}
			}
		}
		if len(p.Enum) > 0 {
			for _, val := range a.List(p.Name) {
				if !slices.Contains(p.Enum, val) {
					return inputf("--%s: %q is not one of %s", p.Flag(), val, strings.Join(p.Enum, ", "))
				}
			}
		}
	}
	for name, v := range a {
		for _, s := range append([]string{fmt.Sprint(v)}, a.List(name)...) {
			if !ValidText(s) {
				return inputf("--%s: not valid UTF-8 text", strings.ReplaceAll(name, "_", "-"))
			}
		}
	}
	return nil
}

// ValidText tells whether s is valid UTF-8, as every text a change writes must be.
func ValidText(s string) bool {
	return strings.ToValidUTF8(s, "\ufffd") == s
}

// Lookup finds a skill by name or alias.
func Lookup(name string) (*Skill, bool) {
	for _, s := range Skills {
		if s.Name == name || slices.Contains(s.Aliases, name) {
			return s, true
		}
	}
	return nil, false
}
