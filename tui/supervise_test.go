package tui

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"referee/internal/testutil"
	"referee/live"
	"referee/model"
	"referee/skill"
	"referee/store"
	"referee/tui/common"
)

// knights is the real run of the issue (six changes; read-only: tests change a copy).
var knights = testutil.Path("fixtures/mra-knights/contents")

func openKnights(t *testing.T, w, h int) (*Model, string) {
	t.Helper()
	dir := testutil.Copy(t, knights)
	return openTestModel(t, dir, w, h), dir
}

// headers lists the change IDs of the activity rows, top to bottom.
func headers(m *Model) []string {
	var ids []string
	for _, r := range m.activity.rows {
		if r.object < 0 {
			ids = append(ids, m.activity.changes[r.change].ID)
		}
	}
	return ids
}

func detailText(m *Model) string { return ansi.Strip(strings.Join(m.detail.doc.Lines, "\n")) }

func statusLine(m *Model, i int) string { return ansi.Strip(m.statusLines()[i]) }

func TestActivityPaneListsEveryChangeNewestFirst(t *testing.T) {
	m, _ := newTestModel(t, 120, 40)
	keys(t, m, "a")
	if m.lay.side != sideActivity || m.lay.focus != focusDetail {
		t.Fatalf("a: side %d focus %d, want the activity with the focus", m.lay.side, m.lay.focus)
	}
	h := headers(m)
	if len(h) != 38 || h[0] != "l-038" || h[37] != "l-001" {
		t.Fatalf("activity lists %d changes from %v", len(h), h[:min(3, len(h))])
	}
	if got := m.activity.rows[:3]; !slices.Equal(got, []actRow{{37, -1, 0}, {37, 0, 0}, {36, -1, 0}}) {
		t.Fatalf("first rows %v", got)
	}
	scr := screen(m)
	contains(t, "screen", scr,
		"Activity · 38 changes, newest first",
		"l-038 11-20 11:34 agent-prove state-complete-proof",
		"  ✎ s-014 ○ pending → ◌ validating +PROOF",
		"l-037 11-20 11:30 agent-solve prob-wrapup-statement",
		"  + s-017 ○ pending",
	)
	keys(t, m, "a")
	if m.lay.side != sideDetail {
		t.Fatalf("a again: side %d, want the detail", m.lay.side)
	}
}

func TestActivityMarksGuessedActorsAndSkills(t *testing.T) {
	m, _ := openKnights(t, 120, 40)
	keys(t, m, "a")
	scr := screen(m)
	contains(t, "screen", scr,
		"l-006 — ~agent-solve ~prob-finish-up",
		"  ✎ p-001 ◇ open → ◆ solved",
		"l-004 — ~agent-prove ~state-complete-proof",
		"  ✎ s-007 ○ pending → ◌ validating +PROOF",
		"l-002 — ~agent-solve ~prob-wrapup-statement",
		"  + s-007 ○ pending",
	)
}

func TestActivityFilterByObjectAndActor(t *testing.T) {
	m, _ := newTestModel(t, 120, 40)
	keys(t, m, "a", "/")
	typeText(t, m, "s-015")
	keys(t, m, "enter")
	if got := headers(m); !slices.Equal(got, []string{"l-034", "l-032", "l-030"}) {
		t.Fatalf("filter s-015: %v", got)
	}
	if !strings.Contains(screen(m), "Activity · 3 of 38 changes") || !strings.Contains(screen(m), "filter: s-015") {
		t.Fatalf("the filter is not shown:\n%s", screen(m))
	}
	keys(t, m, "esc")
	if got := len(headers(m)); got != 38 || m.activity.filter.Value() != "" {
		t.Fatalf("esc: %d changes, filter %q", got, m.activity.filter.Value())
	}
	keys(t, m, "/")
	typeText(t, m, "agent-fix")
	keys(t, m, "enter")
	if got := headers(m); !slices.Equal(got, []string{"l-036", "l-029", "l-017", "l-006"}) {
		t.Fatalf("filter agent-fix: %v", got)
	}
	// esc with a filter clears it; esc again closes the pane.
	keys(t, m, "esc", "esc")
	if m.lay.side != sideDetail {
		t.Fatalf("esc esc: side %d", m.lay.side)
	}
}

