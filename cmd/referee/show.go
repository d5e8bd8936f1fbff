package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"referee/mathtext"
	"referee/model"
	"referee/model/pyjson"
	"referee/skill"
	"referee/store"
)

func (a *app) showCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use: "show ID",
		Example: "  referee show s-007\n" +
			"  referee show s-007 --sentences            # the numbered sentences the checker cites\n" +
			"  referee show s-007 --at l-012 -o json     # as it was after change l-012",
		Short: "Show an object as its file holds it, with its version, phase and issue threads",
		Args: func(_ *cobra.Command, args []string) error {
			if len(args) != 1 {
				return usagef("show takes one ID (e.g. referee show s-007), got %d arguments", len(args))
			}
			return nil
		},
	}
	contents := addContentsFlag(cmd)
	output := addOutputFlag(cmd)
	at := addAtFlag(cmd)
	sentences := cmd.Flags().Bool("sentences", false, "print the proof's numbered sentences, as the workbench and the checker number them")
	math := cmd.Flags().String("math", "unicode", "with --sentences: show math as unicode (readable) or raw (the LaTeX source)")
	cmd.RunE = func(c *cobra.Command, args []string) error {
		if err := checkOutput(*output); err != nil {
			return err
		}
		if *sentences || c.Flags().Changed("math") {
			if !*sentences {
				return usagef("--math goes with --sentences (referee show ID --sentences --math raw)")
			}
			mode, err := mathtext.ParseMode(*math)
			if err != nil {
				return usagef("--math: %q is not raw or unicode", *math)
			}
			return a.showSentences(*contents, args[0], *output, *at, mode)
		}
		return a.show(*contents, args[0], *output, *at)
	}
	return cmd
}

// sentenceLines is a sentence as printed: in raw mode its lines as written; readable,
// prose lines without their source indentation and blank lines, each display row on a
// line of its own, indented. Sanitised for the terminal.
func sentenceLines(text string, math mathtext.Mode) []string {
	var lines []string
	add := func(s string, trim bool) {
		for l := range strings.SplitSeq(model.Sanitize(s), "\n") {
			if trim {
				l = strings.TrimSpace(l)
			}
			if l = strings.TrimRight(l, " \t"); l != "" {
				lines = append(lines, l)
			}
		}
	}
	if math == mathtext.Raw {
		add(text, false)
		return lines
	}
	// Prose goes on the current line; a display block starts and ends lines.
	var cur strings.Builder
	flush := func() {
		add(cur.String(), true)
		cur.Reset()
	}
	for _, p := range mathtext.Pieces(text, 0) {
		if p.Kind == mathtext.DisplayMath {
			flush()
			add(p.Shown, false)
			continue
		}
		cur.WriteString(p.Shown)
	}
	flush()
	return lines
}

// showSentences prints a statement's proof split into numbered sentences
// (model.SplitSentences): the text as shown (math readable or raw) and, in JSON, the
// exact source span of each, in order, covering the proof with only white space
// between them.
func (a *app) showSentences(dir, id, output, at string, math mathtext.Mode) error {
	if err := model.CheckID(id, ""); err != nil {
		return usagef("show: %v", err)
	}
	if model.KindOf(id) != model.KindStatement {
		return usagef("show --sentences: %s is not a statement (only statements have a proof)", id)
	}
	snap, err := loadAt(dir, at)
	if err != nil {
		return err
	}
	st := snap.Statements.Get(id)
	if st == nil {
		for _, b := range snap.Broken {
			if b.ID == id {
				return fmt.Errorf("%s: %s", b.Path, b.Reason)
			}
		}
		return fmt.Errorf("%s does not exist in %s%s", id, dir, atSuffix(at))
	}
	proof, err := st.Proof.Text()
	if err != nil {
		return err
	}
	sents := model.SplitSentences(proof)
	shown := func(s model.Sentence) string {
		if math == mathtext.Raw {
			return s.Text
		}
		return mathtext.Text(s.Text, 0)
	}
	if output == "json" {
		list := pyjson.Value{Kind: pyjson.Array, Arr: make([]pyjson.Value, len(sents))}
		for i, s := range sents {
			list.Arr[i] = pyjson.Obj(pyjson.M("number", pyjson.Int(s.N)), pyjson.M("text", pyjson.Str(shown(s))), pyjson.M("raw", pyjson.Str(s.Text)))
		}
		out := pyjson.Obj(pyjson.M("id", pyjson.Str(id)), pyjson.M("sentences", list))
		_, err := a.stdout.Write(append(pyjson.EncodeIndent(out), '\n'))
		return err
	}
	var b strings.Builder
	if len(sents) == 0 {
		fmt.Fprintf(&b, "%s has no proof\n", id)
	}
	for _, s := range sents {
		label := fmt.Sprintf("[%d] ", s.N)
		b.WriteString(label + strings.Join(sentenceLines(s.Text, math), "\n"+strings.Repeat(" ", len(label))) + "\n")
	}
	_, err = fmt.Fprint(a.stdout, b.String())
	return err
}

