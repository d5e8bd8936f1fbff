// Command referee is a terminal workbench and CLI for the proof trees AI agents write
// in a contents folder (see FORMAT.md). The CLI is wiring only: the logic is in store/.
//
// Exit codes: 0 done; 1 refused (a precondition, a conflict, a folder init will not
// touch) or `check` found errors; 2 bad usage or bad input.
//
// Environment: REFEREE_ACTOR is the default --actor. REFEREE_NOW (an RFC 3339 time) pins
// the time written to the log; it exists for tests and reproducible examples.
// REFEREE_CPUPROFILE names a file for a CPU profile of the whole run (for `referee
// bench` and by hand: the workbench as users run it, measured). REFEREE_MEMPROFILE names
// a file for a heap profile written when the run ends, and as FILE.1, FILE.2, … each
// time the process gets SIGUSR1: the difference of two (go tool pprof -diff_base) is what
// was allocated in between, such as under an agents' run.
package main

import (
	"io"
	"math"
	"os"
	"os/signal"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"strconv"
	"strings"
	"syscall"

	"referee/internal/timeline"
)

func main() {
	timeline.Mark("main")
	if isStatus(os.Args[1:]) {
		collectOnlyNearTheLimit()
	}
	stop := profile(os.Getenv("REFEREE_CPUPROFILE"))
	stopHeap := heapProfile(os.Getenv("REFEREE_MEMPROFILE"))
	code := run(os.Args[1:], os.Stdout, os.Stderr)
	stopHeap()
	stop()
	timeline.Write()
	os.Exit(code)
}

// profile starts a CPU profile into path (none when empty) and returns what stops it.
func profile(path string) (stop func()) {
	if path == "" {
		return func() {}
	}
	f, err := os.Create(path)
	if err != nil {
		return func() {}
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return func() {}
	}
	return func() {
		pprof.StopCPUProfile()
		f.Close()
	}
}

// heapProfile writes heap profiles into path (none when empty): one each time the
// process gets SIGUSR1 (path.1, path.2, …) and one when the returned func is called,
// each after a collection.
func heapProfile(path string) (stop func()) {
	if path == "" {
		return func() {}
	}
	write := func(name string) {
		runtime.GC() // a profile counts up to the last collection: this one makes it now
		if f, err := os.Create(name); err == nil {
			pprof.Lookup("heap").WriteTo(f, 0)
			f.Close()
		}
	}
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGUSR1)
	go func() {
		for n := 1; ; n++ {
			if _, ok := <-sig; !ok {
				return
			}
			write(path + "." + strconv.Itoa(n))
		}
	}()
	return func() {
		signal.Stop(sig)
		write(path)
	}
}

// run executes one command line and returns the exit code; tests call it in-process.
func run(args []string, stdout, stderr io.Writer) int {
	return newApp(os.Stdin, stdout, stderr).execute(args)
}

// isStatus reports whether the command line runs `referee status`, which agents run
// again and again.
func isStatus(args []string) bool {
	for _, a := range args {
		if !strings.HasPrefix(a, "-") {
			return a == "status"
		}
	}
	return false
}

// collectOnlyNearTheLimit turns the collector off for the rest of the process: status
// loads a folder, derives, prints and exits, keeping what it allocates (the snapshot,
// the graph) to the end, so collecting marks it all and frees nothing (a third of its
// derive time at 10,000 statements). A memory limit of 1 GiB, or GOMEMLIMIT's, still
// makes it collect near the limit; GOGC set by hand is obeyed. Other commands keep the
// collector: `check` and `export` hold every proof text, and gained nothing without it
// but twice the memory.
func collectOnlyNearTheLimit() {
	if os.Getenv("GOGC") != "" {
		return
	}
	if debug.SetMemoryLimit(-1) == math.MaxInt64 {
		debug.SetMemoryLimit(1 << 30)
	}
	debug.SetGCPercent(-1)
}
