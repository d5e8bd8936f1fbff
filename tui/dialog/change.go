package dialog

import (
	"errors"
	"fmt"
	"os"
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"referee/cells"
	"referee/model"
	"referee/skill"
	"referee/store"
	"referee/tui/common"
	"referee/views"
)

// Change is a change waiting for the reviewer's "y": the skill, its exact arguments,
// the version of the target the reviewer saw, and what will be written.
type Change struct {
	Skill   *skill.Skill
	Args    skill.Args
	Target  string
	Version string
	Undo    *store.Result  // set for an undo: the session change it reverts
	Redo    bool           // the undo is a redo: it takes back undo, an undo of this session
	Rewind  *store.Restore // set for a rewind: its plan, worked out before the dialog
	Preview []string       // a rewind's plan in lines
	// Form is the form the arguments came from: e goes back to it from the
	// confirmation, and a write refused for a conflict reopens it, keeping the draft.
	Form *Form
	// Seen is the target as the reviewer saw it when the change began, to say what
	// changed when a write is refused for a conflict.
	Seen *model.Statement
	// Conflict is the object whose change refused the write, until the reload shows it.
	Conflict string
}

// EditorArgv is the command line of the editor: the override, else $VISUAL, else $EDITOR, else vi.
func EditorArgv(editor string) []string {
	for _, e := range []string{editor, os.Getenv("VISUAL"), os.Getenv("EDITOR")} {
		if f := strings.Fields(e); len(f) > 0 {
			return f
		}
	}
	return []string{"vi"}
}

// Reason is a skill error without the skill's name in front.
func Reason(err error) string {
	var pe *skill.PreconditionError
	if errors.As(err, &pe) {
		if pe.Status == "missing" {
			return pe.Object + " does not exist"
		}
		return fmt.Sprintf("%s is %q; it needs %s", pe.Object, pe.Status, pe.Need)
	}
	return err.Error()
}

// WrapLines wraps text to a width in a style.
func WrapLines(style lipgloss.Style, text string, w int) []string {
	var out []string
	for l := range strings.SplitSeq(views.WrapText(text, max(w, 4)), "\n") {
		out = append(out, style.Render(l))
	}
	return out
}

// WrapJoin lays out items separated by spaces over as many lines as needed.
func WrapJoin(items []string, w int, indent string) []string {
	var lines []string
	cur := indent
	for _, it := range items {
		if cells.Width(cur)+cells.Width(it)+1 > w+len(indent) && cur != indent {
			lines = append(lines, cur)
			cur = indent
		}
		if cur != indent {
			cur += " "
		}
		cur += it
	}
	return append(lines, cur)
}

// nav is how the dialogs that scroll move: the workbench's one navigation map.
var nav = common.DefaultNavKeyMap()

// scroll is the first line of a window at offset after a key (the same offset for a key
// that does not move it); View clamps it to the body.
func scroll(msg tea.KeyPressMsg, offset, page int) int {
	to, _ := nav.Move(msg, offset, common.Unbounded, page)
	return to
}

// size is a dialog's body: the cells it may draw in, at least 10×4.
type size struct{ width, height int }

// SetSize sets the body's size.
func (s *size) SetSize(w, h int) { s.width, s.height = max(w, 10), max(h, 4) }
