package store

import (
	"fmt"
	"slices"
	"unicode/utf8"

	"referee/model"
)

// referenceItems reports items of reference lists that are not references: a
// preliminaries or ref item must be an ID or "(ID) text", and no item may start like a
// reference that is not one. Such items (say "../../etc/passwd") are never used as
// paths; they are reported so that the agent that wrote them can be fixed.
func (c *checker) referenceItems() {
	for _, id := range checkSortedIDs(c.snap.Problems) {
		p := c.snap.Problems[id]
		c.refList(id, "preliminaries", p.Preliminaries, true)
		c.refList(id, "solution.ref", p.Solution.Ref, true)
		c.refList(id, "hypothesis", p.Hypothesis, false)
		c.refList(id, "progresses", p.Progresses, false)
	}
	for _, id := range slices.SortedFunc(c.snap.Statements.Keys(), model.CompareIDs) {
		st := c.snap.Statements.Get(id)
		c.refList(id, "preliminaries", st.Preliminaries, true)
		c.refList(id, "proof.ref", st.Proof.Ref, true)
		c.refList(id, "hypothesis", st.Hypothesis, false)
	}
}

func (c *checker) refList(id, field string, items []string, mustRef bool) {
	for i, it := range items {
		if _, ok := model.RefID(it); ok {
			continue
		}
		if m := model.BadRefPrefix(it); m != "" { // the skills refuse such a premise too
			c.add(SeverityError, objectRelPath(id), id, "%s item %d starts like a reference, but %q is not an ID", field, i+1, m)
		} else if mustRef {
			c.add(SeverityError, objectRelPath(id), id, "%s item %d, %q, is not a reference (expected an ID such as s-007, or \"(s-007) text\")", field, i+1, clip(it, 40))
		}
	}
}

// clip shortens s to n runes for a message.
func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return fmt.Sprint(string(r[:n]), "…")
}
