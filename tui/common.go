package tui

import (
	tea "charm.land/bubbletea/v2"

	"referee/model"
	"referee/tui/common"
	"referee/tui/dialog"
)

// common is the context the Model hands its components (package common): made for
// each frame, kept by none.
func (m *Model) common() common.Common {
	return common.Common{Styles: m.look.st, Dark: m.look.dark, Actor: model.SanitizeLine(m.env.actor), Now: m.now}
}

// revealMsg moves the tree cursor to an object and says why on the status line.
type revealMsg struct {
	id  string
	say string
}

// component is a part of the workbench that draws, with the one interface
// (common.Component): the panes, the search line and the dialogs.
type component = common.Component

var _ = []component{(*Tree)(nil), (*Detail)(nil), (*Activity)(nil), (*Search)(nil),
	(*dialog.Form)(nil), (*dialog.Confirm)(nil), (*dialog.Decide)(nil), (*dialog.Notice)(nil), (*dialog.Picker)(nil)}

// worker is a part that draws nothing of its own (or a piece of the status line): it
// takes its messages, runs its commands and answers as a component does. Travel and
// Runs say a line of status (Status); Changes, Similar, Sessions, Writes and Extras keep
// what the panes draw from.
type worker interface {
	Update(com common.Common, msg tea.Msg) (tea.Cmd, tea.Msg)
}

var _ = []worker{(*Travel)(nil), (*Runs)(nil), (*Changes)(nil), (*Similar)(nil), (*Sessions)(nil), (*Writes)(nil), (*Extras)(nil)}

// route hands msg to a component or a worker and does what it answers, at once.
func (m *Model) route(c worker, msg tea.Msg) tea.Cmd {
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
	case common.StatusMsg:
		if msg.OK {
			m.status.info(msg.Text)
		} else {
			m.status.error(msg.Text)
		}
	case jumpMsg:
		m.supervisor().jumpTo(msg.id)
	case revealMsg:
		if m.shown.forest != nil {
			m.tree.Reveal(m.shown.forest.Canon(msg.id))
		}
		if msg.say != "" {
			m.status.info(msg.say)
		}
	case paneChangedMsg:
		if m.lay.side == msg.side {
			return m.reader().rebuildDetail()
		}
	case dialog.FormDoneMsg:
		if m.dlg.form != nil && m.dlg.confirm == nil { // a form submitted opens its confirmation in its place
			if msg.Cancelled {
				m.changer().keepDraft(m.dlg.form)
			}
			m.dlg.form = nil
		}
	case dialog.PickerDoneMsg:
		m.dlg.picker = nil
	case dialog.NoticeClosedMsg:
		m.dlg.notice = nil
	case dialog.DecidedMsg, dialog.DecideClosedMsg:
		return m.changer().onDecide(msg)
	case dialog.ConfirmedMsg, dialog.ConfirmEditMsg, dialog.ConfirmClosedMsg, dialog.ConfirmConflictMsg:
		return m.changer().onConfirm(msg)
	case writtenMsg:
		return m.changer().onWritten(msg)
	case writeFailedMsg:
		return m.changer().onWriteFailed(msg)
	case travelShowMsg:
		return m.supervisor().onTravelShow(msg)
	case diffShownMsg:
		return m.supervisor().onDiffShown(msg)
	case travelFailedMsg:
		m.status.error(msg.why)
		m.travel = nil
	case changesListedMsg:
		return m.supervisor().onChangesListed(msg)
	case similarFoundMsg:
		if r, ok := m.tree.Selected(); ok && r.ID == msg.id && m.lay.side == sideDetail {
			return m.reader().rebuildDetail()
		}
	case sessionsReadMsg:
		return m.supervisor().onSessionsRead(msg)
	case attributedMsg:
		return m.supervisor().onAttributed()
	case extrasBuiltMsg:
		return m.supervisor().onExtrasBuilt(msg)
	}
	// Anything else is no answer the workbench knows: it is dropped, never a crash.
	return nil
}
