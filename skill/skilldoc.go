package skill

import (
	"fmt"
	"slices"
	"strings"

	"referee/model"
	"referee/model/pyjson"
)

// The agents learn the skills from .claude/skills/<name>/SKILL.md. Those files, the CLI's
// help and its flags are all made from the registry (Skills), so they cannot disagree.

// ParamMetavar is the placeholder shown after a parameter's flag.
func ParamMetavar(p Param) string {
	switch p.Kind {
	case ParamInt:
		return "N"
	case ParamID, ParamIDs:
		return "ID"
	case ParamSubStatements:
		return "JSON"
	}
	return "TEXT"
}

// ParamKindText describes a parameter's shape in words.
func ParamKindText(p Param) string {
	switch p.Kind {
	case ParamStrings:
		return "text, repeatable"
	case ParamInt:
		return "whole number from 1 up"
	case ParamID:
		return model.KindName(p.IDKind) + " ID"
	case ParamIDs:
		return model.KindName(p.IDKind) + " ID, repeatable"
	case ParamSubStatements:
		return "JSON list"
	}
	return "text"
}

// repeatable reports whether the parameter's flag may be given several times.
func repeatable(p Param) bool { return p.Kind == ParamStrings || p.Kind == ParamIDs }

// SkillUsage is the plain-text help of `referee skill NAME --help`: what the skill does
// and its parameters, required ones first marked as such.
func SkillUsage(s *Skill) string {
	var b strings.Builder
	fmt.Fprintf(&b, "referee skill %s: %s\n", s.Name, s.Summary)
	if len(s.Aliases) > 0 {
		fmt.Fprintf(&b, "Also called: %s\n", strings.Join(s.Aliases, ", "))
	}
	fmt.Fprintf(&b, "Used by: %s\nWhen: %s\nChanges: %s\n\nParameters:\n", s.Agents, s.When, s.Changes)
	width := 0
	for _, p := range s.Params {
		width = max(width, len(p.Flag())+len(ParamMetavar(p))+3)
	}
	for _, p := range s.Params {
		head := "--" + p.Flag() + " " + ParamMetavar(p)
		req := "optional"
		if p.Required {
			req = "required"
		}
		line := fmt.Sprintf("  %-*s  %s, %s: %s", width, head, req, ParamKindText(p), p.Help)
		if len(p.Enum) > 0 {
			line += " (one of " + strings.Join(p.Enum, ", ") + ")"
		}
		b.WriteString(line + "\n")
	}
	b.WriteString("\nExample:\n")
	for _, l := range strings.Split(SampleCommand(s), "\n") {
		b.WriteString("  " + l + "\n")
	}
	return b.String()
}

