package store

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/fsnotify/fsnotify"
)

// Timeouts here only bound how long a test waits for something that must happen; no
// test asserts how fast it happens.
const waitLong = 10 * time.Second

// watchTree makes a contents folder with the given subfolders and a config.json.
func watchTree(t *testing.T, subs ...string) string {
	t.Helper()
	root := filepath.Join(t.TempDir(), "contents")
	mustMkdir(t, root)
	for _, s := range subs {
		mustMkdir(t, filepath.Join(root, filepath.FromSlash(s)))
	}
	mustWrite(t, root, ConfigFile, `{"p": "p-001", "s": "s-001", "e": "e-000", "l": "l-001"}`)
	return root
}

func mustMkdir(t *testing.T, dir string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
}

func mustWrite(t *testing.T, root, rel, data string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(root, filepath.FromSlash(rel)), []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

func startWatch(t *testing.T, root string, opts WatchOptions) *Watcher {
	t.Helper()
	w, err := Watch(root, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close() })
	return w
}

// next waits for one batch.
func next(t *testing.T, w *Watcher) Batch {
	t.Helper()
	select {
	case b, ok := <-w.Batches():
		if !ok {
			t.Fatal("Batches closed")
		}
		return b
	case <-time.After(waitLong):
		t.Fatal("no batch")
	}
	return Batch{}
}

// until collects batches until done says their union is complete.
func until(t *testing.T, w *Watcher, done func(all Batch) bool) (batches []Batch, all Batch) {
	t.Helper()
	deadline := time.After(waitLong)
	for !done(all) {
		select {
		case b, ok := <-w.Batches():
			if !ok {
				t.Fatal("Batches closed")
			}
			batches = append(batches, b)
			all = all.Merge(b)
		case <-deadline:
			t.Fatalf("gave up waiting; got %d batches: %+v", len(batches), all)
		}
	}
	return batches, all
}

// noBatch checks nothing more arrives for a while (an absence check, not a speed one).
func noBatch(t *testing.T, w *Watcher, d time.Duration) {
	t.Helper()
	select {
	case b, ok := <-w.Batches():
		if ok {
			t.Fatalf("unexpected batch %+v", b)
		}
	case <-time.After(d):
	}
}

func has(b Batch, p string) bool { return slices.Contains(b.Paths, p) }

