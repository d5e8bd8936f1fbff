package bench

import (
	"strings"
	"testing"
	"time"

	"github.com/hinshun/vt10x"
)

// An SSH screen notes the change its status bar names, once, when it first shows; the
// rows' table judges the goals from the figures.
func TestServeScreenAndRows(t *testing.T) {
	s := &sshScreen{vt: vt10x.New(vt10x.WithSize(60, 4)), w: 60, h: 4, stall: make(chan struct{})}
	draw := func(last string) {
		_, _ = s.Write([]byte("\x1b[H\x1b[2JTree\r\n\r\n\r\n ● live │ last: " + last + " check-reject-proof"))
	}
	draw("l-0041")
	draw("l-0041")
	draw("l-0042")
	seen := s.sightings()
	if len(seen) != 2 || seen[0].id != "l-0041" || seen[1].id != "l-0042" || seen[1].at.Before(seen[0].at) {
		t.Fatalf("sightings %+v", seen)
	}

	var out strings.Builder
	o := ServeOptions{Sessions: 20, Duration: 10 * time.Second, Calls: 40}
	WriteServe(&out, 10000, o, ServeReport{Sessions: 20, ServeCPU: 0.5, LocalCPU: 0.2, ServePerCall: 25 * time.Millisecond, LocalPerCall: 10 * time.Millisecond, LocalCalls: 300, LagP50: 60 * time.Millisecond,
		LagP99: 140 * time.Millisecond, StalledLagP99: 160 * time.Millisecond, PerSession: 5, Calls: 400, Shown: 8000})
	for _, want := range []string{
		"| write → every session's status bar: p50, p99 (400 calls, 8000 sightings, 0 missed) | 60.0 ms, 140.0 ms | p99 ≤ 150 ms ✓ |",
		"| the others' p99 with one more client that stopped reading | 160.0 ms | ≤ 150 ms ✗ |",
		"| CPU per skill call: the server with 20 sessions, one workbench; ratio | 25.0 ms, 10.0 ms; 2.50× | ≤ 2× ✗ |",
		"| resident memory each session after the first adds | 5.0 MiB | ≤ 15 MB ✓ |",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("no line %q in\n%s", want, out.String())
		}
	}
}
