package main

import (
	"encoding/json"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"referee/install"
	"referee/internal/testutil"
	"referee/skill"
	"referee/store"
)

func TestSkillErrors(t *testing.T) {
	root := copyFixture(t)
	dir := filepath.Join(root, "contents")
	before := testutil.Files(t, dir)
	cases := []struct {
		name   string
		stdin  string
		args   []string
		code   int
		stderr string
	}{
		{"missing parameter", "", []string{"skill", "check-reject-proof", "--statement-id", "s-007"}, 2,
			"referee: check-reject-proof needs --sentence-number (the number of the sentence with the gap)\n"},
		{"malformed ID", "", []string{"skill", "check-confirm-proof", "--statement-id", "../x"}, 2,
			"referee: --statement-id: \"../x\" is not a statement ID (expected s-<letters><three digits>, e.g. s-007)\n"},
		{"ID of the wrong kind", "", []string{"skill", "check-confirm-proof", "--statement-id", "p-001"}, 2,
			"referee: --statement-id: \"p-001\" is not a statement ID (expected s-<letters><three digits>, e.g. s-007)\n"},
		{"unknown skill", "", []string{"skill", "nope", "--statement-id", "s-007"}, 2,
			"referee: unknown skill \"nope\" (referee skills list shows them)\n"},
		{"precondition", "", []string{"skill", "check-confirm-proof", "--statement-id", "s-007"}, 1,
			"referee: check-confirm-proof: s-007 is \"true\"; it needs a submitted proof awaiting verification\n"},
		{"missing object", "", []string{"skill", "abandon", "--statement-id", "s-099"}, 1,
			"referee: abandon: s-099 does not exist\n"},
		{"conflict", "", []string{"skill", "abandon", "--statement-id", "s-007", "--expect-version", "00000000"}, 1,
			"referee: s-007 changed since you read it (you saw version 00000000, it is now 35c3a310); read it again\n"},
		{"not a number", "", []string{"skill", "fix-patch-proof", "--statement-id", "s-007", "--issue-number", "one",
			"--updated-proof", "p", "--change-description", "c"}, 2,
			"referee: --issue-number: \"one\" is not a whole number\n"},
		{"not an allowed value", "", []string{"skill", "state-mark-false", "--statement-id", "s-007", "--counterexample", "c", "--source", "orchestrator"}, 2,
			"referee: --source: \"orchestrator\" is not one of prove, fix\n"},
		{"unknown flag", "", []string{"skill", "abandon", "--statement-id", "s-007", "--bogus"}, 2,
			"referee: unknown flag: --bogus\n"},
		{"stray argument", "", []string{"skill", "abandon", "s-007"}, 2,
			"referee: referee skill abandon takes no arguments, got \"s-007\"\n"},
		{"unreadable --params", "", []string{"skill", "abandon", "--params", "nowhere.json"}, 2,
			"referee: --params: cannot read nowhere.json: no such file or directory\n"},
		{"--params not JSON", "{\"statement_id\": ", []string{"skill", "abandon", "--params", "-"}, 2,
			"referee: --params: not valid JSON: line 1 (byte 17): unexpected end of file (truncated?)\n"},
		{"--params unknown key", `{"statement": "s-007"}`, []string{"skill", "abandon", "--params", "-"}, 2,
			"referee: --params: abandon has no parameter \"statement\" (referee skill abandon --help lists them)\n"},
		{"--params wrong shape", `{"statement_id": ["s-007"]}`, []string{"skill", "abandon", "--params", "-"}, 2,
			"referee: --params: \"statement_id\" must be a string, found a list\n"},
		{"--output", "", []string{"skill", "abandon", "--statement-id", "s-007", "--output", "xml"}, 2,
			"referee: --output: \"xml\" is not text or json\n"},
		{"no folder", "", []string{"skill", "abandon", "--statement-id", "s-007", "--contents", "nowhere"}, 2,
			"referee: contents folder nowhere does not exist (run referee init, or pass --contents)\n"},
		{"unknown command", "", []string{"frobnicate"}, 2,
			"referee: unknown command \"frobnicate\" for \"referee\" (referee --help lists the commands)\n"},
		{"show a malformed ID", "", []string{"show", "../etc/passwd"}, 2,
			"referee: show: \"../etc/passwd\" is not an ID (expected <kind>-<letters><three digits>, e.g. s-007, p-001 or l-012)\n"},
		{"show a missing object", "", []string{"show", "s-099"}, 1,
			"referee: s-099 does not exist in ./contents\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			referee(t, root, c.stdin, c.args...).want(t, c.code, "", c.stderr)
		})
	}
	sameTree(t, testutil.Files(t, dir), before)

	// A time that is not RFC 3339 is bad usage.
	cmd := exec.Command(binary, "skill", "abandon", "--statement-id", "s-007")
	cmd.Dir = root
	cmd.Env = []string{"REFEREE_NOW=yesterday"}
	out, err := cmd.CombinedOutput()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 2 ||
		string(out) != "referee: REFEREE_NOW: \"yesterday\" is not an RFC 3339 time (e.g. 2026-01-08T12:00:00Z)\n" {
		t.Errorf("bad REFEREE_NOW: %v %q", err, out)
	}
	sameTree(t, testutil.Files(t, dir), before)
}

