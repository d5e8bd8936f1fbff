package bench

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
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
	cs, _, err := startMCPProcess(binary, dir)
	return cs, err
}

// startMCPProcess starts the server as startMCP does and returns its process too.
func startMCPProcess(binary, dir string) (*mcp.ClientSession, *exec.Cmd, error) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.Command(binary, "mcp", "--contents", dir)
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "bench", Version: "bench"}, nil).
		Connect(ctx, &mcp.CommandTransport{Command: cmd, TerminateDuration: 2 * time.Second}, nil)
	return cs, cmd, err
}

func callMCP(cs *mcp.ClientSession, tool string, args map[string]any) error {
	_, err := callMCPText(cs, tool, args)
	return err
}

// callMCPText calls a tool and returns its text answer.
func callMCPText(cs *mcp.ClientSession, tool string, args map[string]any) (string, error) {
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: tool, Arguments: args})
	if err != nil {
		return "", err
	}
	if res.IsError {
		return "", fmt.Errorf("%s: %v", tool, res.Content)
	}
	text := ""
	for _, c := range res.Content {
		if t, ok := c.(*mcp.TextContent); ok {
			text += t.Text
		}
	}
	return text, nil
}

// MCPCalls is one read tool called again and again over stdio, one call after another.
type MCPCalls struct {
	Tool          string
	Calls         int
	Bytes         int // of the answer's text
	P50, P99, Max time.Duration
	ServerCPU     time.Duration // the server process's CPU per call
	ClientCPU     time.Duration // this process's (the client's) CPU per call
}

// RunMCPCalls starts `referee mcp` on dir as .mcp.json does and calls each read tool the
// MCP rows time calls times in a row (after one call off the clock), as an agent's
// client sends them: each call waits for the answer before the next is sent.
func RunMCPCalls(binary, dir string, calls int) ([]MCPCalls, error) {
	id, since, err := mcpTargets(dir)
	if err != nil {
		return nil, err
	}
	cs, cmd, err := startMCPProcess(binary, dir)
	if err != nil {
		return nil, err
	}
	defer cs.Close()
	var out []MCPCalls
	for _, c := range []struct {
		tool string
		args map[string]any
	}{
		{"show", map[string]any{"id": id}},
		{"sentences", map[string]any{"statement_id": id}},
		{"status", nil},
		{"log", map[string]any{"since": since}},
	} {
		text, err := callMCPText(cs, c.tool, c.args) // the first waits for the folder
		if err != nil {
			return nil, err
		}
		srv0, err := procCPU(cmd.Process.Pid)
		if err != nil {
			return nil, err
		}
		cli0 := selfCPU()
		times := make([]time.Duration, 0, calls)
		for range calls {
			t0 := time.Now()
			if _, err := callMCPText(cs, c.tool, c.args); err != nil {
				return nil, err
			}
			times = append(times, time.Since(t0))
		}
		srv1, err := procCPU(cmd.Process.Pid)
		if err != nil {
			return nil, err
		}
		out = append(out, MCPCalls{Tool: c.tool, Calls: calls, Bytes: len(text),
			P50: quantile(times, 0.5), P99: quantile(times, 0.99), Max: slices.Max(times),
			ServerCPU: (srv1 - srv0) / time.Duration(calls), ClientCPU: (selfCPU() - cli0) / time.Duration(calls)})
	}
	return out, nil
}

// WriteMCPCalls prints RunMCPCalls' figures for a folder of n statements.
func WriteMCPCalls(w io.Writer, n int, rs []MCPCalls) {
	fmt.Fprintf(w, "\n| MCP over stdio, %s statements | answer | p50 | p99 | max | server CPU | client CPU | goal (p50) |\n|---|---|---|---|---|---|---|---|\n", thousands(n))
	goals := map[string]time.Duration{"show": 2 * time.Millisecond, "sentences": 2 * time.Millisecond,
		"status": 10 * time.Millisecond, "log": 5 * time.Millisecond}
	for _, r := range rs {
		fmt.Fprintf(w, "| %s ×%d | %d B | %s | %s | %s | %s | %s | ≤%s %s |\n", r.Tool, r.Calls, r.Bytes,
			formatDuration(r.P50), formatDuration(r.P99), formatDuration(r.Max), formatDuration(r.ServerCPU),
			formatDuration(r.ClientCPU), formatDuration(goals[r.Tool]), mark(r.P50 <= goals[r.Tool]))
	}
}

// selfCPU is this process's user and system CPU time.
func selfCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
