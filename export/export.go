// Package export renders a snapshot as a document to share outside the terminal:
// Markdown, a self-contained HTML page, or a Graphviz graph. It is pure (snapshot in,
// bytes out) and reads no files, so a past state rebuilt from the history exports the
// same way as the folder now.
package export

import (
	"fmt"
	"io"
	"maps"
	"referee/mathtext"
	"slices"
	"strings"

	"referee/model"
)

// Formats are the export formats, by their --format name.
var Formats = []string{"md", "html", "dot"}

// Options describe the document.
type Options struct {
	Source string // the contents folder, for the title
	At     string // the change the snapshot is as of; "" for now
}

// Write renders snap in a format (one of Formats).
func Write(w io.Writer, format string, snap *model.Snapshot, opts Options) error {
	if !slices.Contains(Formats, format) {
		return fmt.Errorf("format %q is not one of %s", format, strings.Join(Formats, ", "))
	}
	doc, err := build(snap, opts, format != "dot") // the graph shows no proofs
	if err != nil {
		return err
	}
	switch format {
	case "md":
		return doc.markdown(w)
	case "html":
		return doc.html(w)
	default:
		return doc.dot(w)
	}
}

// node is one position in the work tree. An object under several parents is shown in
// full at its first position; later positions are references (Repeat).
type node struct {
	ID       string
	Edge     string // how the parent holds it when notable: "needs", "solution"
	Repeat   bool
	Missing  bool
	Children []*node
}

// group is a titled list of top-level nodes.
type group struct {
	Title string
	Nodes []*node
}

// document is everything the three formats show, worked out once.
type document struct {
	snap   *model.Snapshot
	g      *model.Graph
	opts   Options
	groups []group
	order  []string // objects in tree order, each once: the order of the details
	graves map[string]model.Grave
	proofs map[string]string // statement proof texts, read before anything is written
}

func build(snap *model.Snapshot, opts Options, proofs bool) (*document, error) {
	d := &document{snap: snap, g: model.Derive(snap), opts: opts, graves: map[string]model.Grave{}, proofs: map[string]string{}}
	for _, gr := range model.Graveyard(snap, d.g) {
		d.graves[gr.ID] = gr
	}
	seen := map[string]bool{}
	var walk func(id, edge string, depth int) *node
	walk = func(id, edge string, depth int) *node {
		n := &node{ID: id, Edge: edge}
		if !snap.Exists(id) {
			n.Missing = true
			return n
		}
		if seen[id] {
			n.Repeat = true
			return n
		}
		seen[id] = true
		d.order = append(d.order, id)
		for _, c := range d.children(id) {
			n.Children = append(n.Children, walk(c.To, edgeWord(c.Kind), depth+1))
		}
		return n
	}
	roots := d.g.Roots
	if len(roots) == 0 { // every problem is someone's subgoal: a cycle; show them all
		roots = sortedIDs(snap.Problems)
	}
	var tree group
	tree.Title = "Problems"
	for _, id := range roots {
		tree.Nodes = append(tree.Nodes, walk(id, "", 0))
	}
	d.groups = append(d.groups, tree)
	// What the structural tree does not reach: premises and cited statements, then
	// objects nothing leads to.
	unreachable := map[string]bool{}
	for _, id := range d.g.Unreachable {
		unreachable[id] = true
	}
	rest := group{Title: "Premises and cited statements"}
	loose := group{Title: "Unattached"}
	for _, id := range append(sortedIDs(snap.Problems), slices.SortedFunc(snap.Statements.Keys(), model.CompareIDs)...) {
		if seen[id] {
			continue
		}
		n := walk(id, "", 0)
		if unreachable[id] || model.KindOf(id) == model.KindProblem {
			loose.Nodes = append(loose.Nodes, n)
		} else {
			rest.Nodes = append(rest.Nodes, n)
		}
	}
	for _, gr := range []group{rest, loose} {
		if len(gr.Nodes) > 0 {
			d.groups = append(d.groups, gr)
		}
	}
	for _, id := range d.order {
		if st := snap.Statements.Get(id); st != nil && proofs {
			text, err := st.Proof.Text() // from the file if the load left it there
			if err != nil {
				return nil, err
			}
			d.proofs[id] = text
		}
	}
	return d, nil
}

// children are the structural references of an object, each target once: subgoals,
// then the statements a problem needs or was set up with, its solution; sub-statements.
func (d *document) children(id string) []model.Edge {
	var out []model.Edge
	for _, e := range d.g.Out[id] {
		switch e.Kind {
		case model.EdgeSubgoal, model.EdgeNeeds, model.EdgeProgress, model.EdgeSolution, model.EdgeSub:
			if !slices.ContainsFunc(out, func(o model.Edge) bool { return o.To == e.To }) {
				out = append(out, e)
			}
		}
	}
	slices.SortStableFunc(out, func(a, b model.Edge) int {
		return rank(a) - rank(b)
	})
	return out
}

