// Package cells is how wide a string is on the terminal, one function for the views
// and for the renderer. Bubble Tea's renderer counts cells per rune (wcwidth) unless
// the terminal says it supports Unicode core (mode 2027), then per grapheme; a view
// that counted otherwise would shift the borders of a row holding an emoji ZWJ
// sequence, a variation selector, a skin tone, a Devanagari conjunct or Thai. The
// workbench sets the method when the terminal answers (tui), and every width, cut and
// wrap of the views goes through here.
package cells

import (
	"sync/atomic"

	"github.com/charmbracelet/x/ansi"
)

var method atomic.Uint32 // ansi.Method; the zero value is ansi.WcWidth, the renderer's default

// SetMethod sets how widths are counted: ansi.WcWidth (the default, as the renderer
// counts before the terminal answers) or ansi.GraphemeWidth (mode 2027 on).
func SetMethod(m ansi.Method) { method.Store(uint32(m)) }

// Method is how widths are counted now.
func Method() ansi.Method { return ansi.Method(method.Load()) }

// Width is the cells s takes (escape sequences take none).
func Width(s string) int {
	// A styled line is mostly printable ASCII between CSI sequences (colours): those
	// runs are a cell a byte, and a grapheme cluster never spans an escape sequence, so
	// only the runs with other bytes are measured the slow way. Anything else than a
	// CSI sequence (a control, OSC, another escape) measures the whole string.
	w, run, ascii := 0, 0, true
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c >= 0x20 && c < 0x7f:
			i++
		case c >= 0x80:
			ascii = false
			i++
		case c == 0x1b && i+1 < len(s) && s[i+1] == '[':
			end := csiEnd(s, i+2)
			if end < 0 {
				return Method().StringWidth(s)
			}
			w += runWidth(s[run:i], ascii)
			i, run, ascii = end, end, true
		default:
			return Method().StringWidth(s)
		}
	}
	return w + runWidth(s[run:], ascii)
}

// runWidth is the width of text without escape sequences or controls.
func runWidth(s string, ascii bool) int {
	if ascii {
		return len(s) // printable ASCII: a cell a byte
	}
	return Method().StringWidth(s)
}

// csiEnd is the index after the CSI sequence whose parameters start at i (ECMA-48:
// parameter bytes, intermediate bytes, a final byte), or -1 if none ends well.
func csiEnd(s string, i int) int {
	for i < len(s) && s[i] >= 0x30 && s[i] <= 0x3f {
		i++
	}
	for i < len(s) && s[i] >= 0x20 && s[i] <= 0x2f {
		i++
	}
	if i < len(s) && s[i] >= 0x40 && s[i] <= 0x7e {
		return i + 1
	}
	return -1
}

// Truncate cuts s to at most w cells, ending with tail when it cut. (ansi's grapheme
// Truncate counts a keycap such as 1️⃣ as one cell where its StringWidth counts two,
// x/ansi v0.11.8: the result is measured and cut again until Width agrees.)
func Truncate(s string, w int, tail string) string {
	out := Method().Truncate(s, w, tail)
	for n := w - 1; n >= 0 && Width(out) > w; n-- {
		out = Method().Truncate(s, n, tail)
	}
	return out
}

// Wrap wraps s at w cells, preferring the breakpoints.
func Wrap(s string, w int, breakpoints string) string { return Method().Wrap(s, w, breakpoints) }

// Cut is the cells [left, right) of s. (ansi's Method.Cut cuts the left side with the
// wrong function under WcWidth, x/ansi v0.11.8: this does it by hand.)
func Cut(s string, left, right int) string {
	if right <= left {
		return ""
	}
	if Method() == ansi.GraphemeWidth {
		return ansi.Cut(s, left, right)
	}
	s = ansi.TruncateWc(s, right, "")
	if left == 0 {
		return s
	}
	return ansi.TruncateLeftWc(s, left, "")
}
