package views

import (
	"slices"
	"strings"

	"github.com/charmbracelet/x/ansi"
)

// Attributes drawn over cells of an already styled line. They are attributes, not
// colours, so they survive NO_COLOR and the ascii profile, and they leave the
// markdown's own colours in place.
const (
	attrReverse   = 1 << iota // the sentence under the cursor
	attrUnderline             // the sentence the selected issue flags
)

var (
	sgrOn  = map[int]string{attrReverse: "\x1b[7m", attrUnderline: "\x1b[4m", attrReverse | attrUnderline: "\x1b[4;7m"}
	sgrOff = map[int]string{attrReverse: "\x1b[27m", attrUnderline: "\x1b[24m", attrReverse | attrUnderline: "\x1b[24;27m"}
)

// attrSpan is attributes over cells [from, to) of a line.
type attrSpan struct{ from, to, attr int }

// paintCells draws attributes over cell spans of a styled line and replaces the blank
// cells at bangs with bang, in one walk over the line. The line's own escapes stay
// where they are: an attribute is opened just before the first cell that wants it,
// opened again after any code inside its span that turned it off (a reset), and
// closed after its last cell; turning one off replays the line's own style so far.
func paintCells(line string, spans []attrSpan, bangs []int, bang string) string {
	var b strings.Builder
	b.Grow(len(line) + 12*len(spans) + 24*len(bangs))
	var own sgrState
	col, cur := 0, 0 // cur: the attributes in effect as written so far
	var state byte
	for len(line) > 0 {
		seq, w, n, ns := ansi.DecodeSequence(line, state, nil)
		state, line = ns, line[n:]
		if w == 0 {
			b.WriteString(seq)
			if isSGR(seq) {
				_, kills := sgrEffect(seq)
				own.add(seq)
				cur &^= kills
			}
			continue
		}
		want := 0
		for _, s := range spans {
			if col >= s.from && col < s.to {
				want |= s.attr
			}
		}
		if off := cur &^ want; off != 0 {
			b.WriteString(sgrOff[off])
			b.WriteString(own.on)
			cur = 0 // the replay may hold a reset: open what is wanted again
		}
		if on := want &^ cur; on != 0 {
			b.WriteString(sgrOn[on])
			cur = want
		}
		if w == 1 && seq == " " && slices.Contains(bangs, col) {
			b.WriteString(bang) // a styled "!" ends with a reset
			b.WriteString(own.on)
			cur = 0
		} else {
			b.WriteString(seq)
		}
		col += w
	}
	if cur != 0 {
		b.WriteString(sgrOff[cur])
	}
	return b.String()
}

// sgrState is a line's own style: the SGR codes since its last reset.
type sgrState struct{ on string }

func (s *sgrState) add(seq string) {
	if reset, _ := sgrEffect(seq); reset {
		s.on = ""
		if p := seq[2 : len(seq)-1]; p != "" && p != "0" {
			s.on = seq
		}
		return
	}
	s.on += seq
}

// isSGR reports whether seq is a Select Graphic Rendition code (CSI … m).
func isSGR(seq string) bool {
	if len(seq) < 3 || !strings.HasPrefix(seq, "\x1b[") || seq[len(seq)-1] != 'm' {
		return false
	}
	return strings.Trim(seq[2:len(seq)-1], "0123456789;:") == ""
}

// sgrEffect reads an SGR code: whether it starts with a reset, and which of our
// attributes it turns off.
func sgrEffect(seq string) (reset bool, kills int) {
	ps := strings.Split(seq[2:len(seq)-1], ";")
	for i := 0; i < len(ps); i++ {
		p := ps[i]
		if k, v, ok := strings.Cut(p, ":"); ok {
			// Sub-parameters carry their own arguments; 4:0 is "no underline".
			if k == "4" && v == "0" {
				kills |= attrUnderline
			}
			continue
		}
		switch p {
		case "", "0":
			reset = reset || i == 0
			kills |= attrReverse | attrUnderline
		case "24":
			kills |= attrUnderline
		case "27":
			kills |= attrReverse
		case "38", "48", "58": // extended colours: 5;n or 2;r;g;b follow
			if i+1 < len(ps) {
				switch ps[i+1] {
				case "5":
					i += 2
				case "2":
					i += 4
				}
			}
		}
	}
	return reset, kills
}
