package cells

import (
	"testing"

	"github.com/charmbracelet/x/ansi"
)

func TestCutBothMethods(t *testing.T) {
	defer SetMethod(Method())
	for _, m := range []ansi.Method{ansi.WcWidth, ansi.GraphemeWidth} {
		SetMethod(m)
		if got := Cut("abc│def│ghi", 2, 5); got != "c│d" {
			t.Errorf("method %d: Cut = %q, want %q", m, got, "c│d")
		}
		if got := Cut("\x1b[1mabc\x1b[m│def", 0, 3); ansi.Strip(got) != "abc" {
			t.Errorf("method %d: Cut from 0 = %q", m, got)
		}
	}
}

// TestWidthFollowsTheMethod: the clusters that made borders shift are counted as the
// renderer counts them, per method.
func TestWidthFollowsTheMethod(t *testing.T) {
	defer SetMethod(Method())
	for _, s := range []string{"👨‍👩‍👧", "☺️", "👍🏽", "क्षि", "ที่"} {
		SetMethod(ansi.WcWidth)
		if Width(s) != ansi.StringWidthWc(s) {
			t.Errorf("%q: wc width %d, ansi %d", s, Width(s), ansi.StringWidthWc(s))
		}
		SetMethod(ansi.GraphemeWidth)
		if Width(s) != ansi.StringWidth(s) {
			t.Errorf("%q: grapheme width %d, ansi %d", s, Width(s), ansi.StringWidth(s))
		}
	}
}

// TestTruncateNeverOverflows: a cut string is never wider than asked, by Width.
func TestTruncateNeverOverflows(t *testing.T) {
	defer SetMethod(Method())
	s := "smile ☺️ heart ❤️ digit 1️⃣ family 👨‍👩‍👧‍👦 and 🏳️‍🌈 flags क्षत्रिय ที่นี่"
	for _, m := range []ansi.Method{ansi.WcWidth, ansi.GraphemeWidth} {
		SetMethod(m)
		for w := 0; w < Width(s)+2; w++ {
			if got := Truncate(s, w, "…"); Width(got) > w {
				t.Errorf("method %d: Truncate(%d) is %d wide: %q", m, w, Width(got), got)
			}
		}
	}
}

// Width's fast path (printable ASCII runs between CSI sequences) counts as the ansi
// package does, under both methods, for styled lines and for the shapes around it.
func TestWidthAgreesWithAnsi(t *testing.T) {
	defer SetMethod(Method())
	pieces := []string{
		"abc", "s-001", " ", "│", "─", "●", "é", "e\u0301", "\u0301", "👨‍👩‍👧‍👦", "1️⃣", "✔︎", "नि", "ไทย", "漢字",
		"\x1b[1m", "\x1b[m", "\x1b[38;2;130;170;255m", "\x1b[0;1;48;5;236m", "\x1b[ q", "\x1b[?25l",
		"\x1b]8;;https://example.com\x1b\\", "\x1b]8;;\x07", "\t", "\x1b", "\x1b[", "\x1b[12", "\x1b(B", "\x7f", "\x1b[1\x01m",
	}
	for _, m := range []ansi.Method{ansi.WcWidth, ansi.GraphemeWidth} {
		SetMethod(m)
		for _, a := range pieces {
			for _, b := range pieces {
				for _, c := range pieces {
					s := a + b + c
					if got, want := Width(s), m.StringWidth(s); got != want {
						t.Errorf("method %d: Width(%q) = %d, want %d", m, s, got, want)
					}
				}
			}
		}
	}
}
