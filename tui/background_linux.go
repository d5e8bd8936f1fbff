package tui

import "syscall"

// lowerPriority sets the calling thread's nice value to 10 (on Linux a thread's
// priority is its own).
func lowerPriority() {
	_ = syscall.Setpriority(syscall.PRIO_PROCESS, syscall.Gettid(), 10)
}
