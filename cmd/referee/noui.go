//go:build noui

// The agent build: `CGO_ENABLED=0 go build -tags noui,nomcp ./cmd/referee` leaves the
// terminal UI and its rendering libraries out. Their package init (chroma's style and
// lexer tables, goldmark's) is most of the default build's start, Go runs it before main
// whatever the command, and the agents start a process per skill call
// (docs/agents-install.md; `referee skills install` prints the command).
package main