func TestSkillOutputAndVersions(t *testing.T) {
	root := copyFixture(t)
	dir := filepath.Join(root, "contents")

	// The version show reports is the one --expect-version takes.
	o := referee(t, root, "", "show", "s-007", "--output", "json")
	var shown struct {
		ID, Version, Phase string
		Object             map[string]any
	}
	if err := json.Unmarshal([]byte(o.stdout), &shown); err != nil || o.code != 0 {
		t.Fatalf("show: %v %+v", err, o)
	}
	if shown.ID != "s-007" || shown.Version != "35c3a310" || shown.Phase != "proved" || shown.Object["status"] != "true" {
		t.Errorf("show s-007: %+v", shown)
	}

	// REFEREE_ACTOR is the default actor; --actor wins over it.
	cmd := exec.Command(binary, "skill", "abandon", "--statement-id", "s-007", "--reason", "a, b, and c", "--expect-version", shown.Version, "--output", "json")
	cmd.Dir = root
	cmd.Env = []string{"REFEREE_NOW=" + now, "REFEREE_ACTOR=orchestrator"}
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	want := `{
  "change": "l-007",
  "skill": "abandon",
  "actor": "orchestrator",
  "at": "2026-01-08T12:00:00Z",
  "created": [],
  "modified": [
    "s-007"
  ]
}
`
	if string(out) != want {
		t.Errorf("json output:\n%s\nwant:\n%s", out, want)
	}
	var res store.Result
	if err := json.Unmarshal(out, &res); err != nil || res.Change != "l-007" || res.Actor != "orchestrator" {
		t.Errorf("result does not decode as store.Result: %v %+v", err, res)
	}
	st := readFile(t, filepath.Join(dir, "statement/s-007.json"))
	if !strings.Contains(st, "\"status\": \"abandoned\"") || !strings.Contains(st, "\"ABANDONED: a, b, and c\"") {
		t.Errorf("s-007 after abandon:\n%s", st)
	}
	// Now the version read before is stale: the conflict is reported before the
	// precondition (s-007 is already abandoned).
	referee(t, root, "", "skill", "abandon", "--statement-id", "s-007", "--expect-version", shown.Version).want(t, 1, "",
		"referee: s-007 changed since you read it (you saw version 35c3a310, it is now 52423f4b); read it again\n")
}

