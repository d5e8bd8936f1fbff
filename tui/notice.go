package tui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"referee/cells"
	"referee/model"
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
	height int // the last frame's, for a page
}

// showError says what failed: on the status line when it fits, else in a Notice.
func (m *Model) showError(what, why string) {
	line := what + ": " + model.SanitizeLine(why)
	if cells.Width(line)+4 <= m.width && !strings.Contains(why, "\n") {
		m.flashError(line)
		return
	}
	m.flashError(what + " (the whole error is shown; esc closes it)")
	m.notice = &Notice{title: what, text: why}
}

// noticeClosedMsg says the notice was closed.
type noticeClosedMsg struct{}

// Update scrolls the notice; any other key (esc, q, enter) closes it.
func (n *Notice) Update(_ common, msg tea.Msg) (tea.Cmd, tea.Msg) {
	km, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil, nil
	}
	c := DefaultConfirmKeyMap()
	switch {
	case key.Matches(km, c.Down):
		n.offset++
	case key.Matches(km, c.Up):
		n.offset--
	case key.Matches(km, c.PageDown):
		n.offset += max(n.height-2, 1)
	case key.Matches(km, c.PageUp):
		n.offset -= max(n.height-2, 1)
	default:
		return nil, noticeClosedMsg{}
	}
	return nil, nil
}

// View renders the notice's body.
func (n *Notice) View(com common) []string {
	st := com.st
	n.height = com.height
	var body []string
	for l := range strings.SplitSeq(model.Sanitize(n.text), "\n") {
		for _, w := range strings.Split(views.WrapText(l, com.width), "\n") {
			body = append(body, st.Base.Render(w))
		}
	}
	win := max(com.height-1, 1)
	n.offset = min(max(n.offset, 0), max(len(body)-win, 0))
	end := min(n.offset+win, len(body))
	out := append([]string{}, body[n.offset:end]...)
	hint := "esc closes"
	if len(body) > win {
		hint = fmt.Sprintf("lines %d–%d of %d · j/k scroll · esc closes", n.offset+1, end, len(body))
	}
	return append(out, st.Faint.Render(hint))
}

// reopenAfterConflict reopens the form of a change the store refused because its
// target changed since the reviewer read it: the draft is kept, and the new version is
// described beside it once the reload arrives (conflictNote).
func (m *Model) reopenAfterConflict(ch *change, object string) tea.Cmd {
	if ch.form == nil {
		m.showError(object+" changed since you read it (someone else wrote it); nothing was written",
			"Showing the new version: read it, then start the change again.")
		return nil
	}
	ch.conflict = object
	f := ch.form
	f.note = []string{object + " changed since you read it (someone else wrote it): nothing was written.",
		"Your draft is kept. Reading the new version…"}
	m.flashError(object + " changed since you read it: nothing was written; your draft is kept")
	return m.openForm(f)
}

// conflictNote describes, beside a reopened form, how the target changed, and takes
// the new version as the one the change is checked against.
func (m *Model) conflictNote() {
	f := m.form
	if f == nil || f.change == nil || f.change.conflict == "" || m.snap == nil {
		return
	}
	ch := f.change
	now := m.snap.Statements.Get(ch.target)
	note := []string{ch.conflict + " changed since you read it (someone else wrote it): nothing was written. Your draft is kept; the new version:"}
	was := ch.seen
	switch {
	case now == nil:
		note = append(note, "  "+ch.target+" is gone")
	case was == nil:
		note = append(note, "  status "+now.Status)
	default:
		if was.Status != now.Status {
			note = append(note, fmt.Sprintf("  status %s (was %s)", now.Status, was.Status))
		} else {
			note = append(note, "  status "+now.Status+" (unchanged)")
		}
		if was.Claim() != now.Claim() {
			note = append(note, "  claim now: "+model.SanitizeLine(now.Claim()))
		}
		if a, b := len(model.SplitSentences(proofText(was))), len(model.SplitSentences(proofText(now))); a != b || proofText(was) != proofText(now) {
			note = append(note, fmt.Sprintf("  proof changed: %d sentences (was %d)", b, a))
		}
		if len(was.Issues) != len(now.Issues) || len(was.Responses) != len(now.Responses) {
			note = append(note, fmt.Sprintf("  issues %d, responses %d (were %d, %d)", len(now.Issues), len(now.Responses), len(was.Issues), len(was.Responses)))
		}
	}
	note = append(note, "ctrl+s checks the draft again against this version; esc drops it.")
	f.note = note
	ch.seen, ch.version, ch.conflict = now, m.snap.Versions.Get(ch.target), ""
}
