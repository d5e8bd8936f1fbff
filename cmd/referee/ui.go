//go:build !noui

package main

import (
	"time"

	"referee/tui"
)

func init() {
	openTUI = func(dir, theme string, stallAfter time.Duration) error {
		return tui.Run(dir, tui.Options{Theme: theme, StallAfter: stallAfter})
	}
}