// SkillDoc renders a skill's SKILL.md: front matter with name and description, then when
// and by whom it is used, its parameters, a sample command, what it changes, and how to
// read the outcome. An agent given these files needs nothing else to call the skill.
func SkillDoc(s *Skill) string {
	var b strings.Builder
	w := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	w("---\nname: %s\ndescription: %s\n---\n\n", s.Name, yamlQuote(strings.TrimSuffix(s.Summary, ".")+". Use when: "+lowerFirst(s.When)))
	w("# %s\n\n%s.\n\n", s.Name, strings.TrimSuffix(s.Summary, "."))
	if len(s.Aliases) > 0 {
		w("Also called %s: the same skill under its other name.\n\n", codeList(s.Aliases))
	}
	w("## When to use it\n\n%s\n\n", s.When)
	w("## Who uses it\n\n%s\n\n", s.Agents)

	w("## Parameters\n\n")
	for _, p := range s.Params {
		req := "optional"
		if p.Required {
			req = "required"
		}
		w("- `--%s %s` (%s, %s): %s", p.Flag(), ParamMetavar(p), req, ParamKindText(p), p.Help)
		if len(p.Enum) > 0 {
			w("; one of %s", codeList(p.Enum))
		}
		if repeatable(p) {
			w("; give the flag once per item")
		}
		w(".\n")
	}
	w("\nIn JSON (`--params`) every parameter goes under its own name: %s.\n\n", codeList(paramNames(s)))

	w("## Example\n\n```sh\n%s\n```\n\n", SampleCommand(s))
	for _, p := range s.Params {
		if p.Kind == ParamInt && !p.Required {
			w("Optional `--%s %s`: %s; leave it out when it does not apply.\n\n", p.Flag(), ParamMetavar(p), strings.TrimSuffix(p.Help, "."))
		}
	}
	w("Texts with quotes, newlines or many lines (a whole proof) are easiest to pass in a JSON\n")
	w("object with `--params FILE` or `--params -` (standard input), keyed by the parameter\n")
	w("names above: a string for a text, a string or a list of strings for a repeatable\n")
	w("parameter, a number for a whole number. Flags given on the command line override it.\n\n")

	w("Through MCP (`referee mcp`, which `referee skills install` adds to `.mcp.json`) the same\n")
	w("skill is the tool `mcp__referee__%s`, taking the JSON object above (plus\n", s.Name)
	w("`expect_version`): no shell quoting. It answers the same line; an error starts with\n")
	w("`precondition:`, `conflict:` or `input:`, and nothing is written.\n\n")

	w("## What it changes\n\n%s\n\n", s.Changes)
	w("Every call is one change batch: the next `l-` change ID is issued, every object it\n")
	w("modifies is first backed up to `history/<l-id>/`, and one line is added to\n")
	w("`history/log.jsonl`. On any error nothing is written.\n\n")

	w("## Common flags\n\n")
	w("- `--contents DIR`: the contents folder (default `./contents`).\n")
	w("- `--actor NAME`: who makes the change, kept in the log (default `$REFEREE_ACTOR`, else `agent`).\n")
	if s.Target != "" {
		p, _ := s.Param(s.Target)
		w("- `--expect-version HASH`: refuse the change if `--%s` changed since you read it;\n", p.Flag())
		w("  the version is in `referee show ID --output json`.\n")
	}
	w("- `--output json`: print the result as JSON instead of one line of text.\n\n")

	w("## Reading the outcome\n\n")
	created, modified := sampleOutcome(s)
	w("On success referee prints one line and exits 0, e.g.\n\n")
	w("```\nl-008 %s by agent: %s\n```\n\n", s.Name, outcomeText(created, modified))
	w("With `--output json` it prints the same as an object:\n\n")
	w("```json\n{\n  \"change\": \"l-008\",\n  \"skill\": \"%s\",\n  \"actor\": \"agent\",\n  \"at\": \"2026-01-08T12:00:00Z\",\n  \"created\": %s,\n  \"modified\": %s\n}\n```\n\n",
		s.Name, jsonList(created), jsonList(modified))
	w("`created` lists the IDs of new objects in the order they were made, `modified` the\n")
	w("objects changed; `notes` (when present) says what else referee noticed.\n\n")
	w("Exit codes:\n\n")
	w("- `0`: done.\n")
	w("- `1`: refused, nothing written: an object is not in the state the skill needs (the\n")
	w("  message names it, its status and what is needed), or it changed since you read it\n")
	w("  (`--expect-version`), or another writer kept changing it while referee wrote (3 tries).\n")
	w("  Read it again with `referee show ID` and decide.\n")
	w("- `2`: bad command, nothing written: unknown skill, missing or malformed parameter,\n")
	w("  unreadable `--params`. Fix the command; `referee skill %s --help` lists the parameters.\n\n", s.Name)
	w("Errors are one line on standard error starting `referee: `.\n")
	return b.String()
}

// sampleOutcome guesses what the sample command creates and modifies, from the
// registry's description: an example, not a contract.
func sampleOutcome(s *Skill) (created, modified []string) {
	switch {
	case strings.HasPrefix(s.Changes, "Creates an unresolved problem"):
		created = []string{"s-008", "p-002"}
	case strings.HasPrefix(s.Changes, "Creates one pending statement per item"):
		created = []string{"s-008", "s-009"}
	case strings.HasPrefix(s.Changes, "Creates"):
		created = []string{"s-008"}
	}
	if p, ok := s.Param(s.Target); ok {
		modified = sampleList(p)[:1]
	}
	return created, modified
}

