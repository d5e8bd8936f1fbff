package mathtext

import (
	"bufio"
	"encoding/json"
	"os"
	"reflect"
	"regexp"
	"sort"
	"strings"
	"testing"
)

func TestInline(t *testing.T) {
	for in, want := range map[string]string{
		`\left|\mathbf{x}-\frac{4}{3} \mathbf{b}+\frac{1}{3} \mathbf{a}\right|`: "|𝐱-(4/3) 𝐛+(1/3) 𝐚|",
		`x^2 + y_n = z^{n+1} - w_{i,j}`:                                         "x² + yₙ = zⁿ⁺¹ - w_(i,j)",
		`\alpha \leq \beta`:                                                     "α ≤ β",
		`\frac{r x}{r}`:                                                         "(r x)/r",
		`\frac{a+b}{(c+d)}`:                                                     "(a+b)/(c+d)",
		`\sqrt{2}`:                                                              "√2",
		`\sqrt{x+1}`:                                                            "√(x+1)",
		`\sqrt[3]{x}`:                                                           "∛x",
		`a \equiv b \pmod{n}`:                                                   "a ≡ b (mod n)",
		`a \bmod n`:                                                             "a mod n",
		`\mathbb{R}^n \to \mathbb{Z}`:                                           "ℝⁿ → ℤ",
		`\mathcal{F}, \mathfrak{g}`:                                             "ℱ, 𝔤",
		`\text{if } x \in A`:                                                    "if x ∈ A",
		`\mathrm{d}x \, \operatorname{Aut}(G)`:                                  "dx Aut(G)",
		`x_1, \ldots, x_n`:                                                      "x₁, …, xₙ",
		`a \cdots b`:                                                            "a ⋯ b",
		`f^{\prime}(x) \neq 0`:                                                  "f′(x) ≠ 0",
		`x \not\in A, a \not= b`:                                                "x ∉ A, a ≠ b",
		`\forall \epsilon > 0 \exists \delta`:                                   "∀ ϵ > 0 ∃ δ",
		`\bar{z} \overline{AB}`:                                                 "z̄ A̅B̅",
		`\langle x, y \rangle`:                                                  "⟨ x, y ⟩",
		`\legendre{a}{p} = 1`:                                                   "⁅\\legendre{a}{p}⁆ = 1",
		`\unknowncmd x`:                                                         "⁅\\unknowncmd⁆ x",
		`\sum_{i=1}^{n} i`:                                                      "∑ᵢ₌₁ⁿ i",
		`\lim_{n \to \infty} a_n`:                                               "lim_(n → ∞) aₙ",
		`\left\{ x \right.`:                                                     "{ x",
		`2^{\frac{1}{2}}`:                                                       "2^(1/2)",
		`\frac{(n+1)^2}{4}(n^2 + 4n + 4)`:                                       "((n+1)²/4)(n² + 4n + 4)",
		`\frac{1}{2}x + \frac{n}{2}\sqrt{2}`:                                    "(1/2)x + (n/2)√2",
		`\frac{1}{2} = \frac{a}{b}`:                                             "1/2 = a/b",
		`x^*`:                                                                   "x*",
		`\begin{pmatrix} a & b \\ c & d \end{pmatrix}`:                          "(a, b; c, d)",
		`f(x)=\begin{cases} 1 & x>0 \\ 0 & \text{otherwise}\end{cases}`: "f(x)={ 1 x>0; 0 otherwise",
		// Issue 23: a part of more than one atom keeps its grouping.
		`\sqrt{s(s-a)(s-b)(s-c)}`:            "√(s(s-a)(s-b)(s-c))",
		`2\sqrt{2x}`:                         "2√(2x)",
		`2\sqrt{2}x`:                         "2(√2)x",
		`\frac{1}{(x-a)(x-b)}`:               "1/((x-a)(x-b))",
		`\frac{(x^3-1)(y^3-1)}{(x-1)(y-1)}`:  "(x³-1)(y³-1)/((x-1)(y-1))",
		`2\frac{x}{3}`:                       "2x/3",
		`x/\frac{a}{b}`:                      "x/(a/b)",
		`2\frac{3x}{4}`:                      "2(3x/4)",
		`\frac{n(n+1)}{2}x`:                  "(n(n+1)/2)x",
		`2\frac{1}{4} + 3\frac{11}{12}`:      "2¼ + 3¹¹⁄₁₂",
		`\frac{a}{b}^2`:                      "(a/b)²",
		`\sqrt{x}^2`:                         "(√x)²",
		`\frac{1}{2}\pi r`:                   "(1/2)π r",
		`x{\frac{1}{2}}`:                     "x1/2",
		`\root 3 \of {x \root 3 \of {x}}`:    "∛(x ∛x)",
		`\sqrt[n+1]{x}`:                      "ⁿ⁺¹√x",
		`\sqrt[q]{x}`:                        "⁅\\sqrt[q]{x}⁆",
		`{a+b \over c}`:                      "(a+b)/c",
		`{8 \choose 2}`:                      "C(8, 2)",
		`\binom{n}{k}`:                       "C(n, k)",
		`\boxed{\frac{14}{3}}`:               "⟦14/3⟧",
		`\triangle ABC, \angle B = 90^\circ`: "△ ABC, ∠ B = 90°",
		`45^{\circ}`:                         "45°",
		`f \circ g`:                          "f ∘ g",
		`\frac{1}{\cancel{5}}`:               "1/5̶",
		`\mbox{if } x`:                       "if x",
		`\dfrac{a}{b} + \tfrac{c}{d}`:        "a/b + c/d",
		`{`:                                  "",
		`\\`:                                 "",
		`\`:                                  `\`,
	} {
		if got := Inline(in); got != want {
			t.Errorf("Inline(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestDisplay(t *testing.T) {
	block := "$$\n\n\\begin{aligned}\n\n|x \\pm y|^2 &=(x \\pm y) \\cdot(x \\pm y) \\\\\n\n&=|x|^2 \\pm 2 x \\cdot y+|y|^2 .\n\n\\end{aligned}\n\n$$"
	want := []string{
		"|x ± y|² =(x ± y) ·(x ± y)",
		"         =|x|² ± 2 x · y+|y|² .",
	}
	if got := Display(block, 0); !reflect.DeepEqual(got, want) {
		t.Errorf("Display\n got %q\nwant %q", got, want)
	}
	// Too narrow to align: the cells are joined.
	if got := Display(block, 20); got[1] != "=|x|² ± 2 x · y+|y|² ." {
		t.Errorf("Display narrow = %q", got)
	}
	if got := Display(`\[ x = 1 \]`, 0); !reflect.DeepEqual(got, []string{"x = 1"}) {
		t.Errorf("Display \\[ = %q", got)
	}
	if got := Display(`\begin{cases} a & b \\ c & d \end{cases}`, 0); !reflect.DeepEqual(got, []string{"⎧ a  b", "⎩ c  d"}) {
		t.Errorf("Display cases = %q", got)
	}
}

func TestText(t *testing.T) {
	in := "\\begin{proof}\nWe have $x^2 \\geq 0$ and\n$$\n\na &= b \\\\\n\nc &= dd\n\n$$\nso that \\emph{all} is well, costing \\$5.\n\\end{proof}"
	want := "Proof.\nWe have x² ≥ 0 and\n    a = b\n    c = dd\nso that all is well, costing $5.\n∎"
	if got := Text(in, 0); got != want {
		t.Errorf("Text\n got %q\nwant %q", got, want)
	}
	if got := Text("No math here ~ at all.", 0); got != "No math here ~ at all." {
		t.Errorf("Text plain = %q", got)
	}
}

var commandRE = regexp.MustCompile(`\\(?:[A-Za-z]+|.)`)

// rawSpanRE matches what is shown as written, between the raw marks.
var rawSpanRE = regexp.MustCompile(`⁅[^⁅⁆]*(?:⁅[^⁅⁆]*⁆[^⁅⁆]*)*⁆`)

// On both corpora, almost every backslash command is rendered (figure code counted
// apart: it is shown as written, whole); every one that is not is shown as written
// between the raw marks, and found in the source: none is dropped, none left unmarked.
// The ones left are listed with their counts (go test -run Coverage -v).
func TestCoverage(t *testing.T) {
	for _, c := range []struct {
		name string
		want float64
	}{
		{"../model/testdata/corpus/proofnet.jsonl", 99.5},
		{"../model/testdata/competition/math500.jsonl", 99},
	} {
		total, figures, n := 0, 0, 0
		left := map[string]int{}
		proofs := corpusProofs(t, c.name)
		for _, p := range proofs {
			for _, f := range figureRE.FindAllString(p, -1) {
				figures += len(commandRE.FindAllString(f, -1))
			}
			total += len(commandRE.FindAllString(figureRE.ReplaceAllString(p, ""), -1))
			out := Text(p, 80)
			for _, raw := range rawSpanRE.FindAllString(out, -1) {
				inner := strings.TrimSuffix(strings.TrimPrefix(raw, RawOpen), RawClose)
				if !strings.Contains(p, strings.SplitN(inner, "\n", 2)[0]) {
					t.Errorf("%s: raw span %q is not in the source", c.name, inner)
				}
				if strings.HasPrefix(inner, "[asy]") {
					continue
				}
				for _, cmd := range commandRE.FindAllString(inner, -1) {
					left[cmd]++
					n++
				}
			}
			if rest := commandRE.FindAllString(rawSpanRE.ReplaceAllString(out, ""), -1); len(rest) > 0 {
				t.Errorf("%s: commands shown unmarked: %q in %q", c.name, rest, out)
			}
		}
		var names []string
		for cmd := range left {
			names = append(names, cmd)
		}
		sort.Slice(names, func(i, j int) bool {
			return left[names[i]] > left[names[j]] || left[names[i]] == left[names[j]] && names[i] < names[j]
		})
		for _, cmd := range names {
			t.Logf("shown as written: %-16s %d", cmd, left[cmd])
		}
		rate := 100 * float64(total-n) / float64(total)
		t.Logf("%s: %d proofs, %d of %d backslash commands rendered (%.2f%%), %d more in figure code shown whole",
			c.name, len(proofs), total-n, total, rate, figures)
		if rate < c.want {
			t.Errorf("%s: only %.2f%% of the commands rendered, want at least %.1f%%", c.name, rate, c.want)
		}
	}
}

var figureRE = regexp.MustCompile(`(?s)\[asy\].*?\[/asy\]`)

func FuzzText(f *testing.F) {
	f.Add(`\frac{\sqrt[3]{x^{2_{a}}}}{\left(\mathbb{R}\right.} \begin{cases} a & b \\ \end{cases} \not\in`)
	f.Add("$$\n\\begin{aligned} a &= b \\\\ c &= d \\end{aligned}\n$$ and $x$ \\(y\\) \\[z\\]")
	f.Add(`\begin{array}{cc} 1 & 2 \end{array} \sqrt[ \frac{ \text{$x$} `)
	f.Fuzz(func(t *testing.T, s string) {
		_ = Text(s, 40)
		_ = Inline(s)
		_ = Display(s, 30)
	})
}

func TestPieces(t *testing.T) {
	s := "We have $x^2$ and\n$$a \\leq b$$\nso \\emph{it} holds."
	got := Pieces(s, 0)
	want := []Piece{
		{Prose, "We have ", "We have "}, {InlineMath, "$x^2$", "x²"}, {Prose, " and\n", " and\n"},
		{DisplayMath, "$$a \\leq b$$", "    a ≤ b"}, {Prose, "\nso ", "\nso "}, {Prose, "\\emph{it}", "it"}, {Prose, " holds.", " holds."},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Pieces\n got %+v\nwant %+v", got, want)
	}
	var raw strings.Builder
	for _, p := range got {
		raw.WriteString(p.Raw)
	}
	if raw.String() != s {
		t.Errorf("pieces do not cover the text: %q", raw.String())
	}
}

// The pieces of any text cover it exactly.
func FuzzPieces(f *testing.F) {
	f.Add("We have $x^2$ and\n$$a \\leq b$$\nso \\emph{it} holds. \\(y\\) \\[z\\] $$ $")
	f.Fuzz(func(t *testing.T, s string) {
		var raw strings.Builder
		for _, p := range Pieces(s, 40) {
			raw.WriteString(p.Raw)
		}
		if raw.String() != s {
			t.Fatalf("pieces of %q give %q", s, raw.String())
		}
	})
}

// Hostile math: 1 MB of display blocks, each holding a thousand unclosed environments.
// Linear now; each \begin searched to the end of its block made it quadratic.
func BenchmarkTextUnclosedEnvironments(b *testing.B) {
	unit := "$$" + strings.Repeat(`\begin{cases} `, 1<<10) + "$$ "
	s := strings.Repeat(unit, (1<<20)/len(unit))
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		_ = Text(s, 80)
	}
}

// The corpus's proofs rendered readable, one after another.
func BenchmarkTextCorpus(b *testing.B) {
	f, err := os.Open("../model/testdata/corpus/proofnet.jsonl")
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	var proofs []string
	n := 0
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var p struct{ Proof string }
		if err := json.Unmarshal(sc.Bytes(), &p); err != nil {
			b.Fatal(err)
		}
		proofs = append(proofs, p.Proof)
		n += len(p.Proof)
	}
	b.SetBytes(int64(n))
	for b.Loop() {
		for _, p := range proofs {
			_ = Text(p, 80)
		}
	}
}

func TestDisplayTall(t *testing.T) {
	for _, c := range []struct {
		block string
		want  []string
	}{
		{`$$f(x)=\begin{cases} 1 & x \in \mathbb{Q} \\ 0 & \text{otherwise} \end{cases}$$`,
			[]string{"f(x)= ⎧ 1  x ∈ ℚ", "      ⎩ 0  otherwise"}},
		{`\[A = \begin{pmatrix} a & b \\ c & dd \\ e & f \end{pmatrix}.\]`,
			[]string{"    ⎛ a  b  ⎞", "A = ⎜ c  dd ⎟", "    ⎝ e  f  ⎠ ."}},
		{`$$\begin{bmatrix} 1 & 0 \\ 0 & 1 \end{bmatrix}$$`, []string{"⎡ 1  0 ⎤", "⎣ 0  1 ⎦"}},
		// Two environments on the line: one line is the better layout.
		{`$$\begin{pmatrix} a \\ b \end{pmatrix}\begin{pmatrix} c \\ d \end{pmatrix}$$`, []string{"(a; b)(c; d)"}},
	} {
		if got := Display(c.block, 0); !reflect.DeepEqual(got, c.want) {
			t.Errorf("Display(%q)\n got %q\nwant %q", c.block, got, c.want)
		}
	}
	// Too wide for the width: one line.
	if got := Display(`$$f(x)=\begin{cases} 1 & x \in \mathbb{Q} \\ 0 & \text{otherwise} \end{cases}$$`, 12); len(got) != 1 {
		t.Errorf("narrow cases = %q", got)
	}
}

func TestDisplayLeftRightArray(t *testing.T) {
	got := Display(`$$A=\left(\begin{array}{cc} a & b \\ c & d \end{array}\right)$$`, 0)
	if want := []string{"A= ⎛ a  b ⎞", "   ⎝ c  d ⎠"}; !reflect.DeepEqual(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

// Tables are grids with their rules; a \multicolumn cell spans its columns; figure code
// is shown whole, as written, marked.
func TestDisplayTables(t *testing.T) {
	for _, c := range []struct {
		block string
		want  []string
	}{
		{"\\begin{tabular}{|c|c|}\n\n\\hline$x$ & $x^3 \\bmod 7$ \\\\\n\n\\hline 2 & 1 \\\\\n\n\\hline\n\\end{tabular}",
			[]string{"───────────", "x  x³ mod 7", "───────────", "2  1", "───────────"}},
		{"$$\\begin{array}{@{}c@{\\;}c@{}c@{}c} && & 6_8 \\\\ & \\times & & 7_8 \\\\ \\cline{2-4} & & 5 & 2_8 \\\\ \\end{array} $$",
			[]string{"        6₈", "  ×     7₈", "──────────", "     5  2₈"}},
		{"\\[\n\\begin{array}{c|ccc}\n\\multicolumn{2}{r}{2} & 0 & 4 \\\\\n\\cline{2-4}\n2 & 4 & 1 & 3 \\\\\n\\end{array}\n\\]",
			[]string{"   2  0  4", "──────────", "2  4  1  3"}},
		{"[asy]\ndraw((0,0)--(1,1));\nlabel(\"$\\frac{1}{2}$\", (0,0));\n[/asy]",
			[]string{"⁅[asy]", "draw((0,0)--(1,1));", "label(\"$\\frac{1}{2}$\", (0,0));", "[/asy]⁆"}},
	} {
		if got := Display(c.block, 0); !reflect.DeepEqual(got, c.want) {
			t.Errorf("Display(%q)\n got %q\nwant %q", c.block, got, c.want)
		}
	}
	// Removing a "$" never glues a command to the letters after it.
	if got := Text(`\hline$t<0$ and \foo$x$`, 0); got != `t<0 and ⁅\foo⁆x` {
		t.Errorf("Text = %q", got)
	}
	// Math written outside $…$ reads as math.
	if got := Text(`so a \equiv b \pmod{p}.`, 0); got != `so a ≡ b  (mod p).` {
		t.Errorf("Text = %q", got)
	}
}

// A 20 KB proof of competition solutions, rendered readable (the goal: at most 50 ms
// of CPU, off the UI goroutine).
func BenchmarkText20KB(b *testing.B) {
	var s strings.Builder
	for _, p := range corpusProofs(b, "../model/testdata/competition/math500.jsonl") {
		if s.Len() >= 20<<10 {
			break
		}
		s.WriteString(p)
		s.WriteString("\n\n")
	}
	proof := s.String()[:20<<10]
	b.SetBytes(int64(len(proof)))
	for b.Loop() {
		_ = Text(proof, 80)
	}
}

func TestLineAndSourceForms(t *testing.T) {
	if got := Line("Let $x \\equiv 1$ and\n$$\\frac{1}{2}x$$\nso.", Unicode); got != "Let x ≡ 1 and (1/2)x so." {
		t.Errorf("Line = %q", got)
	}
	if got := Line("Let $x \\equiv 1$.", Raw); got != "Let $x \\equiv 1$." {
		t.Errorf("Line raw = %q", got)
	}
	for word, want := range map[string][]string{
		"≡":   {`\equiv`},
		"≤":   {`\le`, `\leq`, `\leqslant`},
		"ℝ":   {`\mathbb{R}`},
		"x²":  {"x^2", "x^{2}"},
		"abc": nil,
	} {
		if got := SourceForms(word); !reflect.DeepEqual(got, want) {
			t.Errorf("SourceForms(%q) = %q, want %q", word, got, want)
		}
	}
}
