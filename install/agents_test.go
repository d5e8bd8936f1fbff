package install

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"referee/internal/testutil"
	"referee/skill"
)

// These tests install into a copy of the agents' own repository (Ranch0o0/MRA-v1 at
// d8d7638), taken from a git copy at test time.

type tree map[string]string // path (slash, relative) → content; folders end in "/"

func snapshot(t *testing.T, root string) tree {
	t.Helper()
	out := tree{}
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			out[rel+"/"] = ""
			return nil
		}
		b, err := os.ReadFile(path)
		fi, _ := d.Info()
		out[rel] = fi.Mode().String() + "\n" + string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func diffTrees(t *testing.T, what string, got, want tree) {
	t.Helper()
	var keys []string
	for k := range got {
		keys = append(keys, k)
	}
	for k := range want {
		if _, ok := got[k]; !ok {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	n := 0
	for _, k := range keys {
		g, gok := got[k]
		w, wok := want[k]
		if gok != wok || g != w {
			if n++; n <= 10 {
				t.Errorf("%s: %s differs (present %v, want %v)", what, k, gok, wok)
			}
		}
	}
}

func opts(root string) Options {
	return Options{
		SkillsDir: filepath.Join(root, ".claude", "skills"),
		MCPConfig: filepath.Join(root, ".mcp.json"),
		Contents:  "./contents",
		BackupDir: filepath.Join(root, ".referee", "skills-backup"),
		Command:   "referee",
	}
}

func install(t *testing.T, o Options) *Plan {
	t.Helper()
	p, err := PlanInstall(o)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Apply(); err != nil {
		t.Fatal(err)
	}
	return p
}

func uninstall(t *testing.T, o Options) *Plan {
	t.Helper()
	p, err := PlanUninstall(o)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Apply(); err != nil {
		t.Fatal(err)
	}
	return p
}

var mentionsScript = regexp.MustCompile("src/[A-Za-z0-9_.-]+\\.py|`--hypothesis")

// guidance is the non-blank lines of their SKILL.md that are not the mechanism: outside
// the code blocks that run their scripts, not the "Output:" line of such a block.
func guidance(text string) []string {
	lines := strings.Split(text, "\n")
	var out []string
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if strings.HasPrefix(strings.TrimSpace(l), "```") {
			j := i + 1
			for j < len(lines) && !strings.HasPrefix(strings.TrimSpace(lines[j]), "```") {
				j++
			}
			if !mentionsScript.MatchString(strings.Join(lines[i+1:min(j, len(lines))], "\n")) {
				out = append(out, lines[i:min(j+1, len(lines))]...)
				i = j
				continue
			}
			i = j
			k := j + 1
			for k < len(lines) && strings.TrimSpace(lines[k]) == "" {
				k++
			}
			if k < len(lines) && strings.HasPrefix(lines[k], "Output:") {
				i = k
			}
			continue
		}
		out = append(out, l)
	}
	var kept []string
	for _, l := range out {
		if strings.TrimSpace(l) != "" {
			kept = append(kept, l)
		}
	}
	return kept
}

// keptInOrder splits lines into those found in text, in order, line for line, and the rest.
func keptInOrder(lines []string, text string) (kept, lost []string) {
	have := strings.Split(text, "\n")
	j := 0
	for _, l := range lines {
		k := j
		for k < len(have) && have[k] != l {
			k++
		}
		if k == len(have) {
			lost = append(lost, l)
			continue
		}
		kept = append(kept, l)
		j = k + 1
	}
	return kept, lost
}

func TestInstallIntoTheAgentsRepository(t *testing.T) {
	root := testutil.AgentsRepo(t)
	o := opts(root)
	before := snapshot(t, root)
	originals := map[string]string{}
	ents, err := os.ReadDir(o.SkillsDir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join(o.SkillsDir, e.Name(), "SKILL.md"))
		if err == nil {
			originals[e.Name()] = string(b)
		}
	}
	if len(originals) != 11 {
		t.Fatalf("the agents' repository has %d skills, want their 11", len(originals))
	}

	p := install(t, o)
	if len(p.Warnings) != 0 {
		t.Errorf("warnings: %q", p.Warnings)
	}
	after := snapshot(t, root)

	// Their guidance, line for line; only lines naming their scripts may change.
	for name, orig := range originals {
		b, err := os.ReadFile(filepath.Join(o.SkillsDir, name, "SKILL.md"))
		if err != nil {
			t.Fatal(err)
		}
		got := string(b)
		// A line naming their script ("using `src/state.py`", `--hypothesis Overwrite …`) is
		// mechanism: it changes, the rest of their text does not.
		var g []string
		naming := 0
		for _, l := range guidance(orig) {
			if mentionsScript.MatchString(l) {
				naming++
				continue
			}
			g = append(g, l)
		}
		kept, lost := keptInOrder(g, got)
		if ratio := float64(len(kept)) / float64(len(g)); ratio < 0.95 {
			t.Errorf("%s: %.1f%% of %d guidance lines kept verbatim, want ≥ 95%%", name, 100*ratio, len(g))
		}
		if len(lost) > 0 {
			t.Errorf("%s: lines of their guidance changed: %q", name, lost)
		}
		t.Logf("%s: %d/%d guidance lines kept verbatim; %d more name their scripts and now name referee", name, len(kept), len(g), naming)
		if strings.Contains(got, "src/state.py") || strings.Contains(got, "src/prob.py") || strings.Contains(got, "venv-python") {
			t.Errorf("%s still calls their scripts:\n%s", name, got)
		}
		if !strings.Contains(got, "referee skill "+name+" \\\n") || !strings.Contains(got, "mcp__referee__"+name) {
			t.Errorf("%s: no referee call (CLI and MCP) under their name", name)
		}
		if strings.Count(got, Marker) != 1 || !strings.Contains(got, "\n---\n"+Marker+"\n") {
			t.Errorf("%s: the marker line is not once below the front matter", name)
		}
		front := func(s string) string { f, _, _ := strings.Cut(s[4:], "\n---\n"); return f }
		if name != "prob-core-statement" && front(got) != front(orig) {
			t.Errorf("%s: front matter changed:\n%s", name, front(got))
		}
	}
	// Their name for a skill is kept; the one they lack is added.
	if _, err := os.Stat(filepath.Join(o.SkillsDir, "prob-wrapup-statement")); err == nil {
		t.Errorf("referee's own name prob-wrapup-statement was installed beside their prob-core-statement")
	}
	abandon, _ := skill.Lookup("abandon")
	if got := after[".claude/skills/abandon/SKILL.md"]; got != "-rw-r--r--\n"+string(generated(abandon, "referee")) {
		t.Errorf("abandon/SKILL.md:\n%s", got)
	}

	// Every skill an agent lists is a SKILL.md calling referee.
	agents, _ := filepath.Glob(filepath.Join(root, ".claude", "agents", "*.md"))
	listed := 0
	for _, a := range agents {
		data, _ := os.ReadFile(a)
		for _, name := range ListedSkills(data) {
			listed++
			doc, err := os.ReadFile(filepath.Join(o.SkillsDir, name, "SKILL.md"))
			if err != nil || !bytes.Contains(doc, []byte("referee skill "+name)) {
				t.Errorf("%s lists %s, which does not resolve to a SKILL.md calling referee (%v)", filepath.Base(a), name, err)
			}
		}
	}
	if listed != 13 {
		t.Errorf("the agents list %d skills, want 13", listed)
	}

	// Nothing else of theirs changed: CLAUDE.md, agents, commands, scripts, contents.
	for path, content := range before {
		if strings.HasPrefix(path, ".claude/skills/") {
			continue
		}
		if after[path] != content {
			t.Errorf("%s changed", path)
		}
	}
	for path := range after {
		// Added: the two skills referee has and they do not (abandon, decide-modification).
		if _, ok := before[path]; !ok && !strings.HasPrefix(path, ".claude/skills/abandon/") && !strings.HasPrefix(path, ".claude/skills/decide-modification/") &&
			!strings.HasPrefix(path, ".referee/") && path != ".mcp.json" {
			t.Errorf("install added %s", path)
		}
	}

	// Again: nothing to do, nothing written.
	p = install(t, o)
	for _, c := range p.Changes {
		if c.Action != Unchanged {
			t.Errorf("second install: %s %s", c.Action, c.Path)
		}
	}
	diffTrees(t, "after a second install", snapshot(t, root), after)

	// Uninstall: every file as it was, byte for byte and mode; nothing of referee's left.
	p = uninstall(t, o)
	for _, c := range p.Changes {
		if c.Action != Restored && c.Action != Removed {
			t.Errorf("uninstall: %s %s %s", c.Action, c.Path, c.Note)
		}
	}
	diffTrees(t, "after uninstall", snapshot(t, root), before)
	if _, err := PlanUninstall(o); err == nil {
		t.Errorf("a second uninstall found something to do")
	}
}

