//go:build !noui

package main

import (
	"time"

	"referee/sessions"
	"referee/store"
	"referee/tui"
)

func init() {
	openTUI = func(dir, theme string, stallAfter time.Duration) error {
		// The agents' Claude Code sessions that ran in the folder holding the contents
		// ($CLAUDE_CONFIG_DIR, else ~/.claude).
		sess := &sessions.Options{ClaudeDir: sessions.DefaultClaudeDir(), Project: store.RunsBase(dir)}
		return tui.Run(dir, tui.Options{Theme: theme, StallAfter: stallAfter, Sessions: sess})
	}
}
