package dialog

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"referee/model"
	"referee/tui/common"
	"referee/views"
)

// A refused write and a long error: the error is shown whole in a dialog that scrolls
// (a status line cuts it), and a write refused for a conflict reopens its form with
// the draft kept and what changed beside it.

// Notice is a read-only dialog with a text to read whole.
type Notice struct {
	title  string
	text   string
	offset int
	size
}

// NoticeClosedMsg says the notice was closed.
type NoticeClosedMsg struct{}

// Update scrolls the notice; any other key (esc, q, enter) closes it.
func (n *Notice) Update(_ common.Common, msg tea.Msg) (tea.Cmd, tea.Msg) {
	km, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil, nil
	}
	to, ok := nav.Move(km, n.offset, common.Unbounded, max(n.height-2, 1))
	if !ok {
		return nil, NoticeClosedMsg{}
	}
	n.offset = to
	return nil, nil
}

// View renders the notice's body.
func (n *Notice) View(com common.Common) []string {
	st := com.Styles
	var body []string
	for l := range strings.SplitSeq(model.Sanitize(n.text), "\n") {
		for _, w := range strings.Split(views.WrapText(l, n.width), "\n") {
			body = append(body, st.Base.Render(w))
		}
	}
	win := max(n.height-1, 1)
	n.offset = min(max(n.offset, 0), max(len(body)-win, 0))
	end := min(n.offset+win, len(body))
	out := append([]string{}, body[n.offset:end]...)
	hint := "esc closes"
	if len(body) > win {
		hint = fmt.Sprintf("lines %d–%d of %d · j/k scroll · esc closes", n.offset+1, end, len(body))
	}
	return append(out, st.Faint.Render(hint))
}

// NewNotice is a notice of text under title.
func NewNotice(title, text string) *Notice { return &Notice{title: title, text: text} }

// Title is the notice's title.
func (n *Notice) Title() string { return n.title }

// KeyMap is how a notice scrolls (the navigation keys); any other key closes it.
func (n *Notice) KeyMap() []key.Binding { return nav.Bindings() }