func outcomeText(created, modified []string) string {
	var parts []string
	if len(created) > 0 {
		parts = append(parts, "created "+strings.Join(created, ", "))
	}
	if len(modified) > 0 {
		parts = append(parts, "modified "+strings.Join(modified, ", "))
	}
	return strings.Join(parts, "; ")
}

func jsonList(items []string) string {
	if len(items) == 0 {
		return "[]"
	}
	q := make([]string, len(items))
	for i, it := range items {
		q[i] = "\"" + it + "\""
	}
	return "[" + strings.Join(q, ", ") + "]"
}

func paramNames(s *Skill) []string {
	var out []string
	for _, p := range s.Params {
		out = append(out, p.Name)
	}
	return out
}

func codeList(items []string) string {
	q := make([]string, len(items))
	for i, it := range items {
		q[i] = "`" + it + "`"
	}
	return strings.Join(q, ", ")
}

func lowerFirst(s string) string {
	if s == "" || (len(s) > 1 && s[1] >= 'A' && s[1] <= 'Z') { // keep acronyms
		return s
	}
	return strings.ToLower(s[:1]) + s[1:]
}

// yamlQuote writes a YAML double-quoted scalar (which JSON's string syntax is).
func yamlQuote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// sampleText holds realistic values for the agents' parameter names, from the
// knights-and-knaves run the fixture holds; sampleList falls back on the kind.
var sampleText = map[string][]string{
	"problem_id":            {"p-001"},
	"parent_problem_id":     {"p-001"},
	"statement_id":          {"s-007"},
	"parent_statement_id":   {"s-007"},
	"claim":                 {"The unique solution is: Olivia is a Knave, Alice is a Spy, and Ivy is a Knave"},
	"premises":              {"(s-001) Each player is a Knight, a Knave or a Spy", "(s-005) There is exactly one spy among all players"},
	"purpose":               {"Proving it names every player's role, which is the objective"},
	"subproblem_objective":  {"Determine Alice's role"},
	"subproblem_hypothesis": {"(s-003) Alice says: I am a spy", "Alice is not a Knight"},
	"rationale":             {"Alice's role decides the two others"},
	"priority":              {"high"},
	"resolution":            {"Statement s-007 is true and names the role of every player, which is the objective."},
	"key_statement_id":      {"s-007"},
	"cot":                   {"s-007 proves by case analysis that the solution is unique", "It names each player's role"},
	"proof_text":            {"We show the assignment is consistent and every other one is not. Step 1: Alice is not a Knight, since a Knight cannot say she is a spy. Step 2: ... QED."},
	"strategy":              {"case_analysis"},
	"proof_cot":             {"Case analysis on Alice's role"},
	"proof_ref":             {"s-001", "s-003"},
	"summary":               {"showing every other assignment contradicts a statement"},
	"counterexample":        {"Olivia=Knight, Alice=Knave, Ivy=Spy satisfies every premise but not the claim"},
	"source":                {"prove"},
	"issue_number":          {"1"},
	"modification_type":     {"add_condition"},
	"suggested_claim":       {"If exactly one player is a spy, Alice is the spy"},
	"suggested_premises":    {"(s-005) There is exactly one spy among all players"},
	"verification_summary":  {"27 steps checked, all valid"},
	"sentence_number":       {"3"},
	"sentence_text":         {"Therefore Alice is not a Knave."},
	"error_type":            {"gap"},
	"explanation":           {"Step 2 rules out a Knight, not a Knave; the case of a Knave is never examined"},
	"suggested_fix":         {"Add a step showing a Knave could not say this"},
	"updated_proof":         {"We show the assignment is consistent and every other one is not. Step 1: Alice is not a Knight. Step 2: Alice is not a Knave, since a Knave saying she is a spy would be telling the truth. ... QED."},
	"change_description":    {"Added the missing case of a Knave in Step 2"},
	"sub_claim":             {"Alice is not a Knave"},
	"sub_premises":          {"(s-003) Alice says: I am a spy"},
	"gap_location":          {"sentence 3"},
	"reason":                {"No problem depends on it any more"},
	"decision":              {"abandon"},
	"parent_id":             {"p-001"},
}

