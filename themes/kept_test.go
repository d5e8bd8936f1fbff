package themes

import (
	"strconv"
	"testing"
)

// Kept draws a key once per Styles, starts again past its bound, and a Styles made
// without New draws each time.
func TestKeptDrawsOncePerKey(t *testing.T) {
	s := New(Dark())
	n := 0
	draw := func() string { n++; return strconv.Itoa(n) }
	if a, b, c := s.Kept("a", draw), s.Kept("a", draw), s.Kept("b", draw); a != "1" || b != "1" || c != "2" {
		t.Fatalf("Kept = %q %q %q, want 1 1 2", a, b, c)
	}
	if got := New(Dark()).Kept("a", draw); got != "3" {
		t.Fatalf("another Styles' Kept = %q, want 3 (its own)", got)
	}
	for i := range keptMax {
		s.Kept("k"+strconv.Itoa(i), func() string { return "" })
	}
	if len(s.kept.m) > keptMax {
		t.Fatalf("%d strings kept, want at most %d", len(s.kept.m), keptMax)
	}
	var bare Styles
	if a, b := bare.Kept("a", draw), bare.Kept("a", draw); a == b {
		t.Fatalf("a bare Styles kept %q", a)
	}
}
