package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/signal"
	"slices"
	"strings"
	"syscall"

	"github.com/spf13/cobra"

	"referee/model"
	"referee/skill"
	"referee/store"
)

func (a *app) logCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use: "log",
		Example: "  referee log --last 20\n" +
			"  referee log --object s-007\n" +
			"  referee log -f -o json                     # follow, one JSON object per change",
		Short: "Every change from the log: time, actor, skill, objects and the status changes it caused",
		Long: "log lists the change log, oldest first: each change's time, actor and skill, and for each\n" +
			"object it created, modified or deleted the status before and after (rebuilt from the\n" +
			"backups in history/). The agents' own log lines carry no time, actor or skill; for those\n" +
			"the skill (and the agent that uses it) is guessed from what the change did, marked \"~\".\n\n" +
			"--follow keeps printing changes as they are appended, until interrupted (Ctrl+C).\n" +
			"--last N lists only the log's last N changes, reading only the end of the file (as the\n" +
			"workbench does): on a log of millions of lines, what it costs is N, not the log.\n" +
			"With --output json the list is one JSON array, or with --follow one JSON object per line.",
		Args: noArgs,
	}
	contents := addContentsFlag(cmd)
	output := addOutputFlag(cmd)
	follow := cmd.Flags().BoolP("follow", "f", false, "keep printing new changes as they are appended")
	actor := cmd.Flags().String("actor", "", "only changes by this actor (or, on the agents' lines, the guessed agent)")
	object := cmd.Flags().String("object", "", "only changes that created, modified or deleted this object")
	last := cmd.Flags().Int("last", 0, "only the last N changes of the log (filters apply to them); reads only the end of the file")
	cmd.RunE = func(*cobra.Command, []string) error {
		if err := checkOutput(*output); err != nil {
			return err
		}
		if *object != "" {
			if err := model.CheckID(*object, ""); err != nil {
				return usagef("--object: %v", err)
			}
		}
		f := logFilter{actor: *actor, object: *object}
		if *last < 0 || *last > 0 && *follow {
			return usagef("--last: a number of changes, without --follow")
		}
		if !*follow {
			return a.printLog(*contents, f, *output, *last)
		}
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
		defer stop()
		return a.followLog(ctx, *contents, f, *output)
	}
	return cmd
}

type logFilter struct{ actor, object string }

func (f logFilter) keep(c store.Change) bool {
	if f.object != "" && !c.Touches(f.object) {
		return false
	}
	if f.actor != "" && c.Actor != f.actor && (c.Actor != "" || c.GuessedActor != f.actor) {
		return false
	}
	return true
}

func (a *app) printLog(dir string, f logFilter, output string, last int) error {
	if last == 0 && f.object == "" {
		if ok, err := a.streamLog(dir, f, output); ok || err != nil {
			return err
		}
	}
	listed, err := logActivity(dir, last, f.object, output == "json")
	if err != nil {
		return err
	}
	changes := []store.Change{}
	for _, c := range listed {
		if f.keep(c) {
			changes = append(changes, c)
		}
	}
	if output == "json" {
		return a.writeJSON(changes)
	}
	if len(changes) == 0 {
		fmt.Fprintln(a.stdout, "no changes")
	}
	for _, c := range changes {
		fmt.Fprintln(a.stdout, changeLine(c))
	}
	return nil
}

