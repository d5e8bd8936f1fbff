package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"referee/model"
	"referee/store"
)

// Time travel: the folder as it was right after a change, rebuilt from the backups.

func addAtFlag(cmd *cobra.Command) *string {
	return cmd.Flags().String("at", "", "the folder as it was right after this change (e.g. l-004), rebuilt from history/")
}

// loadAt loads the folder now, without its log (nothing shown from "now" reads it), or
// as it was right after change at: from the log's tail, and of the lines before it only
// those the objects' versions then need (store.History.Reaching). The snapshot's Log
// holds what was read up to at, and then the first line of each of also.
func loadAt(dir, at string, also ...string) (*model.Snapshot, error) {
	return loadAtWith(dir, at, false, also)
}

// loadWholeAt is loadAt with every statement read whole (store.LoadWhole), for export,
// which shows every proof.
func loadWholeAt(dir, at string) (*model.Snapshot, error) { return loadAtWith(dir, at, true, nil) }

func loadAtWith(dir, at string, whole bool, also []string) (*model.Snapshot, error) {
	now, tail := store.LoadNoLog, loadTail
	if whole {
		now, tail = store.LoadWholeNoLog, store.LoadWholeTail
	}
	if at == "" {
		return loadWith(now, dir)
	}
	if err := model.CheckID(at, model.KindChange); err != nil {
		return nil, usagef("--at: %v", err)
	}
	snap, err := loadWith(tail, dir)
	if err != nil {
		return nil, err
	}
	h, err := store.NewHistory(dir, snap).Reaching(nil, append([]string{at}, also...))
	if err != nil {
		return nil, err
	}
	return h.At(at)
}

// loadTail loads the folder with the log's tail (store.LoadTail).
func loadTail(dir string) (*model.Snapshot, error) { return store.LoadTail(dir, nil) }

func atSuffix(at string) string {
	if at == "" {
		return ""
	}
	return " right after " + at
}

func (a *app) diffCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "diff ID l-AAA [l-BBB]",
		Short: "How one object changed between two changes (status, claim, proof line by line, issues, responses)",
		Long: "diff compares an object as it was right after change l-AAA with the object right after\n" +
			"l-BBB (or as it is now, without l-BBB), rebuilt from the backups in history/.",
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) < 2 || len(args) > 3 {
				return usagef("diff takes an ID and one or two changes (e.g. referee diff s-007 l-003 l-005), got %d arguments", len(args))
			}
			return nil
		},
	}
	contents := addContentsFlag(cmd)
	output := addOutputFlag(cmd)
	cmd.RunE = func(_ *cobra.Command, args []string) error {
		if err := checkOutput(*output); err != nil {
			return err
		}
		id, from := args[0], args[1]
		to := ""
		if len(args) == 3 {
			to = args[2]
		}
		if err := model.CheckID(id, ""); err != nil || model.KindOf(id) == model.KindChange {
			return usagef("diff: %q is not a problem, statement or experience ID", id)
		}
		for _, c := range args[1:] {
			if err := model.CheckID(c, model.KindChange); err != nil {
				return usagef("diff: %v", err)
			}
		}
		// Recent changes: the log read back from its end to them. Else the log's tail,
		// and of the lines before it only those naming id or the changes.
		h, err := store.RecentHistory(*contents, []string{from, to}, false, func() (*model.Snapshot, error) {
			return loadWith(store.LoadNoLog, *contents)
		})
		if err != nil {
			return err
		}
		if h == nil {
			snap, err := loadWith(loadTail, *contents)
			if err != nil {
				return err
			}
			if h, err = store.NewHistory(*contents, snap).Reaching([]string{id}, []string{from, to}); err != nil {
				return err
			}
		}
		a1, err := h.Object(id, from)
		if err != nil {
			return err
		}
		b1, err := h.Object(id, to)
		if err != nil {
			return err
		}
		toName := to
		if to == "" {
			toName = "now"
		}
		fields := model.DiffObject(a1.Doc, b1.Doc)
		if *output == "json" {
			if fields == nil {
				fields = []model.FieldDiff{}
			}
			return a.writeJSON(struct {
				ID         string            `json:"id"`
				From       string            `json:"from"`
				To         string            `json:"to"`
				ExistsFrom bool              `json:"exists_from"`
				ExistsTo   bool              `json:"exists_to"`
				Fields     []model.FieldDiff `json:"fields"`
			}{id, from, toName, a1.Exists, b1.Exists, fields})
		}
		a.printDiff(id, from, toName, a1, b1, fields)
		return nil
	}
	return cmd
}

// diffContext is how many unchanged lines of a text are shown around a changed one.
const diffContext = 2

func (a *app) printDiff(id, from, to string, before, after store.Version, fields []model.FieldDiff) {
	w := func(format string, args ...any) { fmt.Fprintf(a.stdout, format+"\n", args...) }
	w("%s: right after %s → %s", id, from, to)
	for _, v := range []struct {
		ver  store.Version
		name string
	}{{before, from}, {after, to}} {
		if !v.ver.Exists {
			when := "right after " + v.name
			if v.name == "now" {
				when = "now"
			}
			w("(%s did not exist %s)", id, when)
		}
		for _, b := range v.ver.Skipped {
			w("(%s: %s; a later version stands in)", b.Path, oneLine(b.Reason))
		}
	}
	if len(fields) == 0 {
		w("no difference")
		return
	}
	for _, f := range fields {
		switch {
		case f.Lines != nil:
			w("%s:", f.Field)
			for _, l := range contextLines(f.Lines, diffContext) {
				w("  %s", oneLine(l))
			}
		case f.Added != nil || f.Removed != nil:
			w("%s:", f.Field)
			for _, r := range f.Removed {
				w("  - %s", oneLine(r))
			}
			for _, r := range f.Added {
				w("  + %s", oneLine(r))
			}
		default:
			w("%s: %s → %s", f.Field, orDash(f.From), orDash(f.To))
		}
	}
}

// contextLines keeps the changed lines of a text diff and n kept lines around each,
// marking a gap with "…".
func contextLines(lines []model.DiffLine, n int) []string {
	keep := make([]bool, len(lines))
	for i, l := range lines {
		if l.Op == "=" {
			continue
		}
		for j := max(0, i-n); j <= min(len(lines)-1, i+n); j++ {
			keep[j] = true
		}
	}
	var out []string
	gap := false
	for i, l := range lines {
		if !keep[i] {
			gap = true
			continue
		}
		if gap && len(out) > 0 {
			out = append(out, "…")
		}
		gap = false
		mark := " "
		if l.Op != "=" {
			mark = l.Op
		}
		out = append(out, mark+" "+l.Text)
	}
	if gap && len(out) > 0 {
		out = append(out, "…")
	}
	return out
}
