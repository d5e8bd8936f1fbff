package views

import (
	"fmt"
	"strings"

	"referee/model"
	"referee/themes"
)

// GraveyardDoc renders every false or abandoned statement: a link to it, its
// counterexample or the reason it was given up, what it held up and what rests on it.
func GraveyardDoc(st *themes.Styles, snap *model.Snapshot, g *model.Graph, graves []model.Grave, state DetailState, width int) Doc {
	b := &docBuilder{st: st, width: max(width, 10), state: state, doc: Doc{ProofStart: -1}}
	b.line(st.Title.Render(fmt.Sprintf("Graveyard (%d)", len(graves))))
	b.para("False and abandoned statements: why, and what they held up. > < choose, enter goes to it.", 0, st.Muted.Render)
	if len(graves) == 0 {
		b.blank()
		b.line(st.Muted.Render("Nothing is false or abandoned."))
		return b.doc
	}
	for _, gr := range graves {
		b.blank()
		b.ref(snap, g, gr.ID, 0)
		switch {
		case gr.Counterexample != "":
			b.labelled(2, "Counterexample", b.readable(gr.Counterexample))
		case gr.Disproof != "":
			b.labelled(2, "Disproof", b.readable(gr.Disproof))
		case gr.Reason != "":
			b.labelled(2, "Reason", b.readable(gr.Reason))
		default:
			b.para("no counterexample or reason was recorded", 2, st.Faint.Render)
		}
		if len(gr.Blocked) > 0 {
			b.labelled(2, "Held up", strings.Join(gr.Blocked, ", "))
		}
		if len(gr.Stale) > 0 {
			b.labelled(2, "Rests on it (true, now stale)", strings.Join(gr.Stale, ", "))
		}
	}
	return b.doc
}
