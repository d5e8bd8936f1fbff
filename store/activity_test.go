package store

import (
	"encoding/json"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"referee/internal/testutil"
	"referee/model"
	"referee/model/pyjson"
	"referee/skill"
)

// summary is a change on one line, for exact comparisons.
func summary(c Change) string {
	var objs []string
	for _, oc := range c.Objects {
		s := oc.Action + " " + oc.ID + " " + oc.From + ">" + oc.To
		if len(oc.Fields) > 0 {
			s += " [" + strings.Join(oc.Fields, " ") + "]"
		}
		for _, n := range oc.Notes {
			if tag := model.ParseProgress(n).Tag; tag != "" {
				s += " +" + tag
			}
		}
		objs = append(objs, s)
	}
	return strings.Join([]string{c.ID, c.At, c.Actor, c.Skill, c.GuessedActor, c.GuessedSkill}, "|") + ": " + strings.Join(objs, ", ")
}

// The fixture's lines are the agents' own: no time, actor or skill. The transitions come
// from the backups and the skills are guessed from them.
func TestActivityFixture(t *testing.T) {
	testutil.Need(t, fixtureDir)
	snap, err := Load(fixtureDir)
	if err != nil {
		t.Fatal(err)
	}
	changes, err := Activity(fixtureDir, snap)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range changes {
		got = append(got, summary(c))
	}
	want := []string{
		"l-001|||||init: created s-001 >true, created s-002 >true, created s-003 >true, created s-004 >true, created s-005 >true, created s-006 >true, created p-001 >unresolved",
		"l-002||||agent-solve|prob-wrapup-statement: created s-007 >pending",
		"l-003||||agent-solve|prob-wrapup-statement: modified p-001 unresolved>unresolved [progresses]",
		"l-004||||agent-prove|state-complete-proof: modified s-007 pending>validating [status progresses proof.full proof.ref] +PROOF",
		"l-005||||agent-check|check-confirm-proof: modified s-007 validating>true [status reliability progresses] +VERIFIED",
		"l-006||||agent-solve|prob-finish-up: modified p-001 unresolved>resolved [status solution.cot solution.full solution.ref]",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("activity\n got %q\nwant %q", got, want)
	}
	if c := changes[3]; c.SkillOrGuess() != "~state-complete-proof" || c.ActorOrGuess() != "~agent-prove" || !c.Touches("s-007") || c.Touches("p-001") {
		t.Errorf("l-004: %q %q", c.SkillOrGuess(), c.ActorOrGuess())
	}
	if _, err := Activity("/nonexistent", snap); err == nil {
		t.Error("Activity on a missing folder did not fail")
	}
}

