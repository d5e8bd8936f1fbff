package tui

import "referee/tui/dialog"

// A form closed with esc is kept as a draft: pressing its key again on the same object
// brings back what was typed (reading the proof while writing an explanation means
// closing the form). A draft is checked against the object's version like any change:
// if the object changed meanwhile, the confirmation's check says so and keeps it.

// maxDrafts bounds the drafts kept in a session.
const maxDrafts = 32

func draftKey(skill, target string) string { return skill + " " + target }

// keepDraft keeps a form closed with esc, if anything was typed in it.
func (m changer) keepDraft(f *dialog.Form) {
	if f == nil || f.Change == nil || f.Change.Skill == nil || !f.Typed {
		m.status.info("cancelled: nothing was written")
		return
	}
	if m.dlg.drafts == nil {
		m.dlg.drafts = map[string]*dialog.Form{}
	}
	if len(m.dlg.drafts) >= maxDrafts {
		clear(m.dlg.drafts)
	}
	ch := f.Change
	m.dlg.drafts[draftKey(ch.Skill.Name, ch.Target)] = f
	m.status.info("cancelled: nothing was written · " + skillKey(ch.Skill.Name) + " again on " + ch.Target + " brings the draft back")
}

// takeDraft is the kept draft of a skill on an object, said above its fields; nil if none.
func (m changer) takeDraft(skill, target string) *dialog.Form {
	k := draftKey(skill, target)
	f := m.dlg.drafts[k]
	if f == nil {
		return nil
	}
	delete(m.dlg.drafts, k)
	const said = "Your draft, as you left it (esc keeps it again)."
	if len(f.Note) == 0 || f.Note[0] != said {
		f.Note = append([]string{said}, f.Note...)
	}
	f.SetErr("")
	return f
}
