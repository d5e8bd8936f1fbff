package export

import (
	"html"
	"html/template"
	"io"
	"strings"
	"sync"

	"referee/mathtext"
	"referee/model"
)

// readableHTML is a proof as the workbench shows it by default: math readable
// (mathtext), each math span carrying its LaTeX source in a title (shown on hover), so
// the page reads like the workbench and the exact text is one pointer away. Everything
// from the agents is escaped.
func readableHTML(proof string) template.HTML {
	var b strings.Builder
	for _, p := range mathtext.Pieces(proof, 0) {
		switch {
		case p.Kind == mathtext.DisplayMath:
			b.WriteString(`<span class="math display" title="` + html.EscapeString(p.Raw) + `">`)
			b.WriteString(html.EscapeString(p.Shown) + "</span>")
		case p.Kind == mathtext.InlineMath || p.Shown != p.Raw:
			b.WriteString(`<span class="math" title="` + html.EscapeString(p.Raw) + `">`)
			b.WriteString(html.EscapeString(p.Shown) + "</span>")
		default:
			b.WriteString(html.EscapeString(p.Raw))
		}
	}
	return template.HTML(b.String())
}

// The page is one file: inline CSS, no script, no external asset (fonts, images, math
// renderers), so it opens anywhere, offline, and shows exactly what the files say.
// html/template escapes every text from the agents.

// phaseColors are the status colours of both the page and the graph, by phase.
var phaseColors = map[model.Phase]string{
	model.PhaseUnknown:       "#ffffff",
	model.PhaseNeedsProof:    "#fff3b0",
	model.PhaseAwaitingCheck: "#bfe0fb",
	model.PhaseValidating:    "#bfe0fb",
	model.PhaseHasGap:        "#ffd2a6",
	model.PhaseAwaitingSubs:  "#e3d7f8",
	model.PhaseNeedsDecision: "#f9c9e8",
	model.PhaseProved:        "#b9e6c4",
	model.PhaseRefuted:       "#f6b0b0",
	model.PhaseAbandoned:     "#d9d9d9",
	model.PhaseProblemOpen:   "#ffffff",
	model.PhaseProblemSolved: "#b9e6c4",
}

type htmlNode struct {
	ID, Status, Title, Edge, Color string
	Repeat, Missing                bool
	Children                       []htmlNode
}

type htmlObject struct {
	ID, Kind, Status, Phase, Color, Stale string
	Lists                                 []htmlList
	ProofTitle                            string
	Proof                                 template.HTML // readable math, the source on hover
	Open                                  []string
	Answered                              int
}

type htmlList struct {
	Title string
	Items []string
}

type htmlGroup struct {
	Title string
	Nodes []htmlNode
}

type htmlPage struct {
	Heading, Summary string
	Groups           []htmlGroup
	Objects          []htmlObject
	Legend           []htmlLegend
}

type htmlLegend struct{ Word, Color string }

