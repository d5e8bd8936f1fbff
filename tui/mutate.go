package tui

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"

	tea "charm.land/bubbletea/v2"

	"referee/model"
	"referee/skill"
	"referee/store"
	"referee/tui/dialog"
)

// skillDoneMsg reports a change applied (or refused) by the store.
type skillDoneMsg struct {
	ch  *dialog.Change
	res *store.Result
	err error
}

// editorDoneMsg reports that $EDITOR exited.
type editorDoneMsg struct {
	text    string // the proof as the editor left it
	orig    string
	err     error
	skill   string
	target  string
	version string
}

// startSkill begins a change: it refuses with the precondition's reason, or opens the
// skill's form, or (for C) goes straight to the confirmation.
func (m changer) startSkill(name string) tea.Cmd {
	sk, ok := skill.Lookup(name)
	if !ok {
		return nil
	}
	if why := m.changer().skillDisabled(name, verbFor(name)); why != "" {
		m.status.error(why)
		return nil
	}
	id, _, _ := m.changer().target(sk)
	return m.changer().startSkillOn(sk, id, nil, "")
}

// startSkillOn begins a change of a skill on a given object, its form starting with
// the skill's prefill and then values (a decision's proposal), about in front.
func (m changer) startSkillOn(sk *skill.Skill, id string, values map[string]string, about string) tea.Cmd {
	if why := m.travel.ReadOnly(); why != "" {
		m.status.error(why)
		return nil
	}
	if err := sk.Check(skill.SnapshotObjects{Snap: m.shown.snap}, skill.Args{sk.Target: id}); err != nil {
		m.status.error("cannot " + verbFor(sk.Name) + ": " + reason(err))
		return nil
	}
	if f := m.changer().takeDraft(sk.Name, id); f != nil && len(values) == 0 {
		return m.changer().openForm(f)
	}
	name := sk.Name
	ch := &dialog.Change{Skill: sk, Target: id, Version: m.shown.snap.Versions.Get(id), Args: skill.Args{sk.Target: id}}
	ch.Seen = m.shown.snap.Statements.Get(id)
	pf := m.changer().prefillFor(sk, id)
	if len(values) > 0 {
		merged := map[string]string{}
		for k, v := range pf.values {
			merged[k] = v
		}
		for k, v := range values {
			merged[k] = v
		}
		pf.values = merged
	}
	if about != "" {
		pf.about = about
	}
	switch {
	case pf.direct:
		return m.changer().openConfirm(ch)
	case name == "fix-patch-proof" || name == "state-complete-proof":
		if why := m.room().editorReason(); why != "" {
			m.status.error(why)
			return nil
		}
		return m.changer().editProof(name, id, ch.Version)
	}
	return m.changer().openChangeForm(ch, m.changer().formFor(sk, id, sk.Summary, pf))
}

// openChangeForm opens a change's form; its values go to the confirmation.
func (m changer) openChangeForm(ch *dialog.Change, f *dialog.Form) tea.Cmd {
	f.Submit = func(vals map[string]any) tea.Cmd {
		for k, v := range vals {
			ch.Args[k] = v
		}
		m.changer().finishArgs(ch)
		return m.changer().openConfirm(ch)
	}
	ch.Form, f.Change = f, ch
	return m.changer().openForm(f)
}

