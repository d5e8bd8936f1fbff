package sessions

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
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
