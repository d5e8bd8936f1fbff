package tui

import (
	"strconv"
	"strings"

	"referee/cells"
	"referee/themes"
)

// drawing is the last screen a workbench laid out, in pieces, so that the next layout
// measures and joins again only what changed: a pane's line the same as last time's
// at its place is not fitted to the width again, and a screen row whose panes' lines
// are all the same is not joined again. A served workbench lays out its screen many
// times a second while a run's writes change its status bar and a few rows (issue 30).
// Every reuse compares the inputs themselves (the strings, sizes, styles), never a
// version, so a drawing cannot show stale content.
type drawing struct {
	panes [2]boxMemo // the tree, the right-hand pane
	rows  joinMemo
}

// boxMemo is a box's lines as last drawn (box), by the body's line at each place.
type boxMemo struct {
	st      *themes.Styles
	inner   int
	focused bool
	in, out []string
}

// lines is box's lines for body lines (none with a "\n"); b may be nil (nothing kept).
func (b *boxMemo) lines(st *themes.Styles, title string, body []string, w, h int, focused bool) []string {
	if w < 2 || h < 2 {
		return strings.Split(blankBlock(max(w, 0), max(h, 0)), "\n")
	}
	bs := st.Border
	if focused {
		bs = st.BorderFocus
	}
	inner := w - 2
	focus := "0"
	if focused {
		focus = "1"
	}
	size := strconv.Itoa(inner) + "/" + strconv.Itoa(int(cells.Method())) // the title is measured
	// The borders are the same on every drawing: styled once (lipgloss measures them).
	topLine := st.Kept("box-top\x00"+focus+size+"\x00"+title, func() string {
		if title != "" && inner > 4 {
			t := cells.Truncate(" "+title+" ", inner-2, "…")
			rest := max(inner-1-cells.Width(t), 0)
			ts := st.Muted
			if focused {
				ts = st.Title
			}
			return bs.Render("╭─") + ts.Render(t) + bs.Render(strings.Repeat("─", rest)+"╮")
		}
		return bs.Render("╭" + strings.Repeat("─", inner) + "╮")
	})
	lines := make([]string, 0, h)
	lines = append(lines, topLine)
	side := st.Kept("box-side\x00"+focus, func() string { return bs.Render("│") })
	keep := b != nil
	if keep && (b.st != st || b.inner != inner || b.focused != focused) {
		b.st, b.inner, b.focused, b.in, b.out = st, inner, focused, b.in[:0], b.out[:0]
	}
	for i := 0; i < h-2; i++ {
		l := ""
		if i < len(body) {
			l = body[i]
		}
		if keep && i < len(b.in) && b.in[i] == l {
			lines = append(lines, b.out[i])
			continue
		}
		out := side + fitWidth(l, inner) + side
		if keep {
			for len(b.in) <= i {
				b.in, b.out = append(b.in, ""), append(b.out, "")
			}
			b.in[i], b.out[i] = l, out
		}
		lines = append(lines, out)
	}
	if keep && len(b.in) > h-2 { // a shorter pane: what was below is gone
		b.in, b.out = b.in[:h-2], b.out[:h-2]
	}
	return append(lines, st.Kept("box-bottom\x00"+focus+size, func() string { return bs.Render("╰" + strings.Repeat("─", inner) + "╯") }))
}

// bodyLines is a pane's lines as box splits its body: a line with a "\n" is several.
func bodyLines(ls []string) []string {
	for _, l := range ls {
		if strings.IndexByte(l, '\n') >= 0 {
			return strings.Split(strings.Join(ls, "\n"), "\n")
		}
	}
	return ls
}

// joinMemo is a screen's rows of panes side by side (columns) as last joined, by the
// pieces they were joined from.
type joinMemo struct {
	parts [][]string
	out   []string
}

// columns puts blocks of lines side by side (a block of one empty line is none), each
// row joined again only when one of its pieces changed; j may be nil (nothing kept).
func (j *joinMemo) columns(blocks ...[]string) []string {
	var cols [][]string
	h := 0
	for _, b := range blocks {
		if len(b) == 0 || len(b) == 1 && b[0] == "" {
			continue
		}
		cols = append(cols, b)
		h = max(h, len(b))
	}
	out := make([]string, h)
	for i := range h {
		if j != nil && i < len(j.parts) && len(j.parts[i]) == len(cols) {
			same := true
			for c, col := range cols {
				if same = i < len(col) && j.parts[i][c] == col[i]; !same {
					break
				}
			}
			if same {
				out[i] = j.out[i]
				continue
			}
		}
		var sb strings.Builder
		for _, c := range cols {
			if i < len(c) {
				sb.WriteString(c[i])
			}
		}
		out[i] = sb.String()
		if j != nil {
			for len(j.parts) <= i {
				j.parts, j.out = append(j.parts, nil), append(j.out, "")
			}
			// A row kept is one whose every piece was there; a shorter column's row is
			// joined each time (it has no piece to compare).
			p := j.parts[i][:0]
			whole := true
			for _, c := range cols {
				if i >= len(c) {
					whole = false
					break
				}
				p = append(p, c[i])
			}
			if whole {
				j.parts[i], j.out[i] = p, out[i]
			} else {
				j.parts[i] = nil
			}
		}
	}
	if j != nil && len(j.parts) > h {
		j.parts, j.out = j.parts[:h], j.out[:h]
	}
	return out
}

// fitMemo is lines fitted to a width (fitWidth) as last drawn, by their place.
type fitMemo struct {
	w       int
	in, out []string
}

// fit is fitWidth(s, w) for the line at place i; m may be nil (nothing kept).
func (m *fitMemo) fit(i int, s string, w int) string {
	if m == nil || w <= 0 {
		return fitWidth(s, w)
	}
	if m.w != w {
		m.w, m.in, m.out = w, m.in[:0], m.out[:0]
	}
	if i < len(m.in) && m.in[i] == s && m.out[i] != "" { // fitWidth of a width > 0 is never ""
		return m.out[i]
	}
	out := fitWidth(s, w)
	for len(m.in) <= i {
		m.in, m.out = append(m.in, ""), append(m.out, "")
	}
	m.in[i], m.out[i] = s, out
	return out
}
