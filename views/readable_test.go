package views

import (
	"testing"

	"referee/mathtext"
)

// A row shows a claim's first paragraph on one line, its math readable or as written.
func TestReadableLine(t *testing.T) {
	claim := "For all $n$, $\\sqrt{2n} \\geq \\frac{1}{n}$ and\n$$\\boxed{n^2}$$\n\nA second paragraph."
	if got, want := ReadableLine(claim, mathtext.Unicode), "For all n, √(2n) ≥ 1/n and ⟦n²⟧ …"; got != want {
		t.Errorf("readable: %q, want %q", got, want)
	}
	if got, want := ReadableLine(claim, mathtext.Raw), "For all $n$, $\\sqrt{2n} \\geq \\frac{1}{n}$ and …"; got != want {
		t.Errorf("raw: %q, want %q", got, want)
	}
	if got := ReadableLine("x\x1b[31m $\\alpha$", mathtext.Unicode); got != "x␛[31m α" {
		t.Errorf("not sanitised: %q", got)
	}
}

// A tree row's text with math, as each visible row lays it out on every frame.
func BenchmarkReadableLine(b *testing.B) {
	claim := "For every integer $n \\ge 1$, $\\sum_{k=1}^n k^3 = \\left(\\frac{n(n+1)}{2}\\right)^2$, and $\\sqrt{2n} \\le n + 1$ holds whenever $n \\equiv 1 \\pmod 4$."
	for b.Loop() {
		_ = ReadableLine(claim, mathtext.Unicode)
	}
}
