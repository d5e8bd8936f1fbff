package main

import (
	"errors"
	"fmt"
	"slices"

	"github.com/spf13/cobra"

	"referee/gen"
	"referee/model"
)

func (a *app) genCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "gen",
		Short: "Generate a realistic contents folder (seeded) for benchmarks and demos",
		Long: "gen writes a new contents folder: N statements under P problems (about four in ten of\n" +
			"them subgoals), decompositions up to depth 8, proofs of 1–20 KB, issue and response\n" +
			"threads, every status of the vocabulary, and a change log with the backups of its last\n" +
			"changes (--backups). The same seed gives the same bytes. The folder must not exist or\n" +
			"be empty.",
		Example: "  referee gen --contents /tmp/big --statements 10000 --problems 50 --seed 7\n" +
			"  referee gen --contents /tmp/chain --shape chain --size 2000",
		Args: noArgs,
	}
	contents := cmd.Flags().String("contents", "", "the folder to create (required)")
	statements := cmd.Flags().Int("statements", 1000, "statement files in all")
	problems := cmd.Flags().Int("problems", 10, "problems in all")
	seed := cmd.Flags().Uint64("seed", 1, "the random seed")
	// P014 by default, as init writes: a generated folder speaks the agents' words of today.
	vocabulary := cmd.Flags().String("vocabulary", "P014", "the status vocabulary: P014 (the agents' today, as init writes) or P013 (seed-era)")
	shape := cmd.Flags().String("shape", "", "instead, a pathological shape of size --size: chain, citations, fanout (statements), bigclaim, biglog (bytes), longproof (sentences)")
	size := cmd.Flags().Int("size", 0, "the size of --shape")
	backups := cmd.Flags().Int("backups", gen.DefaultBackups, "how many of the last changes keep their backups (history/l-NNN/); -1: every change")
	cmd.RunE = func(*cobra.Command, []string) error {
		if *contents == "" {
			return usagef("gen needs --contents DIR (a new folder)")
		}
		if *shape != "" {
			if *size <= 0 {
				return usagef("gen --shape needs --size N (N > 0)")
			}
			if !slices.Contains(gen.Shapes, gen.Shape(*shape)) {
				return usagef("--shape: %q is not one of %v", *shape, gen.Shapes)
			}
			if err := gen.WriteShape(*contents, gen.Shape(*shape), *size); err != nil {
				return fmt.Errorf("gen: %w", err)
			}
			fmt.Fprintf(a.stdout, "generated %s: %s of %d\n", *contents, *shape, *size)
			return nil
		}
		if *backups == 0 || *backups < -1 {
			return usagef("--backups: %d; expected a number of changes, or -1 for every change", *backups)
		}
		cfg := gen.Config{Statements: *statements, Problems: *problems, Seed: *seed, Backups: *backups}
		switch *vocabulary {
		case "P013":
			cfg.Vocabulary = model.P013
		case "P014":
			cfg.Vocabulary = model.P014
		default:
			return usagef("--vocabulary: %q is not P014 or P013", *vocabulary)
		}
		if err := gen.Generate(*contents, cfg); err != nil {
			var ce *gen.ConfigError
			if errors.As(err, &ce) {
				return usagef("gen: %v", err)
			}
			return fmt.Errorf("gen: %w", err)
		}
		fmt.Fprintf(a.stdout, "generated %s: %d statements, %d problems, seed %d, %s\n",
			*contents, cfg.Statements, cfg.Problems, cfg.Seed, *vocabulary)
		return nil
	}
	return cmd
}
