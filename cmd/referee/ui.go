//go:build !noui

package main

import (
	"referee/agents"
	"referee/tui"
)

func init() {
	openTUI = func(dir string, o uiOptions) error {
		// The agents' Claude Code sessions that ran in the folder holding the contents
		// (--claude-dir, else $CLAUDE_CONFIG_DIR, else ~/.claude).
		claude := o.claudeDir
		if claude == "" {
			claude = agents.DefaultClaudeDir()
		}
		sess := &agents.Options{ClaudeDir: claude, Project: agents.RunsBase(dir)}
		return tui.Run(dir, tui.Options{Theme: o.theme, StallAfter: o.stallAfter, Sessions: sess})
	}
}
