package gen

import (
	"bytes"
	"math/rand/v2"
	"strconv"
	"strings"
)

// The texts below imitate what the agents write: claims and premises with inline math,
// proofs of "Step N:" paragraphs ending "QED.", notes with the FORMAT.md tags. They carry
// LaTeX backslashes and a little non-ASCII (≤, →, ε), which the agents' json.dumps escapes,
// so a load spends its time on the same escapes as on a real run. Apostrophes are left
// out: an issue quotes a sentence between single quotes.

var mathBits = []string{
	`$n \ge %d$`, `$a_{%d} \le b_{%d}$`, `$\sum_{k=1}^{n} k^{%d}$`, `$f(x) = x^{%d} + %d$`,
	`$|G| = p^{%d}$`, `$\gcd(a, b) = %d$`, `$x \in \mathbb{Z}_{%d}$`, `$\frac{n(n+%d)}{2}$`,
	`$\varepsilon < 1/%d$`, `$p \mid n^{%d} - 1$`, `$H \le G$ with $[G : H] = %d$`,
	`$\deg P = %d$`, `$x_{%d} \to 0$`, `$m + %d \equiv 0 \pmod{q}$`,
}

var unicodeBits = []string{"≤", "→", "ε", "∀", "∈", "≠"}

var sentenceForms = []string{
	"By the induction hypothesis, %s holds for every %s.",
	"Since %s, it follows that %s.",
	"Hence %s, which contradicts %s.",
	"We claim that %s whenever %s.",
	"Consider first the case %s, where %s.",
	"Then %s and therefore %s.",
	"Summing over all indices gives %s, and so %s.",
	"It remains to show that %s given %s.",
	"Combining the two bounds, %s implies %s.",
	"In particular %s, so %s as required.",
	"Substituting %s into the previous identity yields %s.",
	"Every term satisfies %s, hence %s.",
}

var openings = map[string]string{
	"direct":        "We prove the claim directly from the premises, using %s.",
	"contradiction": "Suppose, for contradiction, that %s fails.",
	"case_analysis": "We split into cases according to %s.",
	"backward":      "We work backward from the goal %s.",
}

var claimForms = []string{
	"For every integer %s, %s.",
	"If %s, then %s.",
	"There is no solution with %s and %s.",
	"The map defined by %s satisfies %s.",
	"Whenever %s, we have %s.",
}

var rationales = []string{
	"the two cases need different tools",
	"the bound is easier to prove for each factor separately",
	"the induction step splits into a base estimate and a transfer lemma",
	"the parity argument and the size argument are independent",
	"each summand can be estimated on its own",
}

var explanations = []string{
	"the step uses the bound without showing it applies to the boundary case",
	"the inequality is asserted but the constant is never justified",
	"the argument silently assumes the set is finite",
	"the conclusion restates the claim being proved",
	"the case $n = 1$ is not covered by the argument",
	"the lemma is applied outside its hypotheses",
}

var fixes = []string{
	"prove the bound for the boundary case separately",
	"justify the constant with an explicit estimate",
	"add finiteness as a premise or prove it",
	"replace the circular step with a direct computation",
	"treat the small cases by hand",
}

// texter draws the words of one object from its own random stream, so that an object's
// text does not depend on how much text came before it.
type texter struct{ r *rand.Rand }

func newTexter(seed, stream uint64) texter {
	return texter{r: rand.New(rand.NewPCG(seed, stream))}
}

func (t texter) pick(list []string) string { return list[t.r.IntN(len(list))] }

// The forms are cut at their "%d" or "%s" once, so that filling one in is appends only.
var (
	mathPieces     = cut(mathBits, "%d")
	sentencePieces = cut(sentenceForms, "%s")
	claimPieces    = cut(claimForms, "%s")
	openingPieces  = map[string][]string{}
)

func init() {
	for k, v := range openings {
		openingPieces[k] = strings.Split(v, "%s")
	}
}

func cut(forms []string, verb string) [][]string {
	out := make([][]string, len(forms))
	for i, f := range forms {
		out[i] = strings.Split(f, verb)
	}
	return out
}

