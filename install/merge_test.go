package install

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"referee/skill"
)

// A SKILL.md in the shape of the agents' (front matter, workflow, a sample calling their
// script with its "Output:" line, notes), written for these tests.
const sample = `---
name: fix-patch-proof
description: Rewrites a proof to answer an issue. Calls src/state.py.
---

# Patch

1. **Update the proof** using ` + "`src/state.py`" + `
2. Keep the status.

` + "```bash" + `
venv-python src/state.py \
  --id s-007 \
  --status validating \
  --proof.full "Step 1: a \"quoted\" word. QED." \
  --validation.responses Append "[Response #2] Fixes Issue #3 | Type: patch | Change: Added a step."
` + "```" + `

Output: ` + "`Updated s-007 [proof,status,validation] (log: log-XXX)`" + `

## Output Format

` + "```" + `
FIXED: Statement [statement_id]
` + "```" + `

## Notes

- Keep the fix minimal
`

const sampleMerged = `---
name: fix-patch-proof
description: Rewrites a proof to answer an issue. Calls referee skill fix-patch-proof.
---
` + Marker + `

# Patch

1. **Update the proof** using ` + "`referee skill fix-patch-proof`" + `
2. Keep the status.

` + "```bash" + `
referee skill fix-patch-proof \
  --statement-id s-007 \
  --issue-number 3 \
  --updated-proof "Step 1: a \"quoted\" word. QED." \
  --change-description "Added a step."
` + "```" + `

Through MCP (` + "`referee mcp`" + `, in .mcp.json) the same call is the tool ` + "`mcp__referee__fix-patch-proof`" + ` with ` + "`" + `{"statement_id": "s-007", "issue_number": 3, "updated_proof": "Step 1: a \"quoted\" word. QED.", "change_description": "Added a step."}` + "`" + `.

Output: ` + "`l-XXX fix-patch-proof by agent: modified s-007`" + `

## Output Format

` + "```" + `
FIXED: Statement [statement_id]
` + "```" + `

## Notes

- Keep the fix minimal
`

func lookup(t *testing.T, name string) *skill.Skill {
	t.Helper()
	s, ok := skill.Lookup(name)
	if !ok {
		t.Fatalf("no skill %s", name)
	}
	return s
}

func TestMerge(t *testing.T) {
	s := lookup(t, "fix-patch-proof")
	got, n, err := Merge(s, "fix-patch-proof", sample, "referee")
	if err != nil || n != 1 || got != sampleMerged {
		t.Fatalf("Merge: %d %v\n%s", n, err, got)
	}
	// Windows line ends stay Windows line ends.
	crlf, _, err := Merge(s, "fix-patch-proof", strings.ReplaceAll(sample, "\n", "\r\n"), "referee")
	if err != nil || crlf != strings.ReplaceAll(sampleMerged, "\n", "\r\n") {
		t.Errorf("CRLF: %v\n%q", err, crlf)
	}
	// The agent command named at install time is the one the file calls.
	lean, _, _ := Merge(s, "fix-patch-proof", sample, "/opt/bin/referee-agent")
	if !strings.Contains(lean, "\n/opt/bin/referee-agent skill fix-patch-proof \\\n") || strings.Contains(lean, "\nreferee skill") {
		t.Errorf("agent command:\n%s", lean)
	}
	// Their file merged once is not merged again.
	if _, _, err := Merge(s, "fix-patch-proof", got, "referee"); err == nil || err.Error() != "referee already installed it" {
		t.Errorf("merging a merged file: %v", err)
	}
}

// What referee cannot translate leaves the file as it is, with the reason.
func TestMergeUnmapped(t *testing.T) {
	s := lookup(t, "fix-patch-proof")
	for _, c := range []struct{ from, to, why string }{
		{"--status validating", "--status true", "src/state.py --status true: the referee skill does not do that"},
		{"--status validating", "--summary x", "src/state.py --summary: not a flag referee knows"},
		{"--status validating", "--reliability 0.5", "src/state.py --reliability: fix-patch-proof has no parameter for it"},
		{"venv-python src/state.py", "venv-python src/rewind.py", "it calls src/rewind.py, which referee has no skill for"},
		{"venv-python src/state.py", "cat x | venv-python src/state.py", `a command in a code block: shell syntax "|" that referee does not translate`},
		{`Added a step."`, `Added a step.`, `a command in a code block: an unclosed " quote`},
		{"Type: patch", "Type: substatement", `a response "[Response #2] Fixes Issue #3 | Type: substatement | Change: Added a step." where the skill writes a "patch" response`},
		{"Calls src/state.py.", "Calls src/current.py.", "the text names src/current.py, which referee has no skill for"},
	} {
		text := strings.Replace(sample, c.from, c.to, 1)
		_, _, err := Merge(s, "fix-patch-proof", text, "referee")
		var u *unmapped
		if !errors.As(err, &u) || u.reason != c.why {
			t.Errorf("%s → %s: %v, want %q", c.from, c.to, err, c.why)
		}
	}
	if _, _, err := Merge(s, "fix-patch-proof", "---\nname: x\n---\nNo commands.\n", "referee"); err == nil || err.Error() != "it calls none of their scripts" {
		t.Errorf("a file without commands: %v", err)
	}
}