func TestActivityEnterGoesToTheObject(t *testing.T) {
	m, _ := newTestModel(t, 120, 40)
	keys(t, m, "a", "j", "j", "j") // l-038, s-014, l-037, s-017
	if got := m.activity.Target(); got != "s-017" {
		t.Fatalf("row 4 targets %q", got)
	}
	keys(t, m, "enter")
	if selectedID(m) != "s-017" || m.lay.side != sideDetail {
		t.Fatalf("enter: cursor on %q, side %d", selectedID(m), m.lay.side)
	}
	// The pane keeps its place.
	keys(t, m, "a")
	if m.activity.cur != 3 {
		t.Fatalf("activity cursor %d after coming back, want 3", m.activity.cur)
	}
}

// TestActivityFollowsTheLog: a change made from outside appears at the top, and a
// cursor at the top stays on the newest change.
func TestActivityFollowsTheLog(t *testing.T) {
	m, dir := newTestModel(t, 120, 40)
	keys(t, m, "a")
	sk, _ := skill.Lookup("check-confirm-proof")
	if _, err := store.Run(dir, sk, skill.Args{"statement_id": "s-014"}, store.Options{Actor: "agent-check"}); err != nil {
		t.Fatal(err)
	}
	runCmds(t, m, m.loader().reloadAll())
	h := headers(m)
	if len(h) != 39 || h[0] != "l-039" {
		t.Fatalf("after an outside change the activity starts %v (%d)", h[:2], len(h))
	}
	if m.activity.cur != 0 {
		t.Fatalf("cursor %d, want it on the newest change", m.activity.cur)
	}
	if !strings.Contains(screen(m), "l-039 ") || !strings.Contains(screen(m), "agent-check check-confirm-proof") {
		t.Fatalf("l-039 is not shown:\n%s", screen(m))
	}
	if c := m.bg.changes.list[38]; c.Actor != "agent-check" || len(c.Objects) != 1 || c.Objects[0].From != "validating" || c.Objects[0].To != "true" {
		t.Fatalf("l-039 %+v", c)
	}
}

func TestTimeTravelScrubsThroughTheLog(t *testing.T) {
	m, dir := openKnights(t, 120, 40)
	before := readFile(t, filepath.Join(dir, "statement/s-007.json"))
	keys(t, m, "j") // s-007
	keys(t, m, "t")
	if m.travel == nil || m.travel.at != 5 || m.travel.id != "l-006" {
		t.Fatalf("t: travel %+v, want at the last change l-006", m.travel)
	}
	keys(t, m, ",", ",", ",")
	if m.travel.at != 2 || m.travel.id != "l-003" {
		t.Fatalf(", , ,: at %d %s, want l-003", m.travel.at, m.travel.id)
	}
	st := m.shown.snap.Statements.Get("s-007")
	if st.Status != "pending" || !st.Proof.Empty() {
		t.Fatalf("s-007 after l-003: %q with a proof of %d bytes", st.Status, len(proofText(st)))
	}
	if got := statusLine(m, 0); !strings.Contains(got, "◷ time travel: after l-003 (3 of 6) · read-only") {
		t.Fatalf("status line %q", got)
	}
	if got := statusLine(m, 1); !strings.HasPrefix(got, " after l-003 (3 of 6) · ~agent-solve ~prob-wrapup-statement: p-001  ,/. earlier/later  t back to now  ? help  q quit") {
		t.Fatalf("status line 2 %q", got)
	}
	// The cursor went to what l-003 touched: p-001.
	contains(t, "screen", screen(m), "Tree · 4 rows · as after l-003", "○ pending   s-007", "◇ open      p-001", "p-001 · problem")
	// Every change key is disabled, with the reason.
	keys(t, m, "C")
	if m.dlg.confirm != nil || m.status.message != "read-only: showing l-003; press t to return to now" {
		t.Fatalf("C while travelling: confirm %v, message %q", m.dlg.confirm != nil, m.status.message)
	}
	keys(t, m, ".", ".", ".", ".", ".")
	if m.travel.id != "l-006" || m.status.message != "already at the last change, l-006" {
		t.Fatalf("scrubbing past the end: at %s, message %q", m.travel.id, m.status.message)
	}
	keys(t, m, "t")
	if m.travel != nil || m.shown.snap.Statements.Get("s-007").Status != "true" {
		t.Fatalf("t again: travel %v, s-007 %q", m.travel, m.shown.snap.Statements.Get("s-007").Status)
	}
	if got := readFile(t, filepath.Join(dir, "statement/s-007.json")); got != before {
		t.Fatal("time travel wrote s-007")
	}
}