func (t texter) math() string { return string(t.appendMath(nil)) }

// appendMath appends a bit of inline math. The texts are built by appending, not with
// fmt: a folder of a million statements is gigabytes of them.
func (t texter) appendMath(b []byte) []byte {
	form := mathPieces[t.r.IntN(len(mathPieces))]
	b = append(b, form[0]...)
	for _, piece := range form[1:] {
		b = strconv.AppendInt(b, int64(1+t.r.IntN(12)), 10)
		b = append(b, piece...)
	}
	if t.r.IntN(8) == 0 { // a little non-ASCII, as agents sometimes write it
		b = append(b, ' ')
		b = append(b, t.pick(unicodeBits)...)
		b = append(b, " $c_{"...)
		b = strconv.AppendInt(b, int64(t.r.IntN(9)), 10)
		b = append(b, "}$"...)
	}
	return b
}

// appendForm appends a form (cut at its %s) with a bit of math in each cut.
func (t texter) appendForm(b []byte, form []string) []byte {
	b = append(b, form[0]...)
	for _, piece := range form[1:] {
		b = append(t.appendMath(b), piece...)
	}
	return b
}

func (t texter) appendSentence(b []byte) []byte {
	return t.appendForm(b, sentencePieces[t.r.IntN(len(sentencePieces))])
}

// claim is a claim with a case number of its own: real claims differ, and check flags a
// claim that repeats one already decided (numbers that differ keep two claims apart).
func (t texter) claim(n uint64) string {
	b := t.appendForm(make([]byte, 0, 128), claimPieces[t.r.IntN(len(claimPieces))])
	b = append(bytes.TrimSuffix(b, []byte(".")), " in case $c = "...)
	b = strconv.AppendUint(b, n, 10)
	return string(append(b, "$."...))
}

func (t texter) premise(n uint64) string {
	b := append(make([]byte, 0, 96), "Assume "...)
	b = t.appendMath(b)
	b = append(b, " in case $c = "...)
	b = strconv.AppendUint(b, n, 10)
	return string(append(b, "$."...))
}

// proof writes a proof of about size bytes, never more than most: an opening sentence,
// "Step N:" paragraphs of two to six sentences, and "QED.". It returns the number of
// steps too, and where each sentence starts, as model.SplitSentences would find them:
// every sentence ends with "." outside math, and the next starts a paragraph or, after
// a space, with an upper-case word. A sentence that does not fit is drawn all the same,
// then dropped.
func (t texter) proof(strategy string, size, most int, cites []string) (string, int, []int) {
	const end = "\n\nQED."
	b := t.appendForm(make([]byte, 0, size+256), openingPieces[strategy])
	starts := make([]int, 1, 2+size/64)
	step := 0
	for len(b) < size-len(end) {
		mark := len(b)
		b = append(b, "\n\nStep "...)
		b = strconv.AppendInt(b, int64(step+1), 10)
		b = append(b, ": "...)
		b = t.appendSentence(b)
		if len(b)+len(end) > most {
			b = b[:mark]
			break
		}
		starts = append(starts, mark+2)
		step++
		for i, n := 1, 2+t.r.IntN(5); i < n && len(b) < size-len(end); i++ {
			mark := len(b)
			b = t.appendSentence(append(b, ' '))
			if len(cites) > 0 && t.r.IntN(6) == 0 {
				b = append(b[:mark+1], "By "...)
				b = append(b, cites[t.r.IntN(len(cites))]...)
				b = append(t.appendMath(append(b, ", "...)), '.')
			}
			if len(b)+len(end) > most {
				b = b[:mark]
				break
			}
			starts = append(starts, mark+1)
		}
	}
	starts = append(starts, len(b)+2)
	b = append(b, end...)
	return string(b), step, starts
}

func (t texter) rationale() string   { return t.pick(rationales) }
func (t texter) explanation() string { return t.pick(explanations) }
func (t texter) fix() string         { return t.pick(fixes) }
