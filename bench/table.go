package bench

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"runtime"
	"slices"
	"sort"
	"strings"
	"time"
)

// Options say what `referee-bench` measures.
type Options struct {
	Sizes    []int         // folder sizes in statements
	Seed     uint64        // generator seed
	Binary   string        // the referee binary, for the process rows ("" leaves them out)
	Python   string        // the Python interpreter ("" leaves the column out)
	Budget   time.Duration // time spent repeating one cell (default 2 s; at least 3 runs)
	Rows     []string      // the sections measured, by name (Sections); none: all
	Progress io.Writer     // what is being prepared, for long runs (may be nil)
}

// The table's columns: referee, and the peers doing the same work.
const (
	colReferee = iota
	colPython
	colFloor
	numCols
)

var colNames = [numCols]string{"referee", "python (agents)", "read floor"}

// Cell is one figure: a time, repeated and shown as the median, or a quantity measured
// once (Value), or a note where a peer has no counterpart.
type Cell struct {
	Time  func() (time.Duration, error)
	Value func() (string, error)
	Note  string
	Runs  int // at most this many timed runs (default 15)
}

// Row is one line of the table: a piece of work and its cells. Goal turns the medians
// (zero where not timed) into the goal column.
type Row struct {
	Work  string
	Cells [numCols]Cell
	Goal  func(med [numCols]time.Duration) string
	Close func() // releases what the row's cells work on
}

// Env is what the rows are made from.
type Env struct {
	Opts     Options
	Folders  map[int]string // by size
	Python   *Python        // nil when there is none
	PyNote   string         // why there is none
	Binary   string
	progress io.Writer
}

// sections make the table's rows, in order; the workbench's (the UI's) are in
// workbench.go.
var sections = []struct {
	name string
	rows func(*Env) ([]Row, error)
}{{"load", loadRows}, {"reload", reloadRows}, {"memory", memoryRows}, {"skill", skillRows}, {"mcp", mcpRows}, {"workbench", workbenchRows}}

// Sections are the names Options.Rows takes, in the table's order.
func Sections() []string {
	var names []string
	for _, s := range sections {
		names = append(names, s.name)
	}
	return names
}

// Run measures every row and prints the table to w, one row as soon as it is measured.
func Run(w io.Writer, opts Options) error {
	if len(opts.Sizes) == 0 {
		return errors.New("no sizes")
	}
	if opts.Budget == 0 {
		opts.Budget = 2 * time.Second
	}
	env := &Env{Opts: opts, Folders: map[int]string{}, Binary: opts.Binary, progress: opts.Progress}
	if env.progress == nil {
		env.progress = io.Discard
	}
	if opts.Python == "" {
		env.PyNote = "python: left out"
	} else if py, err := FindPython(opts.Python); err != nil {
		env.PyNote = fmt.Sprintf("python: not measured (%v)", err)
	} else {
		env.Python = py
		defer py.Close()
	}
	for _, n := range opts.Sizes {
		fmt.Fprintf(env.progress, "preparing a folder of %d statements (cached in %s)…\n", n, os.TempDir())
		start := time.Now()
		dir, err := Folder(n, opts.Seed)
		if err != nil {
			return fmt.Errorf("generating %d statements: %w", n, err)
		}
		fmt.Fprintf(env.progress, "  %s (%.1f s)\n", dir, time.Since(start).Seconds())
		env.Folders[n] = dir
	}

	fmt.Fprintf(w, "referee-bench: seed %d, %d CPUs, %s %s/%s", opts.Seed, runtime.NumCPU(), runtime.Version(), runtime.GOOS, runtime.GOARCH)
	if env.Python != nil {
		fmt.Fprintf(w, ", Python %s", env.Python.Version)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "times are medians of repeated runs, page cache warm; ratios compare columns of the same run")
	if env.PyNote != "" {
		fmt.Fprintln(w, env.PyNote)
	}
	fmt.Fprintln(w)
	fmt.Fprintf(w, "%-46s %-14s %-16s %-12s %s\n", "work", colNames[0], colNames[1], colNames[2], "goal")
	for _, section := range sections {
		if len(opts.Rows) > 0 && !slices.Contains(opts.Rows, section.name) {
			continue
		}
		rows, err := section.rows(env)
		if err != nil {
			return err
		}
		for i, row := range rows {
			line, err := measureRow(env, row, opts.Budget)
			if err != nil {
				for _, r := range rows[i:] { // release the work copies of the rows not measured
					if r.Close != nil {
						r.Close()
					}
				}
				return fmt.Errorf("%s: %w", row.Work, err)
			}
			if row.Close != nil {
				row.Close()
			}
			fmt.Fprintln(w, line)
		}
	}
	return nil
}

