//go:build !noui

package main

import (
	"os"
	"time"

	"github.com/spf13/cobra"

	"referee/bench"
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
	cmd.RunE = func(*cobra.Command, []string) error {
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
		return bench.Run(a.stdout, bench.Options{Sizes: *sizes, Seed: *seed, Binary: bin, Python: *python,
			Budget: *budget, Progress: a.stderr})
	}
	return cmd
}