func (a *app) show(dir, id, output, at string) error {
	if err := model.CheckID(id, ""); err != nil {
		return usagef("show: %v", err)
	}
	if model.KindOf(id) == model.KindChange && at == "" {
		return a.showChangeOf(dir, id, output)
	}
	snap, err := loadShown(dir, id, at)
	if err != nil {
		return err
	}
	if model.KindOf(id) == model.KindChange {
		return a.showChange(snap, id, output)
	}
	doc, found, err := store.ObjectDoc(snap, id)
	if err != nil {
		return err
	}
	if !found {
		return fmt.Errorf("%s does not exist in %s%s", id, dir, atSuffix(at))
	}
	g := model.Derive(snap)
	phase := g.Phase.Get(id).String()
	if model.KindOf(id) == model.KindExperience {
		phase = ""
	}
	if output == "json" {
		out := pyjson.Obj(
			pyjson.M("id", pyjson.Str(id)),
			pyjson.M("version", pyjson.Str(snap.Versions.Get(id))),
			pyjson.M("phase", pyjson.Str(phase)),
			pyjson.M("object", doc),
		)
		if at != "" {
			out.Set("at", pyjson.Str(at))
		}
		_, err := a.stdout.Write(append(pyjson.EncodeIndent(out), '\n'))
		return err
	}
	v := &viewer{out: &strings.Builder{}, version: snap.Versions.Get(id)}
	if at != "" {
		v.line("as it was right after %s (rebuilt from %s/; read-only)", at, store.HistoryDir)
	}
	switch {
	case snap.Statements.Get(id) != nil:
		proof, err := snap.Statements.Get(id).Proof.Text()
		if err != nil {
			return err
		}
		v.statement(g, snap.Statements.Get(id), doc, proof)
	case snap.Problems[id] != nil:
		v.problem(g, snap.Problems[id])
	default:
		v.line("%s  experience", id)
		v.line("version: %s (for --expect-version)", v.version)
		v.block("", string(pyjson.EncodeIndent(doc)))
	}
	_, err = fmt.Fprint(a.stdout, v.out.String())
	return err
}

// loadShown reads what showing an object needs: the objects without the log (a log of
// millions of lines says nothing about an object now), or with --at the log's tail and
// of the lines before it only those the versions then need (loadAt); showing a change
// at a point needs its line too.
func loadShown(dir, id, at string) (*model.Snapshot, error) {
	if model.KindOf(id) == model.KindChange {
		return loadAt(dir, at, id)
	}
	return loadAt(dir, at)
}

