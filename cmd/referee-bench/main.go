// Command referee-bench times referee as people run it: beside the agents' Python tools
// and the raw read floor (one table), the MCP server's read tools, the workbench in a
// pseudo-terminal under a live run, and the pathological shapes. It is its own command
// so that the measuring code (a pseudo-terminal, a terminal emulator) stays out of the
// referee binary; it runs a referee binary as a process, as users start it.
//
//	go build -o /tmp/referee ./cmd/referee
//	go run ./cmd/referee-bench --binary /tmp/referee --sizes 10000,100000
//
// Exit codes: 0 done; 1 a measurement failed; 2 bad usage.
package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"referee/bench"
	"referee/gen"
	"referee/model"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

// usageError is bad usage: exit 2.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error { return &usageError{fmt.Sprintf(format, args...)} }

// run executes one command line and returns the exit code; tests call it in-process.
func run(args []string, stdout, stderr io.Writer) int {
	cmd := command(stdout, stderr)
	cmd.SetArgs(args)
	cmd.SetOut(stdout)
	cmd.SetErr(stderr)
	cmd.SilenceUsage, cmd.SilenceErrors = true, true
	cmd.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return usagef("%v", err) })
	err := cmd.Execute()
	if err == nil {
		return 0
	}
	fmt.Fprintf(stderr, "referee-bench: %v\n", err)
	var ue *usageError
	if errors.As(err, &ue) {
		return 2
	}
	return 1
}