// streamLog prints the whole log as printLog does, a change at a time as it is listed
// (store.EachChange), so that what it holds is not the log; ok is false when nothing was
// printed because the log must be read whole.
func (a *app) streamLog(dir string, f logFilter, output string) (ok bool, err error) {
	snap, err := loadWith(store.LoadNoLog, dir)
	if err != nil {
		return false, err
	}
	n := 0
	var buf bytes.Buffer
	ok, err = store.EachChange(dir, snap, func(c store.Change) error {
		if !f.keep(c) {
			return nil
		}
		n++
		if output != "json" {
			_, err := fmt.Fprintln(a.stdout, changeLine(c))
			return err
		}
		// The elements of the array writeJSON would write, indented as in it.
		buf.Reset()
		if n == 1 {
			buf.WriteString("[\n  ")
		} else {
			buf.WriteString(",\n  ")
		}
		enc := json.NewEncoder(&buf)
		enc.SetEscapeHTML(false)
		enc.SetIndent("  ", "  ")
		if err := enc.Encode(c); err != nil {
			return err
		}
		buf.Truncate(buf.Len() - 1) // Encode's newline
		_, err := a.stdout.Write(model.InertJSON(buf.Bytes()))
		return err
	})
	if !ok || err != nil {
		return ok, err
	}
	switch {
	case output == "json" && n == 0:
		_, err = fmt.Fprintln(a.stdout, "[]")
	case output == "json":
		_, err = fmt.Fprint(a.stdout, "\n]\n")
	case n == 0:
		_, err = fmt.Fprintln(a.stdout, "no changes")
	}
	return true, err
}

// logActivity lists the log's changes, or (last > 0) only its last ones: from the
// tail the workbench holds, read further back until it holds them; or (object, without
// last) the changes of one object: the tail's, and before it the lines naming it.
func logActivity(dir string, last int, object string, lines bool) ([]store.Change, error) {
	if last == 0 && object != "" {
		snap, err := loadWith(loadTail, dir)
		if err != nil {
			return nil, err
		}
		return store.NewHistory(dir, snap).ObjectActivity(object)
	}
	if last == 0 {
		snap, err := loadFolder(dir)
		if err != nil {
			return nil, err
		}
		return store.NewHistory(dir, snap).Activity(), nil
	}
	// The last changes read back from the log's end (their line numbers counted only for
	// JSON, which shows them), else from the tail.
	h, err := store.LastChanges(dir, last, lines, func() (*model.Snapshot, error) { return loadWith(store.LoadNoLog, dir) })
	if err != nil {
		return nil, err
	}
	if h != nil {
		return h.ActivityFrom(max(len(h.Changes())-last, 0)), nil
	}
	snap, err := loadWith(func(dir string) (*model.Snapshot, error) { return store.LoadTail(dir, nil) }, dir)
	if err != nil {
		return nil, err
	}
	h = store.NewHistory(dir, snap)
	for len(h.Changes()) < last && h.Head().Offset > 0 {
		if h, err = h.Back(max(last-len(h.Changes()), 1024)); err != nil {
			return nil, err
		}
	}
	return h.ActivityFrom(max(len(h.Changes())-last, 0)), nil
}

