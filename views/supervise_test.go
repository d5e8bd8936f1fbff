package views

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"referee/model"
	"referee/model/pyjson"
	"referee/themes"
)

func plainLines(d Doc) string { return ansi.Strip(strings.Join(d.Lines, "\n")) }

func TestActivityRowsSanitiseAgentText(t *testing.T) {
	st := themes.New(themes.None(true))
	e := ActivityEntry{ID: "l-009", At: "2026-11-20T09:04:00Z", Actor: "agent\x1b]0;x\x07-fix", Skill: "fix-patch-proof", SkillGuessed: true}
	got := ActivityHeader(st, e, 80, true)
	if strings.Contains(got, "\x1b]") || strings.Contains(got, "\a") {
		t.Fatalf("an escape sequence passed through: %q", got)
	}
	if got, want := ansi.Strip(got), "◷ l-009 11-20 09:04 agent␛]0;x␇-fix ~fix-patch-proof"; got != want {
		t.Fatalf("header %q, want %q", got, want)
	}
	oc := model.ObjectChange{ID: "s-007", Action: model.Modified, From: "pending", To: "validating", Notes: []string{"PROOF: x"}}
	if got, want := ansi.Strip(ActivityObject(st, oc, 80)), "  ✎ s-007 ○ pending → ◌ validating +PROOF"; got != want {
		t.Fatalf("object %q, want %q", got, want)
	}
	oc = model.ObjectChange{ID: "s-017", Action: model.Deleted, From: "pending"}
	if got, want := ansi.Strip(ActivityObject(st, oc, 80)), "  − s-017 was ○ pending"; got != want {
		t.Fatalf("deleted %q, want %q", got, want)
	}
	if got := ActivityObject(st, oc, 10); ansi.StringWidth(got) != 10 {
		t.Fatalf("cut to 10 cells: %q", got)
	}
}

func TestDiffDocFoldsUnchangedLines(t *testing.T) {
	st := themes.New(themes.None(true))
	var a, b []string
	for i := range 12 {
		a = append(a, "line "+string(rune('a'+i)))
	}
	b = append(b, a...)
	b[6] = "line CHANGED"
	doc := func(status string, lines []string) pyjson.Value {
		return pyjson.Obj(pyjson.Member{Key: "status", Value: pyjson.Str(status)},
			pyjson.Member{Key: "proof", Value: pyjson.Obj(pyjson.Member{Key: "full", Value: pyjson.Str(strings.Join(lines, "\n"))})})
	}
	d := DiffDoc(st, DiffView{ID: "s-007", From: "after l-002", To: "now", FromExists: true, ToExists: true,
		FromStatus: "pending", ToStatus: "true", Fields: model.DiffObject(doc("pending", a), doc("true", b))}, 60)
	want := `Diff of s-007  after l-002 → now

status  ○ pending → ✓ true

proof.full
  ⋯ 4 unchanged lines
    line e
    line f
  - line g
  + line CHANGED
    line h
    line i
  ⋯ 3 unchanged lines`
	if got := plainLines(d); got != want {
		t.Fatalf("diff:\n%s\nwant:\n%s", got, want)
	}
}

func TestRunsDocCountsAndTimes(t *testing.T) {
	st := themes.New(themes.None(true))
	now := time.Date(2026, 11, 21, 9, 0, 0, 0, time.UTC)
	d := RunsDoc(st, RunsState{Where: ".claude/ next to contents/", Read: true, Now: now, After: time.Minute,
		Runs: []RunInfo{{Path: ".claude/state.json", Session: "s1", Messages: 3, SessionMessages: 1,
			InputTokens: 999, OutputTokens: 12_345, CacheRead: 2_500_000, CostUSD: 0.5, Modified: now.Add(-90 * time.Second), Handoff: true}}}, 80)
	want := `  session: s1 (new session: handoff)
  messages: 3 in all · 1 this session
  tokens: in 999 · out 12k · cache write 0 · cache read 2.5M
  cost: $0.50
  last activity: 1m ago (2026-11-21 08:58:30)`
	if got := plainLines(d); !strings.HasSuffix(got, want) {
		t.Errorf("runs pane:\n%s\nwant it to end with:\n%s", got, want)
	}
}
