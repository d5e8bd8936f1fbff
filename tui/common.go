package tui

import (
	"time"

	"referee/model"
	"referee/themes"
)

// common is what the workbench's components share, as soft-serve's pkg/ui/common does:
// the styles, the size a dialog's body may take, who changes are recorded as, and the
// clock. The Model makes it for each frame; a component reads it in View and keeps none
// of it, so a theme or size change reaches every component at once. (The confirmation
// and the error notice take it so far; help, the palette and forms still get sizes by
// SetSize.)
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
