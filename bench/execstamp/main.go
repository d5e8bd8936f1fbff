// Command execstamp starts a workbench binary with REFEREE_TIMELINE_T0 set to the time
// of its exec, so the binary's timeline (REFEREE_TIMELINE, package internal/timeline)
// counts from the exec as `referee-bench --opens` does. Copied to a name NAME, it runs
// NAME.bin with its own arguments: give NAME as a bench's --binary, e.g.
//
//	go build -o /tmp/x/new ./bench/execstamp && cp referee /tmp/x/new.bin
//	REFEREE_TIMELINE=/tmp/x/steps TMPDIR=/tmp referee-bench --binary /tmp/x/new --table=false --opens 15
//
// Its own start adds a few milliseconds to the bench's figures, none to the timeline's.
package main

import (
	"fmt"
	"os"
	"strconv"
	"syscall"
	"time"
)

func main() {
	self, err := os.Executable()
	if err != nil {
		fmt.Fprintln(os.Stderr, "execstamp:", err)
		os.Exit(2)
	}
	bin := self + ".bin"
	env := append(os.Environ(), "REFEREE_TIMELINE_T0="+strconv.FormatInt(time.Now().UnixNano(), 10))
	err = syscall.Exec(bin, append([]string{bin}, os.Args[1:]...), env)
	fmt.Fprintln(os.Stderr, "execstamp:", bin+":", err)
	os.Exit(2)
}
