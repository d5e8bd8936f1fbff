package tui

import (
	"fmt"
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
// that at once, in the same Update (Model.route, Model.answer). A component never
// reaches into the Model: what it needs of the folder it is given, as arguments or
// through a small interface (corpus, logSource, presentSource …).
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

var _ = []component{(*Search)(nil), (*Travel)(nil), (*Runs)(nil), (*Changes)(nil), (*Similar)(nil), (*Sessions)(nil), (*Writes)(nil), (*Extras)(nil), (*Form)(nil), (*Confirm)(nil), (*Decide)(nil), (*Notice)(nil), (*Picker)(nil)}

// route hands msg to a component and does what it answers, at once.
func (m *Model) route(c component, msg tea.Msg) tea.Cmd {
	cmd, out := c.Update(m.common(), msg)
	if out == nil {
		return cmd
	}
	return tea.Batch(m.answer(out), cmd)
}

// answer does what a component answered: the one place where a component's outcome
// reaches the rest of the workbench.
func (m *Model) answer(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case statusMsg:
		if msg.ok {
			m.flashInfo(msg.text)
		} else {
			m.flashError(msg.text)
		}
	case revealMsg:
		if m.forest != nil {
			m.tree.Reveal(m.forest.Canon(msg.id))
		}
		if msg.say != "" {
			m.flashInfo(msg.say)
		}
	case paneChangedMsg:
		if m.side == msg.side {
			return m.rebuildDetail()
		}
	case formDoneMsg:
		if m.form != nil && m.confirm == nil { // a form submitted opens its confirmation in its place
			if msg.cancelled {
				m.keepDraft(m.form)
			}
			m.form = nil
		}
	case pickerDoneMsg:
		m.picker = nil
	case noticeClosedMsg:
		m.notice = nil
	case decideMsg, decideClosedMsg:
		return m.onDecide(msg)
	case confirmedMsg, confirmEditMsg, confirmClosedMsg, confirmConflictMsg:
		return m.onConfirm(msg)
	case writtenMsg:
		return m.onWritten(msg)
	case writeFailedMsg:
		return m.onWriteFailed(msg)
	case travelShowMsg:
		return m.onTravelShow(msg)
	case diffShownMsg:
		return m.onDiffShown(msg)
	case travelFailedMsg:
		m.flashError(msg.why)
		m.travel = nil
	case changesListedMsg:
		return m.onChangesListed(msg)
	case similarFoundMsg:
		if r, ok := m.tree.Selected(); ok && r.ID == msg.id && m.side == sideDetail {
			return m.rebuildDetail()
		}
	case sessionsReadMsg:
		return m.onSessionsRead(msg)
	case attributedMsg:
		return m.onAttributed()
	case extrasBuiltMsg:
		return m.onExtrasBuilt(msg)
	default:
		panic(fmt.Sprintf("tui: %T is no component's answer", msg))
	}
	return nil
}
