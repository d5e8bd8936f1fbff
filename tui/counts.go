package tui

import "referee/model"

// phaseCounts is how many statements of the shown snapshot are in each phase. It is
// counted once per snapshot, not per frame: at 100k statements the count alone cost
// more than the rest of a frame.
func (m *Model) phaseCounts() map[model.Phase]int {
	if m.countsOf == m.g && m.counts != nil {
		return m.counts
	}
	n := map[model.Phase]int{}
	for id := range m.snap.Statements.All() {
		n[m.g.Phase[id]]++
	}
	m.counts, m.countsOf = n, m.g
	return n
}
