package views

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"referee/internal/testutil"
	"referee/mathtext"
)

// idsPerLine is every object ID found on the proof's lines as shown, each line read on
// its own: an ID split over two lines is missing from it, or shows as another.
func idsPerLine(rp *RenderedProof, only []string) []string {
	var out []string
	for _, l := range rp.Compose(stylesFor("plain"), SentenceMarks{Cursor: -1, Issue: -1}) {
		for _, id := range objectID.FindAllString(ansi.Strip(l), -1) {
			if only == nil || slices.Contains(only, id) {
				out = append(out, id)
			}
		}
	}
	slices.Sort(out)
	return out
}

// checkIDsWhole renders a proof at every width from 40 to 120, as glamour does and as
// the plain fallback does, and compares the IDs read line by line with those of a
// rendering so wide nothing wraps; only: the IDs checked (nil: all).
func checkIDsWhole(t *testing.T, name, proof string, math mathtext.Mode, only []string) {
	t.Helper()
	wideMD, err := RenderProofMarkdown(proof, 4000, "dark", math)
	if err != nil {
		t.Fatal(err)
	}
	want := idsPerLine(wideMD, only)
	wantPlain := idsPerLine(RenderProofPlain(proof, 4000, math), only)
	for w := 40; w <= 120; w++ {
		rp, err := RenderProofMarkdown(proof, w, "dark", math)
		if err != nil {
			t.Fatal(err)
		}
		if got := idsPerLine(rp, only); !slices.Equal(got, want) {
			t.Fatalf("%s at %d columns (%s): IDs on the lines %v, want %v:\n%s", name, w, math, got, want,
				ansi.Strip(strings.Join(rp.Display(stylesFor("plain")), "\n")))
		}
		plain := RenderProofPlain(proof, w, math)
		if got := idsPerLine(plain, only); !slices.Equal(got, wantPlain) {
			t.Fatalf("%s at %d columns, plain (%s): IDs on the lines %v, want %v:\n%s", name, w, math, got, wantPlain,
				ansi.Strip(strings.Join(plain.Display(stylesFor("plain")), "\n")))
		}
	}
}

// TestIDsNeverSplitOverLines: no ID of the demo's proofs (nor of a proof made to wrap
// right at its hyphens) is broken by wrapping at any width from 40 to 120: "s-" at the
// end of a line and "011" at the start of the next.
func TestIDsNeverSplitOverLines(t *testing.T) {
	dense := strings.Repeat("By s-011 and p-002 we have e-a12, then l-007 and s-lemma123. ", 12)
	checkIDsWhole(t, "dense", dense, mathtext.Unicode, nil)
	checkIDsWhole(t, "dense", dense, mathtext.Raw, nil)

	files, err := filepath.Glob(filepath.Join(testutil.DemoDir(), "statement/*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no demo statements: %v", err)
	}
	withIDs := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var s struct{ Proof struct{ Full string } }
		if err := json.Unmarshal(data, &s); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if !objectID.MatchString(s.Proof.Full) {
			continue
		}
		withIDs++
		checkIDsWhole(t, filepath.Base(f), s.Proof.Full, mathtext.Unicode, nil)
		checkIDsWhole(t, filepath.Base(f), s.Proof.Full, mathtext.Raw, nil)
	}
	if withIDs == 0 {
		t.Fatal("no demo proof cites an ID: the test checks nothing")
	}
}

