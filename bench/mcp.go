package bench

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// mcpRows time the MCP server's read tools as an agent meets them: `referee mcp` started
// as .mcp.json starts it, one client session, each call a round trip over stdio. The
// server answers from its live engine (read once, then followed), so a call costs what
// it shows, not the folder.
func mcpRows(env *Env) ([]Row, error) {
	if env.Binary == "" {
		return nil, nil
	}
	var rows []Row
	for _, n := range env.Opts.Sizes {
		dir := env.Folders[n]
		id, since, err := mcpTargets(dir)
		if err != nil {
			return nil, err
		}
		var cs *mcp.ClientSession
		start := Row{
			Work: fmt.Sprintf("MCP server start → first status, %s", thousands(n)),
			Cells: [numCols]Cell{{Time: func() (time.Duration, error) {
				if cs != nil {
					cs.Close()
				}
				t0 := time.Now()
				var err error
				if cs, err = startMCP(env.Binary, dir); err != nil {
					return 0, err
				}
				err = callMCP(cs, "status", nil)
				return time.Since(t0), err
			}, Runs: 3}, {Note: "—"}, {Note: "—"}},
			Goal: func([numCols]time.Duration) string { return "≤ the workbench's load (rows above)" },
		}
		rows = append(rows, start)
		for _, c := range []struct {
			tool string
			args map[string]any
			goal time.Duration
		}{
			{"show", map[string]any{"id": id}, 2 * time.Millisecond},
			{"sentences", map[string]any{"statement_id": id}, 2 * time.Millisecond},
			{"status", nil, 10 * time.Millisecond},
			{"log", map[string]any{"since": since}, 5 * time.Millisecond},
		} {
			goal := c.goal
			rows = append(rows, Row{
				Work: fmt.Sprintf("  MCP %s, %s", c.tool, thousands(n)),
				Cells: [numCols]Cell{{Time: func() (time.Duration, error) {
					if cs == nil {
						return 0, errors.New("the server did not start")
					}
					t0 := time.Now()
					err := callMCP(cs, c.tool, c.args)
					return time.Since(t0), err
				}, Runs: 41}, {Note: "—"}, {Note: "—"}},
				Goal: func(m [numCols]time.Duration) string {
					return fmt.Sprintf("≤%s %s", formatDuration(goal), mark(m[colReferee] <= goal))
				},
			})
		}
		rows[len(rows)-1].Close = func() {
			if cs != nil {
				cs.Close()
			}
		}
	}
	return rows, nil
}

// mcpTargets picks a statement in the middle of the folder and the log's last change.
func mcpTargets(dir string) (id, since string, err error) {
	names, err := os.ReadDir(filepath.Join(dir, "statement"))
	if err != nil || len(names) == 0 {
		return "", "", fmt.Errorf("no statements in %s: %v", dir, err)
	}
	id = strings.TrimSuffix(names[len(names)/2].Name(), ".json")
	data, err := os.ReadFile(filepath.Join(dir, "config.json"))
	if err != nil {
		return "", "", err
	}
	_, rest, _ := strings.Cut(string(data), `"l": "`)
	since, _, _ = strings.Cut(rest, `"`)
	return id, since, nil
}

func startMCP(binary, dir string) (*mcp.ClientSession, error) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.Command(binary, "mcp", "--contents", dir)
	return mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "bench"}, nil).
		Connect(ctx, &mcp.CommandTransport{Command: cmd, TerminateDuration: 2 * time.Second}, nil)
}

func callMCP(cs *mcp.ClientSession, tool string, args map[string]any) error {
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		return err
	}
	if res.IsError {
		return fmt.Errorf("%s: %v", tool, res.Content)
	}
	return nil
}
