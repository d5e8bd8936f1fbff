package tui

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"referee/internal/testutil"
	"referee/live"
	"referee/model"
	"referee/model/pyjson"
	"referee/skill"
	"referee/store"
	"referee/tui/common"
)

func TestStartsOpenDownToTheStatements(t *testing.T) {
	m, _ := newTestModel(t, 120, 40)
	if got := selectedID(m); got != "p-001" {
		t.Fatalf("cursor starts on %q, want p-001", got)
	}
	var ids []string
	for _, r := range m.tree.Rows() {
		if r.Kind == live.RowStatement {
			ids = append(ids, r.ID)
		}
	}
	for _, want := range []string{"s-004", "s-008", "s-010", "s-014", "s-015", "s-016"} {
		if !slices.Contains(ids, want) {
			t.Errorf("statement %s is not visible on start; visible: %v", want, ids)
		}
	}
	// Premises are folded groups.
	for _, r := range m.tree.Rows() {
		if r.Kind == live.RowGroup && r.ID == live.GroupPremises && r.Open {
			t.Errorf("premises group %s starts open", r.Path)
		}
	}
}

func TestMoveAndFoldKeepTheCursorByPath(t *testing.T) {
	m, _ := newTestModel(t, 120, 40)
	keys(t, m, "j")
	if got := m.tree.Cursor(); got != "@s-004" {
		t.Fatalf("after j the cursor is %q, want @s-004", got)
	}
	keys(t, m, "k", "h") // fold p-001
	if m.tree.IsOpen("@p-001") {
		t.Fatal("h did not fold p-001")
	}
	keys(t, m, "j")
	if got := selectedID(m); got != "p-002" {
		t.Fatalf("after folding p-001, j goes to %q, want p-002", got)
	}
	keys(t, m, "k", "l")
	if !m.tree.IsOpen("@p-001") {
		t.Fatal("l did not unfold p-001")
	}
	keys(t, m, "G")
	rows := m.tree.Rows()
	if m.tree.Cursor() != rows[len(rows)-1].Path {
		t.Fatalf("G: cursor %q, want the last row %q", m.tree.Cursor(), rows[len(rows)-1].Path)
	}
	keys(t, m, "g")
	if selectedID(m) != "p-001" {
		t.Fatalf("g: cursor on %q", selectedID(m))
	}
}

func TestReloadKeepsCursorAndFolds(t *testing.T) {
	m, dir := newTestModel(t, 120, 40)
	// Put the cursor on s-015 and fold s-004's parent problem p-003 … then change files
	// so that rows are inserted above the cursor.
	keys(t, m, "/")
	typeText(t, m, "s-015")
	keys(t, m, "enter", "esc")
	path := m.tree.Cursor()
	if selectedID(m) != "s-015" {
		t.Fatalf("search did not reach s-015: %q", selectedID(m))
	}
	m.tree.SetOpen("@p-003", false)
	before := m.tree.index[path]

	// An agent adds a sub-statement to s-004 (above the cursor) and rewrites s-015.
	snap := m.shown.snap
	s4 := readFile(t, filepath.Join(dir, "statement/s-004.json"))
	s4 = strings.Replace(s4, `"preliminaries": []`, `"preliminaries": [
        "s-017"
    ]`, 1)
	if err := os.WriteFile(filepath.Join(dir, "statement/s-004.json"), []byte(s4), 0o644); err != nil {
		t.Fatal(err)
	}
	next := store.Reload(dir, snap, []string{"statement/s-004.json"})
	g, f := live.Derive(next)
	send(t, m, live.Frame{Snap: next, Graph: g, Forest: f, Paths: []string{"statement/s-004.json"}})
	if m.tree.Cursor() != path {
		t.Fatalf("cursor moved from %q to %q after a reload", path, m.tree.Cursor())
	}
	if m.tree.IsOpen("@p-003") {
		t.Fatal("fold of p-002/p-003 lost after a reload")
	}
	if m.tree.index[path] == before {
		t.Log("row index unchanged (the new row may be folded)")
	}
	if !m.status.flash["s-004"].After(fixedNow) {
		t.Fatal("changed s-004 does not flash")
	}
}