// showChangeOf shows a change from the log's tail, reading before it only for a change
// older than it, and parsing there only the lines that name it.
func (a *app) showChangeOf(dir, id, output string) error {
	// A recent change: the log read back from its end to it, the lines before counted
	// for its number, nothing else parsed (and no object read).
	if err := store.RefuseLinks(dir); err != nil {
		return &skill.InputError{Msg: err.Error()}
	}
	none := func() (*model.Snapshot, error) { return &model.Snapshot{}, nil }
	if h, _ := store.RecentHistory(dir, []string{id}, true, none); h != nil {
		if i, err := h.Index(id); err == nil {
			return a.showChange(&model.Snapshot{Log: h.Changes()[i : i+1]}, id, output)
		}
	}
	snap, err := loadWith(loadTail, dir)
	if err != nil {
		return err
	}
	h, err := store.NewHistory(dir, snap).Reaching([]string{}, []string{id})
	if err != nil {
		return err
	}
	if i, err := h.Index(id); err == nil {
		snap = &model.Snapshot{Log: h.Changes()[i : i+1]}
	}
	return a.showChange(snap, id, output)
}

func (a *app) showChange(snap *model.Snapshot, id, output string) error {
	for _, e := range snap.Log {
		if e.ID != id {
			continue
		}
		if output == "json" {
			out := pyjson.Obj(pyjson.M("id", pyjson.Str(id)), pyjson.M("line", pyjson.Int(e.Line)), pyjson.M("object", e.Document()))
			_, err := a.stdout.Write(append(pyjson.EncodeIndent(out), '\n'))
			return err
		}
		v := &viewer{out: &strings.Builder{}}
		v.line("%s  change (line %d of %s)", id, e.Line, store.LogFile)
		if e.Skill != "" || e.By != "" || e.At != "" {
			v.line("by %s with %s at %s", orDash(e.By), orDash(e.Skill), orDash(e.At))
		}
		v.line("created: %s", listOrNone(e.Creation))
		v.line("modified: %s (backups in %s/%s/)", listOrNone(e.Modification), store.HistoryDir, id)
		v.line("current: %s", listOrNone(e.Current))
		_, err := fmt.Fprint(a.stdout, v.out.String())
		return err
	}
	return fmt.Errorf("%s is not in %s", id, store.LogFile)
}

// viewer writes the readable view of an object; every text from the file is sanitised.
type viewer struct {
	out     *strings.Builder
	version string
}

func (v *viewer) line(format string, args ...any) {
	fmt.Fprintf(v.out, format+"\n", args...)
}

// block writes a titled multi-line text, indented.
func (v *viewer) block(title, text string) {
	if title != "" {
		v.line("%s:", title)
	}
	for _, l := range strings.Split(model.Sanitize(text), "\n") {
		v.line("    %s", l)
	}
}

// items writes a titled list, one item per line.
func (v *viewer) items(title string, items []string) {
	if len(items) == 0 {
		v.line("%s: none", title)
		return
	}
	v.line("%s:", title)
	for _, it := range items {
		v.line("  - %s", oneLine(it))
	}
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return oneLine(s)
}

func listOrNone(items []string) string {
	if len(items) == 0 {
		return "none"
	}
	return oneLine(strings.Join(items, ", "))
}

func (v *viewer) header(id, what, status string, g *model.Graph) {
	v.line("%s  %s", id, what)
	v.line("status: %s (%s)", orDash(status), g.Phase.Get(id))
	v.line("version: %s (for --expect-version)", v.version)
	if agent, ok := g.Next.Lookup(id); ok {
		v.line("next: %s", agent)
	}
	if reason, ok := g.Stale.Lookup(id); ok {
		v.line("stale: %s", reason)
	}
}

var statementKeys = []string{"id", "type", "conclusion", "hypothesis", "preliminaries", "status", "reliability", "stats", "progresses", "proof", "validation"}

var problemKeys = []string{"id", "hypothesis", "objectives", "status", "priority", "summary", "progresses", "preliminaries", "solution"}

