//go:build noui

package main

import "github.com/spf13/cobra"

// manCommand: the CLI-only build has no man pages (see docgen.go).
func (a *app) manCommand(*cobra.Command) *cobra.Command { return nil }
