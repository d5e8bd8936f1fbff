package tui

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"referee/agents"
	"referee/model"
	"referee/skill"
	"referee/store"
	"referee/tui/common"
	"referee/tui/dialog"
)

// The components are tested alone, without a Model or a folder: what they need is
// given to them (a corpus, a present, a log), and what the workbench must do is what
// Update answers.

// fakeCorpus is a folder of a few objects in tree order.
type fakeCorpus struct {
	order []string
	text  map[string]string
}

func (c fakeCorpus) Has(id string) bool {
	_, ok := c.text[id]
	return ok
}
func (c fakeCorpus) Order() []string       { return c.order }
func (c fakeCorpus) Text(id string) string { return id + " " + c.text[id] }

func testCommon() common.Common {
	return common.Common{Styles: newTestStyles(), Actor: "human", Now: func() time.Time { return fixedNow }}
}

func typeInto(t *testing.T, c component, s string) {
	t.Helper()
	for _, r := range s {
		if _, out := c.Update(testCommon(), tea.KeyPressMsg{Code: r, Text: string(r)}); out != nil {
			t.Fatalf("typing %q answered %#v", r, out)
		}
	}
}

func TestSearchComponent(t *testing.T) {
	s := newSearch(true)
	s.Refresh(fakeCorpus{order: []string{"p-001", "s-001", "s-002", "s-003"}, text: map[string]string{
		"p-001": "Odd squares", "s-001": "every odd square is odd", "s-002": "an even square", "s-003": "odd times odd is odd"}})
	s.Open()
	if !s.Typing() || len(s.View(testCommon())) != 1 {
		t.Fatalf("open: typing %v, view %q", s.Typing(), s.View(testCommon()))
	}
	typeInto(t, s, "odd")
	_, out := s.Update(testCommon(), keyMsg("enter"))
	want := revealMsg{id: "p-001", say: `match 1 of 3 for "odd" · ctrl+n/ctrl+p next/previous · esc clears`}
	if out != want || s.Typing() || s.View(testCommon()) != nil {
		t.Fatalf("enter: %#v, typing %v; want %#v", out, s.Typing(), want)
	}
	// From a match: the next; from the last: wrapped, and said.
	if _, out := s.Update(testCommon(), searchStepMsg{d: 1, from: "s-001"}); out != (revealMsg{id: "s-003", say: `match 3 of 3 for "odd"`}) {
		t.Fatalf("step from s-001: %#v", out)
	}
	if _, out := s.Update(testCommon(), searchStepMsg{d: 1, from: "s-003"}); out != (revealMsg{id: "p-001", say: `wrapped to 1 of 3 · match 1 of 3 for "odd"`}) {
		t.Fatalf("step from the last: %#v", out)
	}
	// From an object that does not match: the nearest match after it in tree order.
	if _, out := s.Update(testCommon(), searchStepMsg{d: 1, from: "s-002"}); out.(revealMsg).id != "s-003" {
		t.Fatalf("step from s-002: %#v", out)
	}
	// A new snapshot: the matches are found again in it.
	found := s.Refresh(fakeCorpus{order: []string{"s-003"}, text: map[string]string{"s-003": "odd"}})
	if found == nil {
		t.Fatal("Refresh with a search in force starts no search")
	}
	if got := s.Results(); len(got) != 3 { // found in the command, not in Update
		t.Fatalf("Refresh searched on the UI goroutine: %v", got)
	}
	if cmd, out := s.Update(testCommon(), found()); cmd != nil || out != nil {
		t.Fatalf("the matches found answered %v, %#v", cmd, out)
	}
	if got := s.Results(); len(got) != 1 || got[0] != "s-003" {
		t.Fatalf("after Refresh: %v", got)
	}
	// An exact ID goes to it alone; no match says so.
	s.Open()
	typeInto(t, s, "S-003")
	if _, out := s.Update(testCommon(), keyMsg("enter")); out.(revealMsg).id != "s-003" || len(s.Results()) != 1 {
		t.Fatalf("exact ID: %#v", out)
	}
	s.Open()
	typeInto(t, s, "zebra")
	if _, out := s.Update(testCommon(), keyMsg("enter")); out != (common.StatusMsg{Text: "no match for zebra"}) {
		t.Fatalf("no match: %#v", out)
	}
	s.Clear()
	if _, out := s.Update(testCommon(), searchStepMsg{d: 1, from: "s-003"}); out != nil || s.Query() != "" {
		t.Fatalf("step with no search: %#v", out)
	}
}

// fakePresent is a present with a graph and transcripts.
type fakePresent struct {
	g    *model.Graph
	line time.Time
}

func (p fakePresent) presentGraph() *model.Graph       { return p.g }
func (p fakePresent) transcripts() (time.Time, string) { return p.line, "agent-check" }

func TestRunsComponent(t *testing.T) {
	r := newRuns(t.TempDir(), "contents", agents.RunsOptions{}, time.Minute, fakePresent{})
	if r.after != time.Minute || r.where != ".claude/ next to contents/" {
		t.Fatalf("after %v, where %q", r.after, r.where)
	}
	run := agents.AgentRun{Path: "a.json", SessionID: "one", SessionMessageCount: 5}
	cmd, out := r.Update(testCommon(), runsMsg{runs: []agents.AgentRun{run}, tick: true})
	if cmd == nil || out != (paneChangedMsg{side: sideRuns}) || !r.read || !r.armed || len(r.list) != 1 {
		t.Fatalf("first reading: cmd %v, out %#v, read %v armed %v", cmd != nil, out, r.read, r.armed)
	}
	// Not part of the polling loop: no tick; a new session in the same file is a handoff.
	run.SessionID = "two"
	cmd, _ = r.Update(testCommon(), runsMsg{runs: []agents.AgentRun{run}})
	if cmd != nil || !r.handoff["a.json"] {
		t.Fatalf("second reading: cmd %v, handoff %v", cmd != nil, r.handoff)
	}
	// No graph of the present yet: no verdict, no alarm.
	if r.Stalled() || r.Status(testCommon()) != nil {
		t.Fatalf("stalled without a graph: %+v", r.stall)
	}
	if off := newRuns(t.TempDir(), "c", agents.RunsOptions{}, -1, fakePresent{}); off.Stalled() || off.after >= 0 {
		t.Fatal("a negative StallAfter does not turn the alarm off")
	}
}

