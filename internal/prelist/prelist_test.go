package prelist

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestWorkbenchFolder(t *testing.T) {
	for _, c := range []struct {
		args []string
		dir  string
		ok   bool
	}{
		{nil, "contents", true},
		{[]string{"--contents", "/a/b/"}, "/a/b", true},
		{[]string{"--contents=/a/b", "--theme", "dark"}, "/a/b", true},
		{[]string{"--theme=dark", "--stall-after", "1m", "--claude-dir", "x", "--contents", "c"}, "c", true},
		{[]string{"--contents"}, "", false},
		{[]string{"--contents="}, "", false},
		{[]string{"status"}, "", false},
		{[]string{"--contents", "c", "status"}, "", false},
		{[]string{"--version"}, "", false},
		{[]string{"-h"}, "", false},
		{[]string{"--help", "--contents", "c"}, "", false},
		{[]string{"-test.v"}, "", false},
	} {
		dir, ok := WorkbenchFolder(c.args)
		if dir != c.dir || ok != c.ok {
			t.Errorf("WorkbenchFolder(%q) = %q, %v; want %q, %v", c.args, dir, ok, c.dir, c.ok)
		}
	}
}

// contents makes a folder with statement/ (n files, a folder, a link, names of every
// kind) and problem/ (one file); no experience/.
func contents(t *testing.T, n int) string {
	t.Helper()
	dir := t.TempDir()
	for _, sub := range []string{"statement", "problem"} {
		if err := os.Mkdir(filepath.Join(dir, sub), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	long := strings.Repeat("n", 200) // enough of them fill more than one getdents buffer
	for i := range n {
		write(t, filepath.Join(dir, "statement", fmt.Sprintf("%s-%04d.json", long, i)))
	}
	for _, name := range []string{"s-001.json", "é\xff.tmp", ".hidden", "x y"} {
		write(t, filepath.Join(dir, "statement", name))
	}
	if err := os.Mkdir(filepath.Join(dir, "statement", "s-002.json"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("s-001.json", filepath.Join(dir, "statement", "s-003.json")); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(dir, "problem", "p-001.json"))
	return dir
}

func write(t *testing.T, path string) {
	t.Helper()
	if err := os.WriteFile(path, []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
}

// readDir is the listing as os.ReadDir gives it (sorted by name).
func readDir(t *testing.T, dir, sub string) []Entry {
	t.Helper()
	entries, err := os.ReadDir(filepath.Join(dir, sub))
	if err != nil {
		t.Fatal(err)
	}
	var out []Entry
	for _, e := range entries {
		out = append(out, Entry{Name: e.Name(), Path: sub + "/" + e.Name(), Regular: e.Type().IsRegular()})
	}
	return out
}

// take is what Take gives, copied (nil: nothing).
func take(dir string) map[string][]Entry {
	var out map[string][]Entry
	Take(dir, func(sub string, entries []Entry) {
		if out == nil {
			out = map[string][]Entry{}
		}
		out[sub] = slices.Clone(entries)
	})
	return out
}

func linuxOnly(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("lists ahead on Linux only")
	}
}

// TestTakeListsAsReadDir: what Take gives is each folder's listing as os.ReadDir gives
// it, once; a missing folder is not in it, nor another folder's.
func TestTakeListsAsReadDir(t *testing.T) {
	linuxOnly(t)
	dir := contents(t, 1500)
	Start(dir)
	Wait()
	got := take(dir + "/")
	if len(got) != 2 {
		t.Fatalf("Take gave %d folders, want statement/ and problem/", len(got))
	}
	for _, sub := range []string{"statement", "problem"} {
		if want := readDir(t, dir, sub); !slices.Equal(got[sub], want) {
			t.Errorf("%s/: %d entries, os.ReadDir %d, or they differ", sub, len(got[sub]), len(want))
		}
	}
	if again := take(dir); again != nil {
		t.Errorf("a second Take gave %d folders", len(again))
	}
	Start(dir)
	if other := take(t.TempDir()); other != nil {
		t.Errorf("Take of another folder gave %d folders", len(other))
	}
	if after := take(dir); after != nil {
		t.Errorf("Take after a Take of another folder gave %d folders", len(after))
	}
}

// TestTakeDropsChangedFolders: a folder whose entries changed after it was listed
// (created, removed, renamed, a folder put in its place) is left out; one whose files
// were only written is kept.
func TestTakeDropsChangedFolders(t *testing.T) {
	linuxOnly(t)
	for _, c := range []struct {
		name   string
		change func(t *testing.T, dir string)
		kept   bool
	}{
		{"a file created", func(t *testing.T, dir string) { write(t, filepath.Join(dir, "statement", "s-900.json")) }, false},
		{"a file removed", func(t *testing.T, dir string) { rm(t, filepath.Join(dir, "statement", "s-001.json")) }, false},
		{"a file renamed in", func(t *testing.T, dir string) {
			write(t, filepath.Join(dir, "s-901.json"))
			mv(t, filepath.Join(dir, "s-901.json"), filepath.Join(dir, "statement", "s-901.json"))
		}, false},
		{"a file renamed over another", func(t *testing.T, dir string) {
			mv(t, filepath.Join(dir, "statement", "x y"), filepath.Join(dir, "statement", "s-001.json"))
		}, false},
		{"a link made", func(t *testing.T, dir string) {
			if err := os.Symlink("x", filepath.Join(dir, "statement", "s-902.json")); err != nil {
				t.Fatal(err)
			}
		}, false},
		{"the folder replaced", func(t *testing.T, dir string) {
			mv(t, filepath.Join(dir, "statement"), filepath.Join(dir, "old"))
			if err := os.Mkdir(filepath.Join(dir, "statement"), 0o755); err != nil {
				t.Fatal(err)
			}
		}, false},
		{"the folder removed", func(t *testing.T, dir string) { rm(t, filepath.Join(dir, "statement")) }, false},
		{"a file written", func(t *testing.T, dir string) {
			if err := os.WriteFile(filepath.Join(dir, "statement", "s-001.json"), []byte(`{"id":"s-001"}`), 0o644); err != nil {
				t.Fatal(err)
			}
		}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := contents(t, 3)
			Start(dir)
			Wait()
			c.change(t, dir)
			got := take(dir)
			if _, ok := got["problem"]; !ok {
				t.Errorf("problem/, untouched, is not given")
			}
			if _, ok := got["statement"]; ok != c.kept {
				t.Errorf("statement/ given: %v, want %v", ok, c.kept)
			}
		})
	}
}

func rm(t *testing.T, path string) {
	t.Helper()
	if err := os.RemoveAll(path); err != nil {
		t.Fatal(err)
	}
}

func mv(t *testing.T, from, to string) {
	t.Helper()
	if err := os.Rename(from, to); err != nil {
		t.Fatal(err)
	}
}

// watches says whether the inotify instance fd of the process watches the inode ino.
func watches(fd int, ino uint64) bool {
	data, err := os.ReadFile(fmt.Sprintf("/proc/self/fdinfo/%d", fd))
	return err == nil && strings.Contains(string(data), fmt.Sprintf(" ino:%x ", ino))
}

// TestTakeKeepsTheWatchUntilClose: the watch of history/ outlives Take until Close, so
// that the workbench's own watch of history/, added after Take, finds the kernel's walk
// of its entries made; then it ends.
func TestTakeKeepsTheWatchUntilClose(t *testing.T) {
	linuxOnly(t)
	dir := contents(t, 3)
	history := filepath.Join(dir, History)
	if err := os.Mkdir(history, 0o755); err != nil {
		t.Fatal(err)
	}
	var st syscall.Stat_t
	if err := syscall.Stat(history, &st); err != nil {
		t.Fatal(err)
	}
	Start(dir)
	l := listing.l
	Wait()
	fd := l.watches
	if take(dir) == nil {
		t.Fatal("Take gave nothing")
	}
	if !watches(fd, st.Ino) {
		t.Fatal("after Take history/ is not watched")
	}
	Close()
	for range 1000 {
		if !watches(fd, st.Ino) {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatal("10 s after Close history/ is still watched")
}

// TestTakeDropsAListingNotMade: a Take before the listing is made gives nothing (the
// caller lists), at once, and the listing goroutine then ends.
func TestTakeDropsAListingNotMade(t *testing.T) {
	linuxOnly(t)
	dir := contents(t, 3000)
	Start(dir)
	l := listing.l
	if got := take(dir); got != nil {
		t.Skipf("the listing was made before Take (%d folders): nothing to drop", len(got))
	}
	<-l.done
	if s := l.state.Load(); s != dropped {
		t.Errorf("the listing's state is %d, want dropped (%d)", s, dropped)
	}
}