func TestTimeTravelDisablesEveryChangeKey(t *testing.T) {
	m, _ := newTestModel(t, 120, 40)
	keys(t, m, "n") // s-014: C would be enabled now
	if why := m.changer().skillDisabled("check-confirm-proof", "confirm"); why != "" {
		t.Fatalf("C is disabled before travelling: %s", why)
	}
	keys(t, m, "t", ",")
	want := "read-only: showing l-037; press t to return to now"
	n := 0
	for _, a := range keyTable() {
		if a.group != groupChange {
			continue
		}
		n++
		if got := a.disabled(m); got != want {
			t.Errorf("%s: disabled %q, want %q", a.Help().Key, got, want)
		}
	}
	if n != 14 { // eleven skills, H (decide), u (undo) and ctrl+r (redo)
		t.Fatalf("%d change keys, want 14", n)
	}
	keys(t, m, ":")
	for _, e := range m.dlg.picker.All() {
		if e.Mutating && e.Disabled != want {
			t.Errorf("palette %s: %q", e.Title, e.Disabled)
		}
	}
}

func TestTimeTravelFromTheActivityPane(t *testing.T) {
	m, _ := openKnights(t, 120, 40)
	keys(t, m, "a", "G") // the oldest row: l-001's last object
	for m.activity.rows[m.activity.cur].object >= 0 || m.activity.changes[m.activity.rows[m.activity.cur].change].ID != "l-002" {
		keys(t, m, "k")
	}
	keys(t, m, "t")
	if m.travel == nil || m.travel.id != "l-002" {
		t.Fatalf("t on l-002 in the activity: %+v", m.travel)
	}
	if !strings.Contains(screen(m), "◷ l-002 — ~agent-solve ~prob-wrapup-statement") {
		t.Fatalf("the shown change is not marked:\n%s", screen(m))
	}
	// After l-002 the problem does not list s-007 yet: it hangs under "unattached".
	if p := m.shown.snap.Problems["p-001"]; len(p.Progresses) != 0 || m.shown.forest.CanonDir("s-007") != live.GroupUnattached {
		t.Fatalf("after l-002: p-001 progresses %v, s-007 under %q", p.Progresses, m.shown.forest.CanonDir("s-007"))
	}
}

func TestTimeTravelDiff(t *testing.T) {
	m, _ := openKnights(t, 120, 40)
	keys(t, m, "d")
	if m.status.message != "not in time travel: press t first" {
		t.Fatalf("d outside time travel: %q", m.status.message)
	}
	keys(t, m, "j", "t", ",", ",") // s-007, after l-004
	keys(t, m, "d")
	if m.lay.side != sideDiff {
		t.Fatalf("d: side %d", m.lay.side)
	}
	got := detailText(m)
	contains(t, "diff", got,
		"Diff of s-007  after l-003 → after l-004",
		"status  ○ pending → ◌ validating",
		"progresses\n  + PROOF: Case analysis proof with 27 steps",
		"proof.full\n  + We prove that (Olivia=Knave, Alice=Spy, Ivy=Knave) is the unique",
	)
	keys(t, m, "d")
	got = detailText(m)
	contains(t, "diff", got,
		"Diff of s-007  after l-004 → now",
		"status  ◌ validating → ✓ true",
		"reliability\n  - 0.0\n  + 1.0",
		"  + VERIFIED: 27 steps checked, all valid.",
	)
	if strings.Contains(got, "proof.full") {
		t.Errorf("the proof did not change after l-004:\n%s", got)
	}
	// Scrubbing keeps the diff on the change shown, and on what it touched (l-003: p-001).
	keys(t, m, ",")
	if got := detailText(m); !strings.Contains(got, "Diff of p-001  after l-003 → now") {
		t.Errorf("after , the diff is:\n%s", got)
	}
	keys(t, m, "d")
	if m.lay.side != sideDetail {
		t.Fatalf("d a third time: side %d", m.lay.side)
	}
}

// TestLiveChangesWaitDuringTimeTravel: a snapshot that arrives while travelling is
// kept, and shown on the return to now.
func TestLiveChangesWaitDuringTimeTravel(t *testing.T) {
	m, dir := newTestModel(t, 120, 40)
	keys(t, m, "t", ",")
	past := m.shown.snap
	sk, _ := skill.Lookup("check-confirm-proof")
	if _, err := store.Run(dir, sk, skill.Args{"statement_id": "s-014"}, store.Options{Actor: "agent-check"}); err != nil {
		t.Fatal(err)
	}
	runCmds(t, m, m.loader().reloadAll())
	if m.shown.snap != past || m.feed.pending == nil {
		t.Fatal("the live snapshot replaced the past one")
	}
	if got := statusLine(m, 0); !strings.Contains(got, "○ folder changed since") {
		t.Fatalf("status line %q", got)
	}
	keys(t, m, "t")
	if m.travel != nil || m.feed.pending != nil || m.shown.snap.Statements.Get("s-014").Status != "true" {
		t.Fatalf("back to now: pending %v, s-014 %q", m.feed.pending != nil, m.shown.snap.Statements.Get("s-014").Status)
	}
}

