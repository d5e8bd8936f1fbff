package tui

import (
	tea "charm.land/bubbletea/v2"

	"referee/skill"
	"referee/tui/dialog"
)

// Help (?) and the palette (:) are two Pickers over the key table (keys.go).

// openHelp lists every key with its description and, for a row that cannot run now,
// why; then the panes' keys, the mouse and the marks. It scrolls, and says what is
// above and below.
func (m *Model) openHelp() tea.Cmd {
	return m.openPicker(dialog.NewPicker("Help", m.helpEntries(), false, "?"))
}

// openPalette lists every command of the key table and every skill of the registry
// (those without a key too), each enabled or with the reason it is not.
func (m *Model) openPalette() tea.Cmd {
	var es []dialog.Entry
	for _, b := range keyTable() {
		if b.run == nil || b.name == "palette" {
			continue
		}
		b := b
		h := b.Help()
		e := dialog.Entry{Group: b.group, Key: h.Key, Title: h.Desc, Mutating: b.group == groupChange,
			Run: func() tea.Cmd { return m.runBinding(b) }}
		if b.skill != "" {
			e.Title, e.Desc = b.skill, h.Desc
		}
		if b.disabled != nil {
			e.Disabled = b.disabled(m)
		}
		if why := m.room().servedReason(b); why != "" {
			e.Disabled = why
		}
		es = append(es, e)
	}
	for _, s := range skill.Skills {
		if skillKey(s.Name) != "" {
			continue
		}
		name := s.Name
		es = append(es, dialog.Entry{Group: groupChange, Title: name, Desc: s.Summary, Mutating: true,
			Disabled: m.changer().skillDisabled(name, verbFor(name)),
			Run:      func() tea.Cmd { return m.changer().startSkill(name) }})
	}
	return m.openPicker(dialog.NewPicker("Command palette", es, true, ""))
}

func (m *Model) openPicker(p *dialog.Picker) tea.Cmd {
	m.dlg.picker = p
	m.dlg.picker.SetSize(m.dialogWidth()-4, m.dialogHeight()-2)
	return m.dlg.picker.Focus(m.look.dark)
}

// quit ends the program, unless a change is being written: then it waits for the
// write and quits when it is done (saying so), never half-way.
func (m *Model) quit() tea.Cmd {
	if m.writes.QuitWhenDone() {
		m.status.info("writing a change: referee quits when it is done")
		return nil
	}
	return tea.Quit
}

// toggleZoom gives the focused pane the whole width, or both panes their share again.
func (m *Model) toggleZoom() tea.Cmd {
	m.lay.zoomed = !m.lay.zoomed
	cmd := m.relayout()
	if m.lay.zoomed {
		m.status.info("zoomed: the focused pane takes the whole width · tab switches · z again shows both")
	}
	return cmd
}

// stepMatch is the handler that asks the search for the match d steps from the cursor.
func stepMatch(d int) func(*Model) tea.Cmd {
	return func(m *Model) tea.Cmd {
		cur, _ := m.tree.Selected()
		return m.route(m.search, searchStepMsg{d: d, from: cur.ID})
	}
}

func needSearch(m *Model) string {
	if m.search.Query() == "" {
		return "no search: / searches an ID or words of a claim"
	}
	return ""
}