func TestWatchInPlaceWrite(t *testing.T) {
	root := watchTree(t, StatementDir)
	mustWrite(t, root, "statement/s-001.json", `{"id": "s-001"}`)
	w := startWatch(t, root, WatchOptions{Debounce: 300 * time.Millisecond, MaxDelay: time.Minute})

	// The agents' tools: truncate, then write in chunks.
	f, err := os.OpenFile(filepath.Join(root, "statement", "s-001.json"), os.O_WRONLY|os.O_TRUNC, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, chunk := range []string{"{\n    \"id\": ", "\"s-001\",\n    \"status\": ", "\"pending\"\n}"} {
		time.Sleep(10 * time.Millisecond)
		if _, err := f.WriteString(chunk); err != nil {
			t.Fatal(err)
		}
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}

	b := next(t, w)
	if !slices.Equal(b.Paths, []string{"statement/s-001.json"}) || b.Rescan || b.Err != nil {
		t.Fatalf("batch = %+v, want exactly statement/s-001.json", b)
	}
	noBatch(t, w, time.Second)
}

func TestWatchAtomicRename(t *testing.T) {
	root := watchTree(t, ProblemDir, StatementDir, HistoryDir)
	w := startWatch(t, root, WatchOptions{Debounce: 200 * time.Millisecond, MaxDelay: time.Minute})

	// Ours: ".<name>.tmp-<random>" renamed over the target; another writer's
	// "<name>.tmp-<n>"; and the lock file. Only the targets are reported.
	mustWrite(t, root, LockFile, "")
	mustWrite(t, root, "problem/.p-001.json.tmp-12345", `{"id": "p-001"}`)
	if err := os.Rename(filepath.Join(root, "problem/.p-001.json.tmp-12345"), filepath.Join(root, "problem/p-001.json")); err != nil {
		t.Fatal(err)
	}
	mustWrite(t, root, "statement/s-001.json.tmp-7", `{"id": "s-001"}`)
	if err := os.Rename(filepath.Join(root, "statement/s-001.json.tmp-7"), filepath.Join(root, "statement/s-001.json")); err != nil {
		t.Fatal(err)
	}

	want := []string{"problem/p-001.json", "statement/s-001.json"}
	_, all := until(t, w, func(all Batch) bool { return has(all, want[0]) && has(all, want[1]) })
	noBatch(t, w, 500*time.Millisecond)
	if !slices.Equal(all.Paths, want) || all.Rescan || all.Err != nil {
		t.Fatalf("got %+v, want exactly %v", all, want)
	}
}

func TestWatchManyFilesCoalesced(t *testing.T) {
	root := watchTree(t, ProblemDir, StatementDir, HistoryDir)
	w := startWatch(t, root, WatchOptions{Debounce: 50 * time.Millisecond, MaxDelay: 500 * time.Millisecond})

	var want []string
	for i := 1; i <= 300; i++ {
		rel := fmt.Sprintf("statement/s-%03d.json", i)
		if i%3 == 0 {
			rel = fmt.Sprintf("problem/p-%03d.json", i)
		}
		mustWrite(t, root, rel, fmt.Sprintf(`{"n": %d}`, i))
		want = append(want, rel)
	}
	mustWrite(t, root, LogFile, `{"l-002": {"creation": [], "modification": []}}`)
	want = append(want, LogFile)
	slices.Sort(want)

	batches, all := until(t, w, func(all Batch) bool { return len(all.Paths) >= len(want) })
	noBatch(t, w, 500*time.Millisecond)
	if !slices.Equal(all.Paths, want) || all.Rescan || all.Err != nil {
		t.Fatalf("union of %d batches has %d paths (rescan %v, err %v), want exactly the %d written",
			len(batches), len(all.Paths), all.Rescan, all.Err, len(want))
	}
	for _, b := range batches {
		if !slices.IsSorted(b.Paths) || len(slices.Compact(slices.Clone(b.Paths))) != len(b.Paths) {
			t.Fatalf("batch paths not sorted and unique: %v", b.Paths)
		}
	}
	if len(batches) > 30 {
		t.Fatalf("%d files came in %d batches; want them coalesced", len(want), len(batches))
	}
	t.Logf("%d files in %d batches", len(want), len(batches))
}

func TestWatchNewBackupFolder(t *testing.T) {
	root := watchTree(t, ProblemDir, StatementDir, HistoryDir)
	w := startWatch(t, root, WatchOptions{Debounce: 100 * time.Millisecond, Backups: true})

	// A change: backups into a new history/l-009/, then the log line.
	mustMkdir(t, filepath.Join(root, "history", "l-009"))
	mustWrite(t, root, "history/l-009/s-001.json", `{"id": "s-001"}`)
	mustWrite(t, root, "history/l-009/p-001.json", `{"id": "p-001"}`)
	mustWrite(t, root, LogFile, `{"l-009": {"creation": [], "modification": ["p-001", "s-001"]}}`)

	want := []string{"history/l-009/p-001.json", "history/l-009/s-001.json", LogFile}
	_, all := until(t, w, func(all Batch) bool { return has(all, want[0]) && has(all, want[1]) && has(all, want[2]) })
	noBatch(t, w, 300*time.Millisecond)
	if !slices.Equal(all.Paths, want) || all.Rescan || all.Err != nil {
		t.Fatalf("got %+v, want exactly %v", all, want)
	}

	// The new folder is watched from now on.
	mustWrite(t, root, "history/l-009/s-002.json", `{"id": "s-002"}`)
	b := next(t, w)
	if !slices.Equal(b.Paths, []string{"history/l-009/s-002.json"}) || b.Rescan {
		t.Fatalf("batch = %+v, want history/l-009/s-002.json", b)
	}
}

func TestWatchNewObjectFolderRescan(t *testing.T) {
	root := watchTree(t, ProblemDir, HistoryDir) // no statement/
	w := startWatch(t, root, WatchOptions{})

	mustMkdir(t, filepath.Join(root, StatementDir))
	mustWrite(t, root, "statement/s-001.json", `{"id": "s-001"}`)
	until(t, w, func(all Batch) bool { return all.Rescan })

	// And its files are watched from now on.
	mustWrite(t, root, "statement/s-002.json", `{"id": "s-002"}`)
	until(t, w, func(all Batch) bool { return has(all, "statement/s-002.json") })
}

func TestWatchFolderRemovedRescan(t *testing.T) {
	root := watchTree(t, ProblemDir, StatementDir, HistoryDir)
	w := startWatch(t, root, WatchOptions{})
	if err := os.RemoveAll(filepath.Join(root, StatementDir)); err != nil {
		t.Fatal(err)
	}
	until(t, w, func(all Batch) bool { return all.Rescan })
}

// writeUntilSeen rewrites rel until a batch reports it: after a recovery, the first
// writes may land before the watches are back (the recovery's Rescan covers those).
func writeUntilSeen(t *testing.T, w *Watcher, root, rel string) (all Batch) {
	t.Helper()
	deadline := time.After(waitLong)
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for i := 0; ; i++ {
		mustWrite(t, root, rel, fmt.Sprintf(`{"n": %d}`, i))
		select {
		case b, ok := <-w.Batches():
			if !ok {
				t.Fatal("Batches closed")
			}
			all = all.Merge(b)
			if has(b, rel) {
				return all
			}
		case <-tick.C:
		case <-deadline:
			t.Fatalf("%s never reported; got %+v", rel, all)
		}
	}
}

func TestWatchFolderDeletedAndRecreated(t *testing.T) {
	opts := WatchOptions{Debounce: 20 * time.Millisecond, Poll: 100 * time.Millisecond}

	t.Run("gone for a while", func(t *testing.T) {
		root := watchTree(t, ProblemDir, StatementDir, HistoryDir)
		mustWrite(t, root, "statement/s-001.json", `{}`)
		w := startWatch(t, root, opts)
		if err := os.RemoveAll(root); err != nil {
			t.Fatal(err)
		}
		_, all := until(t, w, func(all Batch) bool { return all.Err != nil })
		if !strings.Contains(all.Err.Error(), "gone") {
			t.Fatalf("err = %v, want the folder reported gone", all.Err)
		}
		mustMkdir(t, filepath.Join(root, StatementDir))
		mustMkdir(t, filepath.Join(root, HistoryDir))
		until(t, w, func(all Batch) bool { return all.Rescan && all.Err == nil })
		writeUntilSeen(t, w, root, "statement/s-002.json")
		writeUntilSeen(t, w, root, "config.json")
	})

	t.Run("recreated at once", func(t *testing.T) {
		root := watchTree(t, ProblemDir, StatementDir, HistoryDir)
		w := startWatch(t, root, opts)
		if err := os.RemoveAll(root); err != nil {
			t.Fatal(err)
		}
		mustMkdir(t, filepath.Join(root, StatementDir))
		until(t, w, func(all Batch) bool { return all.Rescan })
		writeUntilSeen(t, w, root, "statement/s-002.json")
	})

	t.Run("moved away and replaced", func(t *testing.T) {
		root := watchTree(t, ProblemDir, StatementDir, HistoryDir)
		w := startWatch(t, root, opts)
		if err := os.Rename(root, root+".old"); err != nil {
			t.Fatal(err)
		}
		mustMkdir(t, filepath.Join(root, StatementDir))
		until(t, w, func(all Batch) bool { return all.Rescan })
		// Writes in the old folder are not this folder's.
		mustWrite(t, root+".old", "statement/s-009.json", `{}`)
		all := writeUntilSeen(t, w, root, "statement/s-002.json")
		if has(all, "statement/s-009.json") {
			t.Fatalf("a write in the moved-away folder was reported: %+v", all)
		}
	})
}

func TestWatchMaxDelay(t *testing.T) {
	root := watchTree(t, StatementDir)
	// The folder never goes quiet for an hour: only MaxDelay can flush.
	w := startWatch(t, root, WatchOptions{Debounce: time.Hour, MaxDelay: 200 * time.Millisecond})
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			case <-time.After(10 * time.Millisecond):
				os.WriteFile(filepath.Join(root, "statement", "s-001.json"), fmt.Appendf(nil, `{"n": %d}`, i), 0o644)
			}
		}
	}()
	for range 2 {
		if b := next(t, w); !slices.Equal(b.Paths, []string{"statement/s-001.json"}) {
			t.Fatalf("batch = %+v", b)
		}
	}
}