func measureRow(env *Env, row Row, budget time.Duration) (string, error) {
	fmt.Fprintf(env.progress, "measuring %s…\n", row.Work)
	var text [numCols]string
	var med [numCols]time.Duration
	for c, cell := range row.Cells {
		switch {
		case cell.Time != nil:
			d, err := median(cell, budget)
			if err != nil {
				return "", fmt.Errorf("%s: %w", colNames[c], err)
			}
			med[c], text[c] = d, formatDuration(d)
		case cell.Value != nil:
			v, err := cell.Value()
			if err != nil {
				return "", fmt.Errorf("%s: %w", colNames[c], err)
			}
			text[c] = v
		default:
			text[c] = cell.Note
		}
	}
	goal := ""
	if row.Goal != nil {
		goal = row.Goal(med)
	}
	return strings.TrimRight(fmt.Sprintf("%-46s %-14s %-16s %-12s %s", row.Work, text[0], text[1], text[2], goal), " "), nil
}

// median runs a cell once to warm up, then until the budget is spent (at least three
// runs, at most cell.Runs), and returns the median.
func median(cell Cell, budget time.Duration) (time.Duration, error) {
	if _, err := cell.Time(); err != nil {
		return 0, err
	}
	most := cell.Runs
	if most == 0 {
		most = 15
	}
	var runs []time.Duration
	deadline := time.Now().Add(budget)
	for len(runs) < most && (len(runs) < 3 || time.Now().Before(deadline)) {
		d, err := cell.Time()
		if err != nil {
			return 0, err
		}
		runs = append(runs, d)
	}
	sort.Slice(runs, func(i, j int) bool { return runs[i] < runs[j] })
	return runs[len(runs)/2], nil
}

func formatDuration(d time.Duration) string {
	ms := float64(d) / float64(time.Millisecond)
	switch {
	case ms < 0.1:
		return fmt.Sprintf("%.0f µs", ms*1000)
	case ms < 10:
		return fmt.Sprintf("%.2f ms", ms)
	case ms < 1000:
		return fmt.Sprintf("%.1f ms", ms)
	}
	return fmt.Sprintf("%.2f s", ms/1000)
}

