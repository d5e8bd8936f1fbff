// Command referee is a terminal workbench and CLI for the proof trees AI agents write
// in a contents folder (see FORMAT.md). The CLI is wiring only: the logic is in store/.
//
// Exit codes: 0 done; 1 refused (a precondition, a conflict, a folder init will not
// touch) or `check` found errors; 2 bad usage or bad input.
//
// Environment: REFEREE_ACTOR is the default --actor. REFEREE_NOW (an RFC 3339 time) pins
// the time written to the log; it exists for tests and reproducible examples.
package main

import (
	"io"
	"os"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run executes one command line and returns the exit code; tests call it in-process.
func run(args []string, stdout, stderr io.Writer) int {
	return newApp(os.Stdin, stdout, stderr).execute(args)
}
