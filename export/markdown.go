package export

import (
	"bufio"
	"fmt"
	"io"
	"regexp"
	"strings"

	"referee/model"
)

// The agents write markdown-ish text with inline math, so it goes into the document as
// it is, made inert in two ways: no control characters (model.Sanitize) and no HTML a
// markdown viewer would render (a "<" that opens a tag or comment becomes "&lt;"; math
// such as "$n < m$" is left alone).
var tagOpener = regexp.MustCompile(`<([A-Za-z/!?])`)

func mdText(s string) string { return tagOpener.ReplaceAllString(model.Sanitize(s), "&lt;$1") }

func mdLine(s string) string { return tagOpener.ReplaceAllString(model.SanitizeLine(s), "&lt;$1") }

func (d *document) markdown(out io.Writer) error {
	w := bufio.NewWriter(out)
	p := func(format string, args ...any) { fmt.Fprintf(w, format, args...) }
	p("# %s\n\n%s.\n", mdLine(d.heading()), d.summary())
	for _, gr := range d.groups {
		p("\n## %s\n\n", gr.Title)
		for _, n := range gr.Nodes {
			d.mdNode(w, n, 0)
		}
	}
	p("\n## Details\n")
	for _, id := range d.order {
		d.mdDetails(w, id)
	}
	return w.Flush()
}

// mdMaxIndent is the deepest a list item is indented: past it, items stay at that
// indentation and say their depth. Indenting a chain of 50,000 sub-statements in full
// wrote 2.5 GB (the indentation grows with the depth, for every item).
const mdMaxIndent = 32

func (d *document) mdNode(w *bufio.Writer, n *node, depth int) {
	indent := strings.Repeat("  ", min(depth, mdMaxIndent)) + "- "
	if depth > mdMaxIndent {
		indent += fmt.Sprintf("(depth %d) ", depth)
	}
	edge := ""
	if n.Edge != "" {
		edge = " (" + n.Edge + ")"
	}
	switch {
	case n.Missing:
		fmt.Fprintf(w, "%s**%s** missing%s: referenced but does not exist\n", indent, n.ID, edge)
	case n.Repeat:
		fmt.Fprintf(w, "%s[%s](#%s) `%s`%s: shown above\n", indent, n.ID, n.ID, mdLine(d.status(n.ID)), edge)
	default:
		fmt.Fprintf(w, "%s[%s](#%s) `%s`%s: %s\n", indent, n.ID, n.ID, mdLine(d.status(n.ID)), edge, mdLine(d.title(n.ID)))
		for _, c := range n.Children {
			d.mdNode(w, c, depth+1)
		}
	}
}

func (d *document) mdDetails(w *bufio.Writer, id string) {
	p := func(format string, args ...any) { fmt.Fprintf(w, format, args...) }
	list := func(title string, items []string) {
		if len(items) == 0 {
			return
		}
		p("\n%s:\n\n", title)
		for _, it := range items {
			p("- %s\n", mdLine(it))
		}
	}
	p("\n### %s\n\nStatus: `%s` (%s)", id, mdLine(d.status(id)), d.g.Phase.Get(id))
	if reason, ok := d.g.Stale.Lookup(id); ok {
		p("; stale: %s", mdLine(reason))
	}
	p("\n")
	if pr := d.snap.Problems[id]; pr != nil {
		list("Objectives", pr.Objectives)
		list("Hypotheses", pr.Hypothesis)
		if pr.Solution.Full != "" {
			p("\nSolution (by %s):\n\n%s\n", strings.Join(pr.Solution.Ref, ", "), quote(mdText(pr.Solution.Full)))
		}
		return
	}
	st := d.snap.Statements.Get(id)
	list("Claim", st.Conclusion)
	if label, text := d.fate(id); label != "" {
		p("\n%s: %s\n", label, mdLine(text))
	}
	list("Premises", st.Hypothesis)
	if len(st.Preliminaries) > 0 {
		p("\nSub-statements: %s\n", mdLine(strings.Join(refs(st.Preliminaries), ", ")))
	}
	if proof := d.proofs[id]; proof != "" {
		p("\nProof:\n\n%s\n", quote(mdText(proof)))
	}
	open := openIssues(st)
	if len(open) > 0 {
		p("\nOpen issues:\n\n")
		for _, is := range open {
			p("- %s\n", mdLine(issueText(is)))
		}
	}
	if answered := len(st.Issues) - len(open); answered > 0 {
		p("\n%d answered issue(s).\n", answered)
	}
}

// quote puts a text in a markdown block quote, keeping its paragraphs.
func quote(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight("> "+l, " ")
	}
	return strings.Join(lines, "\n")
}
