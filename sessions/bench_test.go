package sessions

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"
)

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

func writeBig(tb testing.TB, size int) (claude, project, path string) {
	return writeBigEvery(tb, size, 20)
}

func writeBigEvery(tb testing.TB, size, callEvery int) (claude, project, path string) {
	root := tb.TempDir()
	claude, project = filepath.Join(root, "claude"), "/p"
	dir := filepath.Join(claude, "projects", "-p")
	os.MkdirAll(dir, 0o755)
	path = filepath.Join(dir, "s.jsonl")
	if err := os.WriteFile(path, bigLinesEvery(project, size, callEvery), 0o644); err != nil {
		tb.Fatal(err)
	}
	return claude, project, path
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkCatchUp50MB is the first look at a 50 MB transcript: every byte read once.
func BenchmarkCatchUp50MB(b *testing.B) {
	claude, project, _ := writeBig(b, 50<<20)
	b.SetBytes(50 << 20)
	for b.Loop() {
		w := New(Options{ClaudeDir: claude, Project: project})
		w.Poll()
	}
}

// BenchmarkNewLineVisible is the work between an agent writing one line to a 50 MB
// transcript and the new state being in a Report: one Poll and one Report. On screen
// it is at most the poll interval (100 ms in the workbench) plus this.
func BenchmarkNewLineVisible(b *testing.B) {
	claude, project, path := writeBig(b, 50<<20)
	w := New(Options{ClaudeDir: claude, Project: project})
	w.Poll()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	line := `{"type":"assistant","uuid":"x","sessionId":"s","cwd":"/p","timestamp":"2026-02-01T00:00:00Z","message":{"id":"new%d","role":"assistant","model":"claude-opus-4-5","content":[{"type":"tool_use","id":"n%d","name":"Bash","input":{"command":"referee skill check-confirm-proof --statement-id s-010"}}],"usage":{"output_tokens":1}}}` + "\n"
	i := 0
	for b.Loop() {
		i++
		fmt.Fprintf(f, line, i, i)
		if changed, _ := w.Poll(); !changed {
			b.Fatal("the new line was not seen")
		}
		if r := w.Report(); r.Sessions[0].State != StateTool {
			b.Fatal("state not updated")
		}
	}
}

// TestFollowCost follows a transcript that grows to 50 MB at an agent's pace and
// reports the CPU used: polls every 100 ms as the workbench does. Run with
// REFEREE_FOLLOW_SECONDS=N (default skipped: it takes that long).
func TestFollowCost(t *testing.T) {
	secs := os.Getenv("REFEREE_FOLLOW_SECONDS")
	if secs == "" {
		t.Skip("set REFEREE_FOLLOW_SECONDS to measure")
	}
	var d int
	fmt.Sscan(secs, &d)
	claude, project, path := writeBig(t, 50<<20)
	w := New(Options{ClaudeDir: claude, Project: project})
	c0 := cpuTime()
	w.Poll()
	t.Logf("catch-up of 50 MB: %s CPU", cpuTime()-c0)
	f, _ := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	defer f.Close()
	chunk := bigLines(project, 64<<10) // ~4 rounds: ~16 KB a second, a busy agent
	start, c1 := time.Now(), cpuTime()
	var writeCPU time.Duration
	for time.Since(start) < time.Duration(d)*time.Second {
		for range 10 {
			time.Sleep(100 * time.Millisecond)
			w.Poll()
			w.Report()
		}
		cw := cpuTime()
		f.Write(chunk)
		writeCPU += cpuTime() - cw
	}
	wall := time.Since(start)
	used := cpuTime() - c1 - writeCPU
	t.Logf("following for %s, %d KB/s appended: %s CPU = %.2f%% of one core", wall.Round(time.Second), len(chunk)>>10, used, 100*used.Seconds()/wall.Seconds())
}

// TestMemoryIndependentOfLength reads a 5 MB and a 50 MB transcript and compares the
// live heap after each (REFEREE_MEASURE=1: it writes 55 MB).
func TestMemoryIndependentOfLength(t *testing.T) {
	if os.Getenv("REFEREE_MEASURE") == "" {
		t.Skip("set REFEREE_MEASURE=1 to measure")
	}
	heap := func(size, callEvery int) uint64 {
		claude, project, _ := writeBigEvery(t, size, callEvery)
		w := New(Options{ClaudeDir: claude, Project: project})
		w.Poll()
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		runtime.KeepAlive(w)
		return ms.HeapAlloc
	}
	small, big := heap(5<<20, 0), heap(50<<20, 0)
	t.Logf("no skill calls: live heap after following 5 MB: %d KB; 50 MB: %d KB", small>>10, big>>10)
	small, big = heap(5<<20, 20), heap(50<<20, 20)
	t.Logf("a skill call every 20 rounds (15 and 150 calls): 5 MB: %d KB; 50 MB: %d KB", small>>10, big>>10)
}