func TestGraveyardPane(t *testing.T) {
	m, _ := newTestModel(t, 120, 40)
	keys(t, m, "x")
	if m.lay.side != sideGraveyard || m.lay.focus != focusDetail {
		t.Fatalf("x: side %d focus %d", m.lay.side, m.lay.focus)
	}
	var links []string
	for _, l := range m.detail.doc.Links {
		links = append(links, l.ID)
	}
	if !slices.Equal(links, []string{"s-004", "s-013"}) || m.detail.sel.link != 0 {
		t.Fatalf("graveyard links %v, cursor %d", links, m.detail.sel.link)
	}
	got := detailText(m)
	contains(t, "graveyard", got,
		"Graveyard (2)",
		"→ s-004 ✗ false For every prime",
		"  Disproof: 3 steps checked. 7 is a prime ≡ 3 (mod 4) and 4 · 7 - 1 =",
		"→ s-013 ⊘ abandoned For every integer",
		"  Reason: given s-009 this claim is equivalent to s-011 itself, so any",
		"Held up: p-002, s-011, s-015",
	)
	keys(t, m, ">", "enter")
	if selectedID(m) != "s-013" || m.lay.side != sideDetail {
		t.Fatalf("> enter: cursor on %q, side %d", selectedID(m), m.lay.side)
	}
}

