package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"referee/model/pyjson"
	"referee/skill"
	"referee/store"
)

// ExpectVersion is the argument every skill tool takes besides the skill's parameters:
// the CLI's --expect-version.
const ExpectVersion = "expect_version"

// skillTool describes a skill as a tool named name (its name or an alias): the agents'
// parameter names, required fields and enums, from the same registry as the CLI flags
// and SKILL.md.
func skillTool(sk *skill.Skill, name string) *mcp.Tool {
	props := map[string]any{}
	required := []string{}
	for _, p := range sk.Params {
		props[p.Name] = paramSchema(p)
		if p.Required {
			required = append(required, p.Name)
		}
	}
	props[ExpectVersion] = map[string]any{
		"type": "string",
		"description": "refuse the change (a conflict error) if " + targetText(sk) +
			" changed since you read this version (the version the show tool returns)",
	}
	desc := sk.Summary + ".\nWhen: " + sk.When + "\nEffect: " + sk.Changes + "\nUsed by: " + sk.Agents + "."
	if name != sk.Name {
		desc = "Same as " + sk.Name + ": " + desc
	}
	f := false
	return &mcp.Tool{
		Name:        name,
		Description: desc,
		InputSchema: map[string]any{
			"type":                 "object",
			"properties":           props,
			"required":             required,
			"additionalProperties": false,
		},
		Annotations: &mcp.ToolAnnotations{DestructiveHint: &f, OpenWorldHint: &f},
	}
}

func targetText(sk *skill.Skill) string {
	if sk.Target == "" {
		return "the object"
	}
	return "the object named by " + sk.Target
}

// repeatNote is the CLI's "(repeat)" in a parameter's help: a list here.
var repeatNote = regexp.MustCompile(`\s*\(repeat[^)]*\)`)

// paramSchema is the JSON schema of one parameter.
func paramSchema(p skill.Param) map[string]any {
	help := repeatNote.ReplaceAllString(p.Help, "")
	str := map[string]any{"type": "string"}
	if len(p.Enum) > 0 {
		str["enum"] = p.Enum
	}
	switch p.Kind {
	case skill.ParamStrings, skill.ParamIDs:
		if p.Kind == skill.ParamIDs {
			help += " (" + p.IDKind + "-NNN IDs)"
		}
		return map[string]any{"type": "array", "items": str, "description": help + "; a list of strings"}
	case skill.ParamInt:
		return map[string]any{"type": "integer", "minimum": 1, "description": help}
	case skill.ParamSubStatements:
		return map[string]any{
			"type": "array", "description": help,
			"items": map[string]any{
				"type": "object",
				"properties": map[string]any{
					"claim":    map[string]any{"type": "string"},
					"premises": map[string]any{"type": "array", "items": map[string]any{"type": "string"}},
				},
				"required":             []string{"claim"},
				"additionalProperties": false,
			},
		}
	case skill.ParamID:
		help += " (a " + p.IDKind + "-NNN ID)"
	}
	str["description"] = help
	return str
}

// skillHandler runs a skill through store.Run, as `referee skill` does.
func (s *server) skillHandler(sk *skill.Skill) mcp.ToolHandler {
	return func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		args, expect, err := skillArgs(sk, req.Params.Arguments)
		if err != nil {
			return toolError(err), nil
		}
		if err := ctx.Err(); err != nil { // the client went away: do not start a change
			return nil, err
		}
		opts := s.options(req)
		opts.ExpectVersion = expect
		res, err := store.Run(s.dir, sk, args, opts)
		if err != nil {
			return toolError(err), nil
		}
		text := fmt.Sprintf("%s %s by %s: %s", res.Change, res.Skill, res.Actor, res.Objects())
		for _, n := range res.Notes {
			text += "\nnote: " + n
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}, StructuredContent: res}, nil
	}
}

// skillArgs reads a tool call's arguments with the parser of the CLI's --params, taking
// expect_version out first.
func skillArgs(sk *skill.Skill, raw json.RawMessage) (skill.Args, string, error) {
	doc, err := arguments(raw)
	if err != nil {
		return nil, "", err
	}
	expect := ""
	kept := doc.Obj[:0:0]
	for _, m := range doc.Obj {
		if m.Key != ExpectVersion {
			kept = append(kept, m)
			continue
		}
		switch m.Value.Kind {
		case pyjson.Null:
		case pyjson.String:
			expect = strings.TrimSpace(m.Value.Str)
		default:
			return nil, "", &skill.InputError{Msg: fmt.Sprintf("arguments: %q must be a string, found a %s", ExpectVersion, m.Value.Kind)}
		}
	}
	doc.Obj = kept
	args, err := skill.ArgsFromValue(sk, doc)
	if err != nil {
		return nil, "", &skill.InputError{Msg: "arguments: " + err.Error()}
	}
	return args, expect, nil
}

// arguments parses a call's arguments, which must be an object (absent is empty).
func arguments(raw json.RawMessage) (pyjson.Value, error) {
	if len(strings.TrimSpace(string(raw))) == 0 {
		return pyjson.Obj(), nil
	}
	doc, err := pyjson.Parse(raw)
	if err != nil {
		return doc, &skill.InputError{Msg: "arguments: not valid JSON: " + err.Error()}
	}
	if doc.Kind == pyjson.Null {
		return pyjson.Obj(), nil
	}
	if doc.Kind != pyjson.Object {
		return doc, &skill.InputError{Msg: fmt.Sprintf("arguments: expected a JSON object keyed by parameter names, found a %s", doc.Kind)}
	}
	return doc, nil
}
