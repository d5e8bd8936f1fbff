package tui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// m switches the proof between readable math and its LaTeX source, and back; the
// renderings are cached per math mode, and R still quotes the source.
func TestMathToggle(t *testing.T) {
	m, _ := newTestModel(t, 120, 40)
	keys(t, m, "n", "n") // s-015
	const readable = "∑ₖ₌₁ⁿ k³ = m² is"
	proofPart := func() string {
		scr := ansi.Strip(m.Render())
		i := strings.Index(scr, "Proof (")
		j := strings.Index(scr, "Issues (")
		if i < 0 || j < i {
			t.Fatalf("no proof on screen:\n%s", scr)
		}
		return scr[i:j]
	}
	if p := proofPart(); !strings.Contains(p, readable) || strings.Contains(p, `\sum`) {
		t.Fatalf("proof not readable by default:\n%s", p)
	}
	keys(t, m, "m")
	if p := proofPart(); !strings.Contains(p, `\sum_{k=1}^n`) || strings.Contains(p, "∑") {
		t.Fatalf("m did not show the source:\n%s", p)
	}
	n := len(m.detail.proofs)
	keys(t, m, "m")
	if p := proofPart(); !strings.Contains(p, readable) {
		t.Fatalf("m again did not show math readable:\n%s", p)
	}
	if len(m.detail.proofs) != n {
		t.Errorf("switching back rendered again: %d cached renderings, had %d", len(m.detail.proofs), n)
	}
	// R on s-014 (readable on screen) quotes sentence 2 as written.
	m, _ = newTestModel(t, 120, 40)
	keys(t, m, "n", "]", "R")
	if scr := ansi.Strip(m.Render()); !strings.Contains(scr, `Step 1: Since $(n+1)^3 = \frac{(n+1)^2}{4}`) {
		t.Errorf("the reject form does not quote the source:\n%s", scr)
	}
}
