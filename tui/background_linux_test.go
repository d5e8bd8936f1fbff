package tui

import (
	"os"
	"path/filepath"
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
