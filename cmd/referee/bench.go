//go:build !noui

package main

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/spf13/cobra"

	"referee/bench"
	"referee/gen"
	"referee/model"
)

func (a *app) benchCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "bench",
		Short: "Time referee beside the agents' Python tools and the raw read floor (one table)",
		Long: "bench generates folders (seeded, cached under the temporary folder), then times loading and\n" +
			"deriving them, reloading one changed file, the memory a loaded folder holds and one skill\n" +
			"call, each beside the same work done by the agents' own Python (json.load of every object;\n" +
			"their skill scripts) and by a raw read of the same bytes. Add 100000 to --sizes for the\n" +
			"100k rows (the first run generates that folder: a minute or so and about 3 GB of disk).",
		Args: noArgs,
	}
	sizes := cmd.Flags().IntSlice("sizes", []int{1000, 10000}, "folder sizes in statements, comma-separated")
	seed := cmd.Flags().Uint64("seed", 1, "the generator's seed")
	python := cmd.Flags().String("python", "python3", "the Python interpreter for the agents' side (\"\" leaves it out)")
	budget := cmd.Flags().Duration("budget", 2*time.Second, "time spent repeating one figure (at least 3 runs)")
	binary := cmd.Flags().String("binary", "", "the referee the process rows run (default: this one); the agents' CLI-only build times what they run")
	table := cmd.Flags().Bool("table", true, "the table of load, reload, memory, skill and workbench rows")
	live := cmd.Flags().Duration("live", 0, "also run the live rows for this long: the binary in a pseudo-terminal on a new folder of --live-size statements, under skill calls and in-place rewrites (0 leaves them out)")
	liveSize := cmd.Flags().Int("live-size", 10000, "statements in the live rows' folder")
	calls := cmd.Flags().Int("calls", 40, "skill calls per second in the live rows")
	rewrites := cmd.Flags().Int("rewrites", 20, "in-place rewrites of statement files per second in the live rows")
	shapes := cmd.Flags().Bool("shapes", false, "also open the pathological shapes (chain of 50k, citation chain of 8k, 20k children, a 5 MB claim, a 100,000-sentence proof, a 500 MB log) in the binary")
	only := cmd.Flags().StringSlice("shape", nil, "with --shapes, open only these shapes (comma-separated names)")
	cmd.RunE = func(*cobra.Command, []string) error {
		for _, sh := range *only {
			if !slices.Contains(gen.Shapes, gen.Shape(sh)) {
				return usagef("--shape: %q is not a shape (%v)", sh, gen.Shapes)
			}
		}
		for _, n := range *sizes {
			if n < 100 {
				return usagef("--sizes: %d is too small (at least 100 statements)", n)
			}
		}
		bin := *binary
		if bin == "" {
			var err error
			if bin, err = os.Executable(); err != nil {
				bin = "" // the process rows are left out
			}
		} else if info, err := os.Stat(bin); err != nil || info.IsDir() {
			return usagef("--binary: %s is not a program", bin)
		}
		if *table {
			if err := bench.Run(a.stdout, bench.Options{Sizes: *sizes, Seed: *seed, Binary: bin, Python: *python,
				Budget: *budget, Progress: a.stderr}); err != nil {
				return err
			}
		}
		// The live rows and the shapes open the workbench, so they run this binary (bench
		// is only in the build with the UI): --binary, the agents' CLI build, times the
		// process rows.
		self, err := os.Executable()
		if (*live > 0 || *shapes) && err != nil {
			return fmt.Errorf("the live rows need the path of this referee: %v", err)
		}
		if *live > 0 {
			if err := runLive(a, self, *seed, *liveSize, *live, *calls, *rewrites); err != nil {
				return err
			}
		}
		if *shapes {
			sizes := map[gen.Shape]int{gen.ShapeChain: 50000, gen.ShapeCitations: 8000, gen.ShapeFanout: 20000,
				gen.ShapeBigClaim: 5 << 20, gen.ShapeLongProof: 100000, gen.ShapeBigLog: 500 << 20}
			var rs []bench.ShapeReport
			for _, sh := range gen.Shapes {
				if len(*only) > 0 && !slices.Contains(*only, string(sh)) {
					continue
				}
				fmt.Fprintf(a.stderr, "bench: opening %s of %d\n", sh, sizes[sh])
				rs = append(rs, bench.RunShape(self, os.TempDir(), sh, sizes[sh]))
			}
			bench.WriteShapes(a.stdout, rs)
		}
		return nil
	}
	return cmd
}

// runLive generates a folder for the live rows, runs them and prints them.
func runLive(a *app, bin string, seed uint64, n int, d time.Duration, calls, rewrites int) error {
	dir, err := os.MkdirTemp("", "referee-bench-live-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	dir = filepath.Join(dir, "contents")
	fmt.Fprintf(a.stderr, "bench: generating %d statements for the live rows\n", n)
	if err := gen.Generate(dir, gen.Config{Statements: n, Problems: bench.ProblemsFor(n), Seed: seed, Vocabulary: model.P013}); err != nil {
		return err
	}
	o := bench.LiveOptions{Binary: bin, Dir: dir, Duration: d, Calls: calls, Rewrites: rewrites, Keys: 10}
	fmt.Fprintf(a.stderr, "bench: live rows for %s\n", d)
	r, err := bench.RunLive(o)
	if err != nil {
		return fmt.Errorf("live rows: %w", err)
	}
	bench.WriteLive(a.stdout, n, o, r)
	return nil
}
