package tui

import (
	"fmt"
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"referee/cells"
	"referee/live"
	"referee/model"
	"referee/themes"
)

// View draws the screen. It only slices what Update prepared: visible tree rows, the
// detail doc's window, the status bar, and an overlay if one is open.
func (m *Model) View() tea.View {
	v := tea.NewView(m.Render())
	v.AltScreen = true
	v.MouseMode = tea.MouseModeCellMotion
	v.WindowTitle = "referee · " + model.SanitizeLine(m.env.name)
	return v
}

// Render is the screen as a string (View's content).
func (m *Model) Render() string {
	if m.lay.width <= 0 || m.lay.height <= 0 {
		return ""
	}
	st := m.look.st
	tw, dw, ph := m.paneSizes()
	if m.drawn == nil {
		m.drawn = &drawing{}
	}
	parts := make([]string, 0, m.lay.height+1)
	if ph > 0 {
		flash := map[string]bool{}
		for id := range m.status.flash {
			flash[id] = true
		}
		var cols [][]string
		if tw > 0 {
			title := "Tree"
			if m.shown.forest != nil && !m.shown.forest.Partial() { // a first frame's: its count comes with the rest
				title = fmt.Sprintf("Tree · %d rows", len(m.tree.Rows()))
			}
			if t := m.travel; t != nil && t.at >= 0 {
				title += " · as after " + t.id
			}
			m.tree.marks, m.tree.flash = m.room().roomMarks(), flash
			com := m.common()
			com.Focused = m.lay.focus == focusTree
			body := bodyLines(m.tree.View(com))
			if ls := m.feed.loading; ls != nil {
				w, h := max(tw-2, 0), max(ph-2, 0)
				if ls.showsGlimpse() {
					body = m.loader().glimpseView(com, w, h, dw == 0)
				} else {
					body = strings.Split(m.loader().loadingView(w, h), "\n")
				}
			}
			cols = append(cols, m.drawn.panes[0].lines(st, title, body, tw, ph, m.lay.focus == focusTree))
		}
		if dw > 0 {
			var pane component = m.detail
			if m.lay.side == sideActivity {
				pane = m.activity
			}
			com := m.common()
			com.Focused = m.lay.focus == focusDetail
			body := bodyLines(pane.View(com))
			if ls := m.feed.loading; ls != nil && ls.showsGlimpse() && tw > 0 {
				body = strings.Split(m.loader().loadingView(max(dw-2, 0), max(ph-2, 0)), "\n") // the tree pane shows the glimpse
			}
			cols = append(cols, m.drawn.panes[1].lines(st, m.reader().detailTitle(), body, dw, ph, m.lay.focus == focusDetail))
		}
		rows := m.drawn.rows.columns(cols...)
		if len(rows) == 0 {
			rows = []string{""}
		}
		parts = append(parts, rows...)
	}
	status := m.statusLines()
	if len(status) > m.lay.height {
		status = status[len(status)-m.lay.height:]
	}
	if len(status) == 0 {
		status = []string{""}
	}
	screen := m.drawn.screen.join(append(parts, status...)) // one copy of the screen's text, when it changed

	var dlg string
	switch {
	case m.dlg.notice != nil:
		dlg = frameDialog(st, model.SanitizeLine(m.dlg.notice.Title()), m.dlg.notice.View(m.common()), m.dialogWidth(), m.dialogHeight())
	case m.dlg.confirm != nil:
		dlg = frameDialog(st, m.dlg.confirm.Title(), m.dlg.confirm.View(m.common()), m.dialogWidth(), m.dialogHeight())
	case m.dlg.decide != nil:
		dlg = frameDialog(st, m.dlg.decide.Title(), m.dlg.decide.View(m.common()), m.dialogWidth(), m.dialogHeight())
	case m.dlg.form != nil:
		dlg = frameDialog(st, m.dlg.form.Title(), m.dlg.form.View(m.common()), m.dialogWidth(), m.dialogHeight())
	case m.dlg.picker != nil:
		body := m.dlg.picker.View(m.common())
		dlg = frameDialog(st, m.dlg.picker.Title(), body, m.dialogWidth(), m.dialogHeight())
	}
	if dlg != "" {
		w, h := cells.Width(strings.SplitN(dlg, "\n", 2)[0]), strings.Count(dlg, "\n")+1
		screen = overlay(screen, dlg, max((m.lay.width-w)/2, 0), max((m.lay.height-h)/2-1, 0))
	}
	return screen
}

