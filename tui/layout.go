package tui

import (
	"strconv"
	"strings"

	"referee/cells"
	"referee/themes"
)

// box draws a rounded frame of exactly w×h cells around body lines, with a title in
// the top edge. The body is cut or padded to fit.
func box(st *themes.Styles, title, body string, w, h int, focused bool) string {
	if w < 2 || h < 2 {
		return blankBlock(max(w, 0), max(h, 0))
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
	bodyLines := strings.Split(body, "\n")
	side := st.Kept("box-side\x00"+focus, func() string { return bs.Render("│") })
	for i := 0; i < h-2; i++ {
		l := ""
		if i < len(bodyLines) {
			l = bodyLines[i]
		}
		lines = append(lines, side+fitWidth(l, inner)+side)
	}
	lines = append(lines, st.Kept("box-bottom\x00"+focus+size, func() string { return bs.Render("╰" + strings.Repeat("─", inner) + "╯") }))
	return strings.Join(lines, "\n")
}

func blankBlock(w, h int) string {
	if h <= 0 {
		return ""
	}
	l := strings.Repeat(" ", w)
	ls := make([]string, h)
	for i := range ls {
		ls[i] = l
	}
	return strings.Join(ls, "\n")
}

// joinColumns puts blocks side by side; every block has the same height.
func joinColumns(blocks ...string) string {
	var cols [][]string
	h := 0
	for _, b := range blocks {
		if b == "" {
			continue
		}
		ls := strings.Split(b, "\n")
		cols = append(cols, ls)
		h = max(h, len(ls))
	}
	out := make([]string, h)
	for i := range h {
		var sb strings.Builder
		for _, c := range cols {
			if i < len(c) {
				sb.WriteString(c[i])
			}
		}
		out[i] = sb.String()
	}
	return strings.Join(out, "\n")
}

// overlay draws a block over base at (x, y), cell-accurately, keeping what is around.
func overlay(base, top string, x, y int) string {
	bl := strings.Split(base, "\n")
	for i, tl := range strings.Split(top, "\n") {
		row := y + i
		if row < 0 || row >= len(bl) {
			continue
		}
		line := bl[row]
		w := cells.Width(line)
		tw := cells.Width(tl)
		left := cells.Cut(line, 0, x)
		if lw := cells.Width(left); lw < x {
			left += strings.Repeat(" ", x-lw)
		}
		right := ""
		if x+tw < w {
			right = cells.Cut(line, x+tw, w)
		}
		bl[row] = left + "\x1b[m" + tl + "\x1b[m" + right
	}
	return strings.Join(bl, "\n")
}

// frameDialog frames lines as a centred modal of at most maxW×maxH cells.
func frameDialog(st *themes.Styles, title string, body []string, w, maxH int) string {
	h := min(len(body)+2, maxH)
	if h < 3 {
		h = min(3, maxH)
	}
	if len(body) > h-2 && h > 3 {
		body = append(body[:h-3], st.Faint.Render("…"))
	}
	return box(st, title, strings.Join(body, "\n"), w, h, true)
}
