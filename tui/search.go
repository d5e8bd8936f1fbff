package tui

import (
	"fmt"
	"strings"

	tea "charm.land/bubbletea/v2"

	"referee/model"
)

// openSearch starts typing a search in the status line.
func (m *Model) openSearch() tea.Cmd {
	m.searching = true
	m.searchInput.SetValue("")
	return m.searchInput.Focus()
}

// searchKey handles keys while typing a search: enter jumps to the first match (an
// exact ID straight to that node), esc cancels.
func (m *Model) searchKey(msg tea.KeyPressMsg) tea.Cmd {
	switch msg.String() {
	case "esc":
		m.searching = false
		m.searchInput.Blur()
		return nil
	case "enter":
		m.searching = false
		m.searchInput.Blur()
		q := strings.TrimSpace(m.searchInput.Value())
		if q == "" {
			m.search, m.searchResults = "", nil
			return nil
		}
		m.search = q
		m.searchResults = m.findMatches(q)
		if len(m.searchResults) == 0 {
			m.flashError("no match for " + q)
			return nil
		}
		m.tree.Reveal(m.forest.canon[m.searchResults[0]])
		m.searchAt = 0
		m.flashInfo(fmt.Sprintf("match 1 of %d for %q · n/N next/previous · esc clears", len(m.searchResults), q))
		return nil
	}
	var cmd tea.Cmd
	m.searchInput, cmd = m.searchInput.Update(msg)
	return cmd
}

// findMatches returns the objects matching a query, in tree order: an exact ID alone,
// else every object whose ID, claim or objectives hold all the words.
func (m *Model) findMatches(q string) []string {
	if m.forest == nil {
		return nil
	}
	ql := strings.ToLower(strings.TrimSpace(q))
	if m.snap.Exists(ql) {
		if _, ok := m.forest.canon[ql]; ok {
			return []string{ql}
		}
	}
	words := strings.Fields(ql)
	var out []string
	for _, id := range m.forest.order {
		text := id
		if st := m.snap.Statements[id]; st != nil {
			text += " " + st.Claim()
		} else if p := m.snap.Problems[id]; p != nil {
			text += " " + p.Title()
		}
		text = strings.ToLower(text)
		ok := true
		for _, w := range words {
			if !strings.Contains(text, w) {
				ok = false
				break
			}
		}
		if ok {
			out = append(out, id)
		}
	}
	_ = model.KindStatement
	return out
}
