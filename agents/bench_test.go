package agents

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

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

// BenchmarkCatchUp50MB is the first look at a 50 MB transcript: every byte read once.
func BenchmarkCatchUp50MB(b *testing.B) {
	claude, project, _ := writeBig(b, 50<<20)
	b.SetBytes(50 << 20)
	for b.Loop() {
		w := New(Options{ClaudeDir: claude, Project: project})
		w.Poll()
	}
}

// followBig writes a 50 MB transcript, reads it once and opens it for appending.
// The watcher's clock is that of the lines appended: a call just made is running,
// not idle.
func followBig(b *testing.B) (w *Watcher, path string, f *os.File) {
	claude, project, path := writeBig(b, 50<<20)
	now := time.Date(2026, 2, 1, 0, 0, 5, 0, time.UTC)
	w = New(Options{ClaudeDir: claude, Project: project, Now: func() time.Time { return now }})
	w.Poll()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { f.Close() })
	return w, path, f
}

// BenchmarkNewLineVisible is the work between an agent writing one line to a 50 MB
// transcript and the new state being in a Report: one Poll and one Report. On screen
// it is at most the poll interval (100 ms in the workbench) plus this.
func BenchmarkNewLineVisible(b *testing.B) {
	w, _, f := followBig(b)
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

// BenchmarkFollowGrowing50MB follows a 50 MB transcript as it grows by one streamed
// response at a time — written as three lines sharing a message.id with a growing
// output count, as Claude Code 2.1 writes them, then its tool result — with a Poll
// and a Report per response. It reports the bytes read per response (only the
// appended ones) and the live heap after the run (B/heap), which must not grow
// with the number of responses followed.
func BenchmarkFollowGrowing50MB(b *testing.B) {
	w, path, f := followBig(b)
	const resp = `{"type":"assistant","uuid":"g%[1]d-%[2]d","sessionId":"s","cwd":"/p","timestamp":"2026-02-01T00:00:01Z","requestId":"req_g%[1]d","message":{"id":"msg_g%[1]d","role":"assistant","model":"claude-opus-4-6","content":[%[3]s],"stop_reason":null,"usage":{"input_tokens":3,"output_tokens":%[4]d,"cache_creation_input_tokens":500,"cache_read_input_tokens":40000,"cache_creation":{"ephemeral_5m_input_tokens":0,"ephemeral_1h_input_tokens":500}}}}` + "\n"
	const result = `{"type":"user","uuid":"r%[1]d","sessionId":"s","cwd":"/p","timestamp":"2026-02-01T00:00:02Z","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"tg%[1]d","content":"ok"}]}}` + "\n"
	blocks := []string{`{"type":"thinking","thinking":"next"}`, `{"type":"text","text":"Reading."}`, `{"type":"tool_use","id":"tg%d","name":"Read","input":{"file_path":"/p/x"}}`}
	before := w.sessions[path].main.Tokens.Output
	start := w.sessions[path].tail.Offset()
	i := 0
	for b.Loop() {
		i++
		var chunk strings.Builder
		for j, bl := range blocks {
			if j == 2 {
				bl = fmt.Sprintf(bl, i)
			}
			fmt.Fprintf(&chunk, resp, i, j, bl, 1+j*100)
		}
		fmt.Fprintf(&chunk, result, i)
		f.WriteString(chunk.String())
		w.Poll()
		w.Report()
	}
	a := w.sessions[path].main
	if got := a.Tokens.Output - before; got != int64(i)*201 {
		b.Fatalf("output tokens of %d responses: %d, want %d (the last/max line of each)", i, got, i*201)
	}
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	b.ReportMetric(float64(w.sessions[path].tail.Offset()-start)/float64(i), "B-read/op")
	b.ReportMetric(float64(ms.HeapAlloc), "B/heap")
	runtime.KeepAlive(w)
}

// TestFollowCost follows a transcript that grows from 50 MB at a busy agent's pace
// and reports the CPU used (MeasureFollow). REFEREE_FOLLOW_SECONDS=N runs it.
func TestFollowCost(t *testing.T) {
	secs := os.Getenv("REFEREE_FOLLOW_SECONDS")
	if secs == "" {
		t.Skip("set REFEREE_FOLLOW_SECONDS to measure")
	}
	var d int
	fmt.Sscan(secs, &d)
	catchUp, share, err := MeasureFollow(50, time.Duration(d)*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("catch-up of 50 MB: %s CPU; then following at 64 KB/s: %.2f%% of one core", catchUp, 100*share)
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
