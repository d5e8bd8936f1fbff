// Package common is what every part of the workbench shares, as soft-serve's
// pkg/ui/common is: the styles, the size a part may draw in, who changes are recorded
// as, the clock; the one interface of a component; and the answers a component gives
// the workbench. Both the workbench (package tui) and its dialogs (package dialog)
// import it, and it imports neither.
package common

import (
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"referee/themes"
)

// Common is the context the workbench hands each part on every call: made for each
// frame and kept by none, so that a theme or size change reaches every part at once.
type Common struct {
	Styles *themes.Styles
	// Focused says the part drawn has the focus (a pane draws its cursor so).
	Focused bool
	// Dark is the terminal's background, for the inputs' own styles.
	Dark bool
	// Actor is who changes are recorded as (sanitised).
	Actor string
	// Now is the clock.
	Now func() time.Time
}

// Component is a part of the workbench that draws: a pane (the tree, the detail, the
// activity), the search line, or a dialog. It owns its state, its keys and its
// messages, as soft-serve's common.Component does.
//
// SetSize gives it the cells it may draw in (a pane: inside its border; a dialog: its
// body). Update returns the command to run and, when the rest of the workbench must act
// (go to an object, say something on the status line, close the dialog), an answer for
// the workbench, which it handles at once, in the same Update; a pane answers
// Unhandled to a key that is not its own, which then goes to the key table. View draws
// it, one string a line, and changes nothing that Update would see. KeyMap is its keys
// as help lists them (the navigation keys, NavKeyMap, in its words, and its own).
type Component interface {
	SetSize(width, height int)
	Update(com Common, msg tea.Msg) (tea.Cmd, tea.Msg)
	View(com Common) []string
	KeyMap() []key.Binding
}

// Unhandled is a pane's answer to a key it does not take.
type Unhandled struct{}

// StatusMsg says something on the status line: an error, or (OK) information.
type StatusMsg struct {
	Text string
	OK   bool
}
