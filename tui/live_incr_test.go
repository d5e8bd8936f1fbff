package tui

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"referee/live"
	"referee/model"
)

// rewrite replaces old by new in a file of the folder and reads it again as the live
// room does for the watcher's batch, from the head of the model's reload chain.
func rewrite(t *testing.T, m *Model, dir, rel, old, new string) live.Frame {
	t.Helper()
	p := filepath.Join(dir, rel)
	text := readFile(t, p)
	if !strings.Contains(text, old) {
		t.Fatalf("%s has no %q", rel, old)
	}
	if err := os.WriteFile(p, []byte(strings.Replace(text, old, new, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	return live.Reload(dir, m.feed.head, []string{rel})
}

// A status write (s-014 confirmed, which sends s-012, with its proof, to the checker) is applied
// without deriving the folder again: the tree keeps its shape and its rows (not
// flattened again), the cursor and the folds stay, and the screen is the one a full
// derivation gives.
func TestStatusWriteKeepsTheTreeShape(t *testing.T) {
	m, dir := newTestModel(t, 120, 40)
	keys(t, m, "/")
	typeText(t, m, "s-014")
	keys(t, m, "enter", "esc")
	m.tree.SetOpen("@p-003", false)
	cursor, rows, before := m.tree.Cursor(), m.tree.Rows(), screen(m)

	fr := rewrite(t, m, dir, "statement/s-014.json", `"validating"`, `"true"`)
	g, f := fr.Graph, fr.Forest
	wantG, wantF := live.Derive(fr.Snap)
	if !f.SameShape(m.shown.forest) {
		t.Fatal("a status write rebuilt the tree")
	}
	if !reflect.DeepEqual(g.Plain(), wantG.Plain()) {
		t.Fatal("the updated graph is not the derived one")
	}
	if g.Next.Get("s-012") != model.AgentCheck || m.shown.g.Next.Get("s-012") != "" {
		t.Fatalf("s-012 next: %q, was %q", g.Next.Get("s-012"), m.shown.g.Next.Get("s-012"))
	}
	send(t, m, fr)
	if got := m.tree.Rows(); &got[0] != &rows[0] || !reflect.DeepEqual(got, wantF.Flatten(m.tree.folds)) {
		t.Fatal("the rows were flattened again, or differ from the derived tree's")
	}
	if m.tree.Cursor() != cursor || m.tree.IsOpen("@p-003") {
		t.Fatalf("cursor %q (was %q), p-002/p-003 open %v", m.tree.Cursor(), cursor, m.tree.IsOpen("@p-003"))
	}
	incremental := screen(m)
	if incremental == before {
		t.Fatal("the screen does not show the write")
	}
	send(t, m, live.Frame{Snap: fr.Snap, Graph: wantG, Forest: wantF})
	if full := screen(m); full != incremental {
		t.Fatalf("the screen differs from a full derivation's:\n%s\nfull:\n%s", incremental, full)
	}
}

// A write that adds a sub-statement changes the links: the tree is rebuilt, as derive
// builds it.
func TestRelinkingWriteRebuildsTheTree(t *testing.T) {
	m, dir := newTestModel(t, 120, 40)
	fr := rewrite(t, m, dir, "statement/s-004.json", `"preliminaries": []`, `"preliminaries": ["s-017"]`)
	g, f := fr.Graph, fr.Forest
	wantG, wantF := live.Derive(fr.Snap)
	if f.SameShape(m.shown.forest) || !reflect.DeepEqual(g.Plain(), wantG.Plain()) || !reflect.DeepEqual(f, wantF) {
		t.Fatal("a new sub-statement kept the old tree, or built another than derive")
	}
}

// The reload chain derives from the tree of the snapshot it reloads: the one shown, or
// while paused the one waiting.
func TestReloadChainDerivesFromTheLatestTree(t *testing.T) {
	m, dir := newTestModel(t, 120, 40)
	if m.feed.head != m.shown.forest || m.feed.latest != m.shown.snap {
		t.Fatal("the shown tree is not the chain's")
	}
	keys(t, m, "p")
	fr := rewrite(t, m, dir, "statement/s-017.json", `"pending"`, `"abandoned"`)
	f := fr.Forest
	send(t, m, fr)
	if m.shown.forest == f || m.feed.head != f || m.feed.latest != fr.Snap {
		t.Fatal("while paused the chain does not go on from the waiting tree")
	}
	if _, again := live.DeriveFrom(f, fr.Snap, nil); again != f {
		t.Fatal("the same snapshot was derived again")
	}
}

// The graveyard and the review queue are kept from one snapshot's extras to the next
// (model.Graves, model.ReviewQueue) and are, write after write, what full passes give:
// a statement refuted, one given up and brought back, one confirmed (which sends its
// parent to the checker).
func TestExtrasFollowTheWrites(t *testing.T) {
	m, dir := newTestModel(t, 120, 40)
	if ex := m.bg.extras.shown; ex == nil || len(ex.graves) != 2 {
		t.Fatalf("extras at opening: %+v", ex)
	}
	for i, w := range []struct{ rel, old, new string }{
		{"statement/s-015.json", `"validating"`, `"false"`},
		{"statement/s-013.json", `"abandoned"`, `"pending"`},
		{"statement/s-014.json", `"validating"`, `"true"`},
		{"statement/s-013.json", `"pending"`, `"abandoned"`},
	} {
		send(t, m, rewrite(t, m, dir, w.rel, w.old, w.new))
		ex := m.bg.extras.shown
		if ex == nil || ex.snap != m.shown.snap {
			t.Fatalf("write %d: the extras were not built for the shown snapshot", i)
		}
		if want := model.Graveyard(m.shown.snap, model.Derive(m.shown.snap)); !reflect.DeepEqual(ex.graves, want) {
			t.Fatalf("write %d: graves\n got %+v\nwant %+v", i, ex.graves, want)
		}
		if want := model.ReviewOrder(m.shown.snap, model.Derive(m.shown.snap)); !reflect.DeepEqual(ex.review, want) {
			t.Fatalf("write %d: review queue %v, want %v", i, ex.review, want)
		}
	}
	var ids []string
	for _, gr := range m.bg.extras.shown.graves {
		ids = append(ids, gr.ID)
	}
	if got := strings.Join(ids, " "); got != "s-004 s-013 s-015" {
		t.Fatalf("graves %s", got)
	}
}
