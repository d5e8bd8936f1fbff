package agents

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

func appendFile(t *testing.T, path, s string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(s); err != nil {
		t.Fatal(err)
	}
	f.Close()
}

func readLines(t *testing.T, tl *Tail) (lines []string, notes []string) {
	t.Helper()
	events, err := tl.Read(func(n int, b []byte) { lines = append(lines, string(b)) })
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range events {
		notes = append(notes, e.Note)
	}
	return lines, notes
}

func TestTailAppendAndPartialLine(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.jsonl")
	appendFile(t, path, "a\nb\nhalf")
	tl := NewTail(path)
	lines, _ := readLines(t, tl)
	if !slices.Equal(lines, []string{"a", "b"}) {
		t.Fatalf("first read: %q", lines)
	}
	if tl.Partial() != 4 {
		t.Fatalf("partial = %d, want 4 bytes waiting", tl.Partial())
	}
	lines, _ = readLines(t, tl)
	if len(lines) != 0 {
		t.Fatalf("nothing appended, read %q", lines)
	}
	appendFile(t, path, "-written\nc\n")
	lines, _ = readLines(t, tl)
	if !slices.Equal(lines, []string{"half-written", "c"}) {
		t.Fatalf("after the rest: %q", lines)
	}
	if tl.Offset() != int64(len("a\nb\nhalf-written\nc\n")) {
		t.Fatalf("offset %d", tl.Offset())
	}
}

func TestTailTruncationAndRotation(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "s.jsonl")
	appendFile(t, path, "one\ntwo\n")
	tl := NewTail(path)
	readLines(t, tl)
	// Truncated and rewritten shorter.
	if err := os.WriteFile(path, []byte("x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	lines, notes := readLines(t, tl)
	if !slices.Equal(lines, []string{"x"}) || len(notes) != 1 || !strings.Contains(notes[0], "truncated") {
		t.Fatalf("after truncation: lines %q notes %q", lines, notes)
	}
	// Replaced by another file (rotation), longer than the offset.
	tmp := filepath.Join(dir, "new")
	if err := os.WriteFile(tmp, []byte("r1\nr2\nr3\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
	}
	lines, notes = readLines(t, tl)
	if !slices.Equal(lines, []string{"r1", "r2", "r3"}) || len(notes) != 1 || !strings.Contains(notes[0], "replaced") {
		t.Fatalf("after rotation: lines %q notes %q", lines, notes)
	}
	// Deleted, then back.
	os.Remove(path)
	lines, notes = readLines(t, tl)
	if len(lines) != 0 || !slices.Equal(notes, []string{"transcript deleted"}) || !tl.Gone {
		t.Fatalf("after deletion: lines %q notes %q", lines, notes)
	}
	appendFile(t, path, "back\n")
	lines, notes = readLines(t, tl)
	if !slices.Equal(lines, []string{"back"}) || len(notes) != 1 || !strings.Contains(notes[0], "came back") {
		t.Fatalf("after return: lines %q notes %q", lines, notes)
	}
}

func TestTailOversizeLineSkippedWhileStreaming(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.jsonl")
	tl := NewTail(path)
	tl.Max = 100
	appendFile(t, path, "ok\n"+strings.Repeat("x", 150))
	lines, notes := readLines(t, tl)
	if !slices.Equal(lines, []string{"ok"}) || len(notes) != 0 {
		t.Fatalf("first: %q %q", lines, notes)
	}
	if tl.Partial() != 0 {
		t.Fatalf("an over-long partial line is held: %d bytes", tl.Partial())
	}
	appendFile(t, path, strings.Repeat("y", 300)+"\nafter\n")
	lines, notes = readLines(t, tl)
	if !slices.Equal(lines, []string{"after"}) {
		t.Fatalf("lines %q", lines)
	}
	if len(notes) != 1 || notes[0] != "line 2 (at byte 3, 451 bytes) is longer than 100 bytes: skipped" {
		t.Fatalf("notes %q", notes)
	}
	// An over-long line that arrives whole in one read.
	appendFile(t, path, strings.Repeat("z", 101)+"\nlast\n")
	lines, notes = readLines(t, tl)
	if !slices.Equal(lines, []string{"last"}) || len(notes) != 1 || !strings.HasPrefix(notes[0], "line 4 ") {
		t.Fatalf("whole: %q %q", lines, notes)
	}
}

func TestTailLongLineAcrossChunks(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s.jsonl")
	long := strings.Repeat("é", chunk) // two chunks of bytes
	appendFile(t, path, long+"\n")
	tl := NewTail(path)
	lines, _ := readLines(t, tl)
	if len(lines) != 1 || lines[0] != long {
		t.Fatalf("a line over several chunks came back as %d lines", len(lines))
	}
}

// A transcript quiet for quietAfter is looked at only every quietEvery; growing, at
// every poll again.
func TestQuietTranscriptsArePolledLess(t *testing.T) {
	root := t.TempDir()
	dir := filepath.Join(root, "projects", "-p")
	os.MkdirAll(dir, 0o755)
	path := filepath.Join(dir, "s1.jsonl")
	line := `{"type":"user","sessionId":"s1","cwd":"/p","timestamp":"2026-01-01T10:00:00Z","message":{"role":"user","content":"hi"}}` + "\n"
	appendFile(t, path, line)
	now := time.Date(2026, 1, 1, 10, 0, 0, 0, time.UTC)
	w := New(Options{ClaudeDir: root, Project: "/p", Now: func() time.Time { return now }})
	w.Poll()
	now = now.Add(quietAfter)
	w.Poll() // quiet since: the next look waits quietEvery
	appendFile(t, path, line)
	now = now.Add(quietEvery / 2)
	if changed, _ := w.Poll(); changed {
		t.Fatal("a quiet transcript was looked at before quietEvery")
	}
	now = now.Add(quietEvery / 2)
	if changed, _ := w.Poll(); !changed {
		t.Fatal("a quiet transcript was not looked at after quietEvery")
	}
	appendFile(t, path, line)
	now = now.Add(time.Millisecond)
	if changed, _ := w.Poll(); !changed {
		t.Fatal("a transcript that grew is looked at every poll again")
	}
}