func TestSearch(t *testing.T) {
	m, _ := newTestModel(t, 120, 40)
	// An exact ID goes straight to the node.
	keys(t, m, "/")
	typeText(t, m, "s-016")
	keys(t, m, "enter")
	if selectedID(m) != "s-016" {
		t.Fatalf("search s-016 selected %q", selectedID(m))
	}
	keys(t, m, "esc")
	// Words of a claim: every statement mentioning "for every integer"? use "odd".
	keys(t, m, "/")
	typeText(t, m, "odd")
	keys(t, m, "enter")
	want := findIn(m.search.in, "odd")
	if len(want) < 1 {
		t.Fatal("no statement mentions odd")
	}
	if selectedID(m) != want[0] {
		t.Fatalf("first match %q, cursor on %q", want[0], selectedID(m))
	}
	keys(t, m, "/")
	typeText(t, m, "for every integer")
	keys(t, m, "enter")
	res := m.search.Results()
	if len(res) < 2 {
		t.Fatalf("want several matches for the words, got %v", res)
	}
	if selectedID(m) != res[0] {
		t.Fatalf("cursor %q, want first match %q", selectedID(m), res[0])
	}
	keys(t, m, "ctrl+n")
	if selectedID(m) != res[1] {
		t.Fatalf("ctrl+n: cursor %q, want %q", selectedID(m), res[1])
	}
	keys(t, m, "ctrl+p")
	if selectedID(m) != res[0] {
		t.Fatalf("ctrl+p: cursor %q, want %q", selectedID(m), res[0])
	}
	keys(t, m, "ctrl+p")
	if selectedID(m) != res[len(res)-1] || !strings.HasPrefix(m.status.message, fmt.Sprintf("wrapped to %d of %d", len(res), len(res))) {
		t.Fatalf("ctrl+p from the first match: cursor %q, message %q", selectedID(m), m.status.message)
	}
	// n still walks the review queue while a search is on.
	keys(t, m, "n")
	if selectedID(m) != m.reader().reviewOrder()[0] {
		t.Fatalf("n during a search: cursor %q, want the queue's first %q", selectedID(m), m.reader().reviewOrder()[0])
	}
	keys(t, m, "esc")
	if m.search.Query() != "" {
		t.Fatal("esc did not clear the search")
	}
}

func TestNextWaitingForAHuman(t *testing.T) {
	m, _ := newTestModel(t, 120, 40)
	var got []string
	for range 4 {
		keys(t, m, "n")
		got = append(got, selectedID(m))
	}
	want := []string{"s-014", "s-015", "s-016", "s-014"}
	if !slices.Equal(got, want) {
		t.Fatalf("n visits %v, want %v", got, want)
	}
	keys(t, m, "N")
	if selectedID(m) != "s-016" {
		t.Fatalf("N went to %q, want s-016", selectedID(m))
	}
}

func TestGapOpensOnTheFlaggedSentence(t *testing.T) {
	m, _ := newTestModel(t, 120, 40)
	keys(t, m, "n", "n") // s-015, has a gap
	st := m.shown.snap.Statements.Get("s-015")
	is := model.ParseIssue(st.Issues[0])
	idx, _ := model.LocateSentence(model.SplitSentences(proofText(st)), is.Sentence, is.SentenceText)
	if m.detail.sel.issue != 0 || m.detail.sel.sentence != idx {
		t.Fatalf("issue cursor %d sentence %d, want 0 and %d", m.detail.sel.issue, m.detail.sel.sentence, idx)
	}
	if !strings.Contains(screen(m), fmt.Sprintf("[%d]", idx+1)) {
		t.Fatal("the flagged sentence's number is not on screen")
	}
	keys(t, m, "]")
	if m.detail.sel.sentence != min(idx+1, len(model.SplitSentences(proofText(st)))-1) {
		t.Fatalf("] moved the sentence cursor to %d", m.detail.sel.sentence)
	}
	keys(t, m, "i")
	if m.detail.sel.sentence != idx {
		t.Fatalf("i: sentence cursor %d, want the issue's %d", m.detail.sel.sentence, idx)
	}
}

func TestConfirmDisabledShowsTheReason(t *testing.T) {
	m, _ := newTestModel(t, 120, 40)
	keys(t, m, "/")
	typeText(t, m, "s-008")
	keys(t, m, "enter", "C")
	if m.dlg.confirm != nil {
		t.Fatal("C on a true statement opened a confirmation")
	}
	want := `cannot confirm: s-008 is "true"; it needs a submitted proof awaiting verification`
	if m.status.message != want {
		t.Fatalf("message %q, want %q", m.status.message, want)
	}
	if !strings.Contains(screen(m), "cannot confirm: s-008") {
		t.Fatal("reason not shown in the status bar")
	}
}