// Strip referee's keys from the demo's log and guess every skill back: the guesses must
// match what the lines said, except where the change itself cannot tell.
func TestActivityGuessesTheDemo(t *testing.T) {
	dir := testutil.Copy(t, demoDir)
	orig, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, e := range orig.Log {
		doc := e.Document()
		var keep []pyjson.Member
		for _, m := range doc.Obj {
			if m.Key != "at" && m.Key != "by" && m.Key != "skill" {
				keep = append(keep, m)
			}
		}
		doc.Obj = keep
		lines = append(lines, string(pyjson.EncodeLine(doc)))
	}
	if err := os.WriteFile(filepath.Join(dir, LogFile), []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	snap, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	changes := NewHistory(dir, snap).Activity()
	if len(changes) != 38 {
		t.Fatalf("%d changes", len(changes))
	}
	// l-037: agent-solve created s-017 and died before linking it; nothing says why
	// it was made.
	unknowable := map[string]bool{"l-037": true}
	for i, c := range changes {
		said := orig.Log[i].Skill
		if c.Skill != "" || c.At != "" || c.Actor != "" {
			t.Errorf("%s still has %q %q %q", c.ID, c.Skill, c.At, c.Actor)
		}
		switch {
		case unknowable[c.ID]:
			if c.GuessedSkill != "" {
				t.Errorf("%s: guessed %q from nothing", c.ID, c.GuessedSkill)
			}
		case c.GuessedSkill != said:
			t.Errorf("%s: guessed %q, the line said %q", c.ID, c.GuessedSkill, said)
		}
		if agent := orig.Log[i].By; c.GuessedActor != "" && c.GuessedActor != agent {
			t.Errorf("%s: guessed actor %q, the line said %q", c.ID, c.GuessedActor, agent)
		}
	}
}

// With its own keys the demo's log needs no guessing; its changes serialise as the CLI
// prints them in JSON.
func TestActivityDemo(t *testing.T) {
	snap, err := Load(demoDir)
	if err != nil {
		t.Fatal(err)
	}
	changes := NewHistory(demoDir, snap).Activity()
	want := map[int]string{
		5:  "l-006|2026-11-20T09:20:00Z|agent-fix|fix-patch-proof||: modified s-004 validating>validating [proof.full validation.responses]",
		6:  "l-007|2026-11-20T09:23:00Z|agent-check|check-confirm-proof||: modified s-004 validating>false [status reliability progresses] +DISPROOF VERIFIED",
		27: "l-028|2026-11-20T10:53:00Z|human|abandon||: modified s-013 validating>abandoned [status progresses] +ABANDONED",
		28: "l-029|2026-11-20T10:55:00Z|agent-fix|fix-create-substatement||: created s-014 >pending, modified s-012 validating>validating [preliminaries validation.responses]",
		36: "l-037|2026-11-20T11:30:00Z|agent-solve|prob-wrapup-statement||: created s-017 >pending",
	}
	for i, w := range want {
		if got := summary(changes[i]); got != w {
			t.Errorf("change %d\n got %s\nwant %s", i+1, got, w)
		}
	}
	data, err := json.Marshal(changes[6])
	if err != nil {
		t.Fatal(err)
	}
	const wantJSON = `{"id":"l-007","line":7,"at":"2026-11-20T09:23:00Z","actor":"agent-check","skill":"check-confirm-proof","created":[],"modified":["s-004"],"deleted":[],"objects":[{"id":"s-004","action":"modified","from":"validating","to":"false","fields":["status","reliability","progresses"],"notes":["DISPROOF VERIFIED: 3 steps checked. $7$ is a prime $\\equiv 3 \\pmod{4}$ and $4 \\cdot 7 - 1 = 27 = 3^3$ is composite, so the claim fails at $p = 7$."]}]}`
	if string(data) != wantJSON {
		t.Errorf("json\n got %s\nwant %s", data, wantJSON)
	}
	h := NewHistory(demoDir, snap)
	if from := h.ActivityFrom(36); len(from) != 2 || from[0].ID != "l-037" || h.ActivityFrom(38) != nil {
		t.Errorf("ActivityFrom(36): %d changes", len(from))
	}
}

// An edit outside the log (an agent's in-place write, by hand) after a referee change is
// shown as what it is: the change's log line records the version it wrote, and the
// activity says the object changed outside the log, since (the file now) or before the
// next change that backed it up — instead of crediting the edit to the change.
func TestActivitySaysWhatChangedOutsideTheLog(t *testing.T) {
	dir := testutil.Copy(t, fixtureDir)
	write(t, dir, "statement/s-007.json", read(t, fixtureDir, "history/l-005/s-007.json"))
	first := mustRun(t, dir, "check-reject-proof", skill.Args{"statement_id": "s-007", "sentence_number": 2, "sentence_text": "x",
		"error_type": "gap", "explanation": "e", "suggested_fix": "f"})
	outside := func() map[string]string {
		t.Helper()
		snap, err := Load(dir)
		if err != nil {
			t.Fatal(err)
		}
		changes, err := Activity(dir, snap)
		if err != nil {
			t.Fatal(err)
		}
		got := map[string]string{}
		for _, c := range changes {
			for _, oc := range c.Objects {
				if oc.Outside != "" {
					got[c.ID+" "+oc.ID] = oc.OutsideText()
				}
			}
		}
		return got
	}
	if got := outside(); len(got) != 0 {
		t.Fatalf("nothing was edited outside the log, yet %v", got)
	}
	// An agent edits the proof in place, without a log line.
	path := filepath.Join(dir, "statement", "s-007.json")
	data, _ := os.ReadFile(path)
	if err := os.WriteFile(path, []byte(strings.Replace(string(data), `"count_usage": 0`, `"count_usage": 3`, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	if got, want := outside(), map[string]string{first.Change + " s-007": "changed outside the log since (shown as it is now)"}; !maps.Equal(got, want) {
		t.Fatalf("after the in-place edit: %v, want %v", got, want)
	}
	second := mustRun(t, dir, "fix-patch-proof", skill.Args{"statement_id": "s-007", "issue_number": 1, "updated_proof": "We prove this statement as follows. QED.", "change_description": "c"})
	if got, want := outside(), map[string]string{first.Change + " s-007": "changed outside the log before " + second.Change + " (shown with that edit)"}; !maps.Equal(got, want) {
		t.Fatalf("after the next change: %v, want %v", got, want)
	}
}
