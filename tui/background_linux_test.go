package tui

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"referee/live"
	"referee/store"
)

// niceOfThisThread is the calling thread's nice value (Linux's getpriority gives 20 −
// nice).
func niceOfThisThread(t *testing.T) int {
	p, err := syscall.Getpriority(syscall.PRIO_PROCESS, syscall.Gettid())
	if err != nil {
		t.Fatal(err)
	}
	return 20 - p
}

// A batch of the workbench's own watcher is read and derived on a thread of lower
// priority (inBackground, as the extras are), not on the command's goroutine at the
// priority the keys' frames have; the wait for the batch is not on that thread.
func TestOwnBatchesAreReadAtLowerPriority(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, store.StatementDir), 0o755); err != nil {
		t.Fatal(err)
	}
	src, err := live.Watch(dir, store.WatchOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = src.Close() })
	<-src.Ready()
	nice := make(chan int, 1)
	was := applyBatch
	applyBatch = func(*live.Feed, *live.Forest, store.Batch) live.Frame {
		nice <- niceOfThisThread(t)
		return live.Frame{}
	}
	t.Cleanup(func() { applyBatch = was })

	fd := &feed{src: src}
	msgs := make(chan tea.Msg, 1)
	cmd := fd.listen()
	go func() { msgs <- cmd() }()
	select {
	case <-nice:
		t.Fatal("a batch was read before the folder changed")
	case <-time.After(100 * time.Millisecond):
	}
	if err := os.WriteFile(filepath.Join(dir, store.StatementDir, "s-001.json"), []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	select {
	case n := <-nice:
		if n < 10 {
			t.Errorf("the batch was read at nice %d, want 10 or lower priority", n)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the batch was not read within 5 s")
	}
	if _, ok := (<-msgs).(live.Frame); !ok {
		t.Error("listen's command did not return a frame")
	}
}

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
