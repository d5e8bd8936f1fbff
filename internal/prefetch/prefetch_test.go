package prefetch

import (
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"testing"
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

// folder makes a contents folder with files statement/s-00N.json holding "N".
func folder(t *testing.T, n int) string {
	dir := t.TempDir()
	for _, sub := range []string{"statement", "problem"} {
		if err := os.Mkdir(filepath.Join(dir, sub), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for i := range n {
		write(t, filepath.Join(dir, "statement", name(i)), name(i))
	}
	write(t, filepath.Join(dir, "problem", "p-001.json"), "p")
	return dir
}

func name(i int) string { return "s-00" + string(rune('0'+i)) + ".json" }

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func names(files map[string][]byte) []string {
	var out []string
	for n := range files {
		out = append(out, n)
	}
	slices.Sort(out)
	return out
}

func TestTakeGivesWhatWasNotTouched(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reads ahead on Linux only")
	}
	dir := folder(t, 6)
	write(t, filepath.Join(dir, "statement", "notes.txt"), "not an object")
	if err := os.Symlink("s-000.json", filepath.Join(dir, "statement", "s-009.json")); err != nil {
		t.Fatal(err)
	}
	Start(dir)
	Wait()
	st := filepath.Join(dir, "statement")
	write(t, filepath.Join(st, "s-001.json"), "changed")               // written
	if err := os.Remove(filepath.Join(st, "s-002.json")); err != nil { // removed
		t.Fatal(err)
	}
	if err := os.Rename(filepath.Join(st, "s-003.json"), filepath.Join(st, "s-007.json")); err != nil { // renamed
		t.Fatal(err)
	}
	if err := os.Chmod(filepath.Join(st, "s-004.json"), 0o600); err != nil { // its mode
		t.Fatal(err)
	}
	if got := Take(dir + "/other"); got != nil {
		t.Fatalf("Take of another folder gave %v", got)
	}
	Start(dir)
	Wait()
	write(t, filepath.Join(st, "s-001.json"), "changed again")
	if err := os.Chmod(filepath.Join(st, "s-004.json"), 0o644); err != nil {
		t.Fatal(err)
	}
	taken := Take(dir + "/")
	if taken == nil {
		t.Fatal("Take gave nothing")
	}
	defer taken.Release()
	if got, want := names(taken.folders["statement"].Files), []string{"s-000.json", "s-005.json", "s-007.json"}; !slices.Equal(got, want) {
		t.Errorf("statement files taken: %q, want %q (s-001 written, s-004's mode changed, s-009 a link)", got, want)
	}
	if got := string(taken.folders["statement"].Files["s-005.json"]); got != "s-005.json" {
		t.Errorf("s-005's bytes: %q", got)
	}
	if got := names(taken.folders["problem"].Files); !slices.Equal(got, []string{"p-001.json"}) {
		t.Errorf("problem files taken: %q", got)
	}
	if Take(dir) != nil {
		t.Error("a second Take gave files again")
	}
}

func TestTakeGivesNothingWhenAFolderWent(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reads ahead on Linux only")
	}
	dir := folder(t, 3)
	Start(dir)
	Wait()
	if err := os.Rename(filepath.Join(dir, "statement"), filepath.Join(dir, "old")); err != nil {
		t.Fatal(err)
	}
	if got := Take(dir); got != nil {
		t.Errorf("Take after statement/ was moved away gave %v", got)
	}
}

func TestForChecksTheFolder(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reads ahead on Linux only")
	}
	dir := folder(t, 2)
	Start(dir)
	Wait()
	taken := Take(dir)
	defer taken.Release()
	open := func(sub string) *os.File {
		f, err := os.Open(filepath.Join(dir, sub))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { f.Close() })
		return f
	}
	if got := taken.For("statement", int(open("statement").Fd())); len(got) != 2 {
		t.Errorf("For(statement/) gave %d files, want 2", len(got))
	}
	if got := taken.For("statement", int(open("problem").Fd())); got != nil {
		t.Errorf("For(statement/) with problem/ open gave %v", got)
	}
	if got := taken.For("experience", int(open("problem").Fd())); got != nil {
		t.Errorf("For(experience/), never read, gave %v", got)
	}
}

// TestTakeStopsAtTheSlabsEnd: files that do not fit in what is held are left to the
// load, whole: none is cut. A file is read with a byte of room after it (a read that
// fills the room is no end), so MaxBytes holds one file of MaxFile bytes less than it
// could.
func TestTakeStopsAtTheSlabsEnd(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reads ahead on Linux only")
	}
	dir := folder(t, 0)
	big := make([]byte, MaxFile)
	for i := range big {
		big[i] = 'x'
	}
	for i := range MaxBytes/MaxFile + 2 {
		if err := os.WriteFile(filepath.Join(dir, "statement", "s-"+string(rune('a'+i/26))+string(rune('a'+i%26))+".json"), big, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "statement", "s-toolarge.json"), append(big, 'x'), 0o644); err != nil {
		t.Fatal(err)
	}
	Start(dir)
	Wait()
	taken := Take(dir)
	defer taken.Release()
	files := taken.folders["statement"].Files
	if len(files) != MaxBytes/MaxFile-1 {
		t.Errorf("%d files taken, want the %d that fit", len(files), MaxBytes/MaxFile-1)
	}
	for name, data := range files {
		if len(data) != MaxFile {
			t.Errorf("%s: %d bytes taken, want %d", name, len(data), MaxFile)
		}
	}
	if _, ok := files["s-toolarge.json"]; ok {
		t.Error("a file larger than MaxFile was taken")
	}
}
