package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"referee/internal/testutil"
)

var wrapUp = []string{"skill", "prob-wrapup-statement", "--problem-id", "p-001", "--claim", "Ivy is a Knave"}

// openProblem is the fixture with p-001 open again (as after l-003), so wrap-up applies.
func openProblem(t *testing.T) string {
	root := copyFixture(t)
	writeFile(t, filepath.Join(root, "contents", "problem", "p-001.json"), readFile(t, filepath.Join(fixture, "history", "l-003", "p-001.json")))
	return root
}

// An agent's own tool (which keeps no journal) stopped after writing config.json and a
// backup: check explains it, repair --dry-run says what it would do, repair does it.
func TestRepairCLI(t *testing.T) {
	root := openProblem(t)
	c := filepath.Join(root, "contents")
	referee(t, root, "", wrapUp...).want(t, 0, "l-007 prob-wrapup-statement by agent: created s-008; modified p-001\n", "")
	config := filepath.Join(c, "config.json")
	writeFile(t, config, strings.Replace(readFile(t, config), `"l-007"`, `"l-008"`, 1))
	os.Mkdir(filepath.Join(c, "history", "l-008"), 0o755)
	writeFile(t, filepath.Join(c, "history", "l-008", "p-001.json"), readFile(t, filepath.Join(c, "problem", "p-001.json")))
	writeFile(t, filepath.Join(c, "problem", ".p-001.json.tmp-42"), "{")

	const (
		counter = `config.json: the "l" counter is l-008, ahead of the log and of every file: an ID issued to a change that was interrupted before its log line`
		folder  = "history/l-008/: l-008: change l-008 left a backup but no log line, and did not write its object (p-001 still equals its backup)"
		temp    = "problem/.p-001.json.tmp-42: a temp file left by an interrupted write"
		orphan  = "warning: statement/s-007.json: s-007: nothing references it (did an agent stop between creating and linking it?)\n"
	)
	referee(t, root, "", "check").want(t, 0, "warning: "+counter+" (referee repair would set it back to l-007)\n"+
		"warning: history/l-008/: l-008: change l-008 left a backup but no log line, and did not write its object (p-001 still equals its backup) (referee repair would remove the folder)\n"+
		"warning: "+temp+" (referee repair would remove it)\n"+orphan+"0 errors, 4 warnings\n", "")
	before := testutil.Files(t, root)
	referee(t, root, "", "repair", "--dry-run").want(t, 0,
		temp+": would remove it\n"+folder+": would remove the folder\n"+counter+": would set it back to l-007\n3 to repair, 0 refused\n", "")
	sameTree(t, testutil.Files(t, root), before)
	referee(t, root, "", "repair").want(t, 0,
		temp+": removed it\n"+folder+": removed the folder\n"+counter+": set it back to l-007\n3 repaired, 0 refused\n", "")
	referee(t, root, "", "check").want(t, 0, orphan+"0 errors, 1 warning\n", "")
	referee(t, root, "", "repair").want(t, 0, "nothing to repair\n", "")
	// The next change takes l-008, as if nothing had happened.
	referee(t, root, "", "skill", "abandon", "--statement-id", "s-008").want(t, 0, "l-008 abandon by agent: modified s-008\n", "")
}

// What needs a guess is refused, with exit 1, and nothing is changed.
func TestRepairRefusesCLI(t *testing.T) {
	root := openProblem(t)
	c := filepath.Join(root, "contents")
	referee(t, root, "", wrapUp...)
	os.Mkdir(filepath.Join(c, "history", "l-008"), 0o755)
	writeFile(t, filepath.Join(c, "history", "l-008", "p-001.json"), readFile(t, filepath.Join(fixture, "problem", "p-001.json")))
	before := testutil.Files(t, root)
	const why = "history/l-008/: l-008: change l-008 left backups but no log line, and problem/p-001.json differs from its backup history/l-008/p-001.json: referee repair will not guess whether l-008 wrote it; compare the two, keep the right one, then delete history/l-008/"
	referee(t, root, "", "repair").want(t, 1, "refused: "+why+"\n0 repaired, 1 refused\n", "")
	sameTree(t, testutil.Files(t, root), before)
	out := referee(t, root, "", "repair", "--output", "json")
	var rep struct {
		DryRun  bool `json:"dry_run"`
		Done    []map[string]string
		Refused []map[string]string
	}
	if out.code != 1 || json.Unmarshal([]byte(out.stdout), &rep) != nil || len(rep.Done) != 0 || len(rep.Refused) != 1 ||
		rep.Refused[0]["path"] != "history/l-008/" || rep.Refused[0]["object"] != "l-008" {
		t.Errorf("repair --output json: exit %d\n%s", out.code, out.stdout)
	}
	check := referee(t, root, "", "check")
	if check.code != 1 || !strings.Contains(check.stdout, "error: "+why+"\n") {
		t.Errorf("check: exit %d\n%s", check.code, check.stdout)
	}
}
