package tui

import (
	"slices"
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
	panes  [2]boxMemo // the tree, the right-hand pane
	rows   joinMemo
	screen screenMemo
}

// screenMemo is the screen's text as last joined, and its lines. Bubble Tea asks for
// the view after every message, and many messages (a batch with nothing shown, a
// tick, a build's result) leave every line as it was: the text is kept, not joined
// again, since a screen's copy per message was much of what the workbench allocated
// under an agents' run, and each allocation brings the next collection nearer.
type screenMemo struct {
	lines []string
	text  string
}

// join is the lines joined by newlines; the caller hands lines over.
func (s *screenMemo) join(lines []string) string {
	if s.lines != nil && slices.Equal(lines, s.lines) {
		return s.text
	}
	s.lines, s.text = lines, strings.Join(lines, "\n")
	return s.text
}

// boxMemo is a box's lines as last drawn (box), by the body's line at each place.
type boxMemo struct {
	st      *themes.Styles
	inner   int
	focused bool
	memo    placeMemo
}

// placeMemo is what was made of the line at each place, as last made: the line the
// same as last time at its place is not made again.
type placeMemo struct{ in, out []string }

// get is draw(s) for the line s at place i. The places are asked in order from 0 on
// each drawing; a place past those kept is drawn and not kept.
func (p *placeMemo) get(i int, s string, draw func(string) string) string {
	if i < len(p.in) && p.in[i] == s {
		return p.out[i]
	}
	out := draw(s)
	switch {
	case i < len(p.in):
		p.in[i], p.out[i] = s, out
	case i == len(p.in):
		p.in, p.out = append(p.in, s), append(p.out, out)
	}
	return out
}

// keep forgets the places from n on (a shorter pane: what was below is gone).
func (p *placeMemo) keep(n int) {
	if len(p.in) > n {
		p.in, p.out = p.in[:n], p.out[:n]
	}
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
	framed := func(l string) string { return side + fitWidth(l, inner) + side }
	if b != nil && (b.st != st || b.inner != inner || b.focused != focused) {
		b.st, b.inner, b.focused = st, inner, focused
		b.memo.keep(0)
	}
	for i := 0; i < h-2; i++ {
		l := ""
		if i < len(body) {
			l = body[i]
		}
		if b == nil {
			lines = append(lines, framed(l))
		} else {
			lines = append(lines, b.memo.get(i, l, framed))
		}
	}
	if b != nil {
		b.memo.keep(h - 2)
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
	w     int
	lines placeMemo
}

// fit is fitWidth(s, w) for the line at place i; m may be nil (nothing kept).
func (m *fitMemo) fit(i int, s string, w int) string {
	if m == nil || w <= 0 {
		return fitWidth(s, w)
	}
	if m.w != w {
		m.w = w
		m.lines.keep(0)
	}
	return m.lines.get(i, s, func(s string) string { return fitWidth(s, w) })
}
