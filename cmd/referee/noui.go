//go:build noui

// The agent build: `CGO_ENABLED=0 go build -tags noui,nomcp ./cmd/referee` leaves the
// terminal UI and its rendering libraries out. Their package init (chroma's style and
// lexer tables, goldmark's) is most of the default build's start, Go runs it before main
// whatever the command, and the agents start a process per skill call
// (docs/agents-install.md; `referee skills install` prints the command).
package main

import "github.com/spf13/cobra"

// serveCommand stands in for `referee serve`, which serves the workbench.
func (a *app) serveCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "serve",
		Short: "Serve the workbench over SSH (not in this build: it has no UI)",
		Args:  noArgs,
		RunE: func(*cobra.Command, []string) error {
			return usagef("this referee was built without the terminal UI (-tags noui); run serve from the default build")
		},
	}
}

// servedAs is unused in this build (serve is left out).
type servedAs struct{}

func (s *servedAs) check(*cobra.Command, []string) error { return nil }
