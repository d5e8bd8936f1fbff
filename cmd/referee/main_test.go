package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"referee/internal/testutil"
)

// The tests run the built binary, as the agents and the shell do.

var fixture = testutil.Path("fixtures/mra-knights/contents")

// now pins the time of every change the tests make (REFEREE_NOW).
const now = "2026-01-08T12:00:00Z"

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

var binary string

func TestMain(m *testing.M) {
	flag.Parse()
	tmp, err := os.MkdirTemp("", "referee-cli-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binary = filepath.Join(tmp, "referee")
	build := exec.Command("go", "build", "-o", binary, ".")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "building referee:", err)
		os.RemoveAll(tmp)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(tmp)
	os.Exit(code)
}

type outcome struct {
	stdout, stderr string
	code           int
}

// referee runs the binary in dir with REFEREE_NOW pinned and REFEREE_ACTOR unset.
func referee(t *testing.T, dir, stdin string, args ...string) outcome {
	t.Helper()
	cmd := exec.Command(binary, args...)
	cmd.Dir = dir
	cmd.Env = []string{"REFEREE_NOW=" + now, "PATH=" + os.Getenv("PATH"), "HOME=" + os.Getenv("HOME")}
	cmd.Stdin = strings.NewReader(stdin)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("running referee %v: %v", args, err)
	}
	return outcome{out.String(), errOut.String(), code}
}

// want asserts the exact outcome of a command.
func (o outcome) want(t *testing.T, code int, stdout, stderr string) {
	t.Helper()
	if o.code != code {
		t.Errorf("exit code %d, want %d (stderr %q)", o.code, code, o.stderr)
	}
	if o.stdout != stdout {
		t.Errorf("stdout:\n%s\nwant:\n%s", o.stdout, stdout)
	}
	if o.stderr != stderr {
		t.Errorf("stderr:\n%q\nwant:\n%q", o.stderr, stderr)
	}
}

