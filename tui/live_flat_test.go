package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"referee/live"
	"referee/store"
)

// A frame whose tree has a new shape (a statement relinked) comes with the tree pane's
// rows under its folds already made, off the UI goroutine: Tree.SetForest finds them.
func TestNewShapeIsFlattenedBeforeTheFrameComes(t *testing.T) {
	m, dir := newTestModel(t, 120, 40)
	src, err := live.Watch(dir, store.WatchOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = src.Close() })
	<-src.Ready()
	m.feed.src = src
	head := m.feed.head
	cmd := m.feed.listen()
	msgs := make(chan tea.Msg, 1)
	go func() { msgs <- cmd() }()
	p := filepath.Join(dir, "statement/s-004.json")
	text := readFile(t, p)
	if !strings.Contains(text, `"preliminaries": []`) {
		t.Fatal("s-004 has no empty preliminaries")
	}
	if err := os.WriteFile(p, []byte(strings.Replace(text, `"preliminaries": []`, `"preliminaries": ["s-017"]`, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	var fr live.Frame
	select {
	case msg := <-msgs:
		fr = msg.(live.Frame)
	case <-time.After(5 * time.Second):
		t.Fatal("no frame within 5 s")
	}
	if fr.Forest == nil || fr.Forest.SameShape(head) {
		t.Fatal("the relinking write did not give a tree of a new shape")
	}
	if !fr.Forest.Flattened(m.tree.folds) {
		t.Error("the new tree's rows were left for the UI goroutine to make")
	}
}
