//go:build noui

// A build for agents that only call the CLI: `CGO_ENABLED=0 go build -tags noui
// ./cmd/referee` leaves the terminal UI and its libraries out, so a process starts in
// about 2 ms instead of the ~20 ms the UI's libraries spend building their tables in
// package init (README, "CLI").
package main

