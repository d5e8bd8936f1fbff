package tui

import (
	"strings"
	"testing"
	"time"
	"unsafe"

	tea "charm.land/bubbletea/v2"

	"referee/live"
	"referee/model/similar"
	"referee/themes"
)

// A box, a row of columns and a fitted line drawn with what was kept of the last
// drawing are byte for byte those drawn afresh, whatever changed in between: a body
// line, the width, the height, the focus, the title, the styles.
func TestDrawingMemosAreTheFreshDrawing(t *testing.T) {
	dark, light := newTestStyles(), themes.New(themes.Light())
	type step struct {
		st      *themes.Styles
		title   string
		body    []string
		w, h    int
		focused bool
	}
	steps := []step{
		{dark, "Tree", []string{"one", "two", "three"}, 20, 6, true},
		{dark, "Tree", []string{"one", "two", "three"}, 20, 6, true}, // all kept
		{dark, "Tree", []string{"one", "TWO", "three"}, 20, 6, true},
		{dark, "Tree · 3 rows", []string{"one", "TWO", "three"}, 20, 6, true},
		{dark, "Tree · 3 rows", []string{"one", "TWO", "three"}, 20, 6, false},
		{dark, "Tree · 3 rows", []string{"one", "TWO", "three"}, 14, 6, false},
		{dark, "Tree · 3 rows", []string{"one", "TWO", "three"}, 14, 4, false},
		{dark, "Tree · 3 rows", []string{"one", "TWO", "three", "four", "five"}, 14, 8, false},
		{dark, "Tree · 3 rows", []string{"one"}, 14, 8, false},
		{light, "Tree · 3 rows", []string{"one"}, 14, 8, false},
		{light, "", []string{"a line much wider than the box is", "\x1b[31mred\x1b[m"}, 14, 8, false},
		{light, "", []string{"x"}, 1, 8, false},
		{light, "", []string{"x"}, 14, 1, false},
		{light, "", []string{"x"}, 14, 5, true},
	}
	var b boxMemo
	var j joinMemo
	var f fitMemo
	for i, s := range steps {
		got := strings.Join(b.lines(s.st, s.title, s.body, s.w, s.h, s.focused), "\n")
		want := box(s.st, s.title, strings.Join(s.body, "\n"), s.w, s.h, s.focused)
		if got != want {
			t.Fatalf("step %d: the kept box\n%s\nis not the fresh one\n%s", i, got, want)
		}
		// The box beside a column of the body lines (a shorter block: its rows are
		// joined each time), then the box alone.
		for _, other := range [][]string{s.body, nil} {
			lines := strings.Split(want, "\n")
			got := strings.Join(j.columns(lines, other), "\n")
			want := strings.Join((*joinMemo)(nil).columns(lines, other), "\n")
			var sb []string
			for r, l := range lines {
				if r < len(other) {
					l += other[r]
				}
				sb = append(sb, l)
			}
			if got != want || got != strings.Join(sb, "\n") {
				t.Fatalf("step %d: the kept rows\n%q\nare not the fresh ones\n%q", i, got, want)
			}
		}
		for k, l := range s.body {
			if got, want := f.fit(k, l, s.w), fitWidth(l, s.w); got != want {
				t.Fatalf("step %d: line %d fitted to %d as %q, want %q", i, k, s.w, got, want)
			}
		}
	}
}

