// Package vtcells reads what escape codes drew back as cells with their attributes,
// through a VT emulator: tests use it to check which text is in reverse video or
// underlined, as a terminal shows it.
package vtcells

import (
	"strings"

	"github.com/hinshun/vt10x"
)

// Attr is a cell attribute. The values are vt10x's (unexported there); TestAttrs
// checks them against the emulator.
type Attr int16

const (
	Reverse   Attr = 1 << 0
	Underline Attr = 1 << 1
)

// Screen is an emulated terminal's cells.
type Screen struct{ term vt10x.Terminal }

// Feed writes a program's output to a w×h emulator that, like a terminal behind a tty
// translating "\n" to "\r\n" (onlcr), starts a new line at its first column.
func Feed(out []byte, w, h int) *Screen {
	t := vt10x.New(vt10x.WithSize(w, h))
	_, _ = t.Write([]byte("\x1b[20h")) // LNM: line feed is new line
	_, _ = t.Write(out)
	return &Screen{term: t}
}

// Draw shows lines (styled strings) from the top-left corner of a w×h emulator.
func Draw(lines []string, w, h int) *Screen {
	return Feed([]byte(strings.Join(lines, "\r\n")), w, h)
}

// String is the screen's text.
func (s *Screen) String() string { return s.term.String() }

// Runs returns, row by row from the top, the text of each maximal run of cells that
// have the attribute, within columns [x0, x1) and rows [y0, y1).
func (s *Screen) Runs(a Attr, x0, y0, x1, y1 int) []string {
	s.term.Lock()
	defer s.term.Unlock()
	cols, rows := s.term.Size()
	var runs []string
	for y := max(y0, 0); y < min(y1, rows); y++ {
		var b strings.Builder
		for x := max(x0, 0); x < min(x1, cols); x++ {
			c := s.term.Cell(x, y)
			if Attr(c.Mode)&a != 0 {
				b.WriteRune(c.Char)
				continue
			}
			if b.Len() > 0 {
				runs = append(runs, b.String())
				b.Reset()
			}
		}
		if b.Len() > 0 {
			runs = append(runs, b.String())
		}
	}
	return runs
}

// Row is the text of row y.
func (s *Screen) Row(y int) string {
	s.term.Lock()
	defer s.term.Unlock()
	cols, _ := s.term.Size()
	var b strings.Builder
	for x := range cols {
		b.WriteRune(s.term.Cell(x, y).Char)
	}
	return b.String()
}