func TestWritesComponent(t *testing.T) {
	w := newWrites(t.TempDir(), "human")
	if w.QuitWhenDone() {
		t.Fatal("nothing is being written, yet q would wait")
	}
	sk := &skill.Skill{Name: "check-confirm-proof"}
	w.writing = 2 // two changes under way
	if !w.QuitWhenDone() {
		t.Fatal("q did not wait for the writes")
	}
	first := &store.Result{Change: "l-001"}
	cmd, out := w.Update(testCommon(), skillDoneMsg{ch: &dialog.Change{Skill: sk}, res: first})
	if cmd != nil || out != (writtenMsg{ch: out.(writtenMsg).ch, res: first, name: sk.Name}) {
		t.Fatalf("first done: quit %v, %#v", cmd != nil, out)
	}
	cmd, out = w.Update(testCommon(), skillDoneMsg{ch: &dialog.Change{Skill: sk}, err: &store.ConflictError{Object: "s-001"}})
	if cmd == nil || out.(writeFailedMsg).name != sk.Name {
		t.Fatalf("the last write done: quit %v, %#v", cmd != nil, out)
	}
	if last, ok := w.Last(); !ok || last != first || len(w.done) != 1 {
		t.Fatalf("done %v", w.done)
	}
	// An undo takes the last change off the list.
	_, out = w.Update(testCommon(), skillDoneMsg{ch: &dialog.Change{Undo: first}, res: &store.Result{Change: "l-002"}})
	if _, ok := w.Last(); ok || out.(writtenMsg).name != "undo" {
		t.Fatalf("after undo: done %v, %#v", w.done, out)
	}
}

// fakeLatest is a newest snapshot.
type fakeLatest struct{ snap *model.Snapshot }

func (l fakeLatest) latestSnapshot() *model.Snapshot { return l.snap }

func TestChangesComponent(t *testing.T) {
	c := newChanges(t.TempDir(), fakeLatest{})
	ran := false
	_, out := c.Update(testCommon(), historyWantedMsg{then: func(*store.History) tea.Cmd { ran = true; return nil }})
	if ran || out != (common.StatusMsg{Text: "the folder is still loading"}) {
		t.Fatalf("nothing read: ran %v, %#v", ran, out)
	}
	if c.List() != nil {
		t.Fatal("listed before it was wanted")
	}
	snap := &model.Snapshot{}
	c.latest = fakeLatest{snap}
	c.Want()
	if c.List() == nil || c.List() != nil {
		t.Fatal("a listing did not start, or two ran at once")
	}
	listed := []store.Change{{ID: "l-001"}, {ID: "l-002", Provisional: true}}
	h := store.NewHistory(c.dir, snap)
	if _, out := c.Update(testCommon(), historyMsg{snap: snap, h: h, from: -1, changes: listed}); out != (changesListedMsg{h: h}) {
		t.Fatalf("listing: %#v", out)
	}
	if len(c.Listed()) != 2 || c.provisional != 1 || c.List() != nil || c.logHistory() != h {
		t.Fatalf("listed %v, provisional %d", c.Listed(), c.provisional)
	}
}

// TestPanesShareTheNavigationKeys: the tree, the detail and the activity take every
// navigation key (the tree's space folds instead) and answer Unhandled to a key that is
// not theirs, which then goes to the key table.
func TestPanesShareTheNavigationKeys(t *testing.T) {
	nav := common.DefaultNavKeyMap()
	panes := map[string]component{"tree": newTree(), "detail": newDetail(), "activity": newActivity()}
	for name, p := range panes {
		p.SetSize(40, 10)
		for _, b := range nav.Bindings() {
			for _, k := range b.Keys() {
				_, out := p.Update(testCommon(), keyMsg(k))
				if out == (common.Unhandled{}) {
					t.Errorf("%s does not take %s (%s)", name, k, b.Help().Desc)
				}
			}
		}
		if _, out := p.Update(testCommon(), keyMsg("q")); out != (common.Unhandled{}) {
			t.Errorf("%s took q: %#v", name, out)
		}
	}
	// The dialogs that scroll scroll by the same keys: a notice takes them, and closes
	// on any other key.
	n := dialog.NewNotice("t", strings.Repeat("line\n", 40))
	n.SetSize(40, 10)
	for _, b := range nav.Bindings() {
		for _, k := range b.Keys() {
			if _, out := n.Update(testCommon(), keyMsg(k)); out != nil {
				t.Errorf("a notice closed on %s: %#v", k, out)
			}
		}
	}
	if _, out := n.Update(testCommon(), keyMsg("x")); out != (dialog.NoticeClosedMsg{}) {
		t.Errorf("x on a notice answered %#v", out)
	}
}

// TestAnswerDropsAnUnknownMessage: an answer the workbench does not know (a new part's,
// say) is dropped; the workbench does not crash on it.
func TestAnswerDropsAnUnknownMessage(t *testing.T) {
	m := &Model{}
	for _, msg := range []tea.Msg{struct{ n int }{1}, common.Unhandled{}, "text"} {
		if cmd := m.answer(msg); cmd != nil {
			t.Errorf("answer(%#v) = a command", msg)
		}
	}
}