func TestWatchSlowConsumerGetsOneMergedBatch(t *testing.T) {
	root := watchTree(t, ProblemDir, StatementDir)
	w := startWatch(t, root, WatchOptions{Debounce: 20 * time.Millisecond})
	waitMade := func(n int64) {
		t.Helper()
		deadline := time.Now().Add(waitLong)
		for w.made.Load() < n {
			if time.Now().After(deadline) {
				t.Fatalf("watcher made %d batches, want %d", w.made.Load(), n)
			}
			time.Sleep(5 * time.Millisecond)
		}
	}
	// Nobody receives: the second batch is merged into the first, the watcher goes on.
	mustWrite(t, root, "problem/p-001.json", `{}`)
	waitMade(1)
	mustWrite(t, root, "statement/s-001.json", `{}`)
	waitMade(2)
	b := next(t, w)
	if want := []string{"problem/p-001.json", "statement/s-001.json"}; !slices.Equal(b.Paths, want) {
		t.Fatalf("batch = %+v, want %v in one batch", b, want)
	}
	noBatch(t, w, 300*time.Millisecond)
}

func TestWatchPollingFallback(t *testing.T) {
	enospc := func(fail string) func(string) error {
		return func(rel string) error {
			if rel == fail {
				return syscall.ENOSPC
			}
			return nil
		}
	}
	checkErr := func(t *testing.T, err error) {
		t.Helper()
		if err == nil || !strings.Contains(err.Error(), "inotify watch limit reached; polling every 100ms") || !errors.Is(err, syscall.ENOSPC) {
			t.Fatalf("err = %v, want the watch limit reported", err)
		}
	}

	t.Run("at start", func(t *testing.T) {
		root := watchTree(t, ProblemDir, StatementDir, HistoryDir)
		mustWrite(t, root, "statement/s-001.json", `{}`)
		w := startWatch(t, root, WatchOptions{Poll: 100 * time.Millisecond, addHook: enospc(StatementDir), Backups: true})
		b := next(t, w)
		checkErr(t, b.Err)
		if len(b.Paths) != 0 || b.Rescan {
			t.Fatalf("first batch = %+v, want only the error", b)
		}

		mustWrite(t, root, "statement/s-001.json", `{"id": "s-001"}`)
		mustMkdir(t, filepath.Join(root, "history", "l-002"))
		mustWrite(t, root, "history/l-002/p-001.json", `{}`)
		mustWrite(t, root, "history/.referee.lock", ``)
		mustWrite(t, root, "problem/.p-002.json.tmp-1", ``)
		want := []string{"history/l-002/p-001.json", "statement/s-001.json"}
		_, all := until(t, w, func(all Batch) bool { return has(all, want[0]) && has(all, want[1]) })
		noBatch(t, w, 500*time.Millisecond)
		if !slices.Equal(all.Paths, want) || all.Rescan || all.Err != nil {
			t.Fatalf("got %+v, want exactly %v and the error only once", all, want)
		}

		if err := os.Remove(filepath.Join(root, "statement", "s-001.json")); err != nil {
			t.Fatal(err)
		}
		if b := next(t, w); !slices.Equal(b.Paths, []string{"statement/s-001.json"}) {
			t.Fatalf("removal: batch = %+v", b)
		}
		if err := os.RemoveAll(filepath.Join(root, StatementDir)); err != nil {
			t.Fatal(err)
		}
		until(t, w, func(all Batch) bool { return all.Rescan })
	})

	t.Run("on a new backup folder", func(t *testing.T) {
		root := watchTree(t, ProblemDir, StatementDir, HistoryDir)
		w := startWatch(t, root, WatchOptions{Poll: 100 * time.Millisecond, addHook: enospc("history/l-003"), Backups: true})
		mustMkdir(t, filepath.Join(root, "history", "l-003"))
		_, all := until(t, w, func(all Batch) bool { return all.Err != nil && all.Rescan })
		checkErr(t, all.Err)
		writeUntilSeen(t, w, root, "history/l-003/s-001.json")
	})
}

