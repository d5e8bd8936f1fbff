// Command readfloor is bench.ReadFloor as a process: it reads the bytes `referee status`
// reads (every object file and config.json) the fastest plain way and parses nothing,
// so that status can be timed beside it as processes:
//
//	go build -o /tmp/readfloor ./bench/readfloor
//	farm-bench --vs '/tmp/readfloor DIR' -- referee status --output json --contents DIR
//
// It prints the bytes read. Like status it runs without the collector.
package main

import (
	"fmt"
	"os"
	"runtime/debug"

	"referee/bench"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: readfloor CONTENTS_DIR")
		os.Exit(2)
	}
	debug.SetGCPercent(-1)
	n, err := bench.ReadFloor(os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, "readfloor:", err)
		os.Exit(1)
	}
	fmt.Println(n)
}