func command(stdout, stderr io.Writer) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "referee-bench",
		Short: "Time referee beside the agents' Python tools and the raw read floor (one table)",
		Long: "referee-bench generates folders (seeded, cached under the temporary folder), then times loading\n" +
			"and deriving them, reloading one changed file, the memory a loaded folder holds, one skill\n" +
			"call, the MCP server's read tools and the workbench, each beside the same work done by the\n" +
			"agents' own Python (json.load of every object; their skill scripts) and by a raw read of the\n" +
			"same bytes. Add 100000 to --sizes for the 100k rows (the first run generates that folder: a\n" +
			"minute or so and about 3 GB of disk).",
		Example: "  go build -o /tmp/referee ./cmd/referee\n" +
			"  go run ./cmd/referee-bench --binary /tmp/referee\n" +
			"  go run ./cmd/referee-bench --binary /tmp/referee --sizes 10000,100000 --rows mcp\n" +
			"  go run ./cmd/referee-bench --binary /tmp/referee --sizes 100000 --table=false --mcp-calls 500\n" +
			"  go run ./cmd/referee-bench --binary /tmp/referee --table=false --live 30s\n" +
			"  go run ./cmd/referee-bench --binary /tmp/referee --table=false --serve 15s --sessions 20\n" +
			"  go run ./cmd/referee-bench --binary /tmp/referee --table=false --shapes --shape chain,biglog",
		Args: cobra.NoArgs,
	}
	f := cmd.Flags()
	sizes := f.IntSlice("sizes", []int{1000, 10000}, "folder sizes in statements, comma-separated")
	seed := f.Uint64("seed", 1, "the generator's seed")
	python := f.String("python", "python3", "the Python interpreter for the agents' side (\"\" leaves it out)")
	budget := f.Duration("budget", 2*time.Second, "time spent repeating one figure (at least 3 runs)")
	binary := f.String("binary", "", "the referee binary timed (default: referee beside this program, else on $PATH)")
	cli := f.String("cli", "", "the referee the skill-process rows run (default --binary): the agents' build times what they run")
	table := f.Bool("table", true, "the table of load, reload, memory, skill, MCP and workbench rows")
	rows := f.StringSlice("rows", nil, fmt.Sprintf("measure only these sections of the table, comma-separated (%s; default all)", strings.Join(bench.Sections(), ",")))
	live := f.Duration("live", 0, "also run the live rows for this long: the binary in a pseudo-terminal on a new folder of --live-size statements, under skill calls and in-place rewrites (0 leaves them out)")
	liveSize := f.Int("live-size", 10000, "statements in the live rows' folder")
	calls := f.Int("calls", 40, "skill calls per second in the live rows")
	rewrites := f.Int("rewrites", 20, "in-place rewrites of statement files per second in the live rows")
	serveFor := f.Duration("serve", 0, "also run the SSH rows, each phase this long: referee serve as a process with --sessions workbenches over SSH under --calls skill calls/s, then with a client that stops reading, then one local workbench beside it (0 leaves them out)")
	sessions := f.Int("sessions", 20, "workbenches over SSH in the SSH rows")
	spread := f.Bool("spread", true, "in the SSH rows, session k moves 5×k rows down the tree, so the sessions show different statements (false: all stay on the first row)")
	shapes := f.Bool("shapes", false, "also open the pathological shapes (chain of 50k, citation chain of 8k, 20k children, a 5 MB claim, a 100,000-sentence proof, a 500 MB log) in the binary")
	only := f.StringSlice("shape", nil, "with --shapes, open only these shapes (comma-separated names)")
	keepLive := f.Bool("live-keep", false, "run the live rows on a folder generated once under the temporary folder and kept (referee-bench-live-<size>-<seed>; each run's changes stay in it), not on a new one; always so from 100,000 statements")
	opens := f.Int("opens", 0, "also open the binary (and --vs) this many times each, in turn, on the live rows' kept folder of --live-size statements: exec → first frame, exec → tree, CPU at the tree, exec → loaded")
	vs := f.StringSlice("vs", nil, "with --opens, other referee binaries opened in turn with --binary")
	mcpCalls := f.Int("mcp-calls", 0, "also call each MCP read tool this many times in a row over stdio, on each of --sizes: p50, p99 and the CPU of the server and the client per call (0 leaves them out)")
	longLog := f.Bool("long-log", false, "also time the commands that read a run's past (show, rewind --dry-run, diff, log --last, …) as processes on a 500 MB log of about 5 million lines (made once, cached in the temporary folder)")
	cmd.RunE = func(*cobra.Command, []string) error {
		for _, sh := range *only {
			if !slices.Contains(gen.Shapes, gen.Shape(sh)) {
				return usagef("--shape: %q is not a shape (%v)", sh, gen.Shapes)
			}
		}
		for _, r := range *rows {
			if !slices.Contains(bench.Sections(), r) {
				return usagef("--rows: %q is not a section of the table (%s)", r, strings.Join(bench.Sections(), ","))
			}
		}
		for _, n := range *sizes {
			if n < 100 {
				return usagef("--sizes: %d is too small (at least 100 statements)", n)
			}
		}
		bin, err := findReferee(*binary)
		if err != nil {
			return err
		}
		procBin := bin
		if *cli != "" {
			if procBin, err = findReferee(*cli); err != nil {
				return err
			}
		}
		if *table {
			if err := bench.Run(stdout, bench.Options{Sizes: *sizes, Seed: *seed, Binary: procBin,
				Python: *python, Budget: *budget, Rows: *rows, Progress: stderr}); err != nil {
				return err
			}
		}
		if *mcpCalls > 0 {
			for _, n := range *sizes {
				fmt.Fprintf(stderr, "referee-bench: MCP calls on %d statements (cached in %s)\n", n, os.TempDir())
				dir, err := bench.Folder(n, *seed)
				if err != nil {
					return err
				}
				rs, err := bench.RunMCPCalls(procBin, dir, *mcpCalls)
				if err != nil {
					return fmt.Errorf("MCP calls: %w", err)
				}
				bench.WriteMCPCalls(stdout, n, rs)
			}
		}
		if *live > 0 {
			if err := runLive(stdout, stderr, bin, *seed, *liveSize, *live, *calls, *rewrites, *keepLive || *liveSize >= 100000); err != nil {
				return err
			}
		}
		if *opens > 0 {
			bins := []string{bin}
			for _, b := range *vs {
				if _, err := findReferee(b); err != nil {
					return err
				}
				bins = append(bins, b)
			}
			fmt.Fprintf(stderr, "referee-bench: the live folder of %d statements (kept in %s)\n", *liveSize, os.TempDir())
			dir, err := bench.LiveFolder(os.TempDir(), *liveSize, *seed)
			if err != nil {
				return err
			}
			bench.WriteOpens(stdout, *liveSize, bench.RunOpens(bins, dir, *opens))
		}
		if *serveFor > 0 {
			o := bench.ServeOptions{Binary: bin, Size: *liveSize, Seed: *seed, Sessions: *sessions, Duration: *serveFor, Calls: *calls, Spread: *spread}
			fmt.Fprintf(stderr, "referee-bench: SSH rows, %d sessions on %d statements\n", o.Sessions, o.Size)
			r, err := bench.RunServe(o)
			if err != nil {
				return fmt.Errorf("SSH rows: %w", err)
			}
			bench.WriteServe(stdout, o.Size, o, r)
		}
		if *shapes {
			sizes := map[gen.Shape]int{gen.ShapeChain: 50000, gen.ShapeCitations: 8000, gen.ShapeFanout: 20000,
				gen.ShapeBigClaim: 5 << 20, gen.ShapeLongProof: 100000, gen.ShapeBigLog: 500 << 20}
			var rs []bench.ShapeReport
			for _, sh := range gen.Shapes {
				if len(*only) > 0 && !slices.Contains(*only, string(sh)) {
					continue
				}
				fmt.Fprintf(stderr, "referee-bench: opening %s of %d\n", sh, sizes[sh])
				rs = append(rs, bench.RunShape(bin, os.TempDir(), sh, sizes[sh]))
			}
			bench.WriteShapes(stdout, rs)
		}
		if *longLog {
			if err := runLongLog(stdout, stderr, bin); err != nil {
				return err
			}
		}
		return nil
	}
	return cmd
}

