package mcpserver

import "testing"

// A small folder's heap may grow to five times what is live, a middling one by the
// headroom, a large one to twice, as by default.
func TestGCPercent(t *testing.T) {
	const mib = 1 << 20
	for _, c := range []struct {
		live    uint64
		percent int
	}{
		{0, 100},
		{32 * mib, 400},
		{128 * mib, 400},
		{256 * mib, 200},
		{300 * mib, 170},
		{512 * mib, 100},
		{4096 * mib, 100},
	} {
		if got := gcPercent(c.live); got != c.percent {
			t.Errorf("gcPercent(%d MiB) = %d, want %d", c.live/mib, got, c.percent)
		}
	}
}
