package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"referee/store"
)

func (a *app) repairCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "repair",
		Short: "Put right what interrupted changes left behind; refuse, with the reason, what needs a guess",
		Long: "repair removes temp files of interrupted writes, completes a change whose objects were all\n" +
			"written (adds its log line) or undoes one that stopped half-way (from its backups), removes\n" +
			"backup folders of changes that wrote nothing, and sets config counters back to the IDs in use.\n" +
			"Anything else it refuses, saying why and what to do by hand; it then exits 1.\n" +
			"Run it while no agent is writing to the folder. --dry-run says what it would do.",
		Args: noArgs,
	}
	contents := addContentsFlag(cmd)
	output := addOutputFlag(cmd)
	dryRun := cmd.Flags().Bool("dry-run", false, "say what would be done; change nothing")
	cmd.RunE = func(*cobra.Command, []string) error {
		if err := checkOutput(*output); err != nil {
			return err
		}
		rep, err := store.Repair(*contents, *dryRun)
		if err != nil {
			return err
		}
		if *output == "json" {
			if err := a.writeJSON(rep); err != nil {
				return err
			}
		} else {
			for _, s := range rep.Done {
				fmt.Fprintln(a.stdout, oneLine(s.String()))
			}
			for _, s := range rep.Refused {
				fmt.Fprintln(a.stdout, "refused: "+oneLine(s.String()))
			}
			done := fmt.Sprintf("%d repaired", len(rep.Done))
			if rep.DryRun {
				done = fmt.Sprintf("%d to repair", len(rep.Done))
			}
			if len(rep.Done)+len(rep.Refused) == 0 {
				fmt.Fprintln(a.stdout, "nothing to repair")
			} else {
				fmt.Fprintf(a.stdout, "%s, %d refused\n", done, len(rep.Refused))
			}
		}
		if len(rep.Refused) > 0 {
			return &silentExit{code: exitRefused}
		}
		return nil
	}
	return cmd
}
