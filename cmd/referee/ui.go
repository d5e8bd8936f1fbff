//go:build !noui

package main

import (
	"referee/sessions"
	"referee/store"
	"referee/tui"
)

func init() {
	openTUI = func(dir string, o uiOptions) error {
		// The agents' Claude Code sessions that ran in the folder holding the contents
		// (--claude-dir, else $CLAUDE_CONFIG_DIR, else ~/.claude).
		claude := o.claudeDir
		if claude == "" {
			claude = sessions.DefaultClaudeDir()
		}
		sess := &sessions.Options{ClaudeDir: claude, Project: store.RunsBase(dir)}
		return tui.Run(dir, tui.Options{Theme: o.theme, StallAfter: o.stallAfter, Sessions: sess})
	}
}
