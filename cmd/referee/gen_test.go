package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestGenThenCheck(t *testing.T) {
	root := t.TempDir()
	referee(t, root, "", "gen", "--contents", "big", "--statements", "1500", "--problems", "15", "--seed", "4", "--vocabulary", "P014").
		want(t, 0, "generated big: 1500 statements, 15 problems, seed 4, P014\n", "")
	out := referee(t, root, "", "check", "--contents", "big")
	if out.code != 0 || !strings.HasSuffix(out.stdout, "0 errors, 1 warning\n") {
		t.Errorf("check on a generated folder: exit %d, stdout ends %q", out.code, tail(out.stdout))
	}
	entries, _ := os.ReadDir(filepath.Join(root, "big", "statement"))
	if len(entries) != 1500 {
		t.Errorf("%d statement files", len(entries))
	}

	// A second run must not touch the folder; bad sizes and vocabularies are usage errors.
	referee(t, root, "", "gen", "--contents", "big", "--statements", "10", "--problems", "1").
		want(t, 1, "", "referee: gen: big is not empty; generate into a new folder\n")
	referee(t, root, "", "gen", "--contents", "small", "--statements", "0", "--problems", "1").
		want(t, 2, "", "referee: gen: statements: 0; expected at least 1\n")
	referee(t, root, "", "gen", "--contents", "small", "--vocabulary", "P015").
		want(t, 2, "", "referee: --vocabulary: \"P015\" is not P014 or P013\n")
	referee(t, root, "", "gen", "--statements", "10").
		want(t, 2, "", "referee: gen needs --contents DIR (a new folder)\n")
	referee(t, root, "", "gen", "--contents", "small", "--backups", "0").
		want(t, 2, "", "referee: --backups: 0; expected a number of changes, or -1 for every change\n")
}

// gen writes the words init writes (P014) unless told otherwise; status reads them back.
func TestGenWritesInitsVocabulary(t *testing.T) {
	root := t.TempDir()
	referee(t, root, "", "gen", "--contents", "new", "--statements", "40", "--problems", "2").
		want(t, 0, "generated new: 40 statements, 2 problems, seed 1, P014\n", "")
	referee(t, root, "", "gen", "--contents", "old", "--statements", "40", "--problems", "2", "--vocabulary", "P013").
		want(t, 0, "generated old: 40 statements, 2 problems, seed 1, P013\n", "")
	for dir, want := range map[string]string{"new": "P014", "old": "P013"} {
		out := referee(t, root, "", "status", "--contents", dir)
		if first, _, _ := strings.Cut(out.stdout, "\n"); out.code != 0 || first != "contents: "+dir+" ("+want+" vocabulary)" {
			t.Errorf("status %s: exit %d, %q", dir, out.code, first)
		}
	}
	if init := referee(t, root, "", "init", "--help"); !strings.Contains(init.stdout, `(default "P014")`) {
		t.Errorf("init's default vocabulary is not P014 (gen's):\n%s", init.stdout)
	}
}

func tail(s string) string { return s[max(0, len(s)-200):] }
