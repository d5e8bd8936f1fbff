package install

import (
	"fmt"

	"referee/model/pyjson"
	"referee/skill"
)

// ServerName is referee's key under "mcpServers" in the agents' .mcp.json.
const ServerName = "referee"

// withReferee is the MCP configuration (Claude Code reads .mcp.json at a project's root)
// with referee's entry set, serving the contents folder:
//
//	{"mcpServers": {"referee": {"command": "referee", "args": ["mcp", "--contents", contents]}}}
//
// A file keeps its other servers and keys, in their order; one that is not a JSON object
// (or whose mcpServers is not) is an error naming it, and nothing is written.
func withReferee(path string, data []byte, exists bool, command, contents string) ([]byte, error) {
	doc, servers, err := readMCP(path, data, exists)
	if err != nil {
		return nil, err
	}
	servers.Set(ServerName, pyjson.Obj(
		pyjson.M("command", pyjson.Str(command)),
		pyjson.M("args", pyjson.Strs([]string{"mcp", "--contents", contents})),
	))
	doc.Set("mcpServers", servers)
	return append(pyjson.EncodeIndent(doc), '\n'), nil
}

// withoutReferee is the configuration with referee's entry as it was in before (nil: none).
func withoutReferee(path string, data []byte, before *pyjson.Value) ([]byte, error) {
	doc, servers, err := readMCP(path, data, true)
	if err != nil {
		return nil, err
	}
	if before != nil {
		servers.Set(ServerName, *before)
	} else {
		kept := servers.Obj[:0:0]
		for _, m := range servers.Obj {
			if m.Key != ServerName {
				kept = append(kept, m)
			}
		}
		servers.Obj = kept
	}
	doc.Set("mcpServers", servers)
	return append(pyjson.EncodeIndent(doc), '\n'), nil
}

// refereeEntry is referee's entry in a configuration, nil when it has none or does not parse.
func refereeEntry(data []byte) *pyjson.Value {
	doc, err := pyjson.Parse(data)
	if err != nil {
		return nil
	}
	servers, ok := doc.Get("mcpServers")
	if !ok {
		return nil
	}
	v, ok := servers.Get(ServerName)
	if !ok {
		return nil
	}
	return v
}

func readMCP(path string, data []byte, exists bool) (pyjson.Value, pyjson.Value, error) {
	doc := pyjson.Obj()
	if exists {
		var err error
		if doc, err = pyjson.Parse(data); err != nil {
			return doc, doc, &skill.InputError{Msg: fmt.Sprintf("%s: not valid JSON (%v); fix it or remove it, then install again", path, err)}
		}
		if doc.Kind != pyjson.Object {
			return doc, doc, &skill.InputError{Msg: fmt.Sprintf("%s: expected a JSON object, found a %s", path, doc.Kind)}
		}
	}
	servers := pyjson.Obj()
	if v, ok := doc.Get("mcpServers"); ok {
		if v.Kind != pyjson.Object {
			return doc, doc, &skill.InputError{Msg: fmt.Sprintf(`%s: "mcpServers" must be an object, found a %s`, path, v.Kind)}
		}
		servers = *v
	}
	return doc, servers, nil
}