// followLog prints the log, then every change appended to it, until ctx ends. The
// watcher starts before the first read, so a change made in between is not missed. It
// holds the log's tail only (as the workbench does): the lines before it are printed a
// window at a time (store.EachChangeBefore), so a log of millions of lines is followed
// in what its tail takes, not in what it takes parsed whole.
func (a *app) followLog(ctx context.Context, dir string, f logFilter, output string) error {
	w, err := store.Watch(dir, store.WatchOptions{})
	if err != nil {
		return &skill.InputError{Msg: err.Error()}
	}
	defer w.Close()
	printChange := func(c store.Change) error {
		if !f.keep(c) {
			return nil
		}
		if output == "json" {
			line, _ := json.Marshal(c)
			_, err := fmt.Fprintln(a.stdout, string(line))
			return err
		}
		_, err := fmt.Fprintln(a.stdout, changeLine(c))
		return err
	}
	printed := 0  // how many of the log's changes were printed (or passed over), head included
	held := false // a change waits for the newer version of a file it touched
	snap, err := loadWith(loadTail, dir)
	if err != nil {
		return err
	}
	h := store.NewHistory(dir, snap)
	if head := h.Head(); head.Offset > 0 {
		ok, err := store.EachChangeBefore(dir, snap, head.Offset, printChange)
		switch {
		case err != nil:
			return err
		case ok:
			printed = head.Changes
		default: // a log whose windows cannot be trusted (a change logged twice): read whole
			if snap, err = loadFolder(dir); err != nil {
				return err
			}
			h = store.NewHistory(dir, snap)
		}
	}
	// follow keeps the snapshot up to date with every batch, reading only the changed
	// files (store.Reload); emit prints what the log gained, with a history that keeps
	// the backups it already read.
	follow := func(b store.Batch) error {
		switch {
		case b.Rescan:
			snap, err = loadWith(loadTail, dir)
		case len(b.Paths) > 0:
			snap = store.Reload(dir, snap, b.Paths)
		}
		return err
	}
	emit := func() error {
		h = h.With(snap)
		n := h.Head().Changes + len(h.Changes())
		if n < printed { // the log was cut (rewound by hand): start over from its end
			fmt.Fprintf(a.stderr, "referee: %s now has %d changes, fewer than the %d shown; following from its end\n", store.LogFile, n, printed)
			printed = n
			return nil
		}
		// Lines appended faster than they were printed, past the tail the snapshot
		// keeps: read back to the first not printed.
		for printed < h.Head().Changes {
			back, err := h.Back(h.Head().Changes - printed)
			if err == nil && back.Head().Changes >= h.Head().Changes {
				err = fmt.Errorf("nothing older was read")
			}
			if err != nil {
				fmt.Fprintf(a.stderr, "referee: %d changes of %s could not be read back, and are not shown: %v\n",
					h.Head().Changes-printed, store.LogFile, oneLine(err.Error()))
				printed = h.Head().Changes
				break
			}
			h = back
		}
		held = false
		for i, c := range h.ActivityFrom(printed - h.Head().Changes) {
			if c.Provisional { // printed once right, on a later batch
				held, n = true, printed+i
				break
			}
			if err := printChange(c); err != nil {
				return err
			}
		}
		printed = n
		return nil
	}
	if err := emit(); err != nil {
		return err
	}
	for {
		select {
		case <-ctx.Done():
			return nil
		case b, ok := <-w.Batches():
			if !ok {
				return nil
			}
			if b.Err != nil {
				fmt.Fprintln(a.stderr, "referee: "+oneLine(b.Err.Error()))
			}
			if err := follow(b); err != nil {
				return err
			}
			if b.Rescan || held || slices.Contains(b.Paths, store.LogFile) {
				if err := emit(); err != nil {
					return err
				}
			}
		}
	}
}

// changeLine is one change on one line: ID, time, actor, skill, what it did.
func changeLine(c store.Change) string {
	var parts []string
	for _, oc := range c.Objects {
		parts = append(parts, objectChangeText(oc))
	}
	what := strings.Join(parts, "; ")
	if c.Reverts != "" {
		what = "reverts " + c.Reverts + ": " + what
	}
	if c.Err != "" {
		what += " (line does not parse: " + c.Err + ")"
	}
	return oneLine(fmt.Sprintf("%-6s %-20s %-13s %-27s %s", c.ID, orDash(c.At), orDash(c.ActorOrGuess()),
		orDash(c.SkillOrGuess()), what))
}

// objectChangeText says what a change did to one object: "+s-008 pending" (created),
// "s-007 pending → validating +PROOF" (modified), "-s-017 was pending" (deleted).
func objectChangeText(oc model.ObjectChange) string {
	var s string
	switch oc.Action {
	case model.Created:
		s = "+" + oc.ID + " " + orDash(oc.To)
	case model.Deleted:
		s = "-" + oc.ID + " was " + orDash(oc.From)
	default:
		if oc.From != oc.To {
			s = oc.ID + " " + orDash(oc.From) + " → " + orDash(oc.To)
		} else {
			s = oc.ID + " " + orDash(oc.To) + " (" + strings.Join(oc.Fields, ", ") + ")"
		}
	}
	for _, n := range oc.Notes {
		if tag := model.ParseProgress(n).Tag; tag != "" {
			s += " +" + strings.ReplaceAll(tag, " ", "_")
		} else if id, ok := model.RefID(n); ok { // a problem's new wrap-up statement
			s += " +" + id
		}
	}
	if oc.Unknown != "" {
		s += " (incomplete: " + oc.Unknown + ")"
	}
	if oc.Outside != "" {
		s += " (" + oc.OutsideText() + ")"
	}
	return s
}
