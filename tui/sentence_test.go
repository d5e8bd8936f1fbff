package tui

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/exp/teatest/v2"

	"referee/internal/testutil"
	"referee/mathtext"
	"referee/model"
	"referee/views"
	"referee/views/vtcells"
)

// proofArea is the detail pane's proof on an emulated screen: from the column of the
// "Proof (" heading, rows between it and the "Issues (" heading.
func proofArea(scr *vtcells.Screen, w, h int) (x0, y0, x1, y1 int, ok bool) {
	y0 = -1
	for y := range h {
		row := []rune(scr.Row(y))
		s := string(row)
		if i := strings.Index(s, "Proof ("); i >= 0 && y0 < 0 {
			x0, y0 = len([]rune(s[:i])), y+1
		}
		if strings.Contains(s, "Issues (") && y0 >= 0 {
			return x0, y0, x0 + 70, y, true
		}
	}
	return 0, 0, 0, 0, false
}

// sentenceRuns is the reversed and the underlined text of the proof on screen, each
// joined over its lines.
func sentenceRuns(scr *vtcells.Screen, w, h int) (rev, under string, ok bool) {
	x0, y0, x1, y1, ok := proofArea(scr, w, h)
	if !ok {
		return "", "", false
	}
	x1 = min(x1, w-1) // not the pane's right border
	return strings.Join(scr.Runs(vtcells.Reverse, x0, y0, x1, y1), " "),
		strings.Join(scr.Runs(vtcells.Underline, x0, y0, x1, y1), " "), true
}

// TestSentenceMarksReachTheTerminal drives the program through teatest with a pinned
// colour profile, feeds its output to a VT emulator and reads back which cells are in
// reverse video and underlined: on s-015 the cursor and the open issue are on sentence
// 5, which starts mid-line after sentence 4 and wraps onto the next line; ] and [ move
// the reverse video and leave the underline. The ascii profile (NO_COLOR) with
// the colourless theme keeps both.
func TestSentenceMarksReachTheTerminal(t *testing.T) {
	sents := model.SplitSentences(readStatementProof(t, "s-015"))
	// The workbench shows math readable: the marks cover the sentence as shown.
	text := func(i int) string {
		return fmt.Sprintf("[%d] %s", i+1, model.NormalizeSpace(mathtext.Text(sents[i].Text, 0)))
	}
	for _, c := range []struct {
		theme   string
		profile colorprofile.Profile
	}{{"dark", colorprofile.ANSI}, {"none", colorprofile.Ascii}} {
		t.Run(c.theme, func(t *testing.T) {
			const w, h = 120, 40
			m, err := New(testutil.Demo(t), Options{Theme: c.theme, NoWatch: true, SyncLoad: true})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(m.Close)
			tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(w, h),
				teatest.WithProgramOptions(tea.WithColorProfile(c.profile)))
			var stream []byte
			// expect waits until the screen shows the cursor on sentence cur, and the
			// reversed and underlined text are those of the sentences asked for.
			expect := func(cur, flagged int) {
				t.Helper()
				var rev, under string
				var scr *vtcells.Screen
				for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(20 * time.Millisecond) {
					b, err := io.ReadAll(tm.Output())
					if err != nil {
						t.Fatal(err)
					}
					stream = append(stream, b...)
					scr = vtcells.Feed(stream, w, h)
					var ok bool
					rev, under, ok = sentenceRuns(scr, w, h)
					if ok && strings.Contains(scr.String(), fmt.Sprintf("cursor on %d)", cur+1)) && rev == text(cur) && under == text(flagged) {
						break
					}
					if time.Now().After(deadline) {
						t.Fatalf("reversed %q, want %q\nunderlined %q, want %q\n%s", rev, text(cur), under, text(flagged), scr)
					}
				}
				if !strings.Contains(scr.String(), fmt.Sprintf("![%d]", flagged+1)) {
					t.Fatalf("no ! before [%d]:\n%s", flagged+1, scr)
				}
			}
			tm.Type("nn")
			expect(4, 4)
			tm.Type("]")
			expect(5, 4)
			tm.Type("[[")
			expect(3, 4)
			tm.Type("q")
			tm.WaitFinished(t, teatest.WithFinalTimeout(5*time.Second))
		})
	}
}

func readStatementProof(t *testing.T, id string) string {
	t.Helper()
	st := model.StatementFrom(mustParse(t, readFile(t, filepath.Join(testutil.DemoDir(), "statement", id+".json"))))
	return st.Proof.Full
}

// TestSentenceCursorDoesNotRenderAgain: moving the sentence cursor repaints from the
// cached rendering; glamour runs once for the proof (through the real asynchronous
// path), and the screen does change with each move.
func TestSentenceCursorDoesNotRenderAgain(t *testing.T) {
	m, _ := newTestModel(t, 120, 40)
	m.detail.syncRender = false
	var renders atomic.Int32
	m.detail.renderMarkdown = func(proof string, width int, style string, math mathtext.Mode) (*views.RenderedProof, error) {
		renders.Add(1)
		return views.RenderProofMarkdown(proof, width, style, math)
	}
	keys(t, m, "n", "n") // s-014, then s-015: one rendering each
	proof := proofText(m.shown.snap.Statements.Get("s-015"))
	if selectedID(m) != "s-015" || renders.Load() != 2 {
		t.Fatalf("on %s after %d renders, want s-015 after 2", selectedID(m), renders.Load())
	}
	if m.detail.proofs[views.ProofKey(proof, m.detail.width-2, m.look.st.MarkdownStyle(), m.look.math)] == nil {
		t.Fatal("the markdown rendering did not arrive")
	}
	seen := map[string]bool{m.Render(): true}
	for _, k := range []string{"]", "[", "[", "[", "]"} {
		keys(t, m, k)
		scr := m.Render()
		if seen[scr] && k != "]" {
			t.Fatalf("%s did not change the screen", k)
		}
		seen[scr] = true
	}
	if n := renders.Load(); n != 2 {
		t.Fatalf("moving the sentence cursor rendered the markdown %d more times", n-2)
	}
	if m.detail.sel.sentence != 3 {
		t.Fatalf("sentence cursor %d, want 3", m.detail.sel.sentence)
	}
}

// TestThreadSaysWhenFoundByNumber: an issue whose quoted text is not in the proof is
// placed by its sentence number, and its thread says so, under the heading when the
// pane is too narrow for one line.
func TestThreadSaysWhenFoundByNumber(t *testing.T) {
	for _, w := range []int{120, 80} {
		dir := testutil.Demo(t)
		p := filepath.Join(dir, "statement/s-015.json")
		data := readFile(t, p)
		quote := `'Hence $\\sum_{k=1}^n k^3 = m^2$ is a perfect square.'`
		if !strings.Contains(data, quote) {
			t.Fatal("the fixture's quote changed")
		}
		if err := os.WriteFile(p, []byte(strings.Replace(data, quote, "'A sentence the proof does not have.'", 1)), 0o644); err != nil {
			t.Fatal(err)
		}
		m := openTestModel(t, dir, w, 40)
		keys(t, m, "n", "n", "tab", "G")
		scr := screen(m)
		if !strings.Contains(scr, "sentence 5 (by number: the quoted text") || !strings.Contains(scr, "is not in the proof)") {
			t.Fatalf("%d columns: the thread does not say the issue was placed by number:\n%s", w, scr)
		}
		if m.detail.sel.sentence != 4 {
			t.Fatalf("sentence cursor %d, want 4", m.detail.sel.sentence)
		}
	}
}
