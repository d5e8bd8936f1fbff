package export

import (
	"bufio"
	"fmt"
	"io"
	"slices"
	"strings"
	"unicode/utf8"

	"referee/model"
)

// dotLabelWidth is where a claim is wrapped in a node label, and dotLabelMax where it is
// cut: a graph is for the shape of the work, the details are in the other formats.
const (
	dotLabelWidth = 36
	dotLabelMax   = 110
)

// dot writes a Graphviz digraph: problems as boxes, statements as rounded boxes, filled
// with their status colour; structural references solid, premises dashed, citations
// dotted, solutions bold; missing objects as red dashed outlines.
func (d *document) dot(out io.Writer) error {
	w := bufio.NewWriter(out)
	p := func(format string, args ...any) { fmt.Fprintf(w, format, args...) }
	p("digraph referee {\n")
	p("  graph [rankdir=TB, label=%s, labelloc=t, fontname=\"Helvetica\"];\n", dotQuote(d.heading()))
	p("  node [fontname=\"Helvetica\", fontsize=10, style=filled];\n")
	p("  edge [fontname=\"Helvetica\", fontsize=8, color=\"#555555\"];\n")
	ids := append(sortedIDs(d.snap.Problems), slices.SortedFunc(d.snap.Statements.Keys(), model.CompareIDs)...)
	for _, id := range ids {
		shape, style := "box", "filled"
		if model.KindOf(id) == model.KindStatement {
			style = "filled,rounded"
		}
		penwidth := "1"
		if model.KindOf(id) == model.KindProblem {
			penwidth = "2"
		}
		label := id + "\n" + d.status(id) + "\n" + wrap(clipText(d.readableTitle(id), dotLabelMax), dotLabelWidth)
		p("  %s [shape=%s, style=%s, penwidth=%s, fillcolor=%s, label=%s];\n",
			dotQuote(id), shape, dotQuote(style), penwidth, dotQuote(phaseColors[d.g.Phase.Get(id)]), dotQuote(label))
	}
	missing := map[string]bool{}
	for _, e := range d.g.Dangling {
		if !missing[e.To] {
			missing[e.To] = true
			p("  %s [shape=box, style=dashed, color=\"#cc0000\", fontcolor=\"#cc0000\", label=%s];\n",
				dotQuote(e.To), dotQuote(e.To+"\nmissing"))
		}
	}
	for _, id := range ids {
		for _, e := range d.g.Out[id] {
			attrs := ""
			switch e.Kind {
			case model.EdgePremise:
				attrs = ` [style=dashed, color="#999999", label="premise"]`
			case model.EdgeCites:
				attrs = ` [style=dotted, label="cites"]`
			case model.EdgeSolution:
				attrs = ` [style=bold, color="#2e7d32", label="solution"]`
			case model.EdgeNeeds:
				attrs = ` [label="needs"]`
			}
			p("  %s -> %s%s;\n", dotQuote(e.From), dotQuote(e.To), attrs)
		}
	}
	p("}\n")
	return w.Flush()
}

// dotQuote is a Graphviz double-quoted string: backslashes and quotes escaped (LaTeX is
// full of backslashes, and "\l", "\N" would mean something to Graphviz), newlines as
// centred line breaks.
func dotQuote(s string) string {
	s = strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\r", "", "\n", `\n`).Replace(model.Sanitize(s))
	return `"` + s + `"`
}

func clipText(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n-1]) + "…"
}

// wrap breaks a text into lines of about width runes at spaces.
func wrap(s string, width int) string {
	var lines []string
	line := ""
	for _, word := range strings.Fields(s) {
		if line != "" && utf8.RuneCountInString(line)+1+utf8.RuneCountInString(word) > width {
			lines = append(lines, line)
			line = word
			continue
		}
		if line != "" {
			line += " "
		}
		line += word
	}
	if line != "" {
		lines = append(lines, line)
	}
	return strings.Join(lines, "\n")
}
