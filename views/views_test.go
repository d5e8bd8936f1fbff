package views

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"referee/live"
	"referee/mathtext"
	"referee/model"
	"referee/themes"
)

func TestProofMarkdownKeepsMathAndNumbersSentences(t *testing.T) {
	proof := "We show $a*b \\{x\\} = c_1 * d_2$ holds. Then **bold** follows.\n\nStep 1: Since $$x \\\\ y$$ we are done. QED."
	for _, style := range []string{"dark", "light", "notty"} {
		rp, err := RenderProofMarkdown(proof, 60, style, mathtext.Raw)
		if err != nil {
			t.Fatal(err)
		}
		st := themes.New(themes.Dark())
		out := ansi.Strip(strings.Join(rp.Compose(st, SentenceMarks{Cursor: 1, Issue: 2, Open: map[int]bool{2: true}}), "\n"))
		for _, want := range []string{`$a*b \{x\} = c_1 * d_2$`, `$$x \\ y$$`, "[1]", "[2]", "[3]", "[4]", "bold"} {
			if !strings.Contains(out, want) {
				t.Errorf("%s: %q missing from\n%s", style, want, out)
			}
		}
		if strings.Contains(out, "**bold**") && style != "notty" {
			t.Errorf("%s: markdown not rendered:\n%s", style, out)
		}
		if len(rp.Start) != 4 || rp.Start[0] != 0 || rp.Start[2] <= rp.Start[1] {
			t.Errorf("%s: sentence start lines %v", style, rp.Start)
		}
		for _, l := range strings.Split(out, "\n") {
			if w := ansi.StringWidth(l); w > 62 {
				t.Errorf("%s: line %d wide: %q", style, w, l)
			}
		}
	}
}

func TestPlainProofFallback(t *testing.T) {
	rp := RenderProofPlain("First. Second sentence here.\n\nStep 1: Third $a * b$.", 40, mathtext.Raw)
	out := ansi.Strip(strings.Join(rp.Compose(themes.New(themes.None(true)), SentenceMarks{Cursor: 0, Issue: -1}), "\n"))
	for _, want := range []string{"  [1] First.", "[2] Second", "[3] Step 1: Third $a * b$."} {
		if !strings.Contains(out, want) {
			t.Errorf("%q missing from\n%s", want, out)
		}
	}
}

func TestBadgesReadWithoutColour(t *testing.T) {
	st := themes.New(themes.None(true))
	cases := map[model.Phase]string{
		model.PhaseProved: "✓ true", model.PhaseRefuted: "✗ false", model.PhaseHasGap: "● gap",
		model.PhaseAwaitingCheck: "? check", model.PhaseAwaitingSubs: "… subs", model.PhaseNeedsProof: "○ pending",
		model.PhaseNeedsDecision: "~ modify", model.PhaseAbandoned: "⊘ abandoned",
	}
	for ph, want := range cases {
		got := st.Badge(ph, "", 0)
		if got != want {
			t.Errorf("badge %v: %q, want %q (no escapes without colour)", ph, got, want)
		}
	}
	if got := ansi.Strip(st.Badge(model.PhaseUnknown, "weird\x1b[31m", 0)); got != "! weird␛[31m" {
		t.Errorf("unknown status badge %q", got)
	}
}

func TestTreeLineFitsAnyWidth(t *testing.T) {
	st := themes.New(themes.Dark())
	row := live.TreeRow{Kind: live.RowStatement, ID: "s-001", Depth: 30, HasKids: true, Open: true, Shared: true}
	info := RowInfo{Phase: model.PhaseHasGap, Status: "has_gap", Text: strings.Repeat("日本語 claim ", 20), IssuesOpen: 2, IssuesTotal: 3, Next: model.AgentFix, Stale: true}
	for w := 0; w < 130; w++ {
		for _, sel := range []bool{false, true} {
			l := TreeLine(st, row, info, w, sel, true)
			if got := ansi.StringWidth(l); got > w {
				t.Fatalf("width %d: line is %d wide: %q", w, got, ansi.Strip(l))
			}
		}
	}
	l := ansi.Strip(TreeLine(st, live.TreeRow{Kind: live.RowStatement, ID: "s-007"}, RowInfo{Phase: model.PhaseAwaitingCheck, Status: "awaiting_verification", Text: "Claim", Next: model.AgentCheck, IssuesTotal: 1}, 80, false, false))
	for _, want := range []string{"? check", "s-007", "Claim", "⚑0/1", "→check"} {
		if !strings.Contains(l, want) {
			t.Errorf("%q missing from %q", want, l)
		}
	}
}

func TestCellWidthIsStringWidth(t *testing.T) {
	for _, s := range []string{"", "s-001 For every $n$", "tab\there", "\x1b[1mbold\x1b[0m", "é and ∀", "中文", "a\u0301", "~\x7f"} {
		if got, want := cellWidth(s), ansi.StringWidth(s); got != want {
			t.Errorf("cellWidth(%q) = %d, ansi.StringWidth says %d", s, got, want)
		}
	}
}
