package tui

import (
	"reflect"
	"testing"

	"referee/views"
)

// A snapshot that changes nothing a problem's detail shows keeps the laid-out doc (it
// listed up to a few hundred references, laid out again on every snapshot); one that
// changes a statement it lists lays it out again, as a fresh layout would. Moving the
// cursor away and back takes the kept doc too.
func TestProblemDetailLaidOutOnlyWhenWhatItShowsChanged(t *testing.T) {
	m, dir := newTestModel(t, 120, 40)
	if r, _ := m.tree.Selected(); r.ID != "p-001" {
		t.Fatalf("the cursor starts on %s, not p-001", r.ID)
	}
	fresh := func() views.Doc {
		state := views.DetailState{Sentence: m.detail.sel.sentence, Issue: m.detail.sel.issue, Link: m.detail.sel.link, Broken: m.shown.snap.Broken, Math: m.look.math}
		return views.ProblemDetail(m.look.st, m.shown.snap, m.shown.g, "p-001", state, m.detail.width)
	}
	before := m.detail.doc.Lines

	// s-014 is not among p-001's references.
	send(t, m, rewrite(t, m, dir, "statement/s-014.json", `"validating"`, `"true"`))
	if got := m.detail.doc.Lines; &got[0] != &before[0] {
		t.Fatal("a write to s-014, which p-001 does not list, laid p-001's detail out again")
	}
	if !reflect.DeepEqual(m.detail.doc.Lines, fresh().Lines) {
		t.Fatal("the kept detail differs from a fresh layout")
	}

	keys(t, m, "j", "k")
	if got := m.detail.doc.Lines; &got[0] != &before[0] {
		t.Fatal("coming back to p-001 laid its detail out again")
	}

	// s-004 is: its new status shows.
	send(t, m, rewrite(t, m, dir, "statement/s-004.json", `"status": "false"`, `"status": "abandoned"`))
	got := m.detail.doc.Lines
	if &got[0] == &before[0] {
		t.Fatal("a write to s-004, which p-001 lists, kept the old detail")
	}
	if want := fresh().Lines; !reflect.DeepEqual(got, want) || reflect.DeepEqual(got, before) {
		t.Fatalf("after s-004's write the detail is not the fresh layout, or did not change:\n%q\n%q", got, want)
	}
}
