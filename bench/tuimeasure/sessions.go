package tuimeasure

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"referee/agents"
	"referee/tui"
)

// MeasureSessionLine times an agent's new transcript line until the runs pane shows
// it, the workbench's own path: the watching command's poll (every
// Probe.SessionsEvery), the report, Update and the frame. The transcript is first
// filled to mb megabytes of file reads; lines are appended at varying points of the
// poll cycle. It returns the median and the worst of n lines. dir is a contents folder
// to open; the transcripts go to a temporary Claude folder, removed after.
func MeasureSessionLine(dir string, mb, n int) (p50, worst time.Duration, err error) {
	root, err := os.MkdirTemp("", "referee-sessions-")
	if err != nil {
		return 0, 0, err
	}
	defer os.RemoveAll(root)
	project := filepath.Join(root, "project")
	claude := filepath.Join(root, "claude")
	tdir := filepath.Join(claude, "projects", "-project")
	if err := os.MkdirAll(tdir, 0o755); err != nil {
		return 0, 0, err
	}
	f, err := os.Create(filepath.Join(tdir, "s1.jsonl"))
	if err != nil {
		return 0, 0, err
	}
	defer f.Close()
	read := fmt.Sprintf(`{"type":"user","sessionId":"s1","cwd":%q,"timestamp":"2026-01-01T00:00:00Z","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"x","content":%q}]}}`+"\n",
		project, strings.Repeat("file text of a read; ", 800))
	for size := 0; size < mb<<20; size += len(read) {
		if _, err := f.WriteString(read); err != nil {
			return 0, 0, err
		}
	}
	p, err := tui.OpenProbe(dir, 160, 50, tui.ProbeOptions{Sessions: &agents.Options{ClaudeDir: claude, Project: project}})
	if err != nil {
		return 0, 0, err
	}
	defer p.Close()
	p.Update(p.WatchSessions()()) // the first look reads the whole transcript
	p.Update(tea.KeyPressMsg{Code: 'r', Text: "r"})
	lat := make([]time.Duration, 0, n)
	for i := 1; i <= n; i++ {
		cmd := p.WatchSessions()
		done := make(chan tea.Msg, 1)
		go func() { done <- cmd() }()
		time.Sleep(time.Duration(i*37%100) * p.SessionsEvery() / 100)
		start := time.Now()
		fmt.Fprintf(f, `{"type":"assistant","sessionId":"s1","cwd":%q,"timestamp":"2026-01-01T00:00:01Z","message":{"id":"m%d","role":"assistant","model":"claude-opus-4-5","content":[{"type":"tool_use","id":"t%d","name":"Bash","input":{"command":"echo step-%d"}}],"usage":{"output_tokens":1}}}`+"\n",
			project, i, i, i)
		p.Update(<-done)
		if !strings.Contains(ansi.Strip(p.View()), fmt.Sprintf("running Bash: echo step-%d", i)) {
			return 0, 0, fmt.Errorf("line %d is not on the runs pane", i)
		}
		lat = append(lat, time.Since(start))
	}
	slices.Sort(lat)
	return lat[len(lat)/2], lat[len(lat)-1], nil
}