func TestConfirmAsksForYAndOtherKeysCancel(t *testing.T) {
	for _, k := range []string{"enter", "esc", "n", "q"} {
		t.Run(k, func(t *testing.T) {
			m, dir := newTestModel(t, 120, 40)
			keys(t, m, "n") // s-014 awaiting verification
			keys(t, m, "C")
			if m.dlg.form == nil || m.dlg.form.Value("verification_summary") != "Proof checked and confirmed." {
				t.Fatalf("C did not ask for the summary, prefilled: %q", m.status.message)
			}
			keys(t, m, "enter")
			if m.dlg.confirm == nil {
				t.Fatalf("enter did not open the confirmation: %q", m.status.message)
			}
			if m.dlg.confirm.Change().Skill.Name != "check-confirm-proof" || m.dlg.confirm.Change().Target != "s-014" {
				t.Fatalf("confirmation for %s on %s", m.dlg.confirm.Change().Skill.Name, m.dlg.confirm.Change().Target)
			}
			if got := m.dlg.confirm.Change().Args; len(got) != 2 || got["statement_id"] != "s-014" || got["verification_summary"] != "Proof checked and confirmed." {
				t.Fatalf("args %v", got)
			}
			if m.dlg.confirm.Change().Version != m.shown.snap.Versions.Get("s-014") {
				t.Fatal("the confirmation does not carry the version the reviewer saw")
			}
			if !strings.Contains(screen(m), `status: "validating" → "true"`) {
				t.Fatalf("the confirmation does not show what will be written:\n%s", screen(m))
			}
			before := readFile(t, filepath.Join(dir, "statement/s-014.json"))
			keys(t, m, k)
			if m.dlg.confirm != nil {
				t.Fatal("still confirming")
			}
			if readFile(t, filepath.Join(dir, "statement/s-014.json")) != before {
				t.Fatalf("%s wrote the file", k)
			}
		})
	}
}

func TestConfirmWithYWritesWhatAgentCheckWrites(t *testing.T) {
	m, dir := newTestModel(t, 120, 40)
	keys(t, m, "n", "C", "enter", "y")
	data := readFile(t, filepath.Join(dir, "statement/s-014.json"))
	doc, err := pyjson.Parse([]byte(data))
	if err != nil {
		t.Fatal(err)
	}
	st := model.StatementFrom(doc)
	if st.Status != "true" || st.Reliability != 1 || lastLine(strings.Join(st.Progresses, "\n")) != "VERIFIED: Proof checked and confirmed." {
		t.Fatalf("s-014 after C y: status %q reliability %v progresses %q", st.Status, st.Reliability, st.Progresses)
	}
	e := model.ParseLogLine(1, lastLine(readFile(t, filepath.Join(dir, "history/log.jsonl"))))
	if e.By != "human" || e.Skill != "check-confirm-proof" || !slices.Equal(e.Modification, []string{"s-014"}) {
		t.Fatalf("log entry %+v", e)
	}
	if len(m.writes.done) != 1 || m.writes.done[0].Change != e.ID {
		t.Fatalf("session changes %v", m.writes.done)
	}
	if !strings.Contains(m.status.message, e.ID) {
		t.Fatalf("status message %q does not name %s", m.status.message, e.ID)
	}
	// The view follows (no watcher: the model reloads itself).
	if m.shown.snap.Statements.Get("s-014").Status != "true" {
		t.Fatal("the snapshot was not reloaded after the change")
	}

	// u undoes it, as a change of its own.
	keys(t, m, "u")
	if m.dlg.confirm == nil || m.dlg.confirm.Change().Undo == nil {
		t.Fatal("u did not ask to confirm the undo")
	}
	keys(t, m, "y")
	if got := model.StatementFrom(mustParse(t, readFile(t, filepath.Join(dir, "statement/s-014.json")))).Status; got != "validating" {
		t.Fatalf("after undo s-014 is %q", got)
	}
	e2 := model.ParseLogLine(1, lastLine(readFile(t, filepath.Join(dir, "history/log.jsonl"))))
	if e2.Skill != "undo" || e2.By != "human" {
		t.Fatalf("undo log entry %+v", e2)
	}
	if len(m.writes.done) != 0 {
		t.Fatal("the undone change is still in the session")
	}
}

