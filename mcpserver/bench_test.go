package mcpserver

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"referee/internal/benchfolder"
	"referee/skill"
	"referee/store"
)

// A tool call's round trip on a warm server in process: the SDK's client, the stdio
// transport with its guard over pipes, the server, store. The goal is ≤ 2 ms; beside it,
// `referee skill` as a process takes ~5 ms and the agents' Python script ~44 ms
// (docs/performance.md). "skill" alternates check-reject-proof and fix-patch-proof on one
// statement, as `referee-bench` does, and includes store's locks and fsyncs; "store.Run"
// is the same calls without MCP, so the difference is what MCP costs.

// proving sets up a statement whose proof awaits verification.
func proving(b *testing.B) (dir string) {
	dir = freshFolder(b)
	for _, call := range []struct {
		skill string
		args  skill.Args
	}{
		{"prob-wrapup-statement", skill.Args{"problem_id": "p-001", "claim": []string{"Alice is the Spy"}}},
		{"state-complete-proof", skill.Args{"statement_id": "s-007", "strategy": "direct",
			"proof_text": "Alice cannot be a Knight.\n\nStep 1: She says she is a spy. QED."}},
	} {
		sk, _ := skill.Lookup(call.skill)
		if _, err := store.Run(dir, sk, call.args, store.Options{Actor: "bench"}); err != nil {
			b.Fatal(err)
		}
	}
	return dir
}

// rejectPatch is the i-th call of the reject/patch cycle.
func rejectPatch(i int) (string, skill.Args) {
	if i%2 == 0 {
		return "check-reject-proof", skill.Args{"statement_id": "s-007", "sentence_number": 2,
			"sentence_text": "Step 1: She says she is a spy.", "error_type": "unjustified_leap",
			"explanation": "why", "suggested_fix": "say why"}
	}
	return "fix-patch-proof", skill.Args{"statement_id": "s-007", "issue_number": i/2 + 1,
		"updated_proof":      fmt.Sprintf("Alice cannot be a Knight.\n\nStep 1: She says she is a spy, version %d. QED.", i),
		"change_description": "said why"}
}

func BenchmarkToolCall(b *testing.B) {
	ctx := context.Background()
	b.Run("skill", func(b *testing.B) {
		cs := connect(b, proving(b), "bench")
		b.ResetTimer()
		for i := 0; b.Loop(); i++ {
			name, args := rejectPatch(i)
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: map[string]any(args)})
			if err != nil || res.IsError {
				b.Fatal(err, res.Content)
			}
		}
	})
	b.Run("store.Run", func(b *testing.B) {
		dir := proving(b)
		b.ResetTimer()
		for i := 0; b.Loop(); i++ {
			name, args := rejectPatch(i)
			sk, _ := skill.Lookup(name)
			if _, err := store.Run(dir, sk, args, store.Options{Actor: "bench"}); err != nil {
				b.Fatal(err)
			}
		}
	})
	// The protocol alone: a call refused on its arguments touches no file.
	b.Run("refused", func(b *testing.B) {
		cs := connect(b, proving(b), "bench")
		b.ResetTimer()
		for b.Loop() {
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "abandon", Arguments: map[string]any{}})
			if err != nil || !res.IsError {
				b.Fatal(err, res.Content)
			}
		}
	})
	b.Run("show", func(b *testing.B) {
		cs := connect(b, proving(b), "bench")
		b.ResetTimer()
		for b.Loop() {
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "show", Arguments: map[string]any{"id": "s-007"}})
			if err != nil || res.IsError {
				b.Fatal(err, res.Content)
			}
		}
	})
	b.Run("sentences", func(b *testing.B) {
		cs := connect(b, proving(b), "bench")
		b.ResetTimer()
		for b.Loop() {
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "sentences", Arguments: map[string]any{"statement_id": "s-007"}})
			if err != nil || res.IsError {
				b.Fatal(err, res.Content)
			}
		}
	})
}

// The read tools on a generated folder, from the live engine `referee mcp` runs: each
// call checks the log (one stat) and answers from the current frame. The status is
// worked out once per frame, the similarity index once and then followed.
func BenchmarkReadTools10k(b *testing.B)  { benchReadTools(b, 10_000) }
func BenchmarkReadTools100k(b *testing.B) { benchReadTools(b, 100_000) }

func benchReadTools(b *testing.B, n int) {
	dir := benchfolder.Get(b, n)
	cs := connect(b, dir, "bench")
	ctx := context.Background()
	names, err := os.ReadDir(filepath.Join(dir, "statement"))
	if err != nil || len(names) == 0 {
		b.Fatal(err)
	}
	id := strings.TrimSuffix(names[len(names)/2].Name(), ".json")
	calls := []struct {
		name string
		args map[string]any
	}{
		{"status", nil},
		{"show", map[string]any{"id": id}},
		{"sentences", map[string]any{"statement_id": id}},
		{"log", map[string]any{"since": "l-" + lastChange(b, dir)}},
	}
	// Each once off the clock: the first call waits for the folder to be read.
	for _, c := range calls {
		if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: c.name, Arguments: c.args}); err != nil {
			b.Fatal(err)
		}
	}
	for _, c := range calls {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: c.name, Arguments: c.args})
				if err != nil || res.IsError {
					b.Fatal(err, res.Content)
				}
			}
		})
	}
}

// lastChange is the number part of the log's last change ID.
func lastChange(b *testing.B, dir string) string {
	data, err := os.ReadFile(filepath.Join(dir, "config.json"))
	if err != nil {
		b.Fatal(err)
	}
	_, rest, _ := strings.Cut(string(data), `"l": "l-`)
	id, _, _ := strings.Cut(rest, `"`)
	return id
}
