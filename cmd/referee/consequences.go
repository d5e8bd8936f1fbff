package main

import (
	"fmt"
	"io"

	"referee/model"
	"referee/store"
	"referee/store/consequence"
)

// consequencesOf works out what a change would do to the run, on the folder as it is
// now: every dry run (rewind, undo, a skill, a branch switch) prints it.
func consequencesOf(contents string, writes []consequence.Write, discarded []model.LogEntry) (*consequence.Report, error) {
	snap, err := store.LoadNoLog(contents)
	if err != nil {
		return nil, err
	}
	return consequence.Of(snap, nil, writes, discarded), nil
}

// printConsequences prints a report's lines as they are (the workbench shows the same).
func printConsequences(w io.Writer, r *consequence.Report) {
	for _, l := range r.Lines(0) {
		fmt.Fprintln(w, model.SanitizeLine(l))
	}
}

// plannedOutput is a dry run of a skill or an undo as JSON: the change it would be and
// what it would do to the run.
type plannedOutput struct {
	*store.Result
	DryRun       bool                `json:"dry_run"`
	Reverts      string              `json:"reverts,omitempty"`
	Consequences *consequence.Report `json:"consequences"`
}

// printPlanned prints the dry run of a skill or an undo.
func (a *app) printPlanned(what string, p *store.Planned, reverts, contents, output string) error {
	rep, err := consequencesOf(contents, p.Writes(), p.Discarded)
	if err != nil {
		return err
	}
	if output == "json" {
		return a.writeJSON(plannedOutput{Result: &p.Result, DryRun: true, Reverts: reverts, Consequences: rep})
	}
	w := a.stdout
	fmt.Fprintf(w, "%s would be change %s by %s (dry run: nothing was written)\n", what, p.Change, model.SanitizeLine(p.Actor))
	if objs := p.Result.Objects(); objs != "" {
		fmt.Fprintf(w, "  %s\n", objs)
	}
	for _, n := range p.Notes {
		fmt.Fprintf(w, "  note: %s\n", model.SanitizeLine(n))
	}
	printConsequences(w, rep)
	return nil
}
