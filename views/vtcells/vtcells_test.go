package vtcells

import (
	"slices"
	"testing"
)

func TestAttrs(t *testing.T) {
	s := Draw([]string{"a\x1b[7mrev\x1b[27m b \x1b[4mund\x1b[m c", "\x1b[4;7mboth\x1b[0m"}, 20, 3)
	if got := s.Runs(Reverse, 0, 0, 20, 3); !slices.Equal(got, []string{"rev", "both"}) {
		t.Errorf("reverse runs %q", got)
	}
	if got := s.Runs(Underline, 0, 0, 20, 3); !slices.Equal(got, []string{"und", "both"}) {
		t.Errorf("underline runs %q", got)
	}
	if got := s.Runs(Reverse, 2, 0, 20, 1); !slices.Equal(got, []string{"ev"}) {
		t.Errorf("reverse runs from column 2 %q", got)
	}
	if got := s.Row(0); got != "arev b und c        " {
		t.Errorf("row 0 %q", got)
	}
}
