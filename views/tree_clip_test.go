package views

import "testing"

// Clip cuts at a character boundary and says how much it cut.
func TestClip(t *testing.T) {
	for _, c := range []struct {
		in   string
		n    int
		want string
		more int
	}{
		{"abc", 3, "abc", 0},
		{"abcd", 3, "abc", 1},
		{"ab€d", 3, "ab", 4}, // € is three bytes: not split
		{"", 0, "", 0},
	} {
		got, more := Clip(c.in, c.n)
		if got != c.want || more != c.more {
			t.Errorf("Clip(%q, %d) = %q, %d; want %q, %d", c.in, c.n, got, more, c.want, c.more)
		}
	}
}
