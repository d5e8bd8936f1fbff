package tui

import (
	"time"

	tea "charm.land/bubbletea/v2"

	"referee/model"
	"referee/themes"
)

// common is what the workbench's components share, as soft-serve's pkg/ui/common does:
// the styles, the size a dialog's body may take, who changes are recorded as, and the
// clock. The Model makes it for each frame; a component reads it in View and keeps none
// of it, so a theme or size change reaches every component at once. (The confirmation
// and the error notice take it; help, the palette and forms still get sizes by SetSize.)
//
// A component (Search, Travel, Runs, Changes, Similar, Sessions, Writes, Form, Confirm, Notice, Picker) owns its state, keys and messages, and
// has two methods of one signature each:
//
//	Update(com common, msg tea.Msg) (tea.Cmd, tea.Msg)
//	View(com common) []string
//
// Update returns the command to run and, when the rest of the workbench must act (go to
// an object, say something on the status line), a message for the Model: it handles
// that at once, in the same Update, as it would one a command sent (Model.route). A
// component never reaches into the Model: what it needs of the folder it is given.
type common struct {
	st            *themes.Styles
	width, height int // a dialog's inner size
	actor         string
	now           func() time.Time
}

func (m *Model) common() common {
	return common{st: m.st, width: max(m.dialogWidth()-4, 10), height: max(m.dialogHeight()-2, 4),
		actor: model.SanitizeLine(m.actor), now: m.now}
}

// statusMsg says something on the status line: an error, or (ok) information.
type statusMsg struct {
	text string
	ok   bool
}

// revealMsg moves the tree cursor to an object and says why on the status line.
type revealMsg struct {
	id  string
	say string
}

// component is the two methods every component has (see common).
type component interface {
	Update(com common, msg tea.Msg) (tea.Cmd, tea.Msg)
	View(com common) []string
}

var _ = []component{(*Search)(nil), (*Travel)(nil), (*Runs)(nil), (*Changes)(nil), (*Similar)(nil), (*Sessions)(nil), (*Writes)(nil), (*Form)(nil), (*Confirm)(nil), (*Notice)(nil), (*Picker)(nil)}

// route hands msg to a component and handles what it answers, at once.
func (m *Model) route(c component, msg tea.Msg) tea.Cmd {
	cmd, out := c.Update(m.common(), msg)
	if out == nil {
		return cmd
	}
	return tea.Batch(m.update(out), cmd)
}
