package main

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"referee/store"
)

// rewind, undo and branch: going back in a run, and keeping alternative lines of it.

func (a *app) rewindCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use: "rewind l-NNN",
		Example: "  referee rewind l-012 --dry-run            # what it would do\n" +
			"  referee rewind l-012\n" +
			"  referee undo                               # takes the rewind back",
		Short: "Set the folder to its state right after a change, as one change that undo takes back",
		Long: "rewind sets every object to what it was right after the change, removes the objects created\n" +
			"later and sets the p, s and e counters back, as one change batch of its own (journaled, with\n" +
			"backups of everything it changes or removes, one log line with \"skill\": \"rewind\" and\n" +
			"\"rewind_to\"). The agents read it as an ordinary change. `referee undo` takes it back.\n" +
			"l-000 (before the first change) is refused: the agents' orchestrator would read the emptied\n" +
			"folder as solved. It refuses while another change is being written. --dry-run says what it\n" +
			"would do: every object's status before and after, the changes it discards (ID, skill, actor,\n" +
			"time) and what follows (problems solved or unsolved, parents whose phase changes, what becomes\n" +
			"actionable or blocked, who is next).",
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usagef("rewind takes one change ID (e.g. referee rewind l-012)")
			}
			return nil
		},
	}
	contents := addContentsFlag(cmd)
	output := addOutputFlag(cmd)
	actor := cmd.Flags().String("actor", "", "who makes the change (default $REFEREE_ACTOR, else agent)")
	dryRun := cmd.Flags().Bool("dry-run", false, "say what would be done; change nothing")
	cmd.RunE = func(_ *cobra.Command, args []string) error {
		return a.restore(*output, *actor, func(opts store.Options) (*store.Restore, error) {
			return withConsequences(*contents, *dryRun)(store.Rewind(*contents, args[0], *dryRun, opts))
		})
	}
	return cmd
}

// withConsequences adds to a restore's dry run what it would do to the run.
func withConsequences(contents string, dryRun bool) func(*store.Restore, error) (*store.Restore, error) {
	return func(r *store.Restore, err error) (*store.Restore, error) {
		if err != nil || !dryRun {
			return r, err
		}
		r.Consequences, err = consequencesOf(contents, r.Writes(), r.Discarded)
		return r, err
	}
}

// restore runs a rewind, a branch save or a switch with the common flags and prints it.
func (a *app) restore(output, actor string, do func(store.Options) (*store.Restore, error)) error {
	if err := checkOutput(output); err != nil {
		return err
	}
	opts, err := options(actor, "")
	if err != nil {
		return err
	}
	r, err := do(opts)
	var nothing *store.NothingToDoError
	if errors.As(err, &nothing) { // already there: success, said so
		if output == "json" {
			return a.writeJSON(map[string]any{"nothing_to_do": true, "message": oneLine(nothing.Error())})
		}
		fmt.Fprintln(a.stdout, oneLine(nothing.Error()))
		return nil
	}
	if err != nil {
		return err
	}
	return a.printRestore(r, output)
}

// printRestore prints what a rewind or a branch switch did (or would do).
func (a *app) printRestore(r *store.Restore, output string) error {
	if output == "json" {
		return a.writeJSON(r)
	}
	w := a.stdout
	what := r.Skill
	switch {
	case r.To != "":
		what = "rewind to " + r.To
	case r.Skill == store.SkillBranchSwitch:
		what = fmt.Sprintf("switch from branch %s to %s", r.From, r.Branch)
	case r.Skill == store.SkillBranchSave:
		what = fmt.Sprintf("save branch %s", r.Branch)
	}
	if r.DryRun {
		fmt.Fprintf(w, "%s would be change %s (dry run: nothing was written)\n", what, r.Change)
	} else {
		fmt.Fprintf(w, "%s: change %s\n", what, r.Change)
	}
	list := func(verb string, ids []string) {
		if len(ids) > 0 {
			fmt.Fprintf(w, "  %s %d: %s\n", verb, len(ids), strings.Join(ids, ", "))
		}
	}
	list("removes", r.Removed)
	list("restores", r.Created)
	if r.To != "" {
		list("sets back", r.Modified)
	} else {
		list("changes", r.Modified)
	}
	if strings.Join(r.CountersBefore, " ") != strings.Join(r.CountersAfter, " ") {
		fmt.Fprintf(w, "  counters %s -> %s\n", strings.Join(r.CountersBefore, " "), strings.Join(r.CountersAfter, " "))
	}
	if r.Consequences != nil {
		printConsequences(w, r.Consequences)
	}
	if !r.DryRun && r.Skill != store.SkillBranchSave {
		fmt.Fprintf(w, "take it back with: referee undo %s\n", r.Change)
	}
	return nil
}

