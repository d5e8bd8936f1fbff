package views

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"referee/mathtext"
	"referee/model"
	"referee/views/vtcells"
)

// displayProof has a display block with blank lines inside, continuing sentence 1.
const displayProof = "We have\n\n$$\n\\begin{aligned}\na &= b+c \\\\\n\n&= \\frac{d}{2}\n\\end{aligned}\n$$\n\nso that $x \\leq y$. Then $\\alpha$ holds."

// In readable mode the display's rows are lines of their own, indented and aligned at
// "&", and the sentence under the cursor is reversed over all of its parts, rows too.
func TestReadableDisplayRows(t *testing.T) {
	for name, rp := range renderings(t, displayProof, mathtext.Unicode) {
		st := stylesFor(name)
		lines := rp.Compose(st, SentenceMarks{Cursor: 0, Issue: 1, Open: map[int]bool{}})
		plain := ansi.Strip(strings.Join(lines, "\n"))
		// The rows sit 4 cells in from the text (glamour's notty style keeps a margin).
		at := strings.Repeat(" ", strings.Index(plain, "[1]")+4)
		for _, want := range []string{"\n" + at + "a = b+c\n" + at + "  = d/2\n", "so that x ≤ y.", "[2] Then α holds."} {
			if !strings.Contains(plain, want) {
				t.Errorf("%s: %q missing from\n%s", name, want, plain)
			}
		}
		if strings.Contains(plain, "$") || strings.Contains(plain, `\`) {
			t.Errorf("%s: source left in\n%s", name, plain)
		}
		scr := vtcells.Draw(lines, 60, len(lines)+1)
		got := scr.Runs(vtcells.Reverse, 0, 0, 60, len(lines))
		want := []string{"[1] We have", "a = b+c", "= d/2", "so that x ≤ y."}
		if !slices.Equal(got, want) {
			t.Errorf("%s: reversed %q, want %q\n%s", name, got, want, scr)
		}
		if got := scr.Runs(vtcells.Underline, 0, 0, 60, len(lines)); !slices.Equal(got, []string{"[2] Then α holds."}) {
			t.Errorf("%s: underlined %q", name, got)
		}
	}
}

// Readable and raw renderings are cached apart, and raw mode is the source as before.
func TestMathModesKeyedApart(t *testing.T) {
	if ProofKey(displayProof, 40, "dark", mathtext.Unicode) == ProofKey(displayProof, 40, "dark", mathtext.Raw) {
		t.Fatal("one key for both math modes")
	}
	rp := RenderProofPlain(displayProof, 40, mathtext.Raw)
	plain := ansi.Strip(strings.Join(rp.Compose(stylesFor("plain"), SentenceMarks{Cursor: -1, Issue: -1}), "\n"))
	if !strings.Contains(plain, `&= \frac{d}{2}`) {
		t.Errorf("raw mode does not show the source:\n%s", plain)
	}
}

// On the markedProof, readable mode reverses exactly each sentence as shown.
func TestReadableCursorSentence(t *testing.T) {
	sents := model.SplitSentences(markedProof)
	for name, rp := range renderings(t, markedProof, mathtext.Unicode) {
		st := stylesFor(name)
		for cur := range sents {
			lines := rp.Compose(st, SentenceMarks{Cursor: cur, Issue: -1})
			scr := vtcells.Draw(lines, 60, len(lines)+1)
			s := sents[cur]
			s.Text = mathtext.Text(s.Text, 0)
			want := shownText(s, name)
			if got := strings.Join(scr.Runs(vtcells.Reverse, 0, 0, 60, len(lines)), " "); got != want {
				t.Errorf("%s, cursor on %d: reversed %q, want %q\n%s", name, cur+1, got, want, scr)
			}
		}
	}
}

// trimRightANSI drops what the old anchored expression dropped: trailing blanks and
// SGR codes, nothing else.
func TestTrimRightANSI(t *testing.T) {
	old := regexp.MustCompile(`(?:\x1b\[[0-9;:]*m| )+$`)
	for _, l := range []string{"", "   ", "abc", "abc  ", "\x1b[1mabc\x1b[m  \x1b[38;5;1m \x1b[m", "a\x1b[", "a m", "a\x1b[xm ", "\x1b[m", "x\x1b[1;2:3m"} {
		want := l
		if loc := old.FindStringIndex(l); loc != nil {
			want = l[:loc[0]]
			if strings.Contains(want, "\x1b[") {
				want += "\x1b[m"
			}
		}
		if got := trimRightANSI(l); got != want {
			t.Errorf("trimRightANSI(%q) = %q, want %q", l, got, want)
		}
	}
}

// On every corpus proof shown readable, each sentence's marks land on it: the cells in
// reverse video under the cursor start with its number, and its last line is not
// before its first.
func TestCorpusSentenceMarks(t *testing.T) {
	if testing.Short() {
		t.Skip("renders 369 proofs")
	}
	f, err := os.Open("../model/testdata/corpus/proofnet.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	st := stylesFor("dark")
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for n := 0; sc.Scan(); n++ {
		var p struct{ ID, Proof string }
		if err := json.Unmarshal(sc.Bytes(), &p); err != nil {
			t.Fatal(err)
		}
		rp, err := RenderProofMarkdown(p.Proof, 76, "dark", mathtext.Unicode)
		if err != nil {
			t.Fatal(err)
		}
		for i := range rp.Sentences {
			first, last := rp.SentenceLines(i)
			if first < 0 || last < first {
				t.Fatalf("%s sentence %d on lines %d..%d", p.ID, i+1, first, last)
			}
			lines := rp.Compose(st, SentenceMarks{Cursor: i, Issue: -1})[first : last+1]
			scr := vtcells.Draw(lines, 80, len(lines)+1)
			runs := scr.Runs(vtcells.Reverse, 0, 0, 80, len(lines))
			if len(runs) == 0 || !strings.HasPrefix(runs[0], fmt.Sprintf("[%d]", i+1)) {
				t.Fatalf("%s sentence %d: reversed %q\n%s", p.ID, i+1, runs, scr)
			}
		}
	}
}

// Any proof renders readable without a panic, every line within the width (gutter
// included), each sentence's lines in order.
func FuzzRenderReadable(f *testing.F) {
	f.Add(displayProof)
	f.Add(markedProof)
	f.Add("$$\n\n\\begin{aligned}a&=b\\\\\n\n&=\\frac{\\sqrt{x}}{\\mathbb{R}}\\end{aligned}\n\n$$ \\begin{proof} $\\overline{AB}$ 漢字 $x^{漢}$ \\end{proof}")
	f.Fuzz(func(t *testing.T, proof string) {
		rp := RenderProofPlain(proof, 30, mathtext.Unicode)
		for i, l := range rp.Compose(stylesFor("plain"), SentenceMarks{Cursor: 0, Issue: -1}) {
			if w := ansi.StringWidth(l); w > 30+gutterWidth {
				t.Fatalf("line %d is %d cells: %q", i, w, l)
			}
		}
		for i := range rp.Sentences {
			if first, last := rp.SentenceLines(i); last < first {
				t.Fatalf("sentence %d on lines %d..%d", i+1, first, last)
			}
		}
	})
}