// addRetread writes s-018, a rewording of s-004 (false), as an agent would propose it.
func addRetread(t *testing.T, dir string) {
	t.Helper()
	data := readFile(t, filepath.Join(dir, "statement/s-004.json"))
	claim := model.StatementFrom(mustParse(t, data)).Claim()
	re := strings.Replace(claim, "For every prime", "For each prime", 1)
	if re == claim {
		t.Fatalf("cannot reword %q", claim)
	}
	doc := fmt.Sprintf(`{"id": "s-018", "type": "normal", "conclusion": [%q], "hypothesis": [], "preliminaries": [], "status": "pending", "progresses": [], "proof": {"cot": [], "full": "", "ref": []}, "validation": {"issues": [], "responses": []}}`, re)
	if err := os.WriteFile(filepath.Join(dir, "statement/s-018.json"), []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestRetreadsAndSimilarStatements(t *testing.T) {
	dir := testutil.Demo(t)
	addRetread(t, dir)
	m := openTestModel(t, dir, 120, 40)
	r := m.bg.extras.shown.retreads["s-018"]
	if len(r) != 1 || r[0].Of != "s-004" {
		t.Fatalf("re-treads of s-018: %+v", r)
	}
	var row string
	for _, l := range strings.Split(screen(m), "\n") {
		if strings.Contains(l, "s-018") {
			row = l
		}
	}
	if !strings.Contains(row, "≈") {
		t.Fatalf("the tree row of s-018 has no ≈: %q", row)
	}
	keys(t, m, "/")
	typeText(t, m, "s-018")
	keys(t, m, "enter")
	got := detailText(m)
	want := fmt.Sprintf("≈ this claim repeats s-004, which is false (similarity %.2f)", r[0].Score)
	if !strings.Contains(got, want) {
		t.Fatalf("%q is not in the detail:\n%s", want, got)
	}
	sim := m.bg.similar.found["s-018"] // found by a command, run by keys

	if len(sim) != 5 || sim[0].ID != "s-004" {
		t.Fatalf("similar to s-018: %+v", sim)
	}
	if !strings.Contains(got, fmt.Sprintf("Similar statements (top 5)\n  → s-004 ✗ false %.2f For every prime", sim[0].Score)) {
		t.Fatalf("the similar statements are not listed:\n%s", got)
	}
	// Each is a link: the last links of the doc are the five, in order.
	links := m.detail.doc.Links
	var ids []string
	for _, l := range links[len(links)-5:] {
		ids = append(ids, l.ID)
	}
	var wantIDs []string
	for _, s := range sim {
		wantIDs = append(wantIDs, s.ID)
	}
	if !slices.Equal(ids, wantIDs) {
		t.Fatalf("links %v, want %v", ids, wantIDs)
	}
	keys(t, m, "tab", ">", "enter")
	if selectedID(m) != "s-004" {
		t.Fatalf("following the first similar statement went to %q", selectedID(m))
	}
}

// TestReviewQueueByWhatItHoldsUp: n goes first to what holds up the most of the root,
// not to the first in tree order.
func TestReviewQueueByWhatItHoldsUp(t *testing.T) {
	dir := testutil.Demo(t)
	// s-004 (first in tree order, under the solved p-001) waits for a check again: it
	// holds up nothing, so the queue puts it last.
	p := filepath.Join(dir, "statement/s-004.json")
	data := strings.Replace(readFile(t, p), `"status": "false"`, `"status": "validating"`, 1)
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	m := openTestModel(t, dir, 120, 40)
	if m.shown.forest.Order()[1] != "s-004" {
		t.Fatalf("tree order %v", m.shown.forest.Order()[:3])
	}
	var got []string
	for range 5 {
		keys(t, m, "n")
		got = append(got, selectedID(m))
	}
	if want := []string{"s-014", "s-015", "s-016", "s-004", "s-014"}; !slices.Equal(got, want) {
		t.Fatalf("n visits %v, want %v", got, want)
	}
	if m.status.message != "wrapped to 1 of 4 · s-014: awaiting check, next agent-check (1 of 4 in the review queue) · holds up 4" {
		t.Fatalf("status %q", m.status.message)
	}
	keys(t, m, "N")
	if selectedID(m) != "s-004" || m.status.message != "wrapped to 4 of 4 · s-004: awaiting check, next agent-check (4 of 4 in the review queue)" {
		t.Fatalf("N: %q, %q", selectedID(m), m.status.message)
	}
}

// stateFile writes an agent's state file next to the folder, last modified at when.
func stateFile(t *testing.T, dir, body string, when time.Time) {
	t.Helper()
	p := filepath.Join(filepath.Dir(dir), ".claude", "hol_agent_state.json")
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(p, when, when); err != nil {
		t.Fatal(err)
	}
}

// age sets the modification time of the log and config.json.
func age(t *testing.T, dir string, when time.Time) {
	t.Helper()
	for _, f := range []string{store.LogFile, store.ConfigFile} {
		if err := os.Chtimes(filepath.Join(dir, f), when, when); err != nil {
			t.Fatal(err)
		}
	}
}

const demoState = `{"session_id": "sess-7f3a\u001b]0;pwned\u0007", "message_count": 142, "session_message_count": 37, "hol_session": "demo", "input_tokens": 1234567, "output_tokens": 34012, "cache_creation_tokens": 12000, "cache_read_tokens": 4500000, "total_cost_usd": 12.3456}`

func openStalled(t *testing.T, w, h int, after time.Duration) *Model {
	t.Helper()
	dir := testutil.Demo(t)
	stateFile(t, dir, demoState, fixedNow.Add(-70*time.Minute))
	age(t, dir, fixedNow.Add(-time.Hour))
	m, err := New(dir, Options{NoWatch: true, Theme: "dark", Actor: "human", Now: func() time.Time { return fixedNow }, StallAfter: after, SyncLoad: true})
	if err != nil {
		t.Fatal(err)
	}
	m.detail.syncRender = true
	t.Cleanup(m.Close)
	send(t, m, tea.WindowSizeMsg{Width: w, Height: h})
	send(t, m, keyMsg("r")) // opening the pane reads the state files once
	return m
}

func TestRunsPaneAndStallAlarm(t *testing.T) {
	m := openStalled(t, 120, 40, 0)
	if m.lay.side != sideRuns || !m.runs.read || len(m.runs.list) != 1 {
		t.Fatalf("r: side %d, read %v, %d runs", m.lay.side, m.runs.read, len(m.runs.list))
	}
	if !m.runs.Stalled() || m.runs.stall.Idle != time.Hour {
		t.Fatalf("stall %+v", m.runs.stall)
	}
	if got := statusLine(m, 0); !strings.Contains(got, "⚠ stalled 1h00m (r)") {
		t.Fatalf("status line %q", got)
	}
	got := detailText(m)
	contains(t, "runs pane", got,
		"Agent runs (1)",
		"state files under .claude/ next to contents/",
		"⚠ stalled: nothing changed for 1h0m0s (history/log.jsonl), at least\n15m0s, while 6 item(s) are actionable: agent-check s-014, agent-prove",
		".claude/hol_agent_state.json",
		"session: sess-7f3a␛]0;pwned␇ · hol demo",
		"messages: 142 in all · 37 this session",
		"tokens: in 1.2M · out 34k · cache write 12k · cache read 4.5M",
		"cost: $12.35",
		"last activity: 1h10m ago (2026-11-21 07:50:00)",
	)
	if strings.Contains(m.Render(), "\x1b]0;") {
		t.Fatal("an escape sequence from the state file reached the screen")
	}
}

func TestStallAlarmOffAndUnarmed(t *testing.T) {
	if m := openStalled(t, 120, 40, -1); m.runs.Stalled() || strings.Contains(statusLine(m, 0), "stalled") {
		t.Fatalf("StallAfter < 0 still alarms: %q", statusLine(m, 0))
	}
	if m := openStalled(t, 120, 40, 2*time.Hour); m.runs.Stalled() {
		t.Fatalf("an hour idle alarms with StallAfter 2h: %+v", m.runs.stall)
	}
	// No state file and nothing changed while open: not armed, whatever the age.
	dir := testutil.Demo(t)
	age(t, dir, fixedNow.Add(-time.Hour))
	m := openTestModel(t, dir, 120, 40)
	keys(t, m, "r")
	if !m.runs.stall.Stalled || m.runs.armed || m.runs.Stalled() {
		t.Fatalf("unarmed: stall %v armed %v", m.runs.stall.Stalled, m.runs.armed)
	}
	if got := detailText(m); !strings.Contains(got, "(the alarm arms once a run is seen") || !strings.Contains(got, "No state file found.") {
		t.Fatalf("runs pane:\n%s", got)
	}
}

// TestSupervisingKeysAreListed: help and the palette list the new keys.
func TestSupervisingKeysAreListed(t *testing.T) {
	m, _ := newTestModel(t, 120, 40)
	listed := func() string {
		var ks []string
		for _, e := range m.dlg.picker.All() {
			ks = append(ks, "["+e.Key+"]")
		}
		return strings.Join(ks, " ")
	}
	keys(t, m, "?")
	contains(t, "help", listed(), "[a]", "[r]", "[x]", "[t]", "[,]", "[.]", "[d]", "[≈]", "[◷]", "[⚠stalled]")
	keys(t, m, "esc", ":")
	contains(t, "palette", listed(), "[a]", "[r]", "[x]", "[t]", "[d]")
}

// contains fails for every want that is not in got.
func contains(t *testing.T, where, got string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(got, w) {
			t.Errorf("%q is not in the %s:\n%s", w, where, got)
		}
	}
}

// TestTimeTravelOverAMissingBackup: the next version stands in, and says so.
func TestTimeTravelOverAMissingBackup(t *testing.T) {
	dir := testutil.Copy(t, knights)
	if err := os.Remove(filepath.Join(dir, "history/l-004/s-007.json")); err != nil {
		t.Fatal(err)
	}
	m := openTestModel(t, dir, 120, 40)
	keys(t, m, "j", "t", ",", ",", ",", "j") // after l-003 (the cursor follows it to p-001), then s-007
	if st := m.shown.snap.Statements.Get("s-007"); st.Status != "validating" {
		t.Fatalf("s-007 after l-003 without the l-004 backup: %q, want the l-005 backup's validating", st.Status)
	}
	contains(t, "detail", detailText(m), "⚠ history/l-004/s-007.json: the backup is missing; the next version\nstands in")
	contains(t, "screen", screen(m), "s-007 The uniq… →check ⚠broken", "⚠1 broken")
}

// Goal: drawing the activity pane costs its height, not the length of the log
// (10,000 changes here); a new change costs one conversion and one pass of the rows.
func BenchmarkActivityView(b *testing.B) {
	a := newActivity()
	a.SetSize(70, 38)
	changes := make([]store.Change, 10_000)
	for i := range changes {
		id := fmt.Sprintf("l-%03d", i+1)
		changes[i] = store.Change{ID: id, At: "2026-11-20T09:04:00Z", Actor: "agent-prove", Skill: "state-complete-proof",
			Modified: []string{"s-007"}, Objects: []model.ObjectChange{{ID: "s-007", Action: model.Modified, From: "pending", To: "validating"}}}
	}
	a.SetChanges(changes)
	st := newTestStyles()
	for b.Loop() {
		a.View(common.Common{Styles: st, Focused: true})
	}
}
