package tui

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"referee/sessions"
)

// BenchmarkSessionLineOnScreen times an agent's new transcript line until the runs
// pane shows it: the watching command's poll (every 100 ms), the report, Update and
// the render — the workbench's own path, on a transcript of 50 MB. The line is
// appended at a varying point of the poll cycle; p50 and max are reported.
func BenchmarkSessionLineOnScreen(b *testing.B) {
	root := b.TempDir()
	project := filepath.Join(root, "proj")
	dir := copyDir(b, "../contents")
	claude := filepath.Join(root, "claude")
	tdir := filepath.Join(claude, "projects", "-proj")
	os.MkdirAll(tdir, 0o755)
	path := filepath.Join(tdir, "s1.jsonl")
	head := fmt.Sprintf(`{"type":"user","sessionId":"s1","cwd":%q,"timestamp":"2026-01-01T00:00:00Z","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"x","content":%q}]}}`+"\n",
		project, strings.Repeat("file text of a read; ", 800))
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	for n := 0; n < 50<<20; n += len(head) {
		f.WriteString(head)
	}
	m := openModel(b, dir, Options{NoWatch: true, SyncLoad: true,
		Sessions: &sessions.Options{ClaudeDir: claude, Project: project}}, 160, 50)
	m.Update(m.watchSessions(nil)()) // the first look reads the 50 MB
	keys(b, m, "r")
	var lat []time.Duration
	i := 0
	for b.Loop() {
		i++
		cmd := m.watchSessions(m.sess.w)
		done := make(chan tea.Msg, 1)
		go func() { done <- cmd() }()
		time.Sleep(time.Duration(i*37%100) * time.Millisecond)
		t0 := time.Now()
		fmt.Fprintf(f, `{"type":"assistant","sessionId":"s1","cwd":%q,"timestamp":"2026-01-01T00:00:01Z","message":{"id":"m%d","role":"assistant","model":"claude-opus-4-5","content":[{"type":"tool_use","id":"t%d","name":"Bash","input":{"command":"echo step-%d"}}],"usage":{"output_tokens":1}}}`+"\n",
			project, i, i, i)
		msg := <-done
		m.Update(msg)
		if !strings.Contains(screen(m), fmt.Sprintf("running Bash: echo step-%d", i)) {
			b.Fatalf("line %d not on screen:\n%s", i, screen(m))
		}
		lat = append(lat, time.Since(t0))
	}
	f.Close()
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(lat[len(lat)-1].Microseconds())/1000, "max-ms")
}
