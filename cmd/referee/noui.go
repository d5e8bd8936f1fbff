//go:build noui

// A build for agents that only call the CLI: `go build -tags noui ./cmd/referee` leaves
// the terminal UI and its libraries out, so a process starts in about a millisecond
// instead of the ~17 ms the UI's libraries spend building their tables at start-up.
package main
