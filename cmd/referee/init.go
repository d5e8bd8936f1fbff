package main

import (
	"github.com/spf13/cobra"

	"referee/model"
	"referee/store"
)

func (a *app) initCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use: "init --objective TEXT [--hypothesis TEXT]...",
		Example: "  referee init --contents run/contents --objective 'Prove that there are infinitely many primes'\n" +
			"  referee init --add --objective 'Show that 2^n > n' --hypothesis 'n is a natural number'",
		Short: "Set up a new contents folder as the agents' own init does",
		Long: "init writes config.json and one change (l-001) creating a true assumption statement per\n" +
			"--hypothesis and the problem p-001 with the --objective(s). It refuses a folder that\n" +
			"already has config.json, a log or objects (exit 1); with --add it adds the problem (and\n" +
			"its assumptions) to such a folder as one more change, with the next free IDs.",
		Args: noArgs,
	}
	contents := addContentsFlag(cmd)
	output := addOutputFlag(cmd)
	objectives := cmd.Flags().StringArray("objective", nil, "what the problem asks (repeat for several)")
	hypotheses := cmd.Flags().StringArray("hypothesis", nil, "a hypothesis, kept as a true assumption statement (repeat)")
	actor := cmd.Flags().String("actor", "", "who makes the change (default $REFEREE_ACTOR, else agent)")
	add := cmd.Flags().Bool("add", false, "add the problem to a folder that is already set up")
	vocabulary := cmd.Flags().String("vocabulary", "P014", "the status vocabulary the folder's writes use: P014 (the agents' today) or P013 (seed-era)")
	cmd.RunE = func(*cobra.Command, []string) error {
		if err := checkOutput(*output); err != nil {
			return err
		}
		opts, err := options(*actor, "")
		if err != nil {
			return err
		}
		switch *vocabulary {
		case "P014":
			opts.Vocabulary = model.P014
		case "P013":
			opts.Vocabulary = model.P013
		default:
			return usagef("--vocabulary: %q is not P014 or P013", *vocabulary)
		}
		initFn := store.Init
		if *add {
			initFn = store.AddProblem
		}
		res, err := initFn(*contents, *objectives, *hypotheses, opts)
		if err != nil {
			return err
		}
		return a.printResult(res, *output)
	}
	return cmd
}