// Their newer SKILL.md over an installed one: their new text kept, the mechanism mapped
// again, and uninstall gives back their newer file.
func TestInstallOverTheirNewerVersion(t *testing.T) {
	root := testutil.AgentsRepo(t)
	o := opts(root)
	path := filepath.Join(o.SkillsDir, "fix-patch-proof", "SKILL.md")
	orig, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	install(t, o)
	newer := strings.Replace(string(orig), "## Notes\n", "## Notes\n\n- A note added in their newer version\n", 1)
	newer = strings.Replace(newer, "--id s-001", "--id s-042", 1)
	if newer == string(orig) {
		t.Fatal("the edit did not apply")
	}
	if err := os.WriteFile(path, []byte(newer), 0o644); err != nil {
		t.Fatal(err)
	}
	p := install(t, o)
	var c *Change
	for _, x := range p.Changes {
		if x.Path == path {
			c = x
		}
	}
	if c == nil || c.Action != Updated {
		t.Fatalf("their newer file: %+v", c)
	}
	got, _ := os.ReadFile(path)
	fix, _ := skill.Lookup("fix-patch-proof")
	want, _, err := Merge(fix, "fix-patch-proof", newer, "referee")
	if err != nil || string(got) != want {
		t.Errorf("installed over their newer file:\n%s", got)
	}
	if !strings.Contains(string(got), "- A note added in their newer version\n") || !strings.Contains(string(got), "--statement-id s-042") {
		t.Errorf("their new line or their new value is lost:\n%s", got)
	}
	uninstall(t, o)
	if back, _ := os.ReadFile(path); string(back) != newer {
		t.Errorf("uninstall did not give back their newer file")
	}
}

