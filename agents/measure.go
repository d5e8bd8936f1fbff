package agents

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"
)

// Measures for referee-bench and the benchmarks: an agent's working transcript made up,
// and what following it costs.

// bigLines returns n bytes of an agent's working transcript: responses with thinking,
// text and a Read, results of 16 KB, and a skill call every 20 rounds.
func bigLines(project string, n int) []byte { return bigLinesEvery(project, n, 20) }

// bigLinesEvery is bigLines with a skill call every callEvery rounds (0: none).
func bigLinesEvery(project string, n, callEvery int) []byte {
	var b strings.Builder
	body := strings.Repeat("Step k: a line of a proof that goes on for a while. ", 320) // ~16 KB
	for i := 0; b.Len() < n; i++ {
		ts := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(i) * time.Second).Format(time.RFC3339)
		tool := `{"type":"tool_use","id":"t%d","name":"Read","input":{"file_path":"/p/contents/statement/s-010.json"}}`
		if callEvery > 0 && i%callEvery == 0 {
			tool = `{"type":"tool_use","id":"t%d","name":"Bash","input":{"command":"venv-python src/state.py --id s-010 --status validating"}}`
		}
		fmt.Fprintf(&b, `{"type":"assistant","uuid":"a%d","sessionId":"s","cwd":%q,"timestamp":%q,"message":{"id":"m%d","role":"assistant","model":"claude-opus-4-5","content":[{"type":"thinking","thinking":"Sentence %d follows from the previous two."},{"type":"text","text":"Checking sentence %d."},`+tool+`],"usage":{"input_tokens":4,"output_tokens":200,"cache_creation_input_tokens":300,"cache_read_input_tokens":40000}}}`+"\n",
			i, project, ts, i, i, i, i)
		fmt.Fprintf(&b, `{"type":"user","uuid":"u%d","sessionId":"s","cwd":%q,"timestamp":%q,"message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t%d","content":%q}]}}`+"\n",
			i, project, ts, i, body)
	}
	return []byte(b.String())
}

// MeasureFollow writes a transcript of mb megabytes to a temporary Claude folder, reads
// it once (catchUp: the CPU of that first look), then follows it for d while it grows
// by 64 KB a second (a busy agent: four rounds of a 16 KB file read), polling every
// 100 ms with a report each time, as the workbench does. share is the CPU used while
// following, as a fraction of one core (the writes excluded).
func MeasureFollow(mb int, d time.Duration) (catchUp time.Duration, share float64, err error) {
	root, err := os.MkdirTemp("", "referee-follow-")
	if err != nil {
		return 0, 0, err
	}
	defer os.RemoveAll(root)
	claude, project := filepath.Join(root, "claude"), "/p"
	dir := filepath.Join(claude, "projects", "-p")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return 0, 0, err
	}
	path := filepath.Join(dir, "s.jsonl")
	if err := os.WriteFile(path, bigLines(project, mb<<20), 0o644); err != nil {
		return 0, 0, err
	}
	w := New(Options{ClaudeDir: claude, Project: project})
	c0 := cpuTime()
	w.Poll()
	catchUp = cpuTime() - c0
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		return 0, 0, err
	}
	defer f.Close()
	chunk := bigLines(project, 64<<10)
	start, c1 := time.Now(), cpuTime()
	var writes time.Duration
	for time.Since(start) < d {
		for range 10 {
			time.Sleep(100 * time.Millisecond)
			w.Poll()
			w.Report()
		}
		cw := cpuTime()
		if _, err := f.Write(chunk); err != nil {
			return 0, 0, err
		}
		writes += cpuTime() - cw
	}
	used := cpuTime() - c1 - writes
	return catchUp, used.Seconds() / time.Since(start).Seconds(), nil
}

// cpuTime is the process's CPU time, user and system.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
