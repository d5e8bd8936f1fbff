package timeline

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"
	"time"
)

func TestWriteAppendsTheStepsReachedOnce(t *testing.T) {
	file := filepath.Join(t.TempDir(), "timeline")
	path, steps = file, nil
	t.Cleanup(func() { path, steps = "", nil })
	t.Setenv("REFEREE_TIMELINE_T0", "")
	Mark("main")
	time.Sleep(2 * time.Millisecond)
	Mark("read")
	Mark("main") // reached again: the first time stays
	Write()
	Write()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	line := `main=0\.0/\d+/\d+ read=([1-9]\d*\.\d)/\d+/\d+\n`
	if !regexp.MustCompile(`^` + line + line + `$`).Match(b) {
		t.Fatalf("got %q", b)
	}
}

func TestOffRecordsNothing(t *testing.T) {
	path, steps = "", nil
	Mark("main")
	Write()
	if len(steps) != 0 {
		t.Fatalf("recorded %v with REFEREE_TIMELINE unset", steps)
	}
}

func TestT0CountsFromTheExec(t *testing.T) {
	file := filepath.Join(t.TempDir(), "timeline")
	path, steps = file, nil
	t.Cleanup(func() { path, steps = "", nil })
	t.Setenv("REFEREE_TIMELINE_T0", "0") // 1970: every step is decades after it
	Mark("main")
	Write()
	b, _ := os.ReadFile(file)
	if !regexp.MustCompile(`^main=\d{12,}\.\d/\d+/\d+\n$`).Match(b) {
		t.Fatalf("got %q", b)
	}
}
