package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBadThemeExitsTwo: a bad flag value is bad usage (exit 2), said on one line.
func TestBadThemeExitsTwo(t *testing.T) {
	var out, errOut bytes.Buffer
	code := run([]string{"--theme", "solarized", "--contents", t.TempDir()}, &out, &errOut)
	if code != 2 || !strings.Contains(errOut.String(), `--theme: "solarized" is not one of auto, dark, light, high-contrast, none`) {
		t.Fatalf("exit %d, stderr %q", code, errOut.String())
	}
}

// TestStatusSanitisesTheFolderName: a folder named with an OSC 52 sequence does not
// reach the terminal raw through `referee status`.
func TestStatusSanitisesTheFolderName(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "x\x1b]52;c;ZXZpbA==\x07y")
	if err := os.MkdirAll(filepath.Join(dir, "statement"), 0o755); err != nil {
		t.Fatal(err)
	}
	var out, errOut bytes.Buffer
	run([]string{"status", "--contents", dir}, &out, &errOut)
	for _, s := range []string{out.String(), errOut.String()} {
		if strings.Contains(s, "\x1b]52") || strings.Contains(s, "\x07") {
			t.Fatalf("the folder name reached the output raw: %q", s)
		}
	}
}
