package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// With statement/ or history/ a link, reads refuse as writes do: a non-zero exit and the
// reason, not an empty folder.
func TestReadsRefuseAFolderThatIsALink(t *testing.T) {
	for _, sub := range []string{"statement", "history"} {
		root := copyFixture(t)
		c := filepath.Join(root, "contents")
		if err := os.Rename(filepath.Join(c, sub), filepath.Join(root, "elsewhere")); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink("../elsewhere", filepath.Join(c, sub)); err != nil {
			t.Fatal(err)
		}
		for _, args := range [][]string{{"status"}, {"show", "s-001"}, {"log"}, {"graveyard"}, {"show", "p-001", "--at", "l-002"}} {
			referee(t, root, "", args...).want(t, 1, "",
				"referee: "+sub+" is a symbolic link (links are not followed); referee does not read or write through links in a contents folder\n")
		}
	}
}

// A backup folder that is a link (history/l-003 → elsewhere) is refused by rewind and
// show --at, as a backup file that is a link is.
func TestBackupFolderLinkRefused(t *testing.T) {
	root := copyFixture(t)
	c := filepath.Join(root, "contents")
	if err := os.Rename(filepath.Join(c, "history", "l-003"), filepath.Join(root, "elsewhere")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("../../elsewhere", filepath.Join(c, "history", "l-003")); err != nil {
		t.Fatal(err)
	}
	const why = "history/l-003/p-001.json, which holds p-001 as it was after l-002, is unusable: its folder is a link or not a folder (links are not followed)\n"
	referee(t, root, "", "rewind", "l-002", "--dry-run").want(t, 2, "", "referee: rewind: "+why)
	referee(t, root, "", "rewind", "l-002").want(t, 2, "", "referee: rewind: "+why)
	referee(t, root, "", "show", "p-001", "--at", "l-002").want(t, 2, "",
		"referee: history/l-003/: the backup's folder is a link or not a folder (links are not followed); referee reads no backup through it\n")
}

// A journal left by an interrupted change: check fails, and a skill refuses naming
// referee repair; after repair both go on.
func TestPendingJournalBlocksWritesAndFailsCheck(t *testing.T) {
	root := copyFixture(t)
	c := filepath.Join(root, "contents")
	// What a branch save killed before its log line leaves: a journal of no object.
	cfg, err := os.ReadFile(filepath.Join(c, "config.json"))
	if err != nil {
		t.Fatal(err)
	}
	line := `{"l-007": {"creation": [], "modification": []}, "current": [], "at": "2026-01-08T12:00:00Z", "by": "tester", "skill": "branch save", "branch": "fix", "branch_before": "main", "versions": {}}`
	after := strings.Replace(string(cfg), `"l-006"`, `"l-007"`, 1)
	journal, _ := json.Marshal(map[string]any{"change": "l-007", "line": line, "config_before": string(cfg), "config_after": after, "objects": []any{}})
	writeFile(t, filepath.Join(c, "history", ".pending-l-007.json"), string(journal))
	writeFile(t, filepath.Join(c, "config.json"), after)
	out := referee(t, root, "", "check")
	if out.code != 1 || !strings.Contains(out.stdout, "error: history/.pending-l-007.json: l-007: change l-007 (branch save by tester) was interrupted after writing config.json (it changes no object) but before its log line; every write is refused until referee repair is run") {
		t.Errorf("check with a journal left: exit %d\n%s", out.code, out.stdout)
	}
	referee(t, root, "", "skill", "abandon", "--statement-id", "s-007", "--reason", "x").want(t, 1, "",
		"referee: abandon: a change was interrupted (history/.pending-l-007.json is left); nothing was changed: run `referee repair` first\n")
	if out := referee(t, root, "", "repair"); out.code != 0 {
		t.Fatalf("repair: %d %s %s", out.code, out.stdout, out.stderr)
	}
	if out := referee(t, root, "", "check"); out.code != 0 {
		t.Errorf("check after repair: %d %s", out.code, out.stdout)
	}
}

// A FIFO among the Claude transcripts (a project's and a session's subagents folder)
// is skipped: runs and why finish. A tool name with escape bytes arrives inert in
// why --output json.
func TestTranscriptsHostile(t *testing.T) {
	root, claude := sessionsFixture(t)
	hostile := filepath.Join(t.TempDir(), "claude")
	if err := os.CopyFS(hostile, os.DirFS(claude)); err != nil {
		t.Fatal(err)
	}
	project := filepath.Join(hostile, "projects", "-work-mra-demo")
	session := filepath.Join(project, "7f3c2a10-5b1e-4c2d-9a8e-2f6d1c0b9e41")
	for _, p := range []string{filepath.Join(project, "fifo.jsonl"), filepath.Join(session, "subagents", "agent-fifo.jsonl")} {
		if err := syscall.Mkfifo(p, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	sub := filepath.Join(session, "subagents", "agent-a3f1a18.jsonl")
	data, err := os.ReadFile(sub)
	if err != nil {
		t.Fatal(err)
	}
	evil := strings.Replace(string(data), `"name":"mcp__referee__check_reject_proof"`, `"name":"mcp__referee__check_reject_proof\u001b]52;c;aGk=\u0007\u202e"`, 1)
	if evil == string(data) {
		t.Fatal("the fixture's call is not where the test expects it")
	}
	if err := os.WriteFile(sub, []byte(evil), 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"--claude-dir", hostile, "--project", "/work/mra-demo"}
	done := make(chan outcome, 2)
	go func() { done <- referee(t, root, "", append([]string{"why", "l-026", "--output", "json"}, args...)...) }()
	go func() { done <- referee(t, root, "", append([]string{"runs", "--output", "json"}, args...)...) }()
	for range 2 {
		select {
		case out := <-done:
			if out.code != 0 {
				t.Errorf("exit %d: %s", out.code, out.stderr)
			}
			if strings.Contains(out.stdout, `"change": "l-026"`) {
				var att struct {
					Call struct {
						Tool string `json:"tool"`
					} `json:"call"`
				}
				if err := json.Unmarshal([]byte(out.stdout), &att); err != nil {
					t.Fatal(err)
				}
				if strings.ContainsAny(att.Call.Tool, "\x1b\x07\u202e") || !strings.HasPrefix(att.Call.Tool, "mcp__referee__check_reject_proof") {
					t.Errorf("why --output json: .call.tool = %q", att.Call.Tool)
				}
			}
		case <-time.After(60 * time.Second):
			t.Fatal("runs or why hangs on a FIFO among the transcripts")
		}
	}
}