func (a *app) undoCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "undo [l-NNN]",
		Short: "Take back a change (by default the last one), as a change of its own",
		Long: "undo restores every object the change modified or removed from the backups it made, removes\n" +
			"the objects it created and, for a rewind or a branch switch, sets the counters back: the same\n" +
			"undo the workbench has. It refuses when a later change touched the same objects, and while\n" +
			"another change is being written.",
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) > 1 {
				return usagef("undo takes at most one change ID")
			}
			return nil
		},
	}
	contents := addContentsFlag(cmd)
	output := addOutputFlag(cmd)
	actor := cmd.Flags().String("actor", "", "who makes the change (default $REFEREE_ACTOR, else agent)")
	dryRun := cmd.Flags().Bool("dry-run", false, "say what would be done (every status change, the change taken back, what follows); change nothing")
	cmd.RunE = func(_ *cobra.Command, args []string) error {
		if err := checkOutput(*output); err != nil {
			return err
		}
		opts, err := options(*actor, "")
		if err != nil {
			return err
		}
		if !*dryRun {
			if err := store.Busy(*contents, "undo"); err != nil {
				return err
			}
		}
		change := ""
		if len(args) == 1 {
			change = args[0]
		} else if change, err = store.LastChange(*contents); err != nil {
			return err
		} else if change == "" {
			return usagef("undo: %s has no change to take back", *contents)
		}
		if *dryRun {
			p, err := store.PlanUndo(*contents, change, opts)
			if err != nil {
				return err
			}
			return a.printPlanned("undo of "+change, p, change, *contents, *output)
		}
		res, err := store.Undo(*contents, change, opts)
		if err != nil {
			return err
		}
		if *output == "json" {
			return a.writeJSON(res)
		}
		fmt.Fprintf(a.stdout, "undo of %s: change %s: %s\n", change, res.Change, res.Objects())
		return nil
	}
	return cmd
}

func (a *app) branchCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "branch",
		Short: "Keep alternative lines of a run: branch save NAME, list, switch NAME, diff A B",
		Long: "A branch is the folder's objects and p, s, e counters as last saved, stored by content under\n" +
			"history/branches/ (an object shared by several branches is stored once). The folder is always on\n" +
			"one line (\"main\" at first). save NAME saves the folder as a new line and puts it on it; switch\n" +
			"NAME saves the line the folder is on, then sets the folder to NAME as one change (undo takes it\n" +
			"back); diff A B lists the objects that differ; list lists the lines.",
		Args: noArgs,
	}
	contents := cmd.PersistentFlags().String("contents", "./contents", "the contents folder")
	output := cmd.PersistentFlags().StringP("output", "o", "text", "output format: text or json")
	actor := cmd.PersistentFlags().String("actor", "", "who makes the change (default $REFEREE_ACTOR, else agent)")
	one := func(use string) cobra.PositionalArgs {
		return func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usagef("branch %s takes one branch name", use)
			}
			return nil
		}
	}
	save := &cobra.Command{Use: "save NAME", Short: "Save the folder as a new line and put it on that line", Args: one("save")}
	save.RunE = func(_ *cobra.Command, args []string) error {
		return a.restore(*output, *actor, func(opts store.Options) (*store.Restore, error) { return store.BranchSave(*contents, args[0], opts) })
	}
	switchCmd := &cobra.Command{Use: "switch NAME", Short: "Save the line the folder is on, then set the folder to another line", Args: one("switch")}
	dryRun := switchCmd.Flags().Bool("dry-run", false, "say what would be done; change nothing")
	switchCmd.RunE = func(_ *cobra.Command, args []string) error {
		return a.restore(*output, *actor, func(opts store.Options) (*store.Restore, error) {
			return withConsequences(*contents, *dryRun)(store.BranchSwitch(*contents, args[0], *dryRun, opts))
		})
	}
	list := &cobra.Command{Use: "list", Short: "List the lines; * marks the one the folder is on", Args: noArgs}
	list.RunE = func(*cobra.Command, []string) error {
		if err := checkOutput(*output); err != nil {
			return err
		}
		bs, size, err := store.BranchList(*contents)
		if err != nil {
			return err
		}
		if *output == "json" {
			return a.writeJSON(map[string]any{"branches": bs, "store_bytes": size})
		}
		for _, b := range bs {
			mark := " "
			if b.Current {
				mark = "*"
			}
			saved := "not saved"
			if b.Saved != "" {
				saved = fmt.Sprintf("saved %s after %s, %d objects", oneLine(b.Saved), oneLine(b.Change), b.Objects)
			}
			fmt.Fprintf(a.stdout, "%s %s  (%s; counters %s)\n", mark, b.Name, saved, strings.Join(b.Counters, " "))
		}
		fmt.Fprintf(a.stdout, "the saved branches take %d bytes\n", size)
		return nil
	}
	diff := &cobra.Command{Use: "diff A B", Short: "List the objects that differ between two lines, with their statuses",
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) != 2 {
				return usagef("branch diff takes two branch names")
			}
			return nil
		}}
	diff.RunE = func(_ *cobra.Command, args []string) error {
		if err := checkOutput(*output); err != nil {
			return err
		}
		ds, err := store.BranchDiff(*contents, args[0], args[1])
		if err != nil {
			return err
		}
		if *output == "json" {
			if ds == nil {
				ds = []store.BranchDifference{}
			}
			return a.writeJSON(ds)
		}
		printBranchDiff(a.stdout, args[0], args[1], ds)
		return nil
	}
	cmd.AddCommand(save, switchCmd, list, diff)
	return cmd
}

func printBranchDiff(w io.Writer, a, b string, ds []store.BranchDifference) {
	if len(ds) == 0 {
		fmt.Fprintf(w, "%s and %s hold the same objects\n", a, b)
		return
	}
	for _, d := range ds {
		fmt.Fprintf(w, "%s  %s: %s  %s: %s\n", d.ID, a, orDash(d.A), b, orDash(d.B))
	}
	fmt.Fprintf(w, "%d objects differ\n", len(ds))
}
