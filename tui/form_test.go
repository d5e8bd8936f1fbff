package tui

import (
	"path/filepath"
	"strings"
	"testing"

	"referee/model"
	"referee/skill"
)

// TestRejectFormKeepsNumberAndQuoteInStep: a new number quotes its sentence; a quote
// of another sentence moves the number; a quote of none is warned about.
func TestRejectFormKeepsNumberAndQuoteInStep(t *testing.T) {
	m, _ := newTestModel(t, 120, 40)
	keys(t, m, "n", "]", "R")
	f := m.dlg.form
	if f == nil {
		t.Fatalf("R did not open a form: %q", m.status.message)
	}
	sents := model.SplitSentences(proofText(m.shown.snap.Statements.Get("s-014")))
	f.FocusField(0)
	keys(t, m, "backspace", "4")
	if got := f.Value("sentence_text"); got != model.NormalizeSpace(sents[3].Text) {
		t.Fatalf("number 4 quotes %q", got)
	}
	// Type the quote of sentence 1 into the quote field: the number follows.
	f.FocusField(1)
	f.SetValue("sentence_text", "")
	typeText(t, m, model.NormalizeSpace(sents[0].Text))
	if got := f.Value("sentence_number"); got != "1" {
		t.Fatalf("quoting sentence 1 left the number at %q", got)
	}
	f.SetValue("sentence_text", "")
	typeText(t, m, "words nobody wrote")
	if !strings.Contains(f.Warn, "not in sentence 1 nor in any other sentence") {
		t.Fatalf("a quote of no sentence: warning %q", f.Warn)
	}
	if !strings.Contains(screen(m), "⚠ the quote is not in sentence 1") {
		t.Fatalf("the warning is not on screen:\n%s", screen(m))
	}
}

// TestFormsComeFromTheRegistry: every skill with a form asks for each of its
// parameters (but the target and what the workbench fills itself), by the registry's
// kind and help.
func TestFormsComeFromTheRegistry(t *testing.T) {
	m, _ := newTestModel(t, 120, 40)
	for _, s := range skill.Skills {
		pf := m.changer().prefillFor(s, "s-014")
		if pf.direct {
			continue
		}
		f := m.changer().formFor(s, "s-014", s.Summary, pf)
		for _, p := range s.Params {
			if p.Name == s.Target || pf.hidden[p.Name] || p.Kind == skill.ParamSubStatements {
				continue
			}
			kind, label, ok := f.FieldKind(p.Name)
			if !ok {
				t.Errorf("%s: no field for %s", s.Name, p.Name)
				continue
			}
			want := "text"
			switch {
			case len(p.Enum) > 0:
				want = "choice"
			case p.Kind == skill.ParamInt:
				want = "number"
			case p.Kind == skill.ParamStrings || p.Kind == skill.ParamIDs:
				want = "list"
			case p.Long:
				want = "long"
			}
			if kind != want || !strings.EqualFold(label, p.Help) && p.Help != "" {
				t.Errorf("%s %s: field kind %s label %q, want kind %s label %q", s.Name, p.Name, kind, label, want, p.Help)
			}
		}
	}
}

// TestDecideAProposedModification: s-016's last note proposes a modification; H shows it
// whole (math readable, distinct keys), a accepts it as one change (a new statement
// where s-016 stood, s-016 settled), the confirmation says what that does to the run,
// and H again says who decided it and when.
func TestDecideAProposedModification(t *testing.T) {
	m, dir := newTestModel(t, 120, 40)
	keys(t, m, "/")
	typeText(t, m, "s-016")
	keys(t, m, "enter")
	m.status.message = ""
	if got := statusLine(m, 1); !strings.Contains(got, "H decide") {
		t.Fatalf("the footer does not offer the decision: %q", got)
	}
	keys(t, m, "H")
	if m.dlg.decide == nil {
		t.Fatalf("H did not open the decision: %q", m.status.message)
	}
	scr := screen(m)
	for _, want := range []string{"decide s-016's proposed modification", "the proposed claim", "The sum ∑ₖ₌₁ⁿ k³ is odd",
		"n ≡ 1 (mod 4) or n ≡ 2 (mod 4)", "a accept: a new pending statement", "f reject, the claim is false",
		"x reject, the claim is no longer needed", "no skill sends a statement back"} {
		if !strings.Contains(scr, want) {
			t.Fatalf("the decision lacks %q:\n%s", want, scr)
		}
	}
	if body := strings.Join(m.dlg.decide.View(m.common()), "\n"); strings.Contains(body, "$") {
		t.Fatalf("the proposal shows raw math:\n%s", body)
	}
	keys(t, m, "a")
	if m.dlg.form == nil || m.dlg.form.Change.Skill.Name != "decide-modification" || m.dlg.form.Change.Target != "s-016" {
		t.Fatalf("accept did not open decide-modification on s-016: form %v, %q", m.dlg.form != nil, m.status.message)
	}
	for name, want := range map[string]string{"decision": "accept", "parent_id": "p-002", "claim": "The sum $\\sum_{k=1}^n k^3$ is odd"} {
		if got := m.dlg.form.Value(name); got != want {
			t.Fatalf("%s prefilled %q, want %q", name, got, want)
		}
	}
	keys(t, m, "ctrl+s")
	if m.dlg.confirm == nil || m.dlg.confirm.Problem() != "" {
		t.Fatalf("accepting does not check out: %+v", m.dlg.confirm)
	}
	scr = screen(m)
	for _, want := range []string{"new statement s-018 (pending)", "s-016 awaiting check (validating), next agent-check → abandoned",
		"s-018 new: needs proof (pending), next agent-prove", "next: the orchestrator would"} {
		if !strings.Contains(scr, want) {
			t.Fatalf("the confirmation lacks %q:\n%s", want, scr)
		}
	}
	keys(t, m, "y")
	if !strings.Contains(readFile(t, filepath.Join(dir, "statement/s-016.json")), "replaced by s-018") {
		t.Fatalf("the decision was not written: %q", m.status.message)
	}
	keys(t, m, "H")
	if m.dlg.decide != nil || !strings.Contains(m.status.message, "already decided by human at") || !strings.Contains(m.status.message, "decide-modification") {
		t.Fatalf("H on a decided proposal: dialog %v, message %q", m.dlg.decide != nil, m.status.message)
	}
}

// TestEscKeepsTheDraft: esc closes R's form; R again on the same statement brings back
// what was typed; an untouched form is not kept.
func TestEscKeepsTheDraft(t *testing.T) {
	m, _ := newTestModel(t, 120, 40)
	keys(t, m, "n", "R", "esc")
	if len(m.dlg.drafts) != 0 || m.status.message != "cancelled: nothing was written" {
		t.Fatalf("an untouched form was kept: %v, %q", m.dlg.drafts, m.status.message)
	}
	keys(t, m, "R")
	typeText(t, m, "The identity is asserted")
	keys(t, m, "esc")
	if !strings.Contains(m.status.message, "R again on s-014 brings the draft back") {
		t.Fatalf("message %q", m.status.message)
	}
	keys(t, m, "tab", "j", "tab", "R")
	if m.dlg.form == nil || m.dlg.form.Value("explanation") != "The identity is asserted" {
		t.Fatalf("the draft did not come back")
	}
	if !strings.Contains(screen(m), "Your draft, as you left it") {
		t.Fatalf("the form does not say it is the draft:\n%s", screen(m))
	}
}