// finishArgs turns form values into the skill's argument shapes.
func (m changer) finishArgs(ch *dialog.Change) {
	a := ch.Args
	switch ch.Skill.Name {
	case "state-mark-false", "state-propose-modification":
		a["source"] = "prove"
		if a.Has("issue_number") {
			a["source"] = "fix"
		}
	case "state-setup-substatement":
		a["sub_statements"] = []skill.SubStatement{{Claim: a.Str("claim"), Premises: nonNil(a.List("premises"))}}
		delete(a, "claim")
		delete(a, "premises")
	}
	for _, p := range ch.Skill.Params {
		if p.Kind == skill.ParamStrings || p.Kind == skill.ParamIDs {
			if s, ok := a[p.Name].(string); ok {
				a[p.Name] = []string{s}
			}
		}
	}
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// sentenceUnderCursor is the number and text of the sentence the cursor is on.
func (m changer) sentenceUnderCursor() (int, string) {
	st := m.reader().selectedStatement()
	if st == nil {
		return 0, ""
	}
	sents := model.SplitSentences(proofText(st))
	if m.detail.sel.sentence < 0 || m.detail.sel.sentence >= len(sents) {
		return 0, ""
	}
	return m.detail.sel.sentence + 1, model.NormalizeSpace(sents[m.detail.sel.sentence].Text)
}

// editProof opens $EDITOR on the proof, like git commit; the rest of the change is
// asked for when the editor exits.
func (m changer) editProof(sk, id, version string) tea.Cmd {
	st := m.shown.snap.Statements.Get(id)
	// The proof (a lean statement's is read from its file), the temporary file and the
	// edited text are read and written outside Update: in this command and in the
	// callback that runs when the editor exits.
	argv := dialog.EditorArgv(m.env.opts.Editor)
	return func() tea.Msg {
		orig := ""
		if st != nil {
			var err error
			if orig, err = st.Proof.Text(); err != nil {
				return editorDoneMsg{err: fmt.Errorf("cannot read the proof to edit: %w", err), skill: sk, target: id, version: version}
			}
		}
		text := orig
		if sk == "state-complete-proof" && text == "" {
			text = "We prove the claim directly.\n\nStep 1: …\n\nQED."
		}
		f, err := os.CreateTemp("", "referee-"+id+"-proof-*.md")
		if err != nil {
			return editorDoneMsg{err: fmt.Errorf("cannot open an editor: %w", err), skill: sk, target: id, version: version}
		}
		_, werr := f.WriteString(text)
		if cerr := f.Close(); werr == nil {
			werr = cerr
		}
		path := f.Name()
		if werr != nil {
			_ = os.Remove(path)
			return editorDoneMsg{err: fmt.Errorf("cannot write the proof for the editor: %w", werr), skill: sk, target: id, version: version}
		}
		c := exec.Command(argv[0], append(argv[1:], path)...)
		return tea.ExecProcess(c, func(err error) tea.Msg {
			data, rerr := os.ReadFile(path)
			_ = os.Remove(path)
			if err == nil && rerr != nil {
				err = fmt.Errorf("cannot read the edited proof: %w", rerr)
			}
			return editorDoneMsg{text: string(data), orig: orig, err: err, skill: sk, target: id, version: version}
		})()
	}
}

// editorDone continues a proof change after the editor exits.
func (m changer) editorDone(msg editorDoneMsg) tea.Cmd {
	if msg.err != nil {
		m.showError("the editor failed; nothing was written", msg.err.Error())
		return nil
	}
	proof := strings.TrimRight(msg.text, "\n")
	if strings.TrimSpace(proof) == "" || proof == strings.TrimRight(msg.orig, "\n") {
		m.status.info("proof unchanged: nothing to write")
		return nil
	}
	sk, _ := skill.Lookup(msg.skill)
	ch := &dialog.Change{Skill: sk, Target: msg.target, Version: msg.version, Args: skill.Args{sk.Target: msg.target}, Seen: m.shown.snap.Statements.Get(msg.target)}
	pf := m.changer().prefillFor(sk, msg.target)
	about := pf.about
	if msg.skill == "fix-patch-proof" {
		ch.Args["updated_proof"] = proof
		about = fmt.Sprintf("The edited proof has %d sentences. Which issue does it answer, and what changed?", len(model.SplitSentences(proof)))
		if st := m.shown.snap.Statements.Get(msg.target); st != nil {
			if open := model.Unanswered(st.Issues, st.Responses); len(open) > 0 {
				pf.values = map[string]string{"issue_number": fmt.Sprint(open[0])}
			}
		}
	} else {
		ch.Args["proof_text"] = proof
	}
	pf.about = about
	return m.changer().openChangeForm(ch, m.changer().formFor(sk, msg.target, about, pf))
}

// openUndo asks to undo the last change of this session.
func (m changer) openUndo() tea.Cmd {
	last, ok := m.writes.Last()
	if !ok {
		m.status.error("cannot undo: no change was made in this session")
		return nil
	}
	return m.changer().openConfirm(&dialog.Change{Undo: last})
}

// openRedo asks to redo the last undo of this session: the undo is taken back, as a
// change of its own.
func (m changer) openRedo() tea.Cmd {
	last, ok := m.writes.LastUndo()
	if !ok {
		m.status.error("cannot redo: no undo was made in this session since the last change")
		return nil
	}
	return m.changer().openConfirm(&dialog.Change{Undo: last, Redo: true})
}

// redoDisabled is ctrl+r's disabled reason.
func (m changer) redoDisabled() string {
	if why := m.travel.ReadOnly(); why != "" {
		return why
	}
	if _, ok := m.writes.LastUndo(); !ok {
		return "cannot redo: no undo was made in this session since the last change"
	}
	return ""
}

// onWritten reports a change written: its ID, what it did; the folder is read again
// when it is not watched.
func (m changer) onWritten(msg writtenMsg) tea.Cmd {
	var back tea.Cmd
	if msg.ch.Rewind != nil && m.travel != nil {
		back = m.supervisor().exitTravel() // the folder now is what was shown
	}
	res := msg.res
	m.status.info(fmt.Sprintf("✓ %s %s by %s: %s", res.Change, msg.name, model.SanitizeLine(res.Actor), res.Objects()))
	if msg.quit {
		m.status.message = ""
	}
	if m.feed.src == nil {
		return tea.Batch(back, m.loader().reloadAll())
	}
	return back
}

// onWriteFailed says why nothing was written; a conflict reopens the change's form.
func (m changer) onWriteFailed(msg writeFailedMsg) tea.Cmd {
	var ce *store.ConflictError
	if errors.As(msg.err, &ce) {
		return tea.Batch(m.changer().reopenAfterConflict(msg.ch, ce.Object), m.loader().reloadAll())
	}
	m.showError(msg.name+" failed, nothing was written", reason(msg.err))
	return nil
}