// A SKILL.md calling a script referee has no skill for is left as it is and named; the
// others are installed; uninstall leaves it too.
func TestInstallLeavesWhatItCannotMap(t *testing.T) {
	root := testutil.AgentsRepo(t)
	o := opts(root)
	path := filepath.Join(o.SkillsDir, "check-reject-proof", "SKILL.md")
	orig, _ := os.ReadFile(path)
	odd := strings.Replace(string(orig), "venv-python src/state.py \\\n  --id s-001", "venv-python src/rewind.py \\\n  --id s-001", 1)
	os.WriteFile(path, []byte(odd), 0o644)
	before := snapshot(t, root)
	p := install(t, o)
	if got, _ := os.ReadFile(path); string(got) != odd {
		t.Errorf("an unmappable SKILL.md was changed")
	}
	want := []string{path + ": it calls src/rewind.py, which referee has no skill for; left as it is",
		filepath.Join(root, ".claude", "agents", "agent-check.md") + " lists the skill check-reject-proof, whose SKILL.md does not call referee"}
	if strings.Join(p.Warnings, "\n") != strings.Join(want, "\n") {
		t.Errorf("warnings %q, want %q", p.Warnings, want)
	}
	for _, c := range p.Changes {
		if (c.Path == path) != (c.Action == Left) {
			t.Errorf("%s %s", c.Action, c.Path)
		}
	}
	uninstall(t, o)
	diffTrees(t, "after uninstall", snapshot(t, root), before)
}

// A dry run prints the diff of every file and writes nothing.
func TestDryRun(t *testing.T) {
	root := testutil.AgentsRepo(t)
	o := opts(root)
	before := snapshot(t, root)
	p, err := PlanInstall(o)
	if err != nil {
		t.Fatal(err)
	}
	d := p.Diff()
	for _, want := range []string{
		"--- a/" + filepath.ToSlash(filepath.Join(o.SkillsDir, "check-confirm-proof", "SKILL.md")) + "\n",
		"-venv-python src/state.py \\\n",
		"+referee skill check-confirm-proof \\\n",
		"--- /dev/null\n+++ b/" + filepath.ToSlash(filepath.Join(o.SkillsDir, "abandon", "SKILL.md")) + "\n",
		"+++ b/" + filepath.ToSlash(o.MCPConfig) + "\n",
	} {
		if !strings.Contains(d, want) {
			t.Errorf("the diff has no %q", want)
		}
	}
	// Their eleven, abandon, decide-modification and .mcp.json.
	if n := strings.Count(d, "\n--- ") + btoi(strings.HasPrefix(d, "--- ")); n != 14 {
		t.Errorf("the diff covers %d files, want 14", n)
	}
	diffTrees(t, "after a dry run", snapshot(t, root), before)
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
