package agents

import (
	"compress/gzip"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// unpack copies a testdata tree into a temporary folder, gunzipping *.gz files.
func unpack(t *testing.T, from string) string {
	t.Helper()
	to := t.TempDir()
	err := filepath.WalkDir(from, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(from, path)
		dst := filepath.Join(to, strings.TrimSuffix(rel, ".gz"))
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		in, err := os.Open(path)
		if err != nil {
			return err
		}
		defer in.Close()
		var r io.Reader = in
		if strings.HasSuffix(path, ".gz") {
			z, err := gzip.NewReader(in)
			if err != nil {
				return err
			}
			r = z
		}
		out, err := os.Create(dst)
		if err != nil {
			return err
		}
		defer out.Close()
		_, err = io.Copy(out, r)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return to
}

func near(got, want float64) bool { return math.Abs(got-want) < 1e-6 }

// Real transcripts of Claude Code 2.1.38 and 2.1.39 (testdata/real/spotter/SOURCE).
// The figures are the "last/max per (message.id, requestId)" count, made apart from
// this package (a short Python count over the same files), priced at the table's
// list prices.
func TestRealTranscriptsTokensCostState(t *testing.T) {
	claude := unpack(t, "testdata/real/spotter/claude")
	const project = "/home/USER/projects/spotter-worktrees/spotter-gqc"
	last := time.Date(2026, 2, 11, 21, 46, 25, 932e6, time.UTC) // the session's last line
	read := func(now time.Time) View {
		_, r := Read(Options{ClaudeDir: claude, Project: project, Now: func() time.Time { return now }})
		if len(r.Sessions) != 1 {
			t.Fatalf("sessions: %d", len(r.Sessions))
		}
		return r.Sessions[0]
	}
	s := read(last.Add(5 * time.Second))
	if s.Turns != 152 || s.Tokens != (Tokens{Input: 180, Output: 38899, CacheCreation: 349474, CacheRead: 14771617}) || !near(s.CostUSD, 11.853923) {
		t.Errorf("session: %d turns, %+v, $%.6f", s.Turns, s.Tokens, s.CostUSD)
	}
	if s.IncludesSubagents || s.Model != "claude-opus-4-6" || len(s.CostUnknown) != 0 {
		t.Errorf("session: includes subagents %v, model %s, cost unknown %v", s.IncludesSubagents, s.Model, s.CostUnknown)
	}
	// The stop hook's summary line ends the turn: stop_reason is null throughout.
	if s.State != StateWaiting {
		t.Errorf("state right after the turn's end: %s", s.State)
	}
	if len(s.Subagents) != 1 {
		t.Fatalf("subagents: %+v (the compaction agent is not one)", s.Subagents)
	}
	sub := s.Subagents[0]
	if sub.AgentID != "a881341" || sub.Turns != 3 || sub.Tokens != (Tokens{Input: 15, Output: 3, CacheCreation: 42176, CacheRead: 34159}) ||
		!near(sub.CostUSD, 0.263394) || sub.Model != "claude-sonnet-4-5-20250929" || sub.State != StateFinished {
		t.Errorf("subagent: %s %s %d turns %+v $%.6f %s", sub.AgentID, sub.Model, sub.Turns, sub.Tokens, sub.CostUSD, sub.State)
	}
	c := s.Compaction
	if c == nil || c.Agents != 1 || c.Turns != 1 || c.Tokens != (Tokens{Input: 3, Output: 6, CacheCreation: 2487, CacheRead: 166758}) || !near(c.CostUSD, 0.108414) {
		t.Errorf("compaction: %+v", c)
	}
	if s.Compactions != 1 {
		t.Errorf("compactions: %d", s.Compactions)
	}
	all := s.WithSubagents
	if all == nil || all.Agents != 3 || all.Turns != 156 || all.Tokens != s.Tokens.Plus(sub.Tokens).Plus(c.Tokens) ||
		!near(all.CostUSD, 11.853923+0.263394+0.108414) {
		t.Errorf("with subagents: %+v", all)
	}
	if s := read(last.Add(24 * time.Hour)); s.State != StateIdle || s.Subagents[0].State != StateFinished {
		t.Errorf("a day later: %s, subagent %s", s.State, s.Subagents[0].State)
	}

	// Three 2.1.38 sessions of another folder.
	now := time.Date(2026, 2, 11, 0, 0, 0, 0, time.UTC)
	_, r := Read(Options{ClaudeDir: claude, Project: "/home/marco/projects/spotter", Now: func() time.Time { return now }})
	want := map[string]struct {
		turns  int
		tokens Tokens
		cost   float64
	}{
		"short":      {1, Tokens{3, 13, 13835, 11515}, 0.144448},
		"tool_heavy": {4, Tokens{54, 212, 17696, 88231}, 0.226645},
		"subagent":   {12, Tokens{1576, 1586, 25842, 427286}, 0.519593},
	}
	if len(r.Sessions) != len(want) {
		t.Fatalf("2.1.38 sessions: %d", len(r.Sessions))
	}
	for _, s := range r.Sessions {
		w := want[s.SessionID]
		if s.Turns != w.turns || s.Tokens != w.tokens || !near(s.CostUSD, w.cost) {
			t.Errorf("%s: %d turns %+v $%.6f, want %d %+v $%.6f", s.SessionID, s.Turns, s.Tokens, s.CostUSD, w.turns, w.tokens, w.cost)
		}
		if s.State != StateIdle {
			t.Errorf("%s: %s, hours after its last line", s.SessionID, s.State)
		}
	}
}