// Lists keep commas; --params supplies what flags do not, flags override --params, and
// sub_statements arrive as JSON.
func TestSkillParams(t *testing.T) {
	root := t.TempDir()
	referee(t, root, "", append([]string{"init"}, knights...)...).want(t, 0,
		"l-001 init by agent: created s-001, s-002, s-003, s-004, s-005, s-006, p-001\n", "")
	dir := filepath.Join(root, "contents")

	params := `{"problem_id": "p-001", "claim": "overridden", "premises": "(s-003) Alice says: I am a spy", "purpose": "to see"}`
	referee(t, root, params, "skill", "prob-core-statement", "--params", "-",
		"--claim", "Alice is the spy, and Olivia, Ivy are Knaves").want(t, 0,
		"l-002 prob-wrapup-statement by agent: created s-007; modified p-001\n", "")
	st := readFile(t, filepath.Join(dir, "statement/s-007.json"))
	if !strings.Contains(st, "\"conclusion\": [\n        \"Alice is the spy, and Olivia, Ivy are Knaves\"\n    ],\n    \"hypothesis\": [\n        \"(s-003) Alice says: I am a spy\"\n    ],") {
		t.Errorf("s-007:\n%s", st)
	}

	subs := `{"sub_statements": [
  {"claim": "Alice is not a Knight", "premises": ["(s-001) Each player is a Knight, a Knave or a Spy", "(s-003) Alice says: I am a spy"]},
  {"claim": "Alice is not a Knave", "premises": []}
], "rationale": "from --params"}`
	paramsFile := filepath.Join(root, "subs.json")
	writeFile(t, paramsFile, subs)
	referee(t, root, "", "skill", "state-setup-substatement", "--parent-statement-id", "s-007", "--params", paramsFile,
		"--rationale", "Alice's role decides the others").want(t, 0,
		"l-003 state-setup-substatement by agent: created s-008, s-009; modified s-007\n", "")
	st = readFile(t, filepath.Join(dir, "statement/s-007.json"))
	for _, frag := range []string{
		"\"preliminaries\": [\n        \"s-008\",\n        \"s-009\"\n    ],\n    \"status\": \"validating\",",
		"\"DECOMPOSED: Created s-008, s-009. Rationale: Alice's role decides the others\"",
	} {
		if !strings.Contains(st, frag) {
			t.Errorf("s-007 lacks %q:\n%s", frag, st)
		}
	}
	if got := readFile(t, filepath.Join(dir, "statement/s-009.json")); !strings.Contains(got, "\"conclusion\": [\n        \"Alice is not a Knave\"\n    ],\n    \"hypothesis\": [],") {
		t.Errorf("s-009:\n%s", got)
	}
	// The flag takes the same JSON.
	referee(t, root, "", "skill", "state-setup-substatement", "--parent-statement-id", "s-008", "--rationale", "r",
		"--sub-statements", `[{"claim": "A Knight tells the truth", "premises": "(s-001) Each player is a Knight, a Knave or a Spy"}]`).want(t, 0,
		"l-004 state-setup-substatement by agent: created s-010; modified s-008\n", "")
	referee(t, root, "", "skill", "state-setup-substatement", "--parent-statement-id", "s-008", "--rationale", "r",
		"--sub-statements", `[{"claim": "x", "premise": []}]`).want(t, 2, "",
		"referee: --sub-statements: item 1: unknown key \"premise\" (expected \"claim\" and \"premises\")\n")
	referee(t, root, "", "skill", "state-setup-substatement", "--parent-statement-id", "s-008", "--rationale", "r").want(t, 2, "",
		"referee: state-setup-substatement needs --sub-statements (a JSON list of {\"claim\": text, \"premises\": [text]})\n")
	// Numbers in --params: whole numbers only.
	referee(t, root, `{"statement_id": "s-007", "issue_number": 1.5, "updated_proof": "p", "change_description": "c"}`,
		"skill", "fix-patch-proof", "--params", "-").want(t, 2, "", "referee: --params: \"issue_number\": \"1.5\" is not a whole number\n")
}

func TestSkillHelp(t *testing.T) {
	root := t.TempDir()
	for _, s := range skill.Skills {
		o := referee(t, root, "", "skill", s.Name, "--help")
		if o.code != 0 || o.stderr != "" || o.stdout != skill.SkillUsage(s)+"\n"+commonFlagsHelp {
			t.Errorf("%s --help: %+v", s.Name, o)
		}
		for _, p := range s.Params {
			req := "optional"
			if p.Required {
				req = "required"
			}
			if !strings.Contains(o.stdout, "--"+p.Flag()+" "+skill.ParamMetavar(p)) || !strings.Contains(o.stdout, req+", "+skill.ParamKindText(p)+": "+p.Help) {
				t.Errorf("%s --help does not show %s", s.Name, p.Name)
			}
		}
	}
	// An alias shows the same help.
	alias := referee(t, root, "", "skill", "prob-core-statement", "--help")
	wrap, _ := skill.Lookup("prob-wrapup-statement")
	if alias.stdout != skill.SkillUsage(wrap)+"\n"+commonFlagsHelp {
		t.Errorf("alias help:\n%s", alias.stdout)
	}
	// Bare `referee skill` lists every skill with its parameters.
	o := referee(t, root, "", "skill")
	if o.code != 0 || !strings.HasPrefix(o.stdout, "Usage: referee skill <name> [flags]\n") {
		t.Errorf("referee skill: %+v", o)
	}
	for _, s := range skill.Skills {
		if !strings.Contains(o.stdout, paramSummary(s)) {
			t.Errorf("referee skill does not list %s", s.Name)
		}
	}
	if !strings.Contains(o.stdout, "prob-wrapup-statement (also prob-core-statement): ") ||
		!strings.Contains(o.stdout, "  --strategy TEXT    required; the proof strategy (one of direct, contradiction, case_analysis, backward)\n") {
		t.Errorf("referee skill:\n%s", o.stdout)
	}
}

