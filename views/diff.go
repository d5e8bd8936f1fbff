package views

import (
	"fmt"
	"strings"

	"referee/model"
	"referee/themes"
)

// DiffView is one object compared between two points of the log.
type DiffView struct {
	ID                   string
	From, To             string // "after l-002", "now", "before l-001"
	FromExists, ToExists bool
	FromStatus, ToStatus string
	Fields               []model.FieldDiff
	Skipped              []string // backups that could not be read, and why
	// Outside says the version after the change shown holds an edit made outside the
	// log (model.ObjectChange.OutsideText), "" when it does not.
	Outside string
	Loading bool
	Err     string
}

// diffContext is how many unchanged lines stay around a change in a text diff.
const diffContext = 2

// DiffDoc renders a DiffView: the status change first, then field by field — a text as
// a line diff (long runs of unchanged lines folded), a list as what was added and
// removed, anything else as before → after.
func DiffDoc(st *themes.Styles, d DiffView, width int) Doc {
	b := &docBuilder{st: st, width: max(width, 10), doc: Doc{ProofStart: -1}}
	if d.ID == "" {
		b.line(st.Title.Render("Diff"))
		b.blank()
		b.para("Select a statement or problem in the tree to compare it.", 0, st.Muted.Render)
		return b.doc
	}
	b.line(st.Title.Render("Diff of "+d.ID) + "  " + st.Muted.Render(d.From+" → "+d.To))
	if d.Loading {
		b.blank()
		b.line(st.Muted.Render("reading the backups…"))
		return b.doc
	}
	if d.Err != "" {
		b.blank()
		b.para("⚠ "+d.Err, 0, st.Error.Render)
		return b.doc
	}
	for _, s := range d.Skipped {
		b.para("⚠ "+s+"; the next version stands in", 0, st.Warn.Render)
	}
	if d.Outside != "" {
		b.para("⚠ "+d.ID+" "+d.Outside, 0, st.Warn.Render)
	}
	b.blank()
	switch {
	case !d.FromExists && !d.ToExists:
		b.para(d.ID+" exists at neither point.", 0, st.Muted.Render)
		return b.doc
	case !d.FromExists:
		b.line(st.Muted.Render("status  ") + st.Status(model.PhaseProved).Render("created") + " " + statusBadge(st, d.ID, d.ToStatus))
	case !d.ToExists:
		b.line(st.Muted.Render("status  ") + statusBadge(st, d.ID, d.FromStatus) + " " + st.Error.Render("deleted"))
	case d.FromStatus != d.ToStatus:
		b.line(st.Muted.Render("status  ") + statusBadge(st, d.ID, d.FromStatus) + st.Muted.Render(" → ") + statusBadge(st, d.ID, d.ToStatus))
	default:
		b.line(st.Muted.Render("status  ") + statusBadge(st, d.ID, d.ToStatus) + st.Faint.Render(" (unchanged)"))
	}
	var fields []model.FieldDiff
	for _, f := range d.Fields {
		if f.Field != "status" {
			fields = append(fields, f)
		}
	}
	if len(fields) == 0 {
		b.blank()
		b.para("Nothing else changed.", 0, st.Muted.Render)
		return b.doc
	}
	for _, f := range fields {
		b.heading(model.SanitizeLine(f.Field))
		switch {
		case f.Lines != nil:
			b.textDiff(f.Lines)
		case f.Added != nil || f.Removed != nil:
			for _, r := range f.Removed {
				b.diffLine("-", r)
			}
			for _, a := range f.Added {
				b.diffLine("+", a)
			}
		default:
			b.diffLine("-", orDash(f.From))
			b.diffLine("+", orDash(f.To))
		}
	}
	return b.doc
}

// textDiff writes a line diff, folding unchanged runs longer than the context.
func (b *docBuilder) textDiff(lines []model.DiffLine) {
	near := make([]bool, len(lines))
	for i, l := range lines {
		if l.Op == "=" {
			continue
		}
		for j := max(i-diffContext, 0); j <= min(i+diffContext, len(lines)-1); j++ {
			near[j] = true
		}
	}
	for i := 0; i < len(lines); {
		if near[i] {
			b.diffLine(lines[i].Op, lines[i].Text)
			i++
			continue
		}
		j := i
		for j < len(lines) && !near[j] {
			j++
		}
		b.line(b.st.Faint.Render(fmt.Sprintf("  ⋯ %d unchanged %s", j-i, plural(j-i, "line", "lines"))))
		i = j
	}
}

// diffLine writes one side of a diff: "- " removed, "+ " added, "  " kept, wrapped.
func (b *docBuilder) diffLine(op, text string) {
	style, mark := b.st.Faint, "  "
	switch op {
	case "-":
		style, mark = b.st.Error, "- "
	case "+":
		style, mark = b.st.Status(model.PhaseProved), "+ "
	}
	text = strings.ReplaceAll(model.Sanitize(text), "\t", "    ")
	first := true
	for l := range strings.SplitSeq(text, "\n") {
		for wl := range strings.SplitSeq(WrapText(l, max(b.width-4, 8)), "\n") {
			prefix := "  "
			if first {
				prefix, first = mark, false
			}
			b.line("  " + style.Render(prefix+wl))
		}
	}
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