func sampleList(p Param) []string {
	vals, ok := sampleText[p.Name]
	if ok && len(p.Enum) > 0 && !slices.Contains(p.Enum, vals[0]) {
		ok = false
	}
	if ok && (p.Kind == ParamID || p.Kind == ParamIDs) && !model.ValidID(vals[0], p.IDKind) {
		ok = false
	}
	if ok {
		if !repeatable(p) {
			return vals[:1]
		}
		return vals
	}
	switch {
	case len(p.Enum) > 0:
		return p.Enum[:1]
	case p.Kind == ParamInt:
		return []string{"1"}
	case (p.Kind == ParamID || p.Kind == ParamIDs) && p.IDKind == "":
		return []string{"p-001"}
	case p.Kind == ParamID || p.Kind == ParamIDs:
		return []string{p.IDKind + "-001"}
	}
	return []string{"a short text"}
}

var sampleSubs = []SubStatement{
	{Claim: "Alice is not a Knight", Premises: []string{"(s-001) Each player is a Knight, a Knave or a Spy", "(s-003) Alice says: I am a spy"}},
	{Claim: "Alice is not a Knave", Premises: []string{"(s-003) Alice says: I am a spy"}},
}

// SampleCommand is a complete `referee skill` call with realistic values: every
// parameter except optional numbers (which change what the call means); a list of
// sub-statements goes through --params on standard input.
func SampleCommand(s *Skill) string {
	lines := []string{"referee skill " + s.Name}
	var heredoc []string
	for _, p := range s.Params {
		if p.Kind == ParamInt && !p.Required {
			continue
		}
		if p.Kind == ParamSubStatements {
			heredoc = append(heredoc, `{"`+p.Name+`": [`)
			for i, sub := range sampleSubs {
				item := pyjson.Obj(pyjson.M("claim", pyjson.Str(sub.Claim)), pyjson.M("premises", pyjson.Strs(sub.Premises)))
				sep := ","
				if i == len(sampleSubs)-1 {
					sep = ""
				}
				heredoc = append(heredoc, "  "+string(pyjson.EncodeLine(item))+sep)
			}
			heredoc = append(heredoc, "]}")
			continue
		}
		for _, v := range sampleList(p) {
			lines = append(lines, "--"+p.Flag()+" "+shellQuote(v))
		}
	}
	if heredoc != nil {
		lines = append(lines, "--params - <<'EOF'")
	}
	out := strings.Join(lines, " \\\n  ")
	if heredoc != nil {
		out += "\n" + strings.Join(heredoc, "\n") + "\nEOF"
	}
	return out
}

// shellQuote quotes a value for a POSIX shell when it needs it.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.,/:=+@") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// SkillsReference is the skills' reference for docs/skills.md: a table of every skill,
// then each one's purpose, parameters and a sample command, all from the registry.
func SkillsReference() string {
	var b strings.Builder
	w := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	cell := func(s string) string { return strings.ReplaceAll(strings.ReplaceAll(s, "|", `\|`), "\n", " ") }
	w("| skill | used by | what it does |\n|---|---|---|\n")
	for _, s := range Skills {
		w("| [`%s`](#%s) | %s | %s |\n", s.Name, s.Name, cell(s.Agents), cell(strings.TrimSuffix(s.Summary, ".")))
	}
	for _, s := range Skills {
		w("\n## %s\n\n%s.\n\n", s.Name, strings.TrimSuffix(s.Summary, "."))
		if len(s.Aliases) > 0 {
			w("Also called %s.\n\n", codeList(s.Aliases))
		}
		w("- **Used by:** %s\n- **When:** %s\n- **Changes:** %s\n\n", s.Agents, s.When, s.Changes)
		w("| flag | JSON name | | kind | what |\n|---|---|---|---|---|\n")
		for _, p := range s.Params {
			req := "optional"
			if p.Required {
				req = "required"
			}
			help := p.Help
			if len(p.Enum) > 0 {
				help += " (one of " + strings.Join(p.Enum, ", ") + ")"
			}
			w("| `--%s %s` | `%s` | %s | %s | %s |\n", p.Flag(), ParamMetavar(p), p.Name, req, ParamKindText(p), cell(help))
		}
		w("\n```sh\n%s\n```\n", SampleCommand(s))
	}
	return b.String()
}