func mustParse(t testing.TB, s string) pyjson.Value {
	t.Helper()
	v, err := pyjson.Parse([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestRejectPassesTheExactArguments(t *testing.T) {
	m, dir := newTestModel(t, 120, 40)
	keys(t, m, "n", "]", "]", "R")
	if m.dlg.form == nil {
		t.Fatalf("R did not open a form: %q", m.status.message)
	}
	sents := model.SplitSentences(proofText(m.shown.snap.Statements.Get("s-014")))
	if got := m.dlg.form.Value("sentence_number"); got != "3" {
		t.Fatalf("sentence number prefilled %q, want 3", got)
	}
	if got := m.dlg.form.Value("sentence_text"); got != model.NormalizeSpace(sents[2].Text) {
		t.Fatalf("sentence text prefilled %q", got)
	}
	// The first empty required field has the focus: explanation (after the error type).
	typeText(t, m, "The identity is asserted")
	keys(t, m, "enter")
	typeText(t, m, "Expand both sides")
	// Go back to the error type and choose unjustified_leap.
	keys(t, m, "up", "up", "right")
	keys(t, m, "ctrl+s")
	if m.dlg.confirm == nil {
		t.Fatalf("ctrl+s did not open the confirmation; form error %q", m.dlg.form.Err())
	}
	want := skill.Args{
		"statement_id":    "s-014",
		"sentence_number": 3,
		"sentence_text":   model.NormalizeSpace(sents[2].Text),
		"error_type":      "unjustified_leap",
		"explanation":     "The identity is asserted",
		"suggested_fix":   "Expand both sides",
	}
	if fmt.Sprint(m.dlg.confirm.Change().Args) != fmt.Sprint(want) {
		t.Fatalf("args\n got %v\nwant %v", m.dlg.confirm.Change().Args, want)
	}
	keys(t, m, "y")
	st := model.StatementFrom(mustParse(t, readFile(t, filepath.Join(dir, "statement/s-014.json"))))
	wantIssue := model.FormatIssue(1, 3, model.NormalizeSpace(sents[2].Text), "unjustified_leap", "The identity is asserted", "Expand both sides")
	if st.Status != "validating" || len(st.Issues) != 1 || st.Issues[0] != wantIssue { // P014: the counts say it waits for the fixer
		t.Fatalf("after R: status %q issues %q", st.Status, st.Issues)
	}
}

func TestConflictTellsTheReviewer(t *testing.T) {
	m, dir := newTestModel(t, 120, 40)
	keys(t, m, "n", "C", "enter")
	// An agent rewrites s-014 while the confirmation is open.
	p := filepath.Join(dir, "statement/s-014.json")
	changed := strings.Replace(readFile(t, p), `"count_usage": 0`, `"count_usage": 1`, 1)
	if err := os.WriteFile(p, []byte(changed), 0o644); err != nil {
		t.Fatal(err)
	}
	keys(t, m, "y")
	if !strings.Contains(m.status.message, "s-014 changed since you read it") {
		t.Fatalf("message %q", m.status.message)
	}
	if readFile(t, p) != changed {
		t.Fatal("the store wrote over the agent's version")
	}
	if m.shown.snap.Statements.Get("s-014").CountUsage != 1 {
		t.Fatal("the new version is not shown")
	}
}

func TestHelpAndPaletteListEverything(t *testing.T) {
	m, _ := newTestModel(t, 120, 40)
	keys(t, m, "?")
	if m.dlg.picker == nil {
		t.Fatal("? did not open help")
	}
	titles := map[string]bool{}
	for _, e := range m.dlg.picker.All() {
		titles[e.Key] = true
	}
	for _, k := range []string{"j/↓", "h/←", "g", "G", "tab", "enter", "esc", "/", "n", "N", "ctrl+n", "ctrl+p", "]", "[", "i", "z", "pgdn", "space", "mouse wheel", "C", "R", "F", "M", "P", "S", "L", "W", "O", "D", "A", "u", ":", "?", "q", "p"} {
		if !titles[k] {
			t.Errorf("help lacks %q", k)
		}
	}
	typeText(t, m, "confirm")
	if len(m.dlg.picker.Shown()) == 0 || m.dlg.picker.Shown()[0].Key != "C" {
		t.Fatalf("filter 'confirm' shows %v", m.dlg.picker.Shown())
	}
	if !strings.Contains(m.dlg.picker.Shown()[0].Disabled, `cannot confirm: p-001`) && !strings.Contains(m.dlg.picker.Shown()[0].Disabled, "select a statement") {
		t.Fatalf("C's reason in help: %q", m.dlg.picker.Shown()[0].Disabled)
	}
	keys(t, m, "esc")
	if m.dlg.picker != nil {
		t.Fatal("esc did not close help")
	}
	keys(t, m, ":")
	var names []string
	for _, e := range m.dlg.picker.All() {
		names = append(names, e.Title)
	}
	for _, s := range skill.Skills {
		if !slices.Contains(names, s.Name) {
			t.Errorf("palette lacks %s", s.Name)
		}
	}
	keys(t, m, "esc")
	// The palette runs a skill like its key: confirm on s-014.
	keys(t, m, "n", ":")
	typeText(t, m, "check-confirm")
	keys(t, m, "enter")
	if m.dlg.form == nil || m.dlg.form.Change.Skill.Name != "check-confirm-proof" {
		t.Fatal("palette enter did not start check-confirm-proof (its summary first)")
	}
}

func TestPatchOpensTheEditor(t *testing.T) {
	m, dir := newTestModel(t, 120, 40)
	keys(t, m, "n", "n") // s-015, open issue #1
	// Simulate the editor: the command returned by P is an exec; run the callback path.
	cmd := m.changer().startSkill("fix-patch-proof")
	if cmd == nil {
		t.Fatalf("P did not start the editor: %q", m.status.message)
	}
	cmd() // writes the proof for the editor (outside Update) and asks to run it
	// Find the temp file the editor would open and edit it ourselves.
	matches, _ := filepath.Glob(filepath.Join(os.TempDir(), "referee-s-015-proof-*.md"))
	if len(matches) == 0 {
		t.Fatal("no proof file for the editor")
	}
	path := matches[len(matches)-1]
	orig := proofText(m.shown.snap.Statements.Get("s-015"))
	edited := orig + "\n\nStep 3: Since $n(n+1)$ is even, $m$ is an integer."
	if readFile(t, path) != orig {
		t.Fatal("the editor's file does not hold the proof")
	}
	os.Remove(path)
	send(t, m, editorDoneMsg{text: edited, orig: orig, skill: "fix-patch-proof", target: "s-015", version: m.shown.snap.Versions.Get("s-015")})
	if m.dlg.form == nil || m.dlg.form.Value("issue_number") != "1" {
		t.Fatal("after the editor, no form with issue 1 prefilled")
	}
	typeText(t, m, "Show m is an integer")
	keys(t, m, "enter", "y")
	st := model.StatementFrom(mustParse(t, readFile(t, filepath.Join(dir, "statement/s-015.json"))))
	if proofText(st) != edited || st.Status != "validating" || len(st.Responses) != 1 {
		t.Fatalf("after P: status %q responses %q", st.Status, st.Responses)
	}
	if st.Responses[0] != model.FormatPatchResponse(1, 1, "Show m is an integer") {
		t.Fatalf("response %q", st.Responses[0])
	}
}

func TestTinySizesNeverPanic(t *testing.T) {
	m, _ := newTestModel(t, 120, 40)
	keys(t, m, "n", "n")
	for _, sz := range [][2]int{{20, 5}, {1, 1}, {0, 0}, {5, 2}, {30, 3}, {59, 10}, {60, 12}, {80, 24}, {200, 60}, {20, 5}} {
		send(t, m, tea.WindowSizeMsg{Width: sz[0], Height: sz[1]})
		for _, k := range []string{"j", "k", "]", "i", "tab", "?", "esc", ":", "esc", "C", "esc", "R", "esc"} {
			keys(t, m, k)
			out := m.Render()
			lines := strings.Split(out, "\n")
			if sz[1] > 0 && len(lines) > sz[1] {
				t.Fatalf("%dx%d after %q: %d lines", sz[0], sz[1], k, len(lines))
			}
			for i, l := range lines {
				if w := ansi.StringWidth(l); w > sz[0] {
					t.Fatalf("%dx%d after %q: line %d is %d wide: %q", sz[0], sz[1], k, i, w, ansi.Strip(l))
				}
			}
		}
	}
}

func TestMouseClickSelectsAndWheelScrolls(t *testing.T) {
	m, _ := newTestModel(t, 120, 40)
	send(t, m, tea.MouseClickMsg{X: 5, Y: 3, Button: tea.MouseLeft})
	if m.tree.Cursor() != m.tree.Rows()[2].Path {
		t.Fatalf("click on line 3 selected %q", m.tree.Cursor())
	}
	send(t, m, tea.MouseClickMsg{X: 80, Y: 3, Button: tea.MouseLeft})
	if m.lay.focus != focusDetail {
		t.Fatal("click on the detail did not focus it")
	}
	keys(t, m, "tab")
	keys(t, m, "/")
	typeText(t, m, "s-015")
	keys(t, m, "enter")
	before := m.detail.offset
	send(t, m, tea.MouseWheelMsg{X: 80, Y: 10, Button: tea.MouseWheelDown})
	if m.detail.offset <= before && len(m.detail.doc.Lines) > m.detail.height {
		t.Fatalf("wheel did not scroll the detail (offset %d)", m.detail.offset)
	}
}

func TestPauseCountsAndAppliesOnResume(t *testing.T) {
	m, dir := newTestModel(t, 120, 40)
	keys(t, m, "p")
	if !m.feed.paused {
		t.Fatal("p did not pause")
	}
	p := filepath.Join(dir, "statement/s-017.json")
	if err := os.WriteFile(p, []byte(strings.Replace(readFile(t, p), `"pending"`, `"abandoned"`, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	next := store.Reload(dir, m.shown.snap, []string{"statement/s-017.json"})
	g, f := live.Derive(next)
	send(t, m, live.Frame{Snap: next, Graph: g, Forest: f, Paths: []string{"statement/s-017.json"}})
	if m.shown.snap.Statements.Get("s-017").Status != "pending" {
		t.Fatal("a paused view changed")
	}
	if !strings.Contains(screen(m), "paused (1 file changed outside the log)") {
		t.Fatalf("status bar does not count the unlogged edit:\n%s", lastLine(screen(m)))
	}
	// One skill call writes several files (a new statement, its problem, the config,
	// the log): it is one change.
	sk, _ := skill.Lookup("prob-wrapup-statement")
	res, err := store.Run(dir, sk, skill.Args{"problem_id": "p-002", "claim": []string{"A new claim"}}, store.Options{Actor: "agent-solve"})
	if err != nil {
		t.Fatal(err)
	}
	paths := []string{"statement/" + res.Created[0] + ".json", "problem/p-002.json", "config.json", "history/log.jsonl"}
	next = store.Reload(dir, next, paths)
	g, f = live.Derive(next)
	send(t, m, live.Frame{Snap: next, Graph: g, Forest: f, Paths: paths})
	if !strings.Contains(screen(m), "paused (1 change waiting)") {
		t.Fatalf("status bar does not count one skill call as one change:\n%s", lastLine(screen(m)))
	}
	keys(t, m, "p")
	if m.shown.snap.Statements.Get("s-017").Status != "abandoned" {
		t.Fatal("resume did not apply the change")
	}
}

func TestSanitisedText(t *testing.T) {
	dir := testutil.Demo(t)
	p := filepath.Join(dir, "statement/s-014.json")
	evil := strings.Replace(readFile(t, p), `"For every integer`, `"\u001b]52;c;ZXZpbA==\u0007\u001b[2JFor every integer`, 1)
	if err := os.WriteFile(p, []byte(evil), 0o644); err != nil {
		t.Fatal(err)
	}
	m := openTestModel(t, dir, 120, 40)
	keys(t, m, "n")
	out := m.Render()
	if strings.Contains(out, "\x1b]52") || strings.Contains(out, "\x1b[2J") || strings.Contains(out, "\a") {
		t.Fatal("an escape sequence from a file reached the screen")
	}
	if !strings.Contains(out, "␛]52;c;ZXZpbA==") {
		t.Fatal("the escape is not shown as a visible stand-in")
	}
}

func TestBadDataDoesNotCrash(t *testing.T) {
	dir := testutil.Demo(t)
	w := func(rel, s string) {
		if err := os.WriteFile(filepath.Join(dir, rel), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// A cycle, a dangling reference, a half-written file, a file that is not an object.
	w("statement/s-020.json", `{"id": "s-020", "type": "normal", "conclusion": ["A"], "hypothesis": [], "preliminaries": ["s-021", "s-099"], "status": "pending", "proof": {"cot": [], "full": "", "ref": []}, "validation": {"issues": ["garbage"], "responses": ["[Response #1] nonsense"]}}`)
	w("statement/s-021.json", `{"id": "s-021", "type": "normal", "conclusion": ["B"], "hypothesis": [], "preliminaries": ["s-020"], "status": "weird", "proof": "a bare string", "validation": {"issues": [], "responses": []}}`)
	w("statement/s-022.json", `{"id": "s-022", "conclu`)
	w("statement/s-014.json", `{"id": "s-014",`) // half-written: keeps nothing (fresh load)
	w("problem/p-009.json", `[1, 2]`)
	m := openTestModel(t, dir, 120, 40)
	keys(t, m, "G")
	for range len(m.tree.Rows()) + 2 {
		keys(t, m, "l", "k")
		_ = m.Render()
	}
	out := screen(m)
	if !strings.Contains(out, "unattached") {
		t.Fatalf("no unattached group:\n%s", out)
	}
	var kinds []live.RowKind
	for _, r := range m.tree.Rows() {
		kinds = append(kinds, r.Kind)
	}
	if !slices.Contains(kinds, live.RowCycle) || !slices.Contains(kinds, live.RowMissing) {
		t.Fatalf("cycle or missing row not shown: %v", kinds)
	}
}

// hugeTree is a synthetic 100k-statement tree, wide and deep: each statement has up to
// 3 children, all under one problem.
func hugeTree() *live.Forest {
	snap := &model.Snapshot{Problems: map[string]*model.Problem{}, Statements: model.ObjectsOf(map[string]*model.Statement{}), Versions: model.ObjectsOf(map[string]string{})}
	p := &model.Problem{ID: "p-001", Status: "unresolved", Objectives: []string{"big"}}
	snap.Problems["p-001"] = p
	const n = 100_000
	cur := "s-000"
	var ids []string
	for range n {
		cur, _ = model.NextID(cur)
		ids = append(ids, cur)
	}
	for i, sid := range ids {
		st := &model.Statement{ID: sid, Status: "pending", Conclusion: []string{"claim " + sid}}
		for c := 3*i + 1; c <= 3*i+3 && c < n; c++ {
			st.Preliminaries = append(st.Preliminaries, ids[c])
		}
		snap.Statements.Set(sid, st)
	}
	p.Progresses = []string{ids[0]}
	_, f := live.Derive(snap)
	return f
}

// TestHugeTreeOpensFully checks that a 100k-node tree is listed whole (its speed is
// BenchmarkTreeMove100k's).
func TestHugeTreeOpensFully(t *testing.T) {
	if testing.Short() {
		t.Skip("big")
	}
	tr := newTree()
	tr.SetSize(60, 40)
	tr.SetForest(hugeTree())
	if got := len(tr.Rows()); got != 100_001 {
		t.Fatalf("%d rows, want all 100001 open", got)
	}
	last := tr.Rows()[len(tr.Rows())-1].ID
	tr.moveTo(len(tr.Rows()) - 1)
	view := ansi.Strip(strings.Join(tr.View(common.Common{Styles: newTestStyles(), Focused: true}), "\n"))
	if lines := strings.Split(view, "\n"); len(lines) != 40 || !strings.Contains(lines[39], last) {
		t.Fatalf("the last window does not end on %s:\n%s", last, view)
	}
}

// BenchmarkTreeMove100k moves the cursor one row and draws the tree pane of a synthetic
// 100k-node tree.
func BenchmarkTreeMove100k(b *testing.B) {
	tr := newTree()
	tr.SetSize(60, 40)
	tr.SetForest(hugeTree())
	st := newTestStyles()
	b.ResetTimer()
	for range b.N {
		if tr.cur == len(tr.Rows())-1 {
			tr.moveTo(0)
		}
		tr.moveTo(tr.cur + 1)
		_ = tr.View(common.Common{Styles: st, Focused: true})
	}
}
