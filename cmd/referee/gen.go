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
			"threads, every status of the vocabulary, and a change log with its backups. The same\n" +
			"seed gives the same bytes. The folder must not exist or be empty.",
		Args: noArgs,
	}
	contents := cmd.Flags().String("contents", "", "the folder to create (required)")
	statements := cmd.Flags().Int("statements", 1000, "statement files in all")
	problems := cmd.Flags().Int("problems", 10, "problems in all")
	seed := cmd.Flags().Uint64("seed", 1, "the random seed")
	vocabulary := cmd.Flags().String("vocabulary", "P013", "the status vocabulary: P013 or P014")
	shape := cmd.Flags().String("shape", "", "instead, a pathological shape of size --size: chain, citations, fanout (statements), bigclaim, biglog (bytes), longproof (sentences)")
	size := cmd.Flags().Int("size", 0, "the size of --shape")
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
		cfg := gen.Config{Statements: *statements, Problems: *problems, Seed: *seed}
		switch *vocabulary {
		case "P013":
			cfg.Vocabulary = model.P013
		case "P014":
			cfg.Vocabulary = model.P014
		default:
			return usagef("--vocabulary: %q is not P013 or P014", *vocabulary)
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
