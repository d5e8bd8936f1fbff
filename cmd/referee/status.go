package main

import (
	"fmt"
	"os"
	"path/filepath"
	"referee/mathtext"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/spf13/cobra"

	"referee/model"
	"referee/skill"
	"referee/store"
)

func (a *app) statusCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "status",
		Short: "What the orchestrator would run next, status counts and trouble spots",
		Long: "status prints the folder's status counts, then what the agents' orchestrator would run\n" +
			"next (what holds up the most of the root first, then deepest; the first --limit rows,\n" +
			"saying how many more there are), then trouble: stale, orphaned, unreachable and dangling\n" +
			"statements, cycles, unknown statuses, broken files. --output json lists every row.\n" +
			"A folder that is not a contents folder is bad input (exit 2).",
		Example: "  referee status\n" +
			"  referee status --contents ~/run/contents --limit 5\n" +
			"  referee status -o json | jq '.next[0]'",
		Args: noArgs,
	}
	contents := addContentsFlag(cmd)
	output := addOutputFlag(cmd)
	limit := cmd.Flags().Int("limit", defaultNextLimit, "how many \"next\" rows the text shows (0: all)")
	cmd.RunE = func(*cobra.Command, []string) error {
		if err := checkOutput(*output); err != nil {
			return err
		}
		if *limit < 0 {
			return usagef("--limit: %d; expected 0 (all) or more", *limit)
		}
		return a.printStatus(*contents, *output, *limit)
	}
	return cmd
}

func loadFolder(dir string) (*model.Snapshot, error) { return loadWith(store.Load, dir) }

// checkFolder says, as bad input, why dir cannot be read as a contents folder, without
// reading it.
func checkFolder(dir string) error {
	if err := store.CheckFolder(dir); err != nil {
		return &skill.InputError{Msg: err.Error()}
	}
	return nil
}

// loadWith loads dir with a store loader (Load, LoadNoLog, LoadWhole); a folder it cannot
// read is bad input.
func loadWith(load func(string) (*model.Snapshot, error), dir string) (*model.Snapshot, error) {
	if err := store.RefuseLinks(dir); err != nil {
		return nil, err
	}
	snap, err := load(dir)
	if err != nil {
		return nil, &skill.InputError{Msg: err.Error()}
	}
	return snap, nil
}

// defaultNextLimit is how many "next" rows status prints unless told: a screenful, the
// counts above it.
const defaultNextLimit = 20

// needContents refuses, as bad input, a folder that is none of the agents' contents
// folders: no config.json, history/, problem/ or statement/ (status would otherwise
// report an empty run for a mistyped --contents).
func needContents(dir string) error {
	info, err := os.Stat(dir)
	if err != nil || !info.IsDir() {
		return nil // the loader names what is wrong
	}
	for _, name := range []string{store.ConfigFile, store.HistoryDir, store.ProblemDir, store.StatementDir} {
		if _, err := os.Lstat(filepath.Join(dir, filepath.FromSlash(name))); err == nil {
			return nil
		}
	}
	return &skill.InputError{Msg: fmt.Sprintf("%s is not a contents folder (it has none of config.json, history/, problem/, statement/); pass --contents, or set one up with referee init --contents %s",
		oneLine(dir), oneLine(dir))}
}

func (a *app) printStatus(dir, output string, limit int) error {
	load, derive := statusLoad(output)
	return a.printStatusFrom(load, derive, dir, output, limit)
}

// statusLoad is how status loads and derives for output: no log, statements skimmed
// (as JSON without their claims, which it does not show), the graph without what status
// does not read, its numbering of the objects made from the folders' listing during the
// read (one load, then its derive).
func statusLoad(output string) (load func(string) (*model.Snapshot, error), derive func(*model.Snapshot) *model.Graph) {
	var nb *model.Numbering
	load = func(dir string) (*model.Snapshot, error) {
		snap, numbering, err := store.LoadStatusNumbered(dir, output != "json")
		nb = numbering
		return snap, err
	}
	derive = func(snap *model.Snapshot) *model.Graph { return model.DeriveStatusNumbered(snap, nb) }
	return load, derive
}

