package bench

import (
	"io"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
)

// workbenchEnv is what Run makes for sizes whose folders are given.
func workbenchEnv(folders map[int]string) *Env {
	sizes := make([]int, 0, len(folders))
	for n := range maps.Keys(folders) {
		sizes = append(sizes, n)
	}
	return &Env{Opts: Options{Sizes: sizes, Budget: time.Millisecond}, Folders: folders, progress: io.Discard}
}

// The workbench's rows, measured on a 1k folder: their labels and goals, figures above
// zero in referee's column, a dash for the peers (the agents have no UI); the goals set
// at 10k and 100k are stated, not judged, and a goal judged at 1k may read ✓ or ✗ (go test
// asserts no duration); the write row works on a copy and leaves the
// cached folder as it was.
func TestWorkbenchRowsOn1k(t *testing.T) {
	dir := small(t, 1000)
	before := tree(t, dir)
	env := workbenchEnv(map[int]string{1000: dir})
	rows, err := workbenchRows(env)
	if err != nil {
		t.Fatal(err)
	}
	want := []struct{ work, goal string }{
		{"first frame (load progress), 1,000", "(goal ≤150 ms at 10,000)"},
		{"  first frame with the tree, same runs", "(goal ≤150 ms at 10,000)"},
		{"keypress (j) → frame, 1,000 statements", "(goal ≤2 ms at 100,000)"},
		{"agent's write → frame, 1,000: p99", "(goal ≤50 ms p99 at 10,000)"},
		{"  mean of the same writes", ""},
		{"agent's write → watcher → frame, 1,000: p99", "(goal ≤50 ms p99 at 10,000)"},
		{"  mean of the same writes", ""},
		{"transcript line → runs pane, 50 MB: max", "≤200 ms ?"},
		{"following a 50 MB transcript: CPU", "≤5% of one core ?"},
		{"proof render 2 KB, cold", "off the UI goroutine ✓"},
		{"  cached", "once per (hash, width, theme) ✓"},
		{"proof render 20 KB, cold", "off the UI goroutine ✓"},
		{"  cached", "once per (hash, width, theme) ✓"},
	}
	if len(rows) != len(want) {
		t.Fatalf("%d rows, want %d", len(rows), len(want))
	}
	figure := regexp.MustCompile(`^(\d+(?:\.\d+)?)(?: (µs|ms|s)|% CPU)$`)
	for i, row := range rows {
		line, err := measureRow(env, row, env.Opts.Budget)
		if err != nil {
			t.Fatalf("%s: %v", row.Work, err)
		}
		if row.Close != nil {
			row.Close()
		}
		cells := splitLine(t, line)
		goal := cells[4]
		if strings.HasSuffix(want[i].goal, " ?") { // a speed goal: met or not, never judged here
			goal = strings.TrimSuffix(strings.TrimSuffix(goal, "✓"), "✗") + "?"
		}
		if cells[0] != want[i].work || goal != want[i].goal || cells[2] != "—" || cells[3] != "—" {
			t.Errorf("row %d: %q\nwant work %q, peers —, goal %q", i+1, line, want[i].work, want[i].goal)
		}
		m := figure.FindStringSubmatch(cells[1])
		if m == nil {
			t.Errorf("row %d: %q is not a time", i+1, cells[1])
			continue
		}
		if v, _ := strconv.ParseFloat(m[1], 64); v <= 0 {
			t.Errorf("row %d: %q is not above zero", i+1, cells[1])
		}
	}
	after := tree(t, dir)
	if len(after) != len(before) {
		t.Errorf("the cached folder has %d files, had %d", len(after), len(before))
	}
	for path, data := range before {
		if string(after[path]) != string(data) {
			t.Errorf("the cached folder's %s changed", path)
		}
	}
}

// splitLine cuts a table line into its columns (as measureRow lays them out).
func splitLine(t *testing.T, line string) [5]string {
	t.Helper()
	widths := []int{46, 14, 16, 12}
	var cells [5]string
	rest := []rune(line)
	for i, w := range widths {
		if len(rest) < w+1 {
			cells[i] = trim(string(rest))
			return cells
		}
		cells[i] = trim(string(rest[:w]))
		rest = rest[w+1:]
	}
	cells[4] = string(rest)
	return cells
}

func trim(s string) string { return strings.TrimRight(s, " ") }

// At the size a goal is set for, the goal column says whether it is met.
func TestWorkbenchGoalsAtTheirSizes(t *testing.T) {
	env := workbenchEnv(map[int]string{1000: "unused", 10_000: "unused", 100_000: "unused"})
	key := keypressRow(env)
	if key.Work != "keypress (j) → frame, 100,000 statements" {
		t.Errorf("work %q", key.Work)
	}
	for _, c := range []struct {
		d    time.Duration
		goal string
	}{{2 * time.Millisecond, "≤2 ms ✓"}, {2*time.Millisecond + 1, "≤2 ms ✗"}} {
		if got := key.Goal([numCols]time.Duration{colReferee: c.d}); got != c.goal {
			t.Errorf("keypress in %v: goal %q, want %q", c.d, got, c.goal)
		}
	}
	var works []string
	for _, row := range writeRows(env) {
		works = append(works, row.Work)
	}
	if want := []string{"agent's write → frame, 10,000: p99", "  mean of the same writes",
		"agent's write → watcher → frame, 10,000: p99", "  mean of the same writes"}; !slices.Equal(works, want) {
		t.Errorf("work %q, want %q", works, want)
	}
	if got := timeGoal("≤50 ms p99", 50*time.Millisecond, 10_000, 10_000, 51*time.Millisecond); got != "≤50 ms p99 ✗" {
		t.Errorf("goal %q", got)
	}
}

// The first frame's rows, made for tuimeasure.MeasureFirstFrame: both figures from the same
// runs (the medians), judged against 150 ms at 10k.
func TestFirstFrameRows(t *testing.T) {
	env := workbenchEnv(map[int]string{1000: "small", 10_000: "the 10k folder"})
	var runs int
	rows := firstFrameRows(env, func(dir string, width, height int) (time.Duration, time.Duration, error) {
		if dir != "the 10k folder" || width != frameWidth || height != frameHeight {
			t.Errorf("measured %s at %d×%d", dir, width, height)
		}
		runs++
		return 40 * time.Millisecond, time.Duration(140+runs) * time.Millisecond, nil // 141…147 ms: the median is 144
	})
	var lines []string
	for _, row := range rows {
		row.Cells[colReferee].Runs = 6 // and the warm-up
		line, err := measureRow(env, row, time.Hour)
		if err != nil {
			t.Fatal(err)
		}
		lines = append(lines, line)
	}
	want := []string{
		"first frame (load progress), 10,000            40.0 ms        —                —            ≤150 ms ✓",
		"  first frame with the tree, same runs         144.0 ms       —                —            ≤150 ms ✓",
	}
	if len(lines) != len(want) {
		t.Fatalf("%d lines, want %d", len(lines), len(want))
	}
	for i := range want {
		if lines[i] != want[i] {
			t.Errorf("line %d:\n%q\nwant\n%q", i+1, lines[i], want[i])
		}
	}
}
