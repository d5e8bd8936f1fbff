package tuimeasure

import (
	"sync"
	"syscall"
	"testing"
	"time"

	"referee/internal/benchfolder"
	"referee/tui"
)

var benchFolder = benchfolder.Get

var benchProbes sync.Map // dir → *tui.Probe: a 100k folder takes seconds to load

// benchProbe opens a folder as `referee-bench` does (open) at a terminal size, once per
// folder and test binary.
func benchProbe(b *testing.B, dir string, w, h int) *tui.Probe {
	b.Helper()
	if p, ok := benchProbes.Load(dir); ok {
		return p.(*tui.Probe)
	}
	p, err := open(dir, w, h)
	if err != nil {
		b.Fatal(err)
	}
	benchProbes.Store(dir, p)
	return p
}

// cpuTime is the CPU time the process has used (user and system, all threads): on a
// shared machine it moves less than wall time.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