func TestSkillsListAndInstall(t *testing.T) {
	root := t.TempDir()
	var want strings.Builder
	for _, s := range skill.Skills {
		line := s.Name + strings.Repeat(" ", len("state-propose-modification")-len(s.Name)) + "  " + s.Summary
		if len(s.Aliases) > 0 {
			line += " (also " + strings.Join(s.Aliases, ", ") + ")"
		}
		want.WriteString(line + "\n")
	}
	referee(t, root, "", "skills", "list").want(t, 0, want.String(), "")
	if !strings.Contains(want.String(), "prob-wrapup-statement       Create the statement that, once proved, resolves a problem (also prob-core-statement)\n") {
		t.Errorf("list:\n%s", want.String())
	}
	o := referee(t, root, "", "skills", "list", "--output", "json")
	var list []struct {
		Name    string
		Aliases []string
		Summary string
		Params  []struct {
			Name, Flag, Kind string
			Required         bool
		}
	}
	if err := json.Unmarshal([]byte(o.stdout), &list); err != nil || len(list) != len(skill.Skills) {
		t.Fatalf("list json: %v (%d skills)", err, len(list))
	}
	if list[0].Name != "prob-wrapup-statement" || strings.Join(list[0].Aliases, ",") != "prob-core-statement" ||
		list[0].Params[0].Flag != "--problem-id" || list[0].Params[0].Kind != "problem ID" || !list[0].Params[0].Required {
		t.Errorf("list json: %+v", list[0])
	}

	// In a folder with no skills of the agents': referee's own SKILL.md for every skill,
	// with the marker line, and referee's MCP entry.
	var wantOut strings.Builder
	for _, s := range skill.Skills {
		wantOut.WriteString("added .claude/skills/" + s.Name + "/SKILL.md\n")
	}
	wantOut.WriteString("added .mcp.json: referee's MCP server entry; the other servers kept\n")
	wantOut.WriteString("originals kept in .referee/skills-backup; referee skills uninstall puts them back\n")
	o = referee(t, root, "", "skills", "install", "--agent-command", "referee")
	if o.code != 0 || withoutNotes(o.stdout) != wantOut.String() || o.stderr != "" {
		t.Errorf("install: %d\n%s\n%s", o.code, o.stdout, o.stderr)
	}
	got := testutil.Files(t, filepath.Join(root, ".claude/skills"))
	if len(got) != len(skill.Skills) {
		t.Fatalf("install wrote %d files, want %d", len(got), len(skill.Skills))
	}
	for _, s := range skill.Skills {
		doc := got[s.Name+"/SKILL.md"]
		front, rest, ok := strings.Cut(strings.TrimPrefix(doc, "---\n"), "\n---\n")
		if !strings.HasPrefix(doc, "---\n") || !ok {
			t.Fatalf("%s: no front matter", s.Name)
		}
		if "---\n"+front+"\n---\n"+strings.TrimPrefix(rest, install.GeneratedMarker+"\n") != skill.SkillDoc(s) {
			t.Errorf("%s/SKILL.md is not SkillDoc with the marker line", s.Name)
		}
		lines := strings.Split(front, "\n")
		if len(lines) != 2 || lines[0] != "name: "+s.Name || !strings.HasPrefix(lines[1], "description: \"") {
			t.Errorf("%s front matter:\n%s", s.Name, front)
		}
	}
	// Re-running changes nothing; a file changed since is left as it is and named.
	writeFile(t, filepath.Join(root, ".claude/skills/abandon/SKILL.md"), "stale")
	o = referee(t, root, "", "skills", "install", "--agent-command", "referee")
	if !strings.Contains(o.stdout, "unchanged .claude/skills/check-confirm-proof/SKILL.md\n") ||
		!strings.Contains(o.stdout, "left .claude/skills/abandon/SKILL.md: changed since referee added it; left as it is\n") {
		t.Errorf("install again:\n%s", o.stdout)
	}
	o = referee(t, root, "", "skills", "install", "--dir", "elsewhere", "--output", "json", "--mcp-config", "", "--backup-dir", "b2")
	var report struct {
		DryRun  bool `json:"dry_run"`
		Changes []struct{ Path, Action string }
	}
	if err := json.Unmarshal([]byte(o.stdout), &report); err != nil || len(report.Changes) != len(skill.Skills) ||
		report.Changes[0].Path != "elsewhere/prob-wrapup-statement/SKILL.md" || report.Changes[0].Action != "added" {
		t.Errorf("install json: %v %+v", err, report)
	}
}

// withoutNotes drops the note about the agent build, which depends on the PATH.
func withoutNotes(s string) string {
	var out []string
	for _, l := range strings.SplitAfter(s, "\n") {
		if !strings.HasPrefix(l, "note: ") {
			out = append(out, l)
		}
	}
	return strings.Join(out, "")
}

// Every SKILL.md's sample command parses and validates: run as written by a shell, it
// gets past the parameters (exit 0, or 1 when the fixture's state refuses it), never 2.
func TestSkillDocSamplesRun(t *testing.T) {
	for _, s := range skill.Skills {
		t.Run(s.Name, func(t *testing.T) {
			root := copyFixture(t)
			code, out := shell(t, root, skill.SampleCommand(s))
			if code != 0 && code != 1 {
				t.Errorf("sample exits %d: %s\n%s", code, out, skill.SampleCommand(s))
			}
			if code == 1 && !strings.Contains(string(out), "referee: "+s.Name+": ") {
				t.Errorf("sample refused for another reason than a precondition: %s", out)
			}
		})
	}
}
