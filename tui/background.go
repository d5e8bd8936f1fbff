package tui

import "runtime"

// inBackground runs work on an OS thread of its own at a lower scheduling priority and
// returns its result: the extras (similarity index, re-treads, graveyard, review order)
// take tens of milliseconds of a core per build, and on a machine whose cores the
// agents keep busy the keys and frames must not wait behind them. The thread ends with
// the work (a goroutine that exits locked takes its thread with it), so the priority
// never leaks to other goroutines.
func inBackground[T any](work func() T) T {
	out := make(chan T, 1)
	go func() {
		runtime.LockOSThread() // never unlocked: the thread exits with the goroutine
		lowerPriority()
		out <- work()
	}()
	return <-out
}
