package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"referee/model"
	"referee/model/similar"
)

func (a *app) graveyardCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "graveyard",
		Short: "Every false or abandoned statement: its counterexample or reason, and what it held up",
		Args:  noArgs,
	}
	contents := addContentsFlag(cmd)
	output := addOutputFlag(cmd)
	at := addAtFlag(cmd)
	cmd.RunE = func(*cobra.Command, []string) error {
		if err := checkOutput(*output); err != nil {
			return err
		}
		snap, err := loadAt(*contents, *at)
		if err != nil {
			return err
		}
		graves := model.Graveyard(snap, model.Derive(snap))
		if *output == "json" {
			if graves == nil {
				graves = []model.Grave{}
			}
			return a.writeJSON(graves)
		}
		w := func(format string, args ...any) { fmt.Fprintf(a.stdout, format+"\n", args...) }
		if len(graves) == 0 {
			w("no false or abandoned statement")
			return nil
		}
		for _, gr := range graves {
			w("%s  %s  %s", gr.ID, oneLine(gr.Status), clip(oneLine(gr.Claim), 90))
			if gr.Counterexample != "" {
				w("    counterexample: %s", oneLine(gr.Counterexample))
			}
			if gr.Disproof != "" {
				w("    disproof verified: %s", oneLine(gr.Disproof))
			}
			if gr.Reason != "" {
				w("    reason: %s", oneLine(gr.Reason))
			}
			if gr.Counterexample == "" && gr.Disproof == "" && gr.Reason == "" {
				w("    no counterexample or reason recorded")
			}
			if len(gr.Blocked) == 0 {
				w("    held up: nothing still open")
			} else {
				w("    held up: %s", strings.Join(gr.Blocked, ", "))
			}
			if len(gr.Stale) > 0 {
				w("    stale (true, but resting on it): %s", strings.Join(gr.Stale, ", "))
			}
		}
		return nil
	}
	return cmd
}

func (a *app) similarCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "similar ID",
		Short: "The statements whose claims are most like this one's (and whether it repeats a settled one)",
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usagef("similar takes one statement ID (e.g. referee similar s-017), got %d arguments", len(args))
			}
			return nil
		},
	}
	contents := addContentsFlag(cmd)
	output := addOutputFlag(cmd)
	k := cmd.Flags().IntP("top", "k", 5, "how many statements to list")
	cmd.RunE = func(_ *cobra.Command, args []string) error {
		if err := checkOutput(*output); err != nil {
			return err
		}
		id := args[0]
		if err := model.CheckID(id, model.KindStatement); err != nil {
			return usagef("similar: %v", err)
		}
		if *k < 1 {
			return usagef("--top: %d is not a positive number", *k)
		}
		snap, err := loadFolder(*contents)
		if err != nil {
			return err
		}
		if snap.Statements.Get(id) == nil {
			return fmt.Errorf("%s does not exist in %s", id, *contents)
		}
		ix := similar.NewIndex(snap)
		matches := ix.Similar(id, *k)
		if matches == nil {
			matches = []similar.Match{}
		}
		if *output == "json" {
			retreads := ix.RetreadsOf(id)
			if retreads == nil {
				retreads = []similar.Retread{}
			}
			return a.writeJSON(struct {
				ID       string            `json:"id"`
				Similar  []similar.Match   `json:"similar"`
				Retreads []similar.Retread `json:"retreads"`
			}{id, matches, retreads})
		}
		w := func(format string, args ...any) { fmt.Fprintf(a.stdout, format+"\n", args...) }
		w("%s  %s", id, clip(titleOf(snap, id), 90))
		for _, r := range ix.RetreadsOf(id) {
			w("re-tread: repeats %s, which is %s (similarity %.2f)", r.Of, oneLine(r.OfStatus), r.Score)
		}
		if len(matches) == 0 {
			w("no statement shares anything with it")
		}
		width := 0
		for _, m := range matches {
			width = max(width, len(oneLine(statusOf(snap, m.ID))))
		}
		for _, m := range matches {
			w("  %.2f  %s  %-*s  %s", m.Score, m.ID, width, oneLine(statusOf(snap, m.ID)), clip(titleOf(snap, m.ID), 72))
		}
		return nil
	}
	return cmd
}
