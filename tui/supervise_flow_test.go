package tui

import (
	"fmt"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/charmbracelet/x/exp/teatest/v2"
	"github.com/hinshun/vt10x"

	"referee/internal/testutil"
	"referee/skill"
	"referee/store"
)

// Golden screens of the supervising panes, ANSI-stripped, at the two sizes of the
// issue. `go test ./tui -run TestGoldenSupervising -update` regenerates them.
func TestGoldenSupervising(t *testing.T) {
	steps := []struct {
		name string
		open func(t *testing.T, w, h int) *Model
		keys []string
	}{
		{"activity", demo, []string{"a"}},
		{"activity-filter", demo, []string{"a", "/", "a", "g", "e", "n", "t", "-", "f", "i", "x", "enter"}},
		{"graveyard", demo, []string{"x"}},
		{"runs-stalled", func(t *testing.T, w, h int) *Model { return openStalled(t, w, h, 0) }, nil},
		{"travel", knightsAt, []string{"j", "t", ",", ",", ","}},
		{"travel-activity", knightsAt, []string{"j", "t", ",", ",", ",", "a"}},
		{"diff", knightsAt, []string{"j", "t", ",", ",", "d"}},
		{"retread", func(t *testing.T, w, h int) *Model {
			dir := testutil.Demo(t)
			addRetread(t, dir)
			return openTestModel(t, dir, w, h)
		}, []string{"/", "s", "-", "0", "1", "8", "enter"}},
	}
	for _, sz := range [][2]int{{80, 24}, {120, 40}} {
		for _, step := range steps {
			t.Run(fmt.Sprintf("%dx%d-%s", sz[0], sz[1], step.name), func(t *testing.T) {
				m := step.open(t, sz[0], sz[1])
				keys(t, m, step.keys...)
				golden.RequireEqual(t, ansi.Strip(m.Render()))
			})
		}
	}
}

func demo(t *testing.T, w, h int) *Model {
	m, _ := newTestModel(t, w, h)
	return m
}

func knightsAt(t *testing.T, w, h int) *Model {
	m, _ := openKnights(t, w, h)
	return m
}

// vtWatch keeps a VT emulator's view of a teatest program's output: the output is the
// renderer's diff stream, so text is looked for on the emulated screen, not in bytes.
type vtWatch struct {
	t       *testing.T
	tm      *teatest.TestModel
	term    vt10x.Terminal
	pending []byte
}

// startFlow runs the whole program (with its watcher) on a folder at 120×40.
func startFlow(t *testing.T, dir string) (*teatest.TestModel, *vtWatch) {
	m, err := New(dir, Options{Theme: "dark"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(m.Close)
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(120, 40),
		teatest.WithProgramOptions(tea.WithColorProfile(colorprofile.Ascii)))
	term := vt10x.New(vt10x.WithSize(120, 40))
	_, _ = term.Write([]byte("\x1b[20h")) // LNM: "\n" starts a new line, as behind a tty
	return tm, &vtWatch{t: t, tm: tm, term: term}
}

func (v *vtWatch) wait(text string) {
	v.t.Helper()
	fed := 0
	teatest.WaitFor(v.t, v.tm.Output(), func(b []byte) bool {
		v.pending = append(v.pending, b[fed:]...)
		fed = len(b)
		// Whole UTF-8 sequences only.
		cut := len(v.pending)
		for cut > 0 && cut > len(v.pending)-4 && !utf8.Valid(v.pending[:cut]) {
			cut--
		}
		_, _ = v.term.Write(v.pending[:cut])
		v.pending = append(v.pending[:0], v.pending[cut:]...)
		return strings.Contains(v.term.String(), text)
	}, teatest.WithDuration(5*time.Second), teatest.WithCheckInterval(20*time.Millisecond))
}

// TestFlowTimeTravelOnTheFixture: enter time travel on the real run, scrub back to
// l-003 and see s-007 as it was then (pending, no proof); the present is untouched.
func TestFlowTimeTravelOnTheFixture(t *testing.T) {
	tm, vt := startFlow(t, testutil.Copy(t, knights))
	vt.wait("✓ true      s-007")
	tm.Type("j")
	vt.wait("s-007 · statement")
	tm.Type("t")
	vt.wait("◷ time travel: after l-006 (6 of 6) · read-only")
	tm.Type(",,,")
	vt.wait("◷ time travel: after l-003 (3 of 6) · read-only")
	vt.wait("○ pending   s-007")
	vt.wait("Tree · 4 rows · as after l-003")
	tm.Type("q")
	fm := tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second)).(*Model)
	if fm.travel == nil || fm.travel.id != "l-003" {
		t.Fatalf("final travel %+v", fm.travel)
	}
	if st := fm.shown.snap.Statements.Get("s-007"); st.Status != "pending" || !st.Proof.Empty() {
		t.Fatalf("s-007 shown as %q with %d bytes of proof", st.Status, len(proofText(st)))
	}
	if st := fm.travel.live.snap.Statements.Get("s-007"); st.Status != "true" {
		t.Fatalf("the present s-007 is %q", st.Status)
	}
}

// TestFlowActivityShowsAnOutsideChange: with the activity pane open, a change an
// agent makes appears at its top.
func TestFlowActivityShowsAnOutsideChange(t *testing.T) {
	dir := testutil.Demo(t)
	tm, vt := startFlow(t, dir)
	vt.wait("p-001 · problem")
	tm.Type("a")
	vt.wait("Activity · 38 changes, newest first")
	sk, _ := skill.Lookup("check-confirm-proof")
	if _, err := store.Run(dir, sk, skill.Args{"statement_id": "s-014"}, store.Options{Actor: "agent-check"}); err != nil {
		t.Fatal(err)
	}
	vt.wait("Activity · 39 changes, newest first")
	vt.wait("  ✎ s-014 ◌ validating → ✓ true +VERIFIED")
	tm.Type("q")
	fm := tm.FinalModel(t, teatest.WithFinalTimeout(5*time.Second)).(*Model)
	if h := headers(fm); len(h) != 39 || h[0] != "l-039" {
		t.Fatalf("activity %v", h[:min(len(h), 3)])
	}
}