// Without Backups no history/l-*/ folder gets a watch (a long run has tens of thousands)
// and a change reaches the consumer through its objects and its log line only.
func TestWatchLeavesBackupsAloneByDefault(t *testing.T) {
	root := watchTree(t, ProblemDir, StatementDir, HistoryDir, "history/l-001")
	var mu sync.Mutex
	var added []string
	w := startWatch(t, root, WatchOptions{Debounce: 100 * time.Millisecond, addHook: func(rel string) error {
		mu.Lock()
		defer mu.Unlock()
		added = append(added, rel)
		return nil
	}})
	mustWrite(t, root, "history/l-001/s-001.json", `{"id": "s-001"}`)
	mustMkdir(t, filepath.Join(root, "history", "l-002"))
	mustWrite(t, root, "history/l-002/s-001.json", `{"id": "s-001"}`)
	mustWrite(t, root, "statement/s-001.json", `{"id": "s-001"}`)
	mustWrite(t, root, LogFile, `{"l-002": {"creation": [], "modification": ["s-001"]}}`)
	want := []string{LogFile, "statement/s-001.json"}
	_, all := until(t, w, func(all Batch) bool { return has(all, want[0]) && has(all, want[1]) })
	noBatch(t, w, 300*time.Millisecond)
	if !slices.Equal(all.Paths, want) || all.Rescan || all.Err != nil {
		t.Fatalf("got %+v, want exactly %v", all, want)
	}
	mu.Lock()
	defer mu.Unlock()
	slices.Sort(added)
	if !slices.Equal(added, []string{".", HistoryDir, ProblemDir, StatementDir}) {
		t.Fatalf("watches added: %v", added)
	}
}

