package tui

import (
	"errors"

	tea "charm.land/bubbletea/v2"

	"referee/store"
	"referee/tui/common"
	"referee/tui/dialog"
)

// Writes is the component of the changes written in this session: those being written
// (store.Run in a command; q waits for them, never quitting half-way) and those done,
// newest last (u undoes the last). What a written change means for the rest of the
// workbench (the status line, a reload, a form reopened on a conflict) it answers to
// the Model.
type Writes struct {
	dir, actor string
	readOnly   string // why nothing is written from this workbench (a viewer over SSH)
	writing    int    // changes being written
	quitAfter  bool   // q was pressed while writing: quit when the last is done
	done       []*store.Result
	// undone are the undos of this session, newest last, while nothing else was written
	// since: ctrl+r redoes the last (undoes that undo), and any other change ends them.
	undone []*store.Result
}

// writtenMsg says a change was written (the session's list is updated); quit: the
// program quits with it.
type writtenMsg struct {
	ch   *dialog.Change
	res  *store.Result
	name string
	quit bool
}

// writeFailedMsg says the store refused a change: nothing was written.
type writeFailedMsg struct {
	ch   *dialog.Change
	err  error
	name string
}

func newWrites(dir, actor string) *Writes { return &Writes{dir: dir, actor: actor} }

// Apply writes a confirmed change off the UI goroutine; skillDoneMsg reports it.
func (w *Writes) Apply(ch *dialog.Change) tea.Cmd {
	dir, actor, readOnly := w.dir, w.actor, w.readOnly
	w.writing++
	return func() tea.Msg {
		if readOnly != "" { // the keys are disabled; this is the last guard
			return skillDoneMsg{ch: ch, err: errors.New(readOnly)}
		}
		if ch.Undo != nil {
			res, err := store.Undo(dir, ch.Undo.Change, store.Options{Actor: actor})
			return skillDoneMsg{ch: ch, res: res, err: err}
		}
		if ch.Rewind != nil {
			return applyRewind(dir, actor, ch)
		}
		res, err := store.Run(dir, ch.Skill, ch.Args, store.Options{Actor: actor, ExpectVersion: ch.Version})
		return skillDoneMsg{ch: ch, res: res, err: err}
	}
}

// QuitWhenDone asks to quit once the changes being written are done; false when none
// is being written (quit at once).
func (w *Writes) QuitWhenDone() bool {
	if w.writing == 0 {
		return false
	}
	w.quitAfter = true
	return true
}

// LastUndo is the last undo of this session that ctrl+r can redo, if any.
func (w *Writes) LastUndo() (*store.Result, bool) {
	if len(w.undone) == 0 {
		return nil, false
	}
	return w.undone[len(w.undone)-1], true
}

// Last is the last change written in this session (undo's), if any.
func (w *Writes) Last() (*store.Result, bool) {
	if len(w.done) == 0 {
		return nil, false
	}
	return w.done[len(w.done)-1], true
}

// Update takes the outcome of a write (skillDoneMsg).
func (w *Writes) Update(_ common.Common, msg tea.Msg) (tea.Cmd, tea.Msg) {
	done, ok := msg.(skillDoneMsg)
	if !ok {
		return nil, nil
	}
	name := "undo"
	if done.ch.Redo {
		name = "redo"
	}
	if done.ch.Skill != nil {
		name = done.ch.Skill.Name
	} else if done.ch.Rewind != nil {
		name = store.SkillRewind
	}
	w.writing = max(w.writing-1, 0)
	var quit tea.Cmd
	if w.quitAfter && w.writing == 0 {
		quit = tea.Quit
	}
	if done.err != nil {
		return quit, writeFailedMsg{ch: done.ch, err: done.err, name: name}
	}
	switch {
	case done.ch.Redo:
		// The undo taken back: the change it undid is the session's last again (u undoes
		// it), as the redo that wrote it back.
		w.undone = w.undone[:len(w.undone)-1]
		w.done = append(w.done, done.res)
	case done.ch.Undo != nil:
		w.done = w.done[:len(w.done)-1]
		w.undone = append(w.undone, done.res)
	default:
		w.done = append(w.done, done.res)
		w.undone = nil
	}
	return quit, writtenMsg{ch: done.ch, res: done.res, name: name, quit: quit != nil}
}
