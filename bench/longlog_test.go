package bench

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"referee/store"
)

// The long-log folder is a biglog whose last three changes have backups of s-001; it is
// made once and then reused; its rows name each command (timed only with a binary:
// REFEREE_BENCH_BINARY).
func TestLongLogFolder(t *testing.T) {
	tmp := t.TempDir()
	dir, tail, err := LongLogFolder(tmp, 100<<10)
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(store.LogFile)))
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.Split(bytes.TrimSpace(data), []byte("\n"))
	if len(tail) != 3 || !bytes.Contains(lines[len(lines)-1], []byte(`"`+tail[2]+`"`)) || !bytes.Contains(lines[len(lines)-3], []byte(`"`+tail[0]+`"`)) {
		t.Fatalf("tail %v, the log ends %q", tail, lines[len(lines)-3:])
	}
	for _, id := range tail {
		if _, err := os.Stat(filepath.Join(dir, store.HistoryDir, id, "s-001.json")); err != nil {
			t.Errorf("no backup of s-001 in %s: %v", id, err)
		}
	}
	if n, err := LogLines(dir); err != nil || n != len(lines) {
		t.Errorf("LogLines %d (%v), want %d", n, err, len(lines))
	}
	again, tail2, err := LongLogFolder(tmp, 100<<10)
	if err != nil || again != dir || strings.Join(tail2, " ") != strings.Join(tail, " ") {
		t.Errorf("made again: %s %v %v", again, tail2, err)
	}
	bin := os.Getenv("REFEREE_BENCH_BINARY")
	if bin == "" {
		return
	}
	var b bytes.Buffer
	WriteLongLog(&b, len(lines), RunLongLog(bin, dir, tail, 1))
	if strings.Contains(b.String(), "failed") || strings.Count(b.String(), "| referee ") != 10 {
		t.Errorf("rows:\n%s", b.String())
	}
}
