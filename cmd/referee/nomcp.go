//go:build nomcp

package main

import "github.com/spf13/cobra"

// A build without the MCP server (-tags nomcp, usually with noui) for agents that only
// run `referee skill` processes: the MCP SDK brings net/http, crypto and its own package
// init, which cost every process start about a millisecond (notes/i16-readme.md).
func (a *app) mcpCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "mcp",
		Short: "Serve the skills as an MCP server (not in this build: -tags nomcp)",
		Args:  noArgs,
		RunE: func(*cobra.Command, []string) error {
			return usagef("this referee was built without the MCP server (-tags nomcp); build it without that tag to serve MCP")
		},
	}
}