// printStatusFrom is printStatus loading with load and deriving with derive; a test
// compares what it prints loading skimmed (store.LoadStatus, model.DeriveStatus) with
// what it prints loading whole (model.Derive).
func (a *app) printStatusFrom(load func(string) (*model.Snapshot, error), derive func(*model.Snapshot) *model.Graph, dir, output string, limit int) error {
	if err := needContents(dir); err != nil {
		return err
	}
	snap, err := loadWith(load, dir)
	if err != nil {
		return err
	}
	g := derive(snap)
	st := store.StatusOf(snap, g)
	if output == "json" {
		_, err := a.stdout.Write(statusJSON(st)) // writeJSON's bytes
		return err
	}

	w := func(format string, args ...any) { fmt.Fprintf(a.stdout, format, args...) }
	w("contents: %s (%s)\n", oneLine(dir), vocabText(snap.Vocab))
	w("statements: %s\n", countsText(g.Counts, statementStatusOrder))
	w("problems: %s\n", countsText(g.ProblemCounts, problemStatusOrder))
	if len(st.Next) == 0 {
		w("next: nothing to run\n")
	} else {
		shown := st.Next
		if limit > 0 && len(shown) > limit {
			shown = shown[:limit]
		}
		w("next (%d; what holds up the most of the root first, then deepest):\n", len(st.Next))
		agentWidth, idWidth := 0, 0
		for _, n := range shown {
			agentWidth, idWidth = max(agentWidth, len(n.Agent)), max(idWidth, len(n.ID))
		}
		for _, n := range shown {
			depth := fmt.Sprintf("depth %d", n.Depth)
			if n.Depth < 0 {
				depth = "unattached"
			}
			w("  %-*s  %-*s  %-10s blocks %-3d %s\n", agentWidth, n.Agent, idWidth, n.ID, depth, n.Blocks, clip(titleOf(snap, n.ID), 72))
		}
		if left := len(st.Next) - len(shown); left > 0 {
			w("  … and %d more (--limit 0 shows all)\n", left)
		}
	}
	if g.Stale.Len() > 0 {
		w("stale:\n")
		for _, id := range slices.SortedFunc(g.Stale.Keys(), model.CompareIDs) {
			w("  %s  %s\n", id, g.Stale.Get(id))
		}
	}
	if len(g.Orphans) > 0 {
		w("orphans: %s\n", strings.Join(g.Orphans, ", "))
	}
	if len(g.Unreachable) > 0 {
		w("unreachable: %s\n", strings.Join(g.Unreachable, ", "))
	}
	if len(g.Dangling) > 0 {
		w("dangling:\n")
		for _, e := range g.Dangling {
			w("  %s -> %s (%s)\n", e.From, e.To, e.Kind)
		}
	}
	for _, c := range g.Cycles {
		w("cycle: %s\n", strings.Join(c, ", "))
	}
	if len(g.Unknown) > 0 {
		var parts []string
		for _, id := range g.Unknown {
			parts = append(parts, fmt.Sprintf("%s %q", id, oneLine(statusOf(snap, id))))
		}
		w("unknown statuses: %s\n", strings.Join(parts, ", "))
	}
	if n := len(snap.Broken); n > 0 {
		w("broken files: %d (referee check lists them)\n", n)
	}
	return nil
}

func vocabText(v model.Vocab) string {
	if v == model.VocabUnknown {
		return "vocabulary not known yet"
	}
	return v.String() + " vocabulary"
}

var statementStatusOrder = []string{"pending", "awaiting_verification", "has_gap", "awaiting_substatements",
	"awaiting_substatement", "needs_modification", "validating", "true", "false", "abandoned"}

var problemStatusOrder = []string{"pending", "unresolved", "solved", "resolved"}

// countsText lists "status n" in the lifecycle's order, unknown statuses after.
func countsText(counts map[string]int, order []string) string {
	if len(counts) == 0 {
		return "none"
	}
	keys := sortedKeys(counts)
	slices.SortStableFunc(keys, func(a, b string) int {
		ia, ib := slices.Index(order, a), slices.Index(order, b)
		if ia < 0 {
			ia = len(order)
		}
		if ib < 0 {
			ib = len(order)
		}
		return ia - ib
	})
	total := 0
	var parts []string
	for _, k := range keys {
		total += counts[k]
		word := k
		if word == "" {
			word = `""`
		}
		parts = append(parts, fmt.Sprintf("%s %d", oneLine(word), counts[k]))
	}
	return fmt.Sprintf("%d (%s)", total, strings.Join(parts, ", "))
}

func statusOf(snap *model.Snapshot, id string) string { return store.ObjectStatus(snap, id) }

// titleOf is the first line of a statement's claim or a problem's objectives, its
// math readable.
func titleOf(snap *model.Snapshot, id string) string {
	var text string
	if p := snap.Problems[id]; p != nil {
		text = p.Title()
	} else if s := snap.Statements.Get(id); s != nil {
		text = s.Claim()
	}
	first := text
	if i := strings.Index(first, "\n\n"); i >= 0 {
		first = first[:i] // the first paragraph: a display block in it stays with it
	}
	return oneLine(mathtext.Line(first, mathtext.Unicode))
}

func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, model.CompareIDs)
	return keys
}
