package tui

import (
	tea "charm.land/bubbletea/v2"

	"referee/mathtext"
)

// toggleMath switches proofs, claims in the tree and the detail between readable math
// and the LaTeX source. Renderings are
// cached per math mode, so switching back is free; sentences, quotes (R) and the
// locator always use the source.
func (m *Model) toggleMath() tea.Cmd {
	if m.look.math == mathtext.Unicode {
		m.look.math = mathtext.Raw
		m.status.info("math as written (LaTeX source): m shows it readable")
	} else {
		m.look.math = mathtext.Unicode
		m.status.info("math readable: m shows the LaTeX source")
	}
	m.tree.math = m.look.math
	return m.reader().rebuildDetail()
}