func rank(e model.Edge) int {
	if model.KindOf(e.To) == model.KindProblem {
		return 0
	}
	return 1
}

func edgeWord(k model.EdgeKind) string {
	switch k {
	case model.EdgeNeeds:
		return "needs"
	case model.EdgeSolution:
		return "solution"
	}
	return ""
}

func sortedIDs[V any](m map[string]V) []string {
	return slices.SortedFunc(maps.Keys(m), model.CompareIDs)
}

// status is the object's status as written ("" shown as "(none)").
func (d *document) status(id string) string {
	var s string
	if p := d.snap.Problems[id]; p != nil {
		s = p.Status
	} else if st := d.snap.Statements.Get(id); st != nil {
		s = st.Status
	}
	if s == "" {
		return "(none)"
	}
	return s
}

// title is a statement's claim or a problem's objectives, on one line, as written
// (Markdown readers render its math).
func (d *document) title(id string) string {
	if p := d.snap.Problems[id]; p != nil {
		return model.SanitizeLine(p.Title())
	}
	if st := d.snap.Statements.Get(id); st != nil {
		return model.SanitizeLine(st.Claim())
	}
	return ""
}

// readableTitle is title with its math readable, for the formats that cannot render
// LaTeX (Graphviz labels, the page's tree).
func (d *document) readableTitle(id string) string {
	if p := d.snap.Problems[id]; p != nil {
		return model.SanitizeLine(mathtext.Line(p.Title(), mathtext.Unicode))
	}
	if st := d.snap.Statements.Get(id); st != nil {
		return model.SanitizeLine(mathtext.Line(st.Claim(), mathtext.Unicode))
	}
	return ""
}

func (d *document) heading() string {
	h := "Proof tree"
	if d.opts.Source != "" {
		h += " of " + d.opts.Source
	}
	if d.opts.At != "" {
		h += " as of " + d.opts.At
	}
	return model.SanitizeLine(h)
}

// summary counts the statements and problems by phase, in lifecycle order.
func (d *document) summary() string {
	counts := map[model.Phase]int{}
	for id := range d.snap.Statements.All() {
		counts[d.g.Phase.Get(id)]++
	}
	var parts []string
	for ph := model.PhaseUnknown; ph <= model.PhaseAbandoned; ph++ {
		if counts[ph] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", counts[ph], ph))
		}
	}
	solved := 0
	for id := range d.snap.Problems {
		if d.g.Phase.Get(id) == model.PhaseProblemSolved {
			solved++
		}
	}
	s := fmt.Sprintf("%s (%d solved), %s", plural(len(d.snap.Problems), "problem"), solved, plural(d.snap.Statements.Len(), "statement"))
	if len(parts) > 0 {
		s += " (" + strings.Join(parts, ", ") + ")"
	}
	return s
}

// openIssues are a statement's issues that no response answers yet.
func openIssues(st *model.Statement) []model.Issue {
	open := model.Unanswered(st.Issues, st.Responses)
	var out []model.Issue
	for _, raw := range st.Issues {
		is := model.ParseIssue(raw)
		if !is.Parsed || slices.Contains(open, is.Number) {
			out = append(out, is)
		}
	}
	return out
}

// issueText is one issue on one line, as the checker meant it.
func issueText(is model.Issue) string {
	if !is.Parsed {
		return model.SanitizeLine(is.Raw)
	}
	return model.SanitizeLine(fmt.Sprintf("#%d, sentence %d (%s): '%s' — %s Fix: %s",
		is.Number, is.Sentence, is.ErrorType, is.SentenceText, is.Explanation, is.Fix))
}

// refs lists the IDs of a list of items that reference objects.
func refs(items []string) []string {
	var out []string
	for _, it := range items {
		if id, ok := model.RefID(it); ok {
			out = append(out, id)
		}
	}
	return out
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// fate says why a false or abandoned statement is: its counterexample, verified disproof or reason.
func (d *document) fate(id string) (label, text string) {
	gr, ok := d.graves[id]
	switch {
	case !ok:
		return "", ""
	case gr.Counterexample != "":
		return "Counterexample", model.SanitizeLine(gr.Counterexample)
	case gr.Disproof != "":
		return "Disproof verified", model.SanitizeLine(gr.Disproof)
	case gr.Reason != "":
		return "Abandoned", model.SanitizeLine(gr.Reason)
	}
	return "", ""
}
