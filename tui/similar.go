package tui

import (
	"slices"

	tea "charm.land/bubbletea/v2"

	"referee/model"
	"referee/model/similar"
	"referee/tui/common"
)

// Similar is the component of the similar statements the detail lists under a
// statement: found in a command, one statement at a time, and kept while the claims
// they were found among hold (extras made from other claims start over). A statement
// the shown snapshot lacks is left out; it reads that snapshot through the shownSource
// it is given.
type Similar struct {
	shown shownSource
	// found is the similar statements of each statement, for the claims of of at
	// claims; busy, those being found.
	found  map[string][]similar.Match
	of     *similarity
	claims uint64
	busy   map[string]bool
}

// shownSource gives the snapshot the tree and detail show.
type shownSource interface {
	shownSnapshot() *model.Snapshot
}

// similarMsg carries the similar statements of one statement.
type similarMsg struct {
	sim     *similarity
	claims  uint64
	id      string
	matches []similar.Match
}

// similarFoundMsg says the similar statements of id were found.
type similarFoundMsg struct{ id string }

func newSimilar(shown shownSource) *Similar { return &Similar{shown: shown} }

// To is the similar statements of id when known for the extras ex; otherwise it starts
// finding them (similarFoundMsg says when they are found).
func (s *Similar) To(ex *extras, id string) ([]similar.Match, tea.Cmd) {
	if ex == nil || ex.snap.Statements.Get(id) == nil {
		return nil, nil
	}
	if s.of != ex.sim || s.claims != ex.claims {
		s.of, s.claims, s.found = ex.sim, ex.claims, map[string][]similar.Match{}
		s.busy = map[string]bool{}
	}
	if found, ok := s.found[id]; ok {
		return found, nil
	}
	if s.busy[id] {
		return nil, nil
	}
	s.busy[id] = true
	sim := ex.sim
	return nil, func() tea.Msg {
		matches, claims := sim.similar(id)
		return similarMsg{sim: sim, claims: claims, id: id, matches: matches}
	}
}

// Update takes the similar statements found for one statement.
func (s *Similar) Update(_ common.Common, msg tea.Msg) (tea.Cmd, tea.Msg) {
	found, ok := msg.(similarMsg)
	if !ok {
		return nil, nil
	}
	if found.sim != s.of || found.claims != s.claims {
		delete(s.busy, found.id)
		return nil, nil // for other claims than those shown: asked again when shown
	}
	// A statement the shown snapshot lacks (newer than it) is left out.
	snap := s.shown.shownSnapshot()
	matches := slices.DeleteFunc(found.matches, func(x similar.Match) bool { return snap.Statements.Get(x.ID) == nil })
	s.found[found.id] = matches
	delete(s.busy, found.id)
	return nil, similarFoundMsg{id: found.id}
}

// shownSnapshot is the snapshot shown (Similar's shownSource).
func (s *shownFrame) shownSnapshot() *model.Snapshot { return s.snap }
