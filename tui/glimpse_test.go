package tui

import (
	"runtime/debug"
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// A folder whose tree is longer than a screen shows a glimpse of it before the load's
// frame: the tree pane holds the tree's first rows as the loaded tree draws them but
// for what needs the whole folder (★, stale, shared), the detail pane the load's
// progress, the status bar "loading". Keys pressed over it wait and then move the
// loaded tree's cursor, in order.
func TestGlimpseShowsTheTreesTopWhileLoading(t *testing.T) {
	dir := longTreeFolder(t)
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	m := openModel(t, dir, Options{NoWatch: true}, 120, 40)
	load, glimpse := m.loader().loadCmd()
	loaded := make(chan any, 1)
	go func() { loaded <- load() }()
	msg, ok := glimpse().(glimpseMsg)
	if !ok {
		t.Fatalf("no glimpse of a tree of %d statements", 400)
	}
	m.Update(msg)
	screen := strings.Split(ansi.Strip(m.Render()), "\n")
	// The load's ticks redraw the frame (its progress), not the glimpse's rows.
	drawn := &m.feed.loading.glimpseDrawn.lines[0]
	m.feed.loading.done = 17
	m.Update(loadTickMsg{})
	if m.Render(); &m.feed.loading.glimpseDrawn.lines[0] != drawn {
		t.Fatal("the glimpse's rows were drawn again for a tick")
	}
	for _, k := range []string{"j", "j", "l", "j"} {
		m.Update(keyMsg(k))
	}
	// The load went on meanwhile; the model has not seen it. Its collector stays off
	// until the whole tree: a test that stops before must turn it on.
	lm := (<-loaded).(loadedMsg)
	t.Cleanup(func() {
		if lm.resume != nil {
			lm.resume()
		}
	})
	want := openTestModel(t, dir, 120, 40)
	whole := strings.Split(ansi.Strip(want.Render()), "\n")
	// Row by row the same status and ID: the glimpse is the tree's start.
	rows := 0
	for i := 1; i < 38; i++ {
		got, exp := treeCell(screen[i]), treeCell(whole[i])
		if headOf(got) != headOf(exp) {
			t.Fatalf("row %d: glimpse %q, loaded %q\n%s", i, got, exp, strings.Join(screen, "\n"))
		}
		if strings.Contains(got, "★") || strings.Contains(got, "stale") || strings.Contains(got, "⇉") {
			t.Fatalf("row %d marks what needs the whole folder: %q", i, got)
		}
		if headOf(got) != "" {
			rows++
		}
	}
	if rows < 30 || !strings.Contains(strings.Join(whole, "\n"), "★") {
		t.Fatalf("%d rows; the case shows no ★ to leave out:\n%s", rows, strings.Join(whole, "\n"))
	}
	if got := screenLine(t, m, "loading "); !strings.HasPrefix(got, "loading contents/ … ") {
		t.Fatalf("the detail pane says %q", got)
	}
	if !strings.Contains(screen[38], "◌ loading") {
		t.Fatalf("status bar %q", screen[38])
	}
	if len(m.feed.held) != 4 {
		t.Fatalf("%d keys held over the glimpse", len(m.feed.held))
	}
	send(t, m, lm)
	keys(t, want, "j", "j", "l", "j")
	if m.feed.loading != nil || len(m.feed.held) != 0 || m.tree.Cursor() != want.tree.Cursor() || !slices.Equal(m.tree.Rows(), want.tree.Rows()) {
		t.Fatalf("after the load: cursor %s, want %s; %d keys held", m.tree.Cursor(), want.tree.Cursor(), len(m.feed.held))
	}
}

// treeCell is the tree pane's part of a screen line.
func treeCell(line string) string {
	cells := strings.Split(line, "│")
	if len(cells) < 2 {
		return ""
	}
	return cells[1]
}

// headOf is a tree row up to its ID (fold, status glyph, ID): what a glimpse shows as
// the loaded tree does. The status word is left out: a row drops it to make room for
// its marks, and the glimpse has fewer.
func headOf(row string) string {
	var head []string
	for _, w := range strings.Fields(row) {
		if strings.Trim(w, "abcdefghijklmnopqrstuvwxyz") == "" {
			continue // the status word
		}
		head = append(head, w)
		if strings.HasPrefix(w, "p-") || strings.HasPrefix(w, "s-") {
			break
		}
	}
	return strings.Join(head, " ")
}
