package bench

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"syscall"
	"time"

	"referee/gen"
	"referee/model"
	"referee/store"
)

// Long-log rows: the commands that read a run's past, timed as processes on a folder
// whose log is hundreds of megabytes (gen's biglog: a small tree and millions of changes
// to s-001). Each reads what it shows: a recent change's lines read back from the log's
// end (the lines before counted only for a number shown), else the log's tail, and before
// it only the lines that name what is asked (or, for a whole folder at an old change,
// every line looked at in place and only those that change an answer parsed), so the
// rows show which commands cost the log's length and which do not.

// LongLogReport is one command's figures on the long log.
type LongLogReport struct {
	Args    []string      // the command's arguments, --contents left out
	Wall    time.Duration // median of the runs
	PeakRSS uint64        // the largest of the runs
	Goal    string        // "" when the issue set none
	OK      bool
	Err     error
}

// LongLogFolder is a biglog folder of about size bytes of log under tmp, made once and
// kept (the name says its size), and its last three changes, oldest first; they get backups of s-001, as the
// agents' skills make, so that a rewind or undo of them can be planned.
func LongLogFolder(tmp string, size int) (dir string, tail []string, err error) {
	dir = filepath.Join(tmp, fmt.Sprintf("referee-bench-biglog-%d", size))
	if _, err := os.Stat(filepath.Join(dir, "config.json")); err != nil {
		os.RemoveAll(dir)
		if err := gen.WriteShape(dir, gen.ShapeBigLog, size); err != nil {
			os.RemoveAll(dir)
			return "", nil, err
		}
	}
	tail, err = logTail(filepath.Join(dir, filepath.FromSlash(store.LogFile)), 3)
	if err != nil {
		return "", nil, err
	}
	data, err := os.ReadFile(filepath.Join(dir, "statement", "s-001.json"))
	if err != nil {
		return "", nil, err
	}
	for _, id := range tail {
		if err := os.MkdirAll(filepath.Join(dir, store.HistoryDir, id), 0o755); err != nil {
			return "", nil, err
		}
		if err := os.WriteFile(filepath.Join(dir, store.HistoryDir, id, "s-001.json"), data, 0o644); err != nil {
			return "", nil, err
		}
	}
	return dir, tail, nil
}

// logTail is the IDs of the last n changes of the log at path, oldest first.
func logTail(path string, n int) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, err
	}
	buf := make([]byte, min(info.Size(), 64<<10))
	if _, err := f.ReadAt(buf, info.Size()-int64(len(buf))); err != nil && err != io.EOF {
		return nil, err
	}
	var ids []string
	lines := bytes.Split(bytes.TrimSpace(buf), []byte("\n"))
	for i := len(lines) - 1; i > 0 && len(ids) < n; i-- {
		if e := model.ParseLogLine(0, string(lines[i])); e.ID != "" {
			ids = append(ids, e.ID)
		}
	}
	if len(ids) < n {
		return nil, fmt.Errorf("%s: fewer than %d changes", path, n)
	}
	slices.Reverse(ids)
	return ids, nil
}

// RunLongLog times the read commands of binary on the long-log folder dir, whose last
// three changes are tail (LongLogFolder), each runs times.
func RunLongLog(binary, dir string, tail []string, runs int) []LongLogReport {
	recent, prev, last := tail[0], tail[1], tail[2]
	type row struct {
		args  []string
		goal  string
		wall  time.Duration
		bytes uint64
	}
	rows := []row{
		{args: []string{"show", "s-001"}, goal: "≤ 100 ms, ≤ 150 MB", wall: 100 * time.Millisecond, bytes: 150 << 20},
		{args: []string{"rewind", prev, "--dry-run"}, goal: "≤ 500 ms, ≤ 300 MB", wall: 500 * time.Millisecond, bytes: 300 << 20},
		{args: []string{"undo", "--dry-run"}},
		{args: []string{"show", last}},
		{args: []string{"diff", "s-001", recent}},
		{args: []string{"log", "--last", "10"}},
		{args: []string{"log", "--last", "10", "-o", "json"}}, // line numbers shown: the lines before counted
		{args: []string{"branch", "list"}},
		{args: []string{"export"}},
		{args: []string{"diff", "s-002", "l-002"}},         // an old change: the lines naming s-002 or l-002
		{args: []string{"show", "s-002", "--at", "l-002"}}, // the folder at an old change: every line looked at
	}
	resetPeak()
	var out []LongLogReport
	for _, r := range rows {
		rep := LongLogReport{Args: r.args, Goal: r.goal}
		var walls []time.Duration
		for range runs {
			cmd := exec.Command(binary, append(slices.Clone(r.args), "--contents", dir)...)
			var stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = io.Discard, &stderr
			t0 := time.Now()
			err := cmd.Run()
			walls = append(walls, time.Since(t0))
			if err != nil {
				rep.Err = fmt.Errorf("%v: %s", err, strings.TrimSpace(stderr.String()))
				break
			}
			if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
				rep.PeakRSS = max(rep.PeakRSS, uint64(ru.Maxrss)<<10)
			}
		}
		slices.Sort(walls)
		rep.Wall = walls[len(walls)/2]
		rep.OK = r.goal != "" && rep.Err == nil && rep.Wall <= r.wall && rep.PeakRSS <= r.bytes
		out = append(out, rep)
	}
	return out
}

// resetPeak lowers this process's peak resident memory to what it holds now: a child's
// peak (its rusage) counts the peak of the process it was started from, which making
// the folder raised.
func resetPeak() {
	debug.FreeOSMemory()
	_ = os.WriteFile("/proc/self/clear_refs", []byte("5"), 0) // Linux: reset the peak
}

// WriteLongLog writes the long-log rows as a table.
func WriteLongLog(w io.Writer, lines int, rs []LongLogReport) {
	fmt.Fprintf(w, "\n| on a log of %s lines (process) | wall, median | peak memory | goal |\n|---|---|---|---|\n", thousands(lines))
	for _, r := range rs {
		name := "referee " + strings.Join(r.Args, " ")
		if r.Err != nil {
			fmt.Fprintf(w, "| %s | failed: %s | | |\n", name, strings.ReplaceAll(strings.SplitN(r.Err.Error(), "\n", 2)[0], "|", "/"))
			continue
		}
		goal := "—"
		if r.Goal != "" {
			goal = r.Goal + " " + mark(r.OK)
		}
		fmt.Fprintf(w, "| %s | %s | %s | %s |\n", name, formatDuration(r.Wall), mib(r.PeakRSS), goal)
	}
}

// LogLines counts the lines of the folder's log.
func LogLines(dir string) (int, error) {
	f, err := os.Open(filepath.Join(dir, filepath.FromSlash(store.LogFile)))
	if err != nil {
		return 0, err
	}
	defer f.Close()
	n, buf := 0, make([]byte, 1<<20)
	for {
		k, err := f.Read(buf)
		n += bytes.Count(buf[:k], []byte{'\n'})
		if err == io.EOF {
			return n, nil
		}
		if err != nil {
			return 0, err
		}
	}
}