func TestWatchOverflowRescansAndResyncs(t *testing.T) {
	root := watchTree(t, ProblemDir, HistoryDir)
	info, err := os.Stat(root)
	if err != nil {
		t.Fatal(err)
	}
	opts := WatchOptions{Debounce: time.Millisecond, MaxDelay: time.Millisecond, Poll: time.Hour, Backups: true}
	l := newWatchLoop(root, info, opts, new(atomic.Int64))
	if err := l.start(); err != nil {
		t.Fatal(err)
	}
	defer l.stop()
	// Folders made while events were lost get their watches on the overflow.
	mustMkdir(t, filepath.Join(root, "history", "l-004"))
	mustMkdir(t, filepath.Join(root, StatementDir))
	l.watchError(fsnotify.ErrEventOverflow)
	l.flush()
	if !l.ready.Rescan || l.ready.Err != nil {
		t.Fatalf("ready = %+v, want a rescan", l.ready)
	}
	for _, rel := range []string{".", ProblemDir, StatementDir, HistoryDir, "history/l-004"} {
		if !l.watched[rel] {
			t.Errorf("%s not watched after the overflow; watched %v", rel, l.watched)
		}
	}
}

func TestWatchCloseEndsEverything(t *testing.T) {
	before := runtime.NumGoroutine()
	root := watchTree(t, ProblemDir, StatementDir, HistoryDir, "history/l-001")
	w, err := Watch(root, WatchOptions{})
	if err != nil {
		t.Fatal(err)
	}
	mustWrite(t, root, "problem/p-001.json", `{}`) // something pending or waiting
	time.Sleep(50 * time.Millisecond)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
	select {
	case <-w.exited:
	default:
		t.Fatal("watcher goroutine still running after Close")
	}
	for {
		select {
		case _, ok := <-w.Batches():
			if ok {
				continue // a batch may have been ready; the channel must still end
			}
		case <-time.After(waitLong):
			t.Fatal("Batches not closed")
		}
		break
	}
	deadline := time.Now().Add(waitLong)
	for runtime.NumGoroutine() > before {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<16)
			t.Fatalf("%d goroutines before, %d after Close:\n%s", before, runtime.NumGoroutine(), buf[:runtime.Stack(buf, true)])
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestWatchMissingFolder(t *testing.T) {
	if _, err := Watch(filepath.Join(t.TempDir(), "nope"), WatchOptions{}); err == nil {
		t.Fatal("Watch of a missing folder succeeded")
	}
}

func TestBatchMerge(t *testing.T) {
	e1, e2 := errors.New("one"), errors.New("two")
	a := Batch{Paths: []string{"b", "d"}, Err: e1}
	b := Batch{Paths: []string{"a", "b", "c"}, Rescan: true, Err: e2}
	m := a.Merge(b)
	if !slices.Equal(m.Paths, []string{"a", "b", "c", "d"}) || !m.Rescan || !errors.Is(m.Err, e1) || !errors.Is(m.Err, e2) {
		t.Fatalf("merge = %+v", m)
	}
	if !slices.Equal(a.Paths, []string{"b", "d"}) || a.Rescan || a.Err != e1 {
		t.Fatalf("merge changed its receiver: %+v", a)
	}
	if m := a.Merge(Batch{Err: errors.New("one")}); m.Err != e1 {
		t.Fatalf("same error twice: %v", m.Err)
	}
	if m := (Batch{}).Merge(Batch{}); m.Paths != nil || m.Rescan || m.Err != nil || !m.empty() {
		t.Fatalf("empty merge = %+v", m)
	}
}

// With HistoryLater, Watch returns before history/ is watched; Ready says when it is,
// and a change logged after that is reported. A watch limit met there falls back to
// polling and asks for a rescan (a load may have read meanwhile). Without it, Ready is
// closed from the start.
func TestWatchHistoryLater(t *testing.T) {
	t.Run("watched after Watch returns", func(t *testing.T) {
		root := watchTree(t, ProblemDir, StatementDir, HistoryDir)
		mustWrite(t, root, LogFile, "")
		release := make(chan struct{})
		var added []string
		w := startWatch(t, root, WatchOptions{HistoryLater: true, addHook: func(rel string) error {
			if rel == HistoryDir {
				select { // Watch has returned: the test holds the add here
				case <-release:
				case <-time.After(waitLong): // added before Watch returned
				}
			}
			added = append(added, rel)
			return nil
		}})
		if !slices.Equal(added, []string{".", ProblemDir, StatementDir}) {
			t.Fatalf("watched before Watch returned: %v", added)
		}
		select {
		case <-w.Ready():
			t.Fatal("ready before history/ is watched")
		default:
		}
		close(release)
		select {
		case <-w.Ready():
		case <-time.After(waitLong):
			t.Fatal("never ready")
		}
		if !slices.Equal(added, []string{".", ProblemDir, StatementDir, HistoryDir}) {
			t.Fatalf("watched: %v", added)
		}
		mustWrite(t, root, LogFile, `{"l-001": {"creation": [], "modification": []}}`+"\n")
		if b := next(t, w); !slices.Equal(b.Paths, []string{LogFile}) || b.Rescan || b.Err != nil {
			t.Fatalf("batch = %+v, want exactly the log", b)
		}
	})
	t.Run("a watch limit there", func(t *testing.T) {
		root := watchTree(t, ProblemDir, StatementDir, HistoryDir)
		w := startWatch(t, root, WatchOptions{HistoryLater: true, Poll: 100 * time.Millisecond, addHook: func(rel string) error {
			if rel == HistoryDir {
				return syscall.ENOSPC
			}
			return nil
		}})
		<-w.Ready()
		_, all := until(t, w, func(all Batch) bool { return all.Err != nil && all.Rescan })
		if !errors.Is(all.Err, syscall.ENOSPC) {
			t.Fatalf("err = %v", all.Err)
		}
	})
	t.Run("without it", func(t *testing.T) {
		root := watchTree(t, HistoryDir)
		var added []string
		w := startWatch(t, root, WatchOptions{addHook: func(rel string) error { added = append(added, rel); return nil }})
		if !slices.Equal(added, []string{".", HistoryDir}) {
			t.Fatalf("watched before Watch returned: %v", added)
		}
		select {
		case <-w.Ready():
		case <-time.After(waitLong):
			t.Fatal("never ready")
		}
	})
}
