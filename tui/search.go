package tui

import (
	"fmt"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// openSearch starts typing a search in the status line.
func (m *Model) openSearch() tea.Cmd {
	m.searching = true
	m.searchInput.SetValue("")
	return m.searchInput.Focus()
}

// SearchKeyMap is the keys while a search is typed in the status line (the search's
// next/previous match, ctrl+n/ctrl+p, are rows of the key table).
type SearchKeyMap struct {
	Submit, Cancel key.Binding
}

// DefaultSearchKeyMap returns the keys of the search line.
func DefaultSearchKeyMap() SearchKeyMap {
	return SearchKeyMap{
		Submit: key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "go to the first match (an exact ID: to it)")),
		Cancel: key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "stop typing the search")),
	}
}

// searchKey handles keys while typing a search: enter jumps to the first match (an
// exact ID straight to that node), esc cancels.
func (m *Model) searchKey(msg tea.KeyPressMsg) tea.Cmd {
	km := DefaultSearchKeyMap()
	switch {
	case key.Matches(msg, km.Cancel):
		m.searching = false
		m.searchInput.Blur()
		return nil
	case key.Matches(msg, km.Submit):
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
		m.tree.Reveal(m.forest.Canon(m.searchResults[0]))
		m.searchAt = 0
		m.flashInfo(fmt.Sprintf("match 1 of %d for %q · %s/%s next/previous · esc clears", len(m.searchResults), q,
			bindingNamed("match-next").Help().Key, bindingNamed("match-prev").Help().Key))
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
		if m.forest.Canon(ql) != "" {
			return []string{ql}
		}
	}
	words := strings.Fields(ql)
	var out []string
	for _, id := range m.forest.Order() {
		text := id
		if st := m.snap.Statements.Get(id); st != nil {
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
	return out
}

// nextMatch steps through the search's matches in tree order, saying when it wraps.
func (m *Model) nextMatch(d int) {
	if m.forest == nil || m.search == "" {
		return
	}
	list := m.searchResults
	if len(list) == 0 {
		m.flashError("no match for " + m.search)
		return
	}
	cur, _ := m.tree.Selected()
	var target string
	wrapped := false
	if i := slices.Index(list, cur.ID); i >= 0 {
		target, wrapped = stepWrap(list, i, d)
	} else {
		target, wrapped = m.nearestInTreeOrder(list, cur.ID, d)
	}
	m.tree.Reveal(m.forest.Canon(target))
	at := slices.Index(list, target) + 1
	msg := fmt.Sprintf("match %d of %d for %q", at, len(list), m.search)
	if wrapped {
		msg = fmt.Sprintf("wrapped to %d of %d · ", at, len(list)) + msg
	}
	m.flashInfo(msg)
}

// nearestInTreeOrder is the first item of list (in tree order) after (d > 0) or before
// the cursor's object in tree order, and whether it wrapped around to find it.
func (m *Model) nearestInTreeOrder(list []string, cur string, d int) (string, bool) {
	pos := slices.Index(m.forest.Order(), cur)
	idx := make(map[string]int, len(list))
	for _, id := range list {
		idx[id] = -1
	}
	for i, id := range m.forest.Order() {
		if _, ok := idx[id]; ok {
			idx[id] = i
		}
	}
	if d > 0 {
		for _, id := range list {
			if idx[id] > pos {
				return id, false
			}
		}
		return list[0], true
	}
	for i := len(list) - 1; i >= 0; i-- {
		if idx[list[i]] < pos {
			return list[i], false
		}
	}
	return list[len(list)-1], true
}
