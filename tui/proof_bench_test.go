package tui

import (
	"strings"
	"testing"

	"referee/views"
)

// benchProof is a proof of about n bytes: paragraphs of prose with inline math, a list
// and a display formula, as the agents write them.
func benchProof(n int) string {
	para := "By the induction hypothesis, $f(x_k) \\le C \\cdot k^{-1/2}$ for every $k < n$, " +
		"and **Lemma 3** gives $\\sum_{i=1}^{n} a_i^2 \\le 1$. Hence the claim holds for $n$.\n\n" +
		"- first, the case $n = 1$ is immediate;\n- second, for $n > 1$ we split the sum.\n\n" +
		"$$\\int_0^1 g(t)\\,dt = \\lim_{m\\to\\infty} \\frac{1}{m}\\sum_{j=1}^m g(j/m).$$\n\n"
	return strings.Repeat(para, max(1, n/len(para)))
}

// benchProofRender renders a proof with glamour each time (cold) or takes it from the
// workbench's cache of renderings (cached: hash of the text, width and theme, then a
// map lookup), at an 80-column detail pane.
func benchProofRender(b *testing.B, n int, cached bool) {
	m, _ := newTestModel(b, 120, 40)
	proof := benchProof(n)
	b.SetBytes(int64(len(proof)))
	style := m.st.MarkdownStyle()
	if cached {
		if _, cmd := m.proofFor(proof, 78); cmd != nil {
			b.Fatal("synchronous rendering expected")
		}
	}
	b.ResetTimer()
	for range b.N {
		if cached {
			rp, _ := m.proofFor(proof, 78)
			if rp == nil {
				b.Fatal("no rendering")
			}
			continue
		}
		if _, err := views.RenderProofMarkdown(proof, 78, style); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkProofRender2KBCold(b *testing.B)    { benchProofRender(b, 2<<10, false) }
func BenchmarkProofRender2KBCached(b *testing.B)  { benchProofRender(b, 2<<10, true) }
func BenchmarkProofRender20KBCold(b *testing.B)   { benchProofRender(b, 20<<10, false) }
func BenchmarkProofRender20KBCached(b *testing.B) { benchProofRender(b, 20<<10, true) }