// TestCorpusIDsNeverSplitOverLines: the same over the corpus's proofs where an ID's
// shape appears. There it appears only in math ($p-1$), which is broken where a math
// run is wider than the pane (math, not a citation), so citations are added to their
// prose, at the start of every paragraph outside display math, and those are
// checked: real structures (lists, displays, environments) around IDs.
func TestCorpusIDsNeverSplitOverLines(t *testing.T) {
	if testing.Short() {
		t.Skip("renders the corpus's proofs at 81 widths")
	}
	f, err := os.Open("../model/testdata/corpus/proofnet.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	n := 0
	for sc.Scan() {
		var p struct{ ID, Proof string }
		if err := json.Unmarshal(sc.Bytes(), &p); err != nil {
			t.Fatal(err)
		}
		if !objectID.MatchString(p.Proof) {
			continue
		}
		n++
		cited := citeEachParagraph(p.Proof)
		only := []string{"s-011", "p-002", "s-lemma123", "e-a12"}
		checkIDsWhole(t, p.ID, cited, mathtext.Unicode, only)
	}
	if n == 0 {
		t.Fatal("no corpus proof holds an ID's shape")
	}
}

// TestWrapTextKeepsIDsWhole: the claim, premise and issue paragraphs of the detail pane
// wrap without breaking an ID, at every width; other hyphens still break.
func TestWrapTextKeepsIDsWhole(t *testing.T) {
	text := "Cite s-007 (n² + n is even, still pending) or prove directly from s-006 that n(n+1) is even; see p-002, e-a12 and l-lemma012."
	want := objectID.FindAllString(text, -1)
	for w := 16; w <= 120; w++ { // 16: the longest ID and its comma fit
		var got []string
		for _, l := range strings.Split(WrapText(text, w), "\n") {
			if cellWidth(l) > w {
				t.Fatalf("at %d: line %q is wider", w, l)
			}
			got = append(got, objectID.FindAllString(l, -1)...)
		}
		if !slices.Equal(got, want) {
			t.Fatalf("at %d: IDs %v, want %v:\n%s", w, got, want, WrapText(text, w))
		}
	}
	if got := WrapText("a well-known fact", 7); got != "a well-\nknown\nfact" {
		t.Errorf("a plain hyphen: %q", got)
	}
}

// TestFlaggedMarkerKeepsItsBlank: a flagged sentence reads "positive. ![5] Hence": the
// blank after the previous sentence stays, the "!" takes the cell reserved before the
// number; a number that starts its line gets the "!" in the gutter. Flagging changes
// that one cell and nothing else: the layout is the same whether an issue is open.
func TestFlaggedMarkerKeepsItsBlank(t *testing.T) {
	const proof = "Step 2: The number m is positive. Hence $m^2$ is a perfect square. QED.\n\nSo s-011 gives it."
	for _, w := range []int{40, 76, 80, 116, 120} {
		for name, rp := range map[string]*RenderedProof{"plain": RenderProofPlain(proof, w, mathtext.Unicode), "dark": mustMarkdown(t, proof, w)} {
			st := stylesFor(name)
			clean := rp.Compose(st, SentenceMarks{Cursor: -1, Issue: -1})
			for i := range rp.Sentences {
				flagged := rp.Compose(st, SentenceMarks{Cursor: i, Issue: i, Open: map[int]bool{i: true}})
				if len(flagged) != len(clean) {
					t.Fatalf("%s %d: flagging %d changed the line count", name, w, i+1)
				}
				num := fmt.Sprintf("[%d]", i+1)
				for li := range clean {
					a, b := ansi.Strip(clean[li]), ansi.Strip(flagged[li])
					if a == b {
						continue
					}
					at := strings.Index(a, num)
					if at < 2 || a[at-1] != ' ' || b != a[:at-1]+"!"+a[at-1:][1:] {
						t.Fatalf("%s %d, sentence %d flagged:\n%q\nunflagged:\n%q", name, w, i+1, b, a)
					}
					if at > 2 && strings.TrimSpace(a[:at]) != "" && a[at-2] != ' ' {
						t.Fatalf("%s %d: the \"!\" touches the previous sentence: %q", name, w, b)
					}
				}
			}
		}
	}
	rp := mustMarkdown(t, proof, 80)
	got := ansi.Strip(strings.Join(rp.Compose(stylesFor("dark"), SentenceMarks{Cursor: -1, Issue: -1, Open: map[int]bool{0: true, 1: true, 3: true}}), "\n"))
	want := " ![1] Step 2: The number m is positive. ![2] Hence m² is a perfect square.\n  [3] QED.\n  \n ![4] So s-011 gives it."
	if got != want {
		t.Errorf("flagged 1, 2 and 4 at 80:\n%q\nwant\n%q", got, want)
	}
}

// citeEachParagraph starts every paragraph of a proof that is not inside display math
// with citations.
func citeEachParagraph(proof string) string {
	paras := strings.Split(proof, "\n\n")
	dollars, envs := 0, 0 // "$$" seen; environments open (align*, …; not proof)
	for i, p := range paras {
		if dollars%2 == 0 && envs == 0 {
			paras[i] = "By s-011 and p-002, e-a12 gives s-lemma123. " + p
		}
		dollars += strings.Count(p, "$$") + strings.Count(p, `\[`) + strings.Count(p, `\]`)
		envs += strings.Count(p, `\begin{`) - strings.Count(p, `\begin{proof}`) - strings.Count(p, `\end{`) + strings.Count(p, `\end{proof}`)
	}
	return strings.Join(paras, "\n\n")
}

func mustMarkdown(t *testing.T, proof string, w int) *RenderedProof {
	t.Helper()
	rp, err := RenderProofMarkdown(proof, w, "dark", mathtext.Unicode)
	if err != nil {
		t.Fatal(err)
	}
	return rp
}