// copyFixture copies the read-only fixture to <tmp>/contents and returns <tmp>.
func copyFixture(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	testutil.CopyTree(t, fixture, filepath.Join(root, "contents"))
	return root
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	testutil.Need(t, path)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

func writeFile(t *testing.T, path, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

func sameTree(t *testing.T, got, want map[string]string) {
	t.Helper()
	var names []string
	for n := range want {
		names = append(names, n)
	}
	for n := range got {
		if _, ok := want[n]; !ok {
			names = append(names, n)
		}
	}
	slices.Sort(names)
	for _, n := range names {
		g, inGot := got[n]
		w, inWant := want[n]
		switch {
		case !inGot:
			t.Errorf("%s: missing", n)
		case !inWant:
			t.Errorf("%s: unexpected file", n)
		case g != w:
			t.Errorf("%s:\n%s\nwant:\n%s", n, g, w)
		}
	}
}

// The fixture's own objective and hypotheses (its l-001).
var knights = []string{
	"--objective", "Determine the role of each player: Olivia, Alice, and Ivy",
	"--hypothesis", "Each player is either a Knight (always tells truth), Knave (always lies), or Spy (can lie or tell truth)",
	"--hypothesis", "Olivia says: Alice and I have the same role",
	"--hypothesis", "Alice says: I am a spy",
	"--hypothesis", "Ivy says: Alice and I have the same role",
	"--hypothesis", "There is exactly one spy among all players",
	"--hypothesis", "There is a unique solution to the puzzle",
}

func TestInitReproducesTheFixture(t *testing.T) {
	root := t.TempDir()
	referee(t, root, "", append([]string{"init"}, knights...)...).want(t, 0,
		"l-001 init by agent: created s-001, s-002, s-003, s-004, s-005, s-006, p-001\n", "")
	dir := filepath.Join(root, "contents")
	got := testutil.Files(t, dir)
	for i := 1; i <= 6; i++ {
		name := fmt.Sprintf("statement/s-%03d.json", i)
		if got[name] != readFile(t, filepath.Join(fixture, name)) {
			t.Errorf("%s differs from the fixture's:\n%s", name, got[name])
		}
	}
	// p-001 as the fixture's l-001 wrote it is its backup before l-003.
	if got["problem/p-001.json"] != readFile(t, filepath.Join(fixture, "history/l-003/p-001.json")) {
		t.Errorf("problem/p-001.json differs from the fixture's at l-001:\n%s", got["problem/p-001.json"])
	}
	wantConfig := "{\n    \"p\": \"p-001\",\n    \"s\": \"s-006\",\n    \"e\": \"e-000\",\n    \"l\": \"l-001\"\n}"
	if got["config.json"] != wantConfig {
		t.Errorf("config.json:\n%s\nwant:\n%s", got["config.json"], wantConfig)
	}
	fixtureLog := readFile(t, filepath.Join(fixture, "history/log.jsonl"))
	first, _, _ := strings.Cut(fixtureLog, "\n")
	wantLog := strings.TrimSuffix(first, "}") + `, "at": "2026-01-08T12:00:00Z", "by": "agent", "skill": "init"}` + "\n"
	if withoutVersions(got["history/log.jsonl"]) != wantLog {
		t.Errorf("log:\n%s\nwant:\n%s", got["history/log.jsonl"], wantLog)
	}
	if len(got) != 9 {
		t.Errorf("init wrote %d files, want 9 (config, log, 6 statements, 1 problem): %v", len(got), slices.Sorted(func(yield func(string) bool) {
			for k := range got {
				if !yield(k) {
					return
				}
			}
		}))
	}

	// A second init on the same folder is refused and writes nothing.
	before := testutil.Files(t, dir)
	referee(t, root, "", append([]string{"init"}, knights...)...).want(t, 1, "",
		"referee: ./contents already has config.json; init only sets up a new folder (pass another --contents, or --add to add a problem to it)\n")
	sameTree(t, testutil.Files(t, dir), before)
	// So is a folder that holds objects but no config.
	other := t.TempDir()
	writeFile(t, filepath.Join(other, "statement/s-001.json"), "{}")
	referee(t, other, "", "init", "--contents", ".", "--objective", "x").want(t, 1, "",
		"referee: . already has statement/s-001.json; init only sets up a new folder (pass another --contents, or --add to add a problem to it)\n")
	referee(t, root, "", "init", "--contents", filepath.Join(root, "new")).want(t, 2, "", "referee: init needs at least one --objective\n")

	// --add puts a second problem after the first.
	referee(t, root, "", "init", "--add", "--actor", "human", "--objective", "Is Ivy a Knave?", "--hypothesis", "Ivy is not the spy").want(t, 0,
		"l-002 init by human: created s-007, p-002\n", "")
	wantP2 := `{
    "id": "p-002",
    "hypothesis": [
        "(s-007) Ivy is not the spy"
    ],
    "objectives": [
        "Is Ivy a Knave?"
    ],
    "status": "unresolved",
    "priority": "",
    "summary": "",
    "progresses": [],
    "preliminaries": [],
    "solution": {
        "cot": [],
        "full": "",
        "ref": []
    }
}`
	if got := readFile(t, filepath.Join(dir, "problem/p-002.json")); got != wantP2 {
		t.Errorf("p-002:\n%s", got)
	}
}

// run works in-process too, with the same outputs and codes.
func TestRunInProcess(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := run([]string{"skills", "list", "--output", "json"}, &out, &errOut); code != 0 || errOut.Len() != 0 || !strings.HasPrefix(out.String(), "[\n  {\n    \"name\": \"prob-wrapup-statement\",") {
		t.Errorf("skills list: %d %q %q", code, out.String()[:min(out.Len(), 80)], errOut.String())
	}
	out.Reset()
	if code := run([]string{"skill", "abandon", "--contents", t.TempDir(), "--statement-id", "s-1"}, &out, &errOut); code != 2 ||
		out.Len() != 0 || errOut.String() != "referee: --statement-id: \"s-1\" is not a statement ID (expected s-<letters><three digits>, e.g. s-007)\n" {
		t.Errorf("bad ID: %d %q", code, errOut.String())
	}
}

func TestOnlyStatusTurnsTheCollectorOff(t *testing.T) {
	for args, want := range map[string]bool{
		"status --output json":     true,
		"status":                   true,
		"show s-001":               false,
		"check":                    false,
		"export md":                false,
		"":                         false, // the workbench runs for hours
		"--theme light":            false,
		"skill check-reject-proof": false,
		"log --follow":             false,
		"gen --statements 100000":  false,
	} {
		if got := isStatus(strings.Fields(args)); got != want {
			t.Errorf("isStatus(%q) = %v, want %v", args, got, want)
		}
	}
}

// versionsKey is referee's "versions" key of a log line (each written object's
// version, which undo checks): store's tests check its values; these compare the rest.
var versionsKey = regexp.MustCompile(`, "versions": \{[^{}]*\}`)

func withoutVersions(log string) string { return versionsKey.ReplaceAllString(log, "") }