// runLongLog times the long-log rows (bench.RunLongLog) on a 500 MB biglog.
func runLongLog(stdout, stderr io.Writer, bin string) error {
	fmt.Fprintf(stderr, "referee-bench: preparing a 500 MB log (cached in %s)…\n", os.TempDir())
	dir, tail, err := bench.LongLogFolder(os.TempDir(), 500<<20)
	if err != nil {
		return err
	}
	lines, err := bench.LogLines(dir)
	if err != nil {
		return err
	}
	bench.WriteLongLog(stdout, lines, bench.RunLongLog(bin, dir, tail, 3))
	return nil
}

// findReferee is the referee binary to time: the one named, else `referee` beside this
// program, else on $PATH.
func findReferee(named string) (string, error) {
	if named != "" {
		if info, err := os.Stat(named); err != nil || info.IsDir() {
			return "", usagef("--binary: %s is not a program", named)
		}
		return named, nil
	}
	if self, err := os.Executable(); err == nil {
		beside := filepath.Join(filepath.Dir(self), "referee")
		if info, err := os.Stat(beside); err == nil && !info.IsDir() {
			return beside, nil
		}
	}
	if p, err := exec.LookPath("referee"); err == nil {
		return p, nil
	}
	return "", usagef("no referee binary: build one (go build -o /tmp/referee ./cmd/referee) and pass --binary /tmp/referee")
}

// runLive generates a folder for the live rows, runs them and prints them.
func runLive(stdout, stderr io.Writer, bin string, seed uint64, n int, d time.Duration, calls, rewrites int, keep bool) error {
	var dir string
	if keep {
		fmt.Fprintf(stderr, "referee-bench: the live rows' folder of %d statements (kept in %s)\n", n, os.TempDir())
		var err error
		if dir, err = bench.LiveFolder(os.TempDir(), n, seed); err != nil {
			return err
		}
	} else {
		tmp, err := os.MkdirTemp("", "referee-bench-live-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(tmp)
		dir = filepath.Join(tmp, "contents")
		fmt.Fprintf(stderr, "referee-bench: generating %d statements for the live rows\n", n)
		if err := gen.Generate(dir, gen.Config{Statements: n, Problems: bench.ProblemsFor(n), Seed: seed, Vocabulary: model.P013}); err != nil {
			return err
		}
	}
	o := bench.LiveOptions{Binary: bin, Dir: dir, Duration: d, Calls: calls, Rewrites: rewrites, Keys: 10}
	fmt.Fprintf(stderr, "referee-bench: live rows for %s\n", d)
	r, err := bench.RunLive(o)
	if err != nil {
		return fmt.Errorf("live rows: %w", err)
	}
	bench.WriteLive(stdout, n, o, r)
	return nil
}