func TestShellWords(t *testing.T) {
	got, err := shellWords(`a "b c" 'd "e"' f\ g "h\"i\\j\$" ''`)
	want := []string{"a", "b c", `d "e"`, "f g", `h"i\j$`, ""}
	if err != nil || strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("shellWords: %q %v", got, err)
	}
}

func TestListedSkills(t *testing.T) {
	for text, want := range map[string]string{
		"---\nname: a\nskills: x, y ,z\nmodel: inherit\n---\nbody skills: q\n": "x,y,z",
		"---\nskills:\n  - x\n  - \"y\"\ntools: Read\n---\n":                   "x,y",
		"---\nskills: [x, 'y']\n---\n":                                         "x,y",
		"no front matter\nskills: x\n":                                         "",
	} {
		if got := strings.Join(ListedSkills([]byte(text)), ","); got != want {
			t.Errorf("%q: %q, want %q", text, got, want)
		}
	}
}

// Install and uninstall in a small repository of this test's own: modes and bytes come
// back; a file changed since install is kept unless forced.
func TestInstallUninstallRoundTrip(t *testing.T) {
	root := t.TempDir()
	o := opts(root)
	path := filepath.Join(o.SkillsDir, "fix-patch-proof", "SKILL.md")
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(path, []byte(sample), 0o600)
	os.WriteFile(o.MCPConfig, []byte(`{"mcpServers": {"lean": {"command": "lean"}}}`), 0o644)
	before := snapshot(t, root)

	p := install(t, o)
	if len(p.Changes) != 14 { // the registry's thirteen skills and .mcp.json
		t.Fatalf("%d changes", len(p.Changes))
	}
	if got, _ := os.ReadFile(path); string(got) != sampleMerged {
		t.Errorf("merged:\n%s", got)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want their 0600", fi.Mode().Perm())
	}
	uninstall(t, o)
	diffTrees(t, "after uninstall", snapshot(t, root), before)

	// Changed since install: kept, named; --force restores it.
	install(t, o)
	os.WriteFile(path, []byte(sampleMerged+"- a note of theirs\n"), 0o600)
	p = uninstall(t, o)
	kept := 0
	for _, c := range p.Changes {
		if c.Action == Kept {
			kept++
			if c.Path != path || c.Note != "changed since install; left as it is (--force restores the original)" {
				t.Errorf("kept %s: %s", c.Path, c.Note)
			}
		}
	}
	if kept != 1 {
		t.Errorf("%d files kept, want 1", kept)
	}
	o.Force = true
	uninstall(t, o)
	diffTrees(t, "after a forced uninstall", snapshot(t, root), before)
}

// A SKILL.md that is a link is not written through: left as it is, and named.
func TestInstallLeavesALink(t *testing.T) {
	root := t.TempDir()
	o := opts(root)
	target := filepath.Join(root, "theirs.md")
	os.WriteFile(target, []byte(sample), 0o644)
	link := filepath.Join(o.SkillsDir, "fix-patch-proof", "SKILL.md")
	os.MkdirAll(filepath.Dir(link), 0o755)
	if err := os.Symlink(target, link); err != nil {
		t.Skip("no symbolic links here:", err)
	}
	p := install(t, o)
	if want := link + ": not a regular file (a link?); left as it is"; len(p.Warnings) != 1 || p.Warnings[0] != want {
		t.Errorf("warnings %q, want %q", p.Warnings, want)
	}
	if got, _ := os.ReadFile(target); string(got) != sample {
		t.Errorf("written through the link")
	}
	uninstall(t, o)
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link after uninstall: %v", err)
	}
}

// Their merged file deleted, then installed again: referee's own is added, and uninstall
// still gives back their original.
func TestInstallAfterTheirFileWasDeleted(t *testing.T) {
	root := t.TempDir()
	o := opts(root)
	path := filepath.Join(o.SkillsDir, "fix-patch-proof", "SKILL.md")
	os.MkdirAll(filepath.Dir(path), 0o755)
	os.WriteFile(path, []byte(sample), 0o644)
	before := snapshot(t, root)
	install(t, o)
	os.Remove(path)
	install(t, o)
	if got, _ := os.ReadFile(path); !strings.Contains(string(got), GeneratedMarker) {
		t.Errorf("not referee's own:\n%s", got)
	}
	uninstall(t, o)
	diffTrees(t, "after uninstall", snapshot(t, root), before)
}
