package tui

import (
	"strings"

	"referee/cells"
	"referee/themes"
)

// box draws a rounded frame of exactly w×h cells around body lines, with a title in
// the top edge. The body is cut or padded to fit.
func box(st *themes.Styles, title, body string, w, h int, focused bool) string {
	return strings.Join((*boxMemo)(nil).lines(st, title, strings.Split(body, "\n"), w, h, focused), "\n")
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
