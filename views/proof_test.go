package views

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"referee/mathtext"
	"referee/model"
	"referee/themes"
	"referee/views/vtcells"
)

// markedProof has sentences that start mid-line and wrap onto the next line, bold and
// math inside a sentence (glamour resets its style inside the span), and a list whose
// bullets sit between two sentences.
const markedProof = "We set $m = \\frac{n(n+1)}{2}$ for the sum. Then the **key bound** $a*b \\le c$ holds for every $n$ in the range we care about. " +
	"Hence $m^2$ is a perfect square of an integer number.\n\n" +
	"- First item here. Second item continues for a while longer than a line does.\n- Third. QED."

// renderings returns the proof rendered in every markdown style and in the plain
// fallback, at 40 columns.
func renderings(t *testing.T, proof string, math mathtext.Mode) map[string]*RenderedProof {
	t.Helper()
	out := map[string]*RenderedProof{"plain": RenderProofPlain(proof, 40, math)}
	for _, style := range []string{"dark", "light", "notty"} {
		rp, err := RenderProofMarkdown(proof, 40, style, math)
		if err != nil {
			t.Fatal(err)
		}
		out[style] = rp
	}
	return out
}

// shownText is how sentence s reads on screen from its marker on, white space
// normalised: after its list marker, and without emphasis stars where they are drawn as
// bold (the dark and light styles).
func shownText(s model.Sentence, style string) string {
	text := model.NormalizeSpace(s.Text)
	if m := listStart.FindString(text); m != "" {
		text = text[len(m):]
	}
	if style == "dark" || style == "light" {
		text = strings.ReplaceAll(text, "**", "")
	}
	return fmt.Sprintf("[%d] %s", s.N, text)
}

func stylesFor(name string) *themes.Styles {
	if name == "notty" || name == "plain" {
		return themes.New(themes.None(true))
	}
	if name == "light" {
		return themes.New(themes.Light())
	}
	return themes.New(themes.Dark())
}

// TestSentenceMarksChangeOnlyTheBang: with the cursor and an issue on sentences, the
// text on screen is the unmarked text with one blank turned "!" before the number of
// each sentence with an open issue: the gutter's when the number starts its line, the
// one after a list bullet, the one between two sentences.
func TestSentenceMarksChangeOnlyTheBang(t *testing.T) {
	for name, rp := range renderings(t, markedProof, mathtext.Raw) {
		st := stylesFor(name)
		plain := ansi.Strip(strings.Join(rp.Compose(st, SentenceMarks{Cursor: -1, Issue: -1}), "\n"))
		if strings.Contains(plain, "!") {
			t.Fatalf("%s: a ! without marks:\n%s", name, plain)
		}
		marks := SentenceMarks{Cursor: 1, Issue: 2, Open: map[int]bool{0: true, 2: true, 3: true}}
		got := ansi.Strip(strings.Join(rp.Compose(st, marks), "\n"))
		want := plain
		for _, n := range []int{1, 3, 4} {
			num := fmt.Sprintf("[%d]", n)
			i := strings.Index(want, num)
			if i < 1 || want[i-1] != ' ' {
				t.Fatalf("%s: no blank before %s in\n%s", name, num, want)
			}
			want = want[:i-1] + "!" + want[i:]
		}
		if got != want {
			t.Errorf("%s: marked text\n%s\nwant\n%s", name, got, want)
		}
	}
}

// TestCursorSentenceIsExactlyReversed: for every sentence under the cursor, the cells a
// terminal shows in reverse video are that sentence's text from its number to its last
// character, whatever the line breaks; the flagged sentence's cells are underlined, and
// a "!" stands right before its number.
func TestCursorSentenceIsExactlyReversed(t *testing.T) {
	sents := model.SplitSentences(markedProof)
	for name, rp := range renderings(t, markedProof, mathtext.Raw) {
		st := stylesFor(name)
		for cur := range sents {
			flag := (cur + 2) % len(sents)
			lines := rp.Compose(st, SentenceMarks{Cursor: cur, Issue: flag, Open: map[int]bool{flag: true}})
			scr := vtcells.Draw(lines, 60, len(lines)+1)
			want := shownText(sents[cur], name)
			if got := strings.Join(scr.Runs(vtcells.Reverse, 0, 0, 60, len(lines)), " "); got != want {
				t.Errorf("%s, cursor on %d: reversed %q, want %q\n%s", name, cur+1, got, want, scr)
			}
			want = shownText(sents[flag], name)
			if got := strings.Join(scr.Runs(vtcells.Underline, 0, 0, 60, len(lines)), " "); got != want {
				t.Errorf("%s, issue on %d: underlined %q, want %q", name, flag+1, got, want)
			}
			num := fmt.Sprintf("![%d]", flag+1)
			if !strings.Contains(scr.String(), num) {
				t.Errorf("%s: %q not on screen\n%s", name, num, scr)
			}
		}
	}
}

// TestCursorSentenceStartsMidLineAndWraps pins the case the marks exist for: sentence 2
// starts after sentence 1 on its line and runs over two more lines; the reversed cells
// are exactly its three parts.
func TestCursorSentenceStartsMidLineAndWraps(t *testing.T) {
	rp, err := RenderProofMarkdown(markedProof, 40, "dark", mathtext.Raw)
	if err != nil {
		t.Fatal(err)
	}
	lines := rp.Compose(themes.New(themes.Dark()), SentenceMarks{Cursor: 1, Issue: -1})
	scr := vtcells.Draw(lines, 60, len(lines)+1)
	first, last := rp.SentenceLines(1)
	if first != 1 || last != 3 {
		t.Fatalf("sentence 2 on lines %d..%d, want 1..3:\n%s", first, last, scr)
	}
	got := scr.Runs(vtcells.Reverse, 0, 0, 60, len(lines))
	want := []string{"[2] Then the key bound $a*b", "\\le c$ holds for every $n$ in the", "range we care about."}
	if !slices.Equal(got, want) {
		t.Fatalf("reversed %q, want %q\n%s", got, want, scr)
	}
	if row := scr.Row(1); !strings.HasPrefix(row, "  the sum.  [2] Then") {
		t.Fatalf("sentence 2 does not start mid-line: %q", row)
	}
}

// TestPaintKeepsTheLinesOwnStyle: the line's escapes survive; after a reset inside the
// span the attribute is opened again; after the span it is closed.
func TestPaintKeepsTheLinesOwnStyle(t *testing.T) {
	line := "ab \x1b[1mcd\x1b[m ef \x1b[4mgh\x1b[24m"
	got := paintCells(line, []attrSpan{{3, 6, attrReverse}, {9, 11, attrUnderline}}, []int{2}, "!")
	want := "ab!\x1b[1m\x1b[7mcd\x1b[m\x1b[7m \x1b[27mef \x1b[4m\x1b[4mgh\x1b[24m"
	if got != want {
		t.Fatalf("painted %q\nwant    %q", got, want)
	}
	if ansi.Strip(got) != "ab!cd ef gh" {
		t.Fatalf("text %q", ansi.Strip(got))
	}
}
