//go:build noui

// The agent build: `CGO_ENABLED=0 go build -tags noui,nomcp ./cmd/referee` leaves the
// terminal UI and its rendering libraries out. Their package init (chroma's style and
// lexer tables, goldmark's) is most of the default build's start, Go runs it before main
// whatever the command, and the agents start a process per skill call
// (docs/agents-install.md; `referee skills install` prints the command).
package main

import "github.com/spf13/cobra"

// benchCommand stands in for `referee bench`, which times the UI too (package bench
// imports the tui) and so is left out of this build with the UI's libraries.
func (a *app) benchCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "bench",
		Short: "Time referee beside the agents' Python tools (not in this build: it has no UI)",
		Args:  noArgs,
		RunE: func(*cobra.Command, []string) error {
			return usagef("this referee was built without the terminal UI (-tags noui), and bench times the UI too; run bench from the default build (go build ./cmd/referee)")
		},
	}
}
