package tui

import (
	tea "charm.land/bubbletea/v2"
)

// mouseClick selects a tree row, or focuses the detail and follows a link under the
// pointer.
func (m *Model) mouseClick(msg tea.MouseClickMsg) tea.Cmd {
	if m.dlg.form != nil || m.dlg.confirm != nil || m.dlg.decide != nil || m.dlg.picker != nil || msg.Button != tea.MouseLeft {
		return nil
	}
	tw, dw, ph := m.paneSizes()
	if msg.Y < 1 || msg.Y >= ph-1 {
		return nil
	}
	y := msg.Y - 1
	switch {
	case msg.X < tw:
		m.lay.focus = focusTree
		m.tree.Click(y)
	case dw > 0 && m.lay.side == sideActivity:
		m.lay.focus = focusDetail
		m.activity.Click(y)
	case dw > 0:
		m.lay.focus = focusDetail
		if l, ok := m.detail.LinkAt(y); ok && m.lay.side != sideDetail {
			m.supervisor().jumpTo(l.ID)
		} else if ok {
			m.reader().follow(l.ID)
		}
	}
	m.layout()
	return nil
}

// mouseWheel scrolls the pane under the pointer.
func (m *Model) mouseWheel(msg tea.MouseWheelMsg) {
	d := 0
	switch msg.Button {
	case tea.MouseWheelUp:
		d = -3
	case tea.MouseWheelDown:
		d = 3
	default:
		return
	}
	tw, _, _ := m.paneSizes()
	if m.dlg.picker != nil || m.dlg.form != nil || m.dlg.confirm != nil || m.dlg.decide != nil {
		return
	}
	if msg.X < tw {
		m.tree.Scroll(d)
	} else if m.lay.side == sideActivity {
		m.activity.Scroll(d)
	} else {
		m.detail.Scroll(d)
	}
}
