package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// The conventions users know from other cobra CLIs: suggestions, --version, completion,
// -o, help that never pretends to know an unknown word, examples, help topics.
func TestCLIConventions(t *testing.T) {
	root := t.TempDir()
	referee(t, root, "", "stauts").
		want(t, 2, "", "referee: unknown command \"stauts\" for \"referee\"; did you mean status?\n")
	referee(t, root, "", "skill", "no-such", "--help").
		want(t, 2, "", "referee: unknown skill \"no-such\" (referee skills list shows them)\n")
	referee(t, root, "", "publish", "--help").
		want(t, 2, "", "referee: unknown command \"publish\" for \"referee\" (referee --help lists the commands)\n")
	referee(t, root, "", "help", "stauts").
		want(t, 2, "", "referee: unknown command \"stauts\" for \"referee\"; did you mean status?\n")
	referee(t, root, "", "--contents", "x", "publish", "-h").
		want(t, 2, "", "referee: unknown command \"publish\" for \"referee\" (referee --help lists the commands)\n")
	referee(t, root, "", "skills", "lst", "--help").
		want(t, 2, "", "referee: unknown command \"lst\" for \"referee skills\"; did you mean list?\n")

	// A command's own arguments are not commands: its help is shown.
	if o := referee(t, root, "", "show", "s-001", "--help"); o.code != 0 || !strings.Contains(o.stdout, "referee show") {
		t.Errorf("show s-001 --help: exit %d\n%s%s", o.code, o.stdout, o.stderr)
	}
	if o := referee(t, root, "", "--version"); o.code != 0 || !regexp.MustCompile(`^referee \S.*, go1\.\d+`).MatchString(o.stdout) {
		t.Errorf("--version: exit %d, %q", o.code, o.stdout)
	}
	if o := referee(t, root, "", "completion", "bash"); o.code != 0 || !strings.Contains(o.stdout, "__start_referee") {
		t.Errorf("completion bash: exit %d, %.200q", o.code, o.stdout)
	}
	if o := referee(t, root, "", "help", "exit-codes"); o.code != 0 || !strings.Contains(o.stdout, "2  bad usage or bad input") {
		t.Errorf("help exit-codes: exit %d\n%s", o.code, o.stdout)
	}
	for _, c := range []string{"status", "show", "gen", "rewind", "log", "export"} {
		if o := referee(t, root, "", c, "--help"); o.code != 0 || !strings.Contains(o.stdout, "\nExamples:\n  referee "+c) ||
			!strings.Contains(o.stdout, "-o, --output") && c != "gen" && c != "export" {
			t.Errorf("%s --help: exit %d, no example or no -o:\n%s", c, o.code, o.stdout)
		}
	}
}

// status names a folder that is not a contents folder (exit 2), and shows the counts,
// then at most --limit "next" rows, saying how many it left out.
func TestStatusFolderAndLimit(t *testing.T) {
	root := t.TempDir()
	if err := os.Mkdir(filepath.Join(root, "src"), 0o755); err != nil {
		t.Fatal(err)
	}
	referee(t, root, "", "status", "--contents", "src").want(t, 2, "",
		"referee: src is not a contents folder (it has none of config.json, history/, problem/, statement/); pass --contents, or set one up with referee init --contents src\n")
	referee(t, root, "", "status", "--limit", "-1").want(t, 2, "", "referee: --limit: -1; expected 0 (all) or more\n")
	referee(t, root, "", "gen", "--contents", "g", "--statements", "300", "--problems", "3", "--seed", "2").want(t, 0,
		"generated g: 300 statements, 3 problems, seed 2, P014\n", "")
	all := referee(t, root, "", "status", "--contents", "g", "--limit", "0")
	some := referee(t, root, "", "status", "-o", "text", "--contents", "g", "--limit", "2")
	if all.code != 0 || some.code != 0 {
		t.Fatalf("status: exit %d, %d: %s%s", all.code, some.code, all.stderr, some.stderr)
	}
	lines := strings.Split(all.stdout, "\n")
	if !strings.HasPrefix(lines[1], "statements: 300 (") || !strings.HasPrefix(lines[2], "problems: 3 (") {
		t.Fatalf("the counts do not come first:\n%s", all.stdout)
	}
	m := regexp.MustCompile(`(?m)^next \((\d+); `).FindStringSubmatch(all.stdout)
	if m == nil || m[1] == "0" || m[1] == "1" || m[1] == "2" {
		t.Fatalf("no next rows to cut (%v):\n%s", m, all.stdout)
	}
	rows := regexp.MustCompile(`(?m)^  agent-\S+ +[ps]-`).FindAllString(all.stdout, -1)
	if strconv.Itoa(len(rows)) != m[1] {
		t.Errorf("--limit 0 shows %d rows of %s", len(rows), m[1])
	}
	cut := strings.Split(all.stdout, "\n")[:4+2]
	want := strings.Join(cut, "\n") + "\n  … and " + strconv.Itoa(len(rows)-2) + " more (--limit 0 shows all)\n"
	if !strings.HasPrefix(some.stdout, want) {
		t.Errorf("--limit 2:\n%s\nwant it to start\n%s", some.stdout, want)
	}
}

// A rewind to the change the folder is already at has nothing to do: exit 0, said so. A
// rewind refused for a link in the folder is refused (exit 1), not bad usage.
func TestRewindNothingToDoAndLinks(t *testing.T) {
	root := t.TempDir()
	referee(t, root, "", "init", "--objective", "Prove it", "--hypothesis", "n is odd").
		want(t, 0, "l-001 init by agent: created s-001, p-001\n", "")
	referee(t, root, "", "rewind", "l-001").
		want(t, 0, "rewind: the folder is as it was right after l-001; nothing to do\n", "")
	if o := referee(t, root, "", "rewind", "l-001", "-o", "json"); o.code != 0 || !strings.Contains(o.stdout, `"nothing_to_do": true`) {
		t.Errorf("rewind -o json: exit %d, %q", o.code, o.stdout)
	}
	// A change after l-001 (it creates s-002), whose file is then a link: a rewind to
	// l-001 would remove it, and refuses.
	referee(t, root, "", "skill", "prob-wrapup-statement", "--problem-id", "p-001", "--claim", "n squared is odd").
		want(t, 0, "l-002 prob-wrapup-statement by agent: created s-002; modified p-001\n", "")
	outside := filepath.Join(t.TempDir(), "s.json")
	if err := os.WriteFile(outside, []byte(`{"id":"s-002"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(root, "contents", "statement", "s-002.json")
	if err := os.Remove(link); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, link); err != nil {
		t.Fatal(err)
	}
	referee(t, root, "", "rewind", "l-001").
		want(t, 1, "", "referee: rewind: statement/s-002.json is not a regular file (links and folders are not followed)\n")
	if data, _ := os.ReadFile(outside); string(data) != `{"id":"s-002"}` {
		t.Errorf("the file behind the link changed: %q", data)
	}
}
