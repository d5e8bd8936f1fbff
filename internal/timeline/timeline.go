// Package timeline records when a process reaches the steps of the workbench's start,
// with its CPU time and page faults so far, when REFEREE_TIMELINE names a file: the
// measurement behind docs/performance.md's first-frame tables, kept so each round need
// not patch it in again. Off, a step costs one load of a bool.
//
// A line is appended to the file when the process ends (Write), one `step=W/C/F` per
// step in the order reached: W milliseconds of wall time since REFEREE_TIMELINE_T0 (Unix
// nanoseconds, as a launcher records the exec) or, without it, since this package was
// initialised; C milliseconds of CPU (user + system, since the exec); F minor page
// faults.
package timeline

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

type step struct {
	name      string
	at        time.Time
	cpu, flts int64
}

var (
	path  = os.Getenv("REFEREE_TIMELINE")
	mu    sync.Mutex
	steps []step
)

func init() { Mark("init") }

// Mark records the step the first time it is reached.
func Mark(name string) {
	if path == "" {
		return
	}
	at := time.Now()
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	mu.Lock()
	defer mu.Unlock()
	for _, s := range steps {
		if s.name == name {
			return
		}
	}
	steps = append(steps, step{name, at, ru.Utime.Nano() + ru.Stime.Nano(), ru.Minflt})
}

// Write appends the steps reached to the file, one line.
func Write() {
	if path == "" {
		return
	}
	mu.Lock()
	defer mu.Unlock()
	if len(steps) == 0 {
		return
	}
	t0 := steps[0].at
	if ns, err := strconv.ParseInt(os.Getenv("REFEREE_TIMELINE_T0"), 10, 64); err == nil {
		t0 = time.Unix(0, ns)
	}
	var b strings.Builder
	for i, s := range steps {
		if i > 0 {
			b.WriteByte(' ')
		}
		fmt.Fprintf(&b, "%s=%.1f/%.0f/%d", s.name, float64(s.at.Sub(t0))/1e6, float64(s.cpu)/1e6, s.flts)
	}
	b.WriteByte('\n')
	f, err := os.OpenFile(path, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		return
	}
	defer f.Close()
	_, _ = f.WriteString(b.String())
}