func (m reader) detailTitle() string {
	if m.lay.side != sideDetail {
		return m.supervisor().sideTitle()
	}
	r, ok := m.tree.Selected()
	if !ok {
		return "Detail"
	}
	kind := ""
	switch r.Kind {
	case live.RowStatement:
		kind = " · statement"
	case live.RowProblem:
		kind = " · problem"
	default:
		return "Detail"
	}
	pos := m.detail.position()
	width := max(m.detail.width-8-len(kind)-len(pos), 10)
	// The title is drawn every frame; the path above a node deep in a chain is long, so
	// the breadcrumb is made once per selection and width (the forest is per snapshot).
	key := fmt.Sprintf("%s|%d|%p", r.Path, width, m.shown.forest)
	if m.detail.crumbKey != key {
		m.detail.crumbKey, m.detail.crumb = key, breadcrumb(m.reader().nearestIDs(r.Path, width/2+2), width)
	}
	return m.detail.crumb + kind + pos
}

// idPath is the IDs (and group keys) from the root down to the row at path: a tree path
// names only the rows below an object's first place ("@ID/…"), the forest knows the rest.
func (m reader) idPath(path string) []string {
	var out []string
	for _, a := range m.shown.forest.Ancestors(path) {
		out = append(out, strings.TrimPrefix(live.LastID(a), "@"))
	}
	return append(out, strings.TrimPrefix(live.LastID(path), "@"))
}

// nearestIDs is idPath cut to the n IDs nearest the node, with "…" first when more lie
// above (a breadcrumb shows "… ›" for them).
func (m reader) nearestIDs(path string, n int) []string {
	ancestors, more := m.shown.forest.NearestAncestors(path, n)
	var out []string
	if more {
		out = append(out, "…")
	}
	for _, a := range ancestors {
		out = append(out, strings.TrimPrefix(live.LastID(a), "@"))
	}
	return append(out, strings.TrimPrefix(live.LastID(path), "@"))
}

// breadcrumb is where a node sits, "p-003 › s-011 › s-014", cut from the root end
// ("… › s-011 › s-014") to fit; the groups (premises, unattached) are left out.
func breadcrumb(path []string, width int) string {
	var ids []string
	for _, id := range path {
		if id != "" && !strings.HasPrefix(id, "#") {
			ids = append(ids, model.SanitizeLine(id))
		}
	}
	if len(ids) == 0 {
		return ""
	}
	out := ids[len(ids)-1]
	for i := len(ids) - 2; i >= 0; i-- {
		if ids[i] == "…" { // more lie above than were looked up
			return "… › " + out
		}
		next := ids[i] + " › " + out
		if cells.Width(next) > width {
			return "… › " + out
		}
		out = next
	}
	return out
}

// styled is style's rendering of text, kept with the styles (themes.Styles.Kept; name
// names the style): from one drawing to the next the status bar's pieces are mostly
// the same, and lipgloss measured and styled each again.
func styled(st *themes.Styles, name string, style lipgloss.Style, text string) string {
	return st.Kept("styled\x00"+name+"\x00"+text, func() string { return style.Render(text) })
}