func thousands(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

func mib(b uint64) string { return fmt.Sprintf("%.0f MiB", float64(b)/(1<<20)) }

// timed wraps work as a Cell timer.
func timed(work func() error) func() (time.Duration, error) {
	return func() (time.Duration, error) {
		start := time.Now()
		err := work()
		return time.Since(start), err
	}
}

// timedFresh is timed, each run starting from the heap a new process starts with (the
// garbage of the runs before collected first, off the clock): what a run of `referee
// status` finds.
func timedFresh(work func() error) func() (time.Duration, error) {
	return func() (time.Duration, error) {
		runtime.GC()
		return timed(work)()
	}
}

// ratio says how many times a is of b, e.g. "5.2×".
func ratio(a, b time.Duration) string {
	if a == 0 || b == 0 {
		return "—"
	}
	return fmt.Sprintf("%.1f×", float64(a)/float64(b))
}

func mark(ok bool) string {
	if ok {
		return "✓"
	}
	return "✗"
}

// pythonCell times python work, or notes why it is not.
func (env *Env) pythonCell(t func(py *Python) (time.Duration, error)) Cell {
	if env.Python == nil {
		return Cell{Note: "—"}
	}
	return Cell{Time: func() (time.Duration, error) { return t(env.Python) }}
}

// ---- the sections ---------------------------------------------------------------------

func loadRows(env *Env) ([]Row, error) {
	var rows []Row
	for _, n := range env.Opts.Sizes {
		dir := env.Folders[n]
		goal10k := n == 10_000
		rows = append(rows, Row{
			Work: fmt.Sprintf("load + derive, %s statements", thousands(n)),
			Cells: [numCols]Cell{
				{Time: timedFresh(func() error { _, _, err := LoadDerive(dir); return err })},
				env.pythonCell(func(py *Python) (time.Duration, error) {
					r, err := py.Load(dir)
					return time.Duration(r.Seconds * float64(time.Second)), err
				}),
				{Time: timedFresh(func() error { _, err := ReadFloor(dir); return err })},
			},
			Goal: func(m [numCols]time.Duration) string {
				s := fmt.Sprintf("python/referee %s", ratio(m[colPython], m[colReferee]))
				if goal10k && m[colPython] > 0 {
					s += " (≥4×) " + mark(m[colPython] >= 4*m[colReferee])
				}
				s += fmt.Sprintf(", referee/floor %s", ratio(m[colReferee], m[colFloor]))
				if goal10k {
					s += " (≤2×) " + mark(m[colReferee] <= 2*m[colFloor])
				}
				return s
			},
		})
		if env.Binary != "" {
			bin := env.Binary
			rows = append(rows, Row{
				Work: "  status --output json, as processes",
				Cells: [numCols]Cell{
					{Time: timed(func() error {
						return exec.Command(bin, "status", "--output", "json", "--contents", dir).Run()
					}), Runs: 9},
					env.pythonCell(func(py *Python) (time.Duration, error) {
						r, err := py.Load(dir)
						return r.Wall, err
					}),
					{Note: "—"},
				},
				Goal: func(m [numCols]time.Duration) string {
					return "python/referee " + ratio(m[colPython], m[colReferee])
				},
			})
		}
	}
	return rows, nil
}

func reloadRows(env *Env) ([]Row, error) {
	var rows []Row
	for _, n := range env.Opts.Sizes {
		r, err := NewReloadCase(env.Folders[n])
		if err != nil {
			return nil, err
		}
		dir := env.Folders[n]
		rows = append(rows, Row{
			Work: fmt.Sprintf("reload 1 changed file + graph update, %s", thousands(n)),
			Cells: [numCols]Cell{
				{Time: func() (time.Duration, error) {
					if err := r.Change(); err != nil {
						return 0, err
					}
					start := time.Now()
					_, _, err := r.Reload()
					return time.Since(start), err
				}},
				env.pythonCell(func(py *Python) (time.Duration, error) { // no reload: all again
					rep, err := py.Load(dir)
					return time.Duration(rep.Seconds * float64(time.Second)), err
				}),
				{Time: timed(r.ReadFile)},
			},
			Goal: func(m [numCols]time.Duration) string {
				return "python reads all again: " + ratio(m[colPython], m[colReferee])
			},
			Close: r.Close,
		})
	}
	return rows, nil
}

func memoryRows(env *Env) ([]Row, error) {
	var rows []Row
	for _, n := range env.Opts.Sizes {
		dir := env.Folders[n]
		var perStatement float64
		rows = append(rows, Row{
			Work: fmt.Sprintf("memory after load + derive, %s", thousands(n)),
			Cells: [numCols]Cell{
				{Value: func() (string, error) {
					heap, err := HeapAfterLoad(dir)
					perStatement = float64(heap) / float64(n)
					return fmt.Sprintf("%.1f KiB/st", perStatement/1024), err // the total is in the goal column
				}},
				{Value: func() (string, error) {
					if env.Python == nil {
						return "—", nil
					}
					r, err := env.Python.Load(dir) // peak RSS: the interpreter's own ~10 MB included
					return fmt.Sprintf("%.0f MiB RSS", float64(r.MaxRSSKiB)/1024), err
				}},
				{Value: func() (string, error) {
					size, err := ReadFloor(dir)
					return fmt.Sprintf("%.1f KiB/st disk", float64(size)/float64(n)/1024), err
				}},
			},
			Goal: func([numCols]time.Duration) string {
				at100k := perStatement * 100_000
				return fmt.Sprintf("heap %s; at 100k %.2f GiB (<1 GiB) %s", mib(uint64(perStatement*float64(n))), at100k/(1<<30), mark(at100k < 1<<30))
			},
		})
	}
	return rows, nil
}

func skillRows(env *Env) ([]Row, error) {
	// The loop runs on the 10k folder if there is one, else on the largest.
	n := env.Opts.Sizes[len(env.Opts.Sizes)-1]
	for _, size := range env.Opts.Sizes {
		if size == 10_000 {
			n = size
		}
	}
	cached := env.Folders[n]
	var loops []*SkillLoop
	newLoop := func() (*SkillLoop, error) {
		l, err := NewSkillLoop(cached)
		if err == nil {
			loops = append(loops, l)
		}
		return l, err
	}
	closeAll := func() {
		for _, l := range loops {
			l.Close()
		}
	}
	inProc, err := newLoop()
	if err != nil {
		return nil, err
	}
	pyInScript, err := newLoop()
	if err != nil {
		closeAll()
		return nil, err
	}
	rows := []Row{{
		Work: fmt.Sprintf("skill call (reject, patch) in process, %s", thousands(n)),
		Cells: [numCols]Cell{
			{Time: timed(inProc.InProcess), Runs: 41},
			env.pythonCell(func(py *Python) (time.Duration, error) {
				_, work, err := py.Skill(pyInScript)
				return work, err
			}),
			{Note: "—"},
		},
		Goal: func(m [numCols]time.Duration) string {
			return "python/referee " + ratio(m[colPython], m[colReferee]) + " (referee locks and fsyncs; python does neither)"
		},
	}}
	if env.Binary != "" {
		proc, err := newLoop()
		if err != nil {
			closeAll()
			return nil, err
		}
		pyProc, err := newLoop()
		if err != nil {
			closeAll()
			return nil, err
		}
		bin := env.Binary
		rows = append(rows, Row{
			Work: "skill call as a process",
			Cells: [numCols]Cell{
				{Time: timed(func() error {
					if out, err := proc.Command(bin).CombinedOutput(); err != nil {
						return fmt.Errorf("%w: %s", err, out)
					}
					return nil
				}), Runs: 41},
				env.pythonCell(func(py *Python) (time.Duration, error) {
					wall, _, err := py.Skill(pyProc)
					return wall, err
				}),
				{Note: "—"},
			},
			Goal: func(m [numCols]time.Duration) string {
				s := fmt.Sprintf("≤10 ms %s", mark(m[colReferee] <= 10*time.Millisecond))
				if m[colPython] > 0 {
					s += fmt.Sprintf(", python/referee %s (≥5×) %s", ratio(m[colPython], m[colReferee]), mark(m[colPython] >= 5*m[colReferee]))
				}
				return s
			},
		}, Row{
			Work: "  of which process start (--help / -c pass)",
			Cells: [numCols]Cell{
				{Time: timed(func() error { return exec.Command(bin, "--help").Run() }), Runs: 41},
				env.pythonCell(func(py *Python) (time.Duration, error) { return py.Start() }),
				{Note: "—"},
			},
		})
	}
	rows[len(rows)-1].Close = closeAll
	return rows, nil
}
