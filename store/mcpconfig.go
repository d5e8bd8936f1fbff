package store

import (
	"errors"
	"fmt"
	"io/fs"
	"os"

	"referee/model"
)

// MCPServerName is referee's key under "mcpServers" in an agent's .mcp.json.
const MCPServerName = "referee"

// InstallMCPConfig writes referee's entry into the MCP configuration file at path (Claude
// Code reads .mcp.json at a project's root):
//
//	{"mcpServers": {"referee": {"command": "referee", "args": ["mcp", "--contents", contents]}}}
//
// An existing file keeps its other servers and keys, in their order; one that is not a
// JSON object (or whose mcpServers is not) is left alone with an error naming it.
func InstallMCPConfig(path, contents string) error {
	doc := model.Obj()
	data, err := os.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return fmt.Errorf("cannot read %s: %v", path, unwrapPath(err))
	default:
		if doc, err = model.Parse(data); err != nil {
			return &InputError{Msg: fmt.Sprintf("%s: not valid JSON (%v); fix it or remove it, then install again", path, err)}
		}
		if doc.Kind != model.Object {
			return &InputError{Msg: fmt.Sprintf("%s: expected a JSON object, found a %s", path, doc.Kind)}
		}
	}
	servers := model.Obj()
	if v, ok := doc.Get("mcpServers"); ok {
		if v.Kind != model.Object {
			return &InputError{Msg: fmt.Sprintf(`%s: "mcpServers" must be an object, found a %s`, path, v.Kind)}
		}
		servers = *v
	}
	servers.Set(MCPServerName, model.Obj(
		model.M("command", model.Str("referee")),
		model.M("args", model.Strs([]string{"mcp", "--contents", contents})),
	))
	doc.Set("mcpServers", servers)
	return writeAtomic(path, append(model.EncodeIndent(doc), '\n'))
}
