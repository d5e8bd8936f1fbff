// Package common is what every part of the workbench shares, as soft-serve's
// pkg/ui/common is: the styles, the size a part may draw in, who changes are recorded
// as, the clock; the one interface of a component; and the answers a component gives
// the workbench. Both the workbench (package tui) and its dialogs (package dialog)
// import it, and it imports neither.
package common

import (
	"time"

	tea "charm.land/bubbletea/v2"

	"referee/themes"
)

// Common is the context the workbench hands each part on every call: made for each
// frame and kept by none, so that a theme or size change reaches every part at once.
type Common struct {
	Styles *themes.Styles
	// Width and Height are the size the part may draw in (a dialog: its body).
	Width, Height int
	// Dark is the terminal's background, for the inputs' own styles.
	Dark bool
	// Actor is who changes are recorded as (sanitised).
	Actor string
	// Now is the clock.
	Now func() time.Time
}

// Component is a part of the workbench that draws: a pane or a dialog. It owns its
// state, its keys and its messages.
//
// Update returns the command to run and, when the rest of the workbench must act (go
// to an object, say something on the status line, close the dialog), an answer for the
// workbench, which it handles at once, in the same Update. View draws the component in
// com's size, one string a line.
type Component interface {
	Update(com Common, msg tea.Msg) (tea.Cmd, tea.Msg)
	View(com Common) []string
}

// StatusMsg says something on the status line: an error, or (OK) information.
type StatusMsg struct {
	Text string
	OK   bool
}
