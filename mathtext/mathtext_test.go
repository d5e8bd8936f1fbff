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
		`\left|\mathbf{x}-\frac{4}{3} \mathbf{b}+\frac{1}{3} \mathbf{a}\right|`: "|𝐱-4/3 𝐛+1/3 𝐚|",
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
		`\legendre{a}{p} = 1`:                                                   `\legendre{a}{p} = 1`,
		`\unknowncmd x`:                                                         `\unknowncmd x`,
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
		`{`:  "",
		`\\`: "",
		`\`:  `\`,
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

// On the corpus, at least 97% of the backslash commands occurring in it are rendered;
// the ones left as written are listed with their counts (go test -run Corpus -v).
func TestCorpusRendered(t *testing.T) {
	f, err := os.Open("../model/testdata/corpus/proofnet.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	total, left := 0, map[string]int{}
	proofs := 0
	for sc.Scan() {
		var p struct{ Proof string }
		if err := json.Unmarshal(sc.Bytes(), &p); err != nil {
			t.Fatal(err)
		}
		proofs++
		total += len(commandRE.FindAllString(p.Proof, -1))
		for _, c := range commandRE.FindAllString(Text(p.Proof, 80), -1) {
			left[c]++
		}
	}
	n := 0
	var names []string
	for c, k := range left {
		n += k
		names = append(names, c)
	}
	sort.Slice(names, func(i, j int) bool {
		return left[names[i]] > left[names[j]] || left[names[i]] == left[names[j]] && names[i] < names[j]
	})
	for _, c := range names {
		t.Logf("not rendered: %-16s %d", c, left[c])
	}
	rate := 100 * float64(total-n) / float64(total)
	t.Logf("%d proofs: %d of %d backslash commands rendered (%.2f%%)", proofs, total-n, total, rate)
	if rate < 97 {
		t.Errorf("only %.2f%% of the corpus's commands rendered, want at least 97%%", rate)
	}
}

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