// statement shows st, whose document (st.Doc, unless a lean load left it out) and proof
// text the caller has read.
func (v *viewer) statement(g *model.Graph, st *model.Statement, doc pyjson.Value, proof string) {
	v.header(st.ID, "statement ("+orDash(st.Type)+")", st.Status, g)
	v.items("claim", st.Conclusion)
	v.items("premises", st.Hypothesis)
	v.items("sub-statements", st.Preliminaries)
	if r, ok := doc.Get("reliability"); ok {
		v.line("reliability: %s", oneLine(string(pyjson.EncodeLine(*r))))
	}
	v.items("progresses", st.Progresses)
	if proof == "" {
		v.line("proof: none")
	} else {
		v.block("proof", proof)
	}
	if len(st.Proof.Cot) > 0 {
		v.items("proof reasoning", st.Proof.Cot)
	}
	if len(st.Proof.Ref) > 0 {
		v.line("proof cites: %s", listOrNone(st.Proof.Ref))
	}
	v.threads(st)
	v.otherKeys(doc, statementKeys)
	for _, fp := range st.Problems {
		v.line("malformed: %s", oneLine(fp.String()))
	}
}

func (v *viewer) threads(st *model.Statement) {
	threads, stray := model.Threads(st.Issues, st.Responses)
	if len(threads) == 0 {
		v.line("issues: none")
	} else {
		v.line("issues:")
	}
	for _, th := range threads {
		is := th.Issue
		if !is.Parsed {
			v.line("  %s", oneLine(is.Raw))
			v.line("      (does not parse: %s)", oneLine(is.Problem))
		} else {
			v.line("  #%d  sentence %d, %s: '%s'", is.Number, is.Sentence, oneLine(is.ErrorType), oneLine(is.SentenceText))
			v.line("      explanation: %s", oneLine(is.Explanation))
			v.line("      fix: %s", oneLine(is.Fix))
		}
		if len(th.Responses) == 0 {
			v.line("      no response yet")
		}
		for _, r := range th.Responses {
			v.line("      response %s", responseText(r))
		}
	}
	for _, r := range stray {
		v.line("stray response (fixes no listed issue): %s", oneLine(r.Raw))
	}
}

func responseText(r model.Response) string {
	if !r.Parsed {
		return oneLine(r.Raw) + " (does not parse: " + oneLine(r.Problem) + ")"
	}
	var body string
	switch r.Type {
	case "patch":
		body = r.Change
	case "substatement":
		body = r.SubID + ": " + r.Purpose
	case "false":
		body = r.Counterexample
	case "modification":
		body = r.ModType + ": " + r.Proposal
	}
	return fmt.Sprintf("#%d (%s): %s", r.Number, oneLine(r.Type), oneLine(body))
}

func (v *viewer) problem(g *model.Graph, p *model.Problem) {
	v.header(p.ID, "problem", p.Status, g)
	v.items("objectives", p.Objectives)
	v.items("hypothesis", p.Hypothesis)
	if p.Priority != "" {
		v.line("priority: %s", oneLine(p.Priority))
	}
	if p.Summary != "" {
		v.block("summary", p.Summary)
	}
	v.items("progresses", p.Progresses)
	v.items("preliminaries", p.Preliminaries)
	if p.Solution.Full == "" && len(p.Solution.Cot) == 0 && len(p.Solution.Ref) == 0 {
		v.line("solution: none")
	} else {
		if p.Solution.Full != "" {
			v.block("solution", p.Solution.Full)
		}
		if len(p.Solution.Cot) > 0 {
			v.items("solution reasoning", p.Solution.Cot)
		}
		v.line("solved by: %s", listOrNone(p.Solution.Ref))
	}
	v.otherKeys(p.Doc, problemKeys)
	for _, fp := range p.Problems {
		v.line("malformed: %s", oneLine(fp.String()))
	}
}

// otherKeys shows the keys referee does not know, as the file holds them.
func (v *viewer) otherKeys(doc pyjson.Value, known []string) {
	for _, m := range doc.Obj {
		if slices.Contains(known, m.Key) {
			continue
		}
		v.line("%s: %s", oneLine(m.Key), oneLine(string(pyjson.EncodeLine(m.Value))))
	}
}
