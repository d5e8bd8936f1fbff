package tui

import (
	"strings"
	"testing"

	"referee/model"
	"referee/store"
)

// TestRejectFormKeepsNumberAndQuoteInStep: a new number quotes its sentence; a quote
// of another sentence moves the number; a quote of none is warned about.
func TestRejectFormKeepsNumberAndQuoteInStep(t *testing.T) {
	m, _ := newTestModel(t, 120, 40)
	keys(t, m, "n", "]", "R")
	f := m.form
	if f == nil {
		t.Fatalf("R did not open a form: %q", m.message)
	}
	sents := model.SplitSentences(proofText(m.snap.Statements["s-014"]))
	f.focus = 0
	f.focusCmd()
	keys(t, m, "backspace", "4")
	if got := f.Value("sentence_text"); got != model.NormalizeSpace(sents[3].Text) {
		t.Fatalf("number 4 quotes %q", got)
	}
	// Type the quote of sentence 1 into the quote field: the number follows.
	f.focus = 1
	f.focusCmd()
	f.SetValue("sentence_text", "")
	typeText(t, m, model.NormalizeSpace(sents[0].Text))
	if got := f.Value("sentence_number"); got != "1" {
		t.Fatalf("quoting sentence 1 left the number at %q", got)
	}
	f.SetValue("sentence_text", "")
	typeText(t, m, "words nobody wrote")
	if !strings.Contains(f.warn, "not in sentence 1 nor in any other sentence") {
		t.Fatalf("a quote of no sentence: warning %q", f.warn)
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
	for _, s := range store.Skills {
		pf := m.prefillFor(s, "s-014")
		if pf.direct {
			continue
		}
		f := m.formFor(s, "s-014", s.Summary, pf)
		for _, p := range s.Params {
			if p.Name == s.Target || pf.hidden[p.Name] || p.Kind == store.ParamSubStatements {
				continue
			}
			fl := f.field(p.Name)
			if fl == nil {
				t.Errorf("%s: no field for %s", s.Name, p.Name)
				continue
			}
			want := fieldText
			switch {
			case len(p.Enum) > 0:
				want = fieldChoice
			case p.Kind == store.ParamInt:
				want = fieldNumber
			case p.Kind == store.ParamStrings || p.Kind == store.ParamIDs:
				want = fieldList
			case p.Long:
				want = fieldLong
			}
			if fl.kind != want || !strings.EqualFold(fl.label, p.Help) && p.Help != "" {
				t.Errorf("%s %s: field kind %d label %q, want kind %d label %q", s.Name, p.Name, fl.kind, fl.label, want, p.Help)
			}
		}
	}
}