// page is parsed on first use: every referee process would otherwise parse it at start.
var page = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("page").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Heading}}</title>
<style>
body { font: 15px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; color: #1d1d1f; max-width: 1100px; margin: 2em auto; padding: 0 1.5em; }
h1 { font-size: 1.6em; margin-bottom: .2em; }
h2 { font-size: 1.25em; border-bottom: 1px solid #ddd; padding-bottom: .2em; margin-top: 1.8em; }
.summary { color: #555; }
.legend span { display: inline-block; margin: .15em .3em .15em 0; }
ul.tree, ul.tree ul { list-style: none; margin: 0; padding-left: 1.4em; border-left: 1px dotted #bbb; }
ul.tree { padding-left: 0; border-left: 0; }
ul.tree li { margin: .25em 0; }
.id { font-family: ui-monospace, "SFMono-Regular", Menlo, monospace; font-weight: 600; text-decoration: none; color: #0b4f8a; }
.badge { font: 12px ui-monospace, Menlo, monospace; border: 1px solid #888; border-radius: 3px; padding: 0 .35em; margin: 0 .35em; white-space: nowrap; }
.edge, .repeat { color: #777; font-style: italic; }
.missing { color: #a00; }
section.object { border: 1px solid #ddd; border-radius: 6px; padding: .6em 1em; margin: 1em 0; }
section.object h3 { margin: .1em 0 .4em; font-size: 1.05em; }
.math { background: #eef1f8; border-radius: 2px; cursor: help; }
.display { display: block; margin: .3em 0; }
.proof { white-space: pre-wrap; background: #f7f7f9; border-left: 3px solid #ccc; padding: .5em .8em; font-size: 14px; overflow-wrap: anywhere; }
.open li { color: #8a3b00; }
.stale { color: #a00; }
dt { font-weight: 600; margin-top: .4em; }
dd { margin-left: 1.2em; }
</style>
</head>
<body>
<h1>{{.Heading}}</h1>
<p class="summary">{{.Summary}}.</p>
<p class="legend">{{range .Legend}}<span class="badge" style="background: {{.Color}}">{{.Word}}</span>{{end}}</p>
{{define "node"}}<li>{{if .Missing}}<span class="id missing">{{.ID}}</span> <span class="missing">missing: referenced but does not exist</span>{{else}}<a class="id" href="#{{.ID}}">{{.ID}}</a><span class="badge" style="background: {{.Color}}">{{.Status}}</span>{{if .Edge}}<span class="edge">{{.Edge}}</span> {{end}}{{if .Repeat}}<span class="repeat">shown above</span>{{else}}{{.Title}}{{end}}{{end}}{{if .Children}}
<ul>{{range .Children}}{{template "node" .}}{{end}}</ul>{{end}}</li>
{{end}}{{range .Groups}}<h2>{{.Title}}</h2>
<ul class="tree">
{{range .Nodes}}{{template "node" .}}{{end}}</ul>
{{end}}<h2>Details</h2>
{{range .Objects}}<section class="object" id="{{.ID}}">
<h3><span class="id">{{.ID}}</span> {{.Kind}}<span class="badge" style="background: {{.Color}}">{{.Status}}</span><span class="edge">{{.Phase}}</span></h3>
{{if .Stale}}<p class="stale">Stale: {{.Stale}}</p>
{{end}}<dl>
{{range .Lists}}<dt>{{.Title}}</dt>
{{range .Items}}<dd>{{.}}</dd>
{{end}}{{end}}</dl>
{{if .Proof}}<p><strong>{{.ProofTitle}}</strong></p>
<div class="proof">{{.Proof}}</div>
{{end}}{{if .Open}}<p><strong>Open issues</strong></p>
<ul class="open">{{range .Open}}<li>{{.}}</li>{{end}}</ul>
{{end}}{{if .Answered}}<p>{{.Answered}} answered issue(s).</p>
{{end}}</section>
{{end}}</body>
</html>
`))
})

func (d *document) html(w io.Writer) error {
	pg := htmlPage{Heading: d.heading(), Summary: d.summary()}
	for ph := model.PhaseNeedsProof; ph <= model.PhaseProblemSolved; ph++ {
		if ph == model.PhaseValidating {
			continue
		}
		pg.Legend = append(pg.Legend, htmlLegend{Word: ph.String(), Color: phaseColors[ph]})
	}
	for _, gr := range d.groups {
		hg := htmlGroup{Title: gr.Title}
		for _, n := range gr.Nodes {
			hg.Nodes = append(hg.Nodes, d.htmlNode(n))
		}
		pg.Groups = append(pg.Groups, hg)
	}
	for _, id := range d.order {
		pg.Objects = append(pg.Objects, d.htmlObject(id))
	}
	return page().Execute(w, pg)
}

func (d *document) htmlNode(n *node) htmlNode {
	h := htmlNode{ID: n.ID, Edge: n.Edge, Repeat: n.Repeat, Missing: n.Missing}
	if !n.Missing {
		h.Status, h.Title, h.Color = d.status(n.ID), d.readableTitle(n.ID), phaseColors[d.g.Phase.Get(n.ID)]
	}
	for _, c := range n.Children {
		h.Children = append(h.Children, d.htmlNode(c))
	}
	return h
}

func (d *document) htmlObject(id string) htmlObject {
	o := htmlObject{ID: id, Status: d.status(id), Phase: d.g.Phase.Get(id).String(), Color: phaseColors[d.g.Phase.Get(id)],
		Stale: model.SanitizeLine(d.g.Stale.Get(id))}
	list := func(title string, items []string) {
		if len(items) == 0 {
			return
		}
		l := htmlList{Title: title}
		for _, it := range items {
			l.Items = append(l.Items, model.SanitizeLine(it))
		}
		o.Lists = append(o.Lists, l)
	}
	if p := d.snap.Problems[id]; p != nil {
		o.Kind = "problem"
		list("Objectives", p.Objectives)
		list("Hypotheses", p.Hypothesis)
		if p.Solution.Full != "" {
			o.ProofTitle = "Solution (by " + model.SanitizeLine(strings.Join(p.Solution.Ref, ", ")) + ")"
			o.Proof = readableHTML(model.Sanitize(p.Solution.Full))
		}
		return o
	}
	st := d.snap.Statements.Get(id)
	o.Kind = "statement"
	list("Claim", st.Conclusion)
	if label, text := d.fate(id); label != "" {
		list(label, []string{text})
	}
	list("Premises", st.Hypothesis)
	list("Sub-statements", refs(st.Preliminaries))
	if proof := d.proofs[id]; proof != "" {
		o.ProofTitle, o.Proof = "Proof", readableHTML(model.Sanitize(proof))
	}
	open := openIssues(st)
	for _, is := range open {
		o.Open = append(o.Open, issueText(is))
	}
	o.Answered = len(st.Issues) - len(open)
	return o
}