// A workbench's screen drawn with what it kept of the drawings before is the screen
// drawn afresh, and shows each change of what a pane shows: the cursor, the focus, the
// size, the zoom, the others' markers, a flash, a new frame, the styles, the detail's
// scroll, the side pane, a message.
func TestDrawingShowsEveryChange(t *testing.T) {
	m, dir := newTestModel(t, 120, 20)
	fresh := func() string {
		drawn, rows, fitted := m.drawn, m.tree.drawn, m.detail.fitted
		m.drawn, m.tree.drawn, m.detail.fitted = nil, nil, fitMemo{}
		defer func() { m.drawn, m.tree.drawn, m.detail.fitted = drawn, rows, fitted }()
		return m.Render()
	}
	visible := func(i int) string { return m.tree.Rows()[m.tree.offset+i].ID }
	for _, c := range []struct {
		name   string
		change func()
	}{
		{"the cursor", func() { keys(t, m, "j") }},
		{"the focus", func() { keys(t, m, "tab") }},
		{"the detail's scroll", func() { keys(t, m, "j", "j", "j") }},
		{"the focus back", func() { keys(t, m, "tab") }},
		{"an other's marker", func() { m.others = []Presence{{Name: "bob", At: visible(3)}} }},
		{"the marker's move", func() { m.others = []Presence{{Name: "bob", At: visible(4)}} }},
		{"a second marker", func() { m.others = append(m.others, Presence{Name: "bea", At: visible(4)}) }},
		{"a flash", func() { m.status.flash = map[string]time.Time{visible(3): fixedNow} }},
		{"a frame", func() {
			send(t, m, rewrite(t, m, dir, "statement/s-014.json", `"validating"`, `"true"`))
		}},
		{"the styles", func() { m.look.st = themes.New(themes.Light()) }},
		{"the size", func() { send(t, m, tea.WindowSizeMsg{Width: 100, Height: 30}) }},
		{"the zoom", func() { keys(t, m, "z") }},
		{"the zoom back", func() { keys(t, m, "z") }},
		{"the side pane", func() { keys(t, m, "a") }},
		{"a message", func() { m.status.message = "something went wrong" }},
		{"the size again", func() { send(t, m, tea.WindowSizeMsg{Width: 120, Height: 40}) }},
	} {
		before := m.Render()
		c.change()
		got := m.Render()
		if want := fresh(); got != want {
			t.Fatalf("after %s, the screen drawn with what was kept:\n%s\nthe screen drawn afresh:\n%s", c.name, got, want)
		}
		if got == before {
			t.Fatalf("%s did not change the screen:\n%s", c.name, got)
		}
	}
}

// New extras rebuild the detail when what it reads of them changed (the re-treads of
// the statement shown, the claims the similar statements were found among, a side
// pane shown) and leave it as it is when nothing did.
func TestExtrasRebuildTheDetailWhenWhatItReadsChanged(t *testing.T) {
	m, _ := newTestModel(t, 120, 40)
	keys(t, m, "j")
	ex := m.bg.extras.shown
	r, ok := m.tree.Selected()
	if ex == nil || !ok || r.Kind != live.RowStatement {
		t.Fatalf("extras %v, selected %+v", ex != nil, r)
	}
	same := *ex
	if !m.supervisor().sameForDetail(ex, &same) {
		t.Fatal("the same extras would rebuild the detail")
	}
	claims := *ex
	claims.claims++
	retread := *ex
	retread.retreads = map[string][]similar.Retread{r.ID: {{ID: r.ID, Of: "s-001", OfStatus: "false", Score: 0.93}}}
	for name, other := range map[string]*extras{"new claims": &claims, "a re-tread": &retread} {
		if m.supervisor().sameForDetail(ex, other) {
			t.Errorf("%s would not rebuild the detail", name)
		}
	}
	m.lay.side = sideGraveyard
	if m.supervisor().sameForDetail(ex, &same) {
		t.Error("with the graveyard shown, new extras would not rebuild it")
	}
	m.lay.side = sideDetail
	send(t, m, extrasMsg{ex: &same})
	if strings.Contains(screen(m), "repeats s-001") {
		t.Fatal("a re-tread shown before there is one")
	}
	send(t, m, extrasMsg{ex: &retread})
	if !strings.Contains(screen(m), "≈ this claim repeats s-001, which is false (similarity 0.93)") {
		t.Fatalf("the re-tread is not shown:\n%s", screen(m))
	}
}

// A screen drawn again with nothing changed is the text drawn last, not a new copy of
// it; a change draws a new one.
func TestDrawingKeepsTheScreenWhileNothingChanged(t *testing.T) {
	m, _ := newTestModel(t, 120, 20)
	first := m.Render()
	again := m.Render()
	if again != first || unsafe.StringData(again) != unsafe.StringData(first) {
		t.Fatal("the same screen was joined again")
	}
	keys(t, m, "j")
	moved := m.Render()
	if moved == first || unsafe.StringData(moved) == unsafe.StringData(first) {
		t.Fatal("the cursor's move drew the screen before it")
	}
}
