//go:build noui

// A build for agents that only call the CLI: `CGO_ENABLED=0 go build -tags noui
// ./cmd/referee` leaves the terminal UI and its libraries out, so a process starts in
// about 2 ms instead of the ~20 ms the UI's libraries spend building their tables in
// package init (docs/skills.md).
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