// statusLines are the two bottom lines: state, then hints or the last message.
func (m *Model) statusLines() []string {
	st := m.look.st
	w := m.lay.width
	var left []string
	left = append(left, styled(st, "accent", st.Accent, "referee")+" "+styled(st, "value", st.StatusVal, model.SanitizeLine(m.env.name)))
	if m.env.opts.DemoOf != "" {
		left[len(left)-1] += styled(st, "warn", st.Warn, " (demo: scratch copy)")
	}
	left = append(left, m.room().roomStatus()...)
	if m.travel != nil {
		// First, so that a narrow screen cuts anything else before it.
		left = append(left, st.Warn.Bold(true).Render(strings.Join(m.travel.Status(m.common()), "")))
	}
	left = append(left, m.runs.Status(m.common())...)
	if m.shown.g != nil {
		var counts []string
		order := []model.Phase{model.PhaseProved, model.PhaseAwaitingCheck, model.PhaseHasGap, model.PhaseNeedsDecision,
			model.PhaseAwaitingSubs, model.PhaseNeedsProof, model.PhaseValidating, model.PhaseRefuted, model.PhaseAbandoned, model.PhaseUnknown}
		n := m.shown.g.PhaseCounts // kept by the graph: a count per frame cost 22 ms at 100k
		for _, ph := range order {
			if n[ph] > 0 {
				b := themes.BadgeFor(ph, "?")
				counts = append(counts, styled(st, "phase-"+string(ph), st.Status(ph), b.Symbol+strconv.Itoa(n[ph])))
			}
		}
		left = append(left, strings.Join(counts, " "))
		if k := len(m.shown.forest.BrokenOrphans()) + len(m.shown.forest.Broken()); k > 0 {
			left = append(left, styled(st, "error", st.Error, fmt.Sprintf("⚠%d broken", k)))
		}
	}
	switch {
	case m.feed.paused:
		s := "⏸ paused"
		if w := m.feed.waiting(m.shown.snap); w != "" {
			s += " (" + w + ")"
		}
		left = append(left, styled(st, "warn", st.Warn, s))
	case m.travel != nil && m.feed.pending != nil:
		left = append(left, styled(st, "warn", st.Warn, "○ folder changed since"))
	case m.travel != nil:
	case m.feed.loading != nil:
		left = append(left, styled(st, "muted", st.Muted, "◌ loading"))
	case m.feed.src != nil:
		left = append(left, styled(st, "phase-"+string(model.PhaseProved), st.Status(model.PhaseProved), "● live"))
	default:
		left = append(left, styled(st, "muted", st.Muted, "○ not live"))
	}
	sep := styled(st, "faint", st.Faint, " │ ")
	if m.shown.snap != nil && len(m.shown.snap.Log) > 0 && m.travel == nil {
		// The last change as fully as it fits: ID, skill and actor; else ID and skill;
		// else the ID; else nothing (not "last: …").
		e := m.shown.snap.Log[len(m.shown.snap.Log)-1]
		forms := []string{e.ID}
		if e.Skill != "" {
			forms = append([]string{e.ID + " " + e.Skill}, forms...)
		}
		if e.By != "" {
			forms = append([]string{forms[0] + " · " + e.By}, forms...)
		}
		used := cells.Width(" " + strings.Join(left, sep) + " │ last: ")
		for _, f := range forms {
			if f = model.SanitizeLine(f); used+cells.Width(f) <= w {
				left = append(left, styled(st, "muted", st.Muted, "last: ")+st.StatusVal.Render(f)) // f is new at each change
				break
			}
		}
	}
	line1 := fitWidth(" "+strings.Join(left, sep), w)

	var line2 string
	switch {
	case m.search.Typing():
		line2 = " " + strings.Join(m.search.View(m.common()), "")
	case m.status.message != "":
		style := st.Error
		prefix := "⚠ "
		if m.status.messageOK {
			style, prefix = st.Accent, ""
		}
		// The keys stay beside the message: it gives way to "? help  q quit" at least, and
		// the hints that fit after it follow.
		msg := style.Render(cells.Truncate(prefix+model.SanitizeLine(m.status.message), max(w-3-cells.Width(m.footer(0)), 8), "…"))
		line2 = " " + msg + "  " + m.footer(w-3-cells.Width(msg))
	case m.travel != nil && m.travel.summary != "":
		// The summary gives way to "? help  q quit" (and the travel keys when there is room).
		sum := st.Accent.Render(cells.Truncate(model.SanitizeLine(m.travel.summary), max(w-3-cells.Width(m.footer(0)), 8), "…"))
		line2 = " " + sum + "  " + m.footer(w-3-cells.Width(sum))
	default:
		line2 = " " + m.footer(w-1)
	}
	if m.feed.watchNote != "" && m.status.message == "" && !m.search.Typing() {
		note := styled(st, "warn", st.Warn, model.SanitizeLine(m.feed.watchNote)) + styled(st, "faint", st.Faint, " │ ")
		line2 = " " + note + m.footer(w-1-cells.Width(note))
	} else if note := m.room().roomNote(); note != "" && m.status.message == "" && !m.search.Typing() {
		note := styled(st, "accent", st.Accent, note) + styled(st, "faint", st.Faint, " │ ")
		line2 = " " + note + m.footer(w-1-cells.Width(note))
	}
	return []string{line1, fitWidth(line2, w)}
}
