package views

import (
	"regexp"
	"strings"

	"referee/cells"
)

// objectID is an object's ID as it appears in prose (s-011, p-001, e-a12, l-007):
// wrapping must never break one at its hyphen, which every wrapper here treats as a
// breakpoint ("s-" at the end of one line, "011" at the start of the next).
var objectID = regexp.MustCompile(`\b[psel]-[a-z]*[0-9]+\b`)

// idHyphen stands in for an ID's hyphen while text is wrapped: a private-use rune is
// one cell, not a space and not a breakpoint, so the ID wraps as one word.
const idHyphen = "\U000FFFFD"

// WrapText is cells.Wrap keeping object IDs whole: every paragraph of prose that may
// cite an object (claims, premises, issues, confirmations, notices) wraps through it.
func WrapText(s string, w int) string {
	if !strings.Contains(s, "-") || strings.Contains(s, idHyphen) {
		return cells.Wrap(s, w, "")
	}
	locs := objectID.FindAllStringIndex(s, -1)
	if len(locs) == 0 {
		return cells.Wrap(s, w, "")
	}
	var b strings.Builder
	b.Grow(len(s) + 2*len(locs))
	last := 0
	for _, m := range locs {
		b.WriteString(s[last:m[0]])
		b.WriteString(strings.Replace(s[m[0]:m[1]], "-", idHyphen, 1))
		last = m[1]
	}
	b.WriteString(s[last:])
	return strings.ReplaceAll(cells.Wrap(b.String(), w, ""), idHyphen, "-")
}
