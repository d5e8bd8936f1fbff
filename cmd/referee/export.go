package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"referee/export"
)

func (a *app) exportCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use: "export",
		Example: "  referee export --format html --out tree.html\n" +
			"  referee export --format dot | dot -Tsvg > tree.svg",
		Short: "Write the tree as Markdown, a self-contained HTML page, or a Graphviz graph",
		Long: "export writes the work tree with every object's ID and status, the claims, proofs and\n" +
			"open issues: md (Markdown), html (one self-contained page: inline CSS, no script, no\n" +
			"external file), or dot (Graphviz, nodes coloured by status: dot -Tsvg tree.dot > tree.svg).\n" +
			"--at exports the folder as it was right after a change.",
		Args: noArgs,
	}
	contents := addContentsFlag(cmd)
	format := cmd.Flags().String("format", "md", "md, html or dot")
	at := addAtFlag(cmd)
	out := cmd.Flags().String("out", "", "write to this file instead of standard output")
	cmd.RunE = func(*cobra.Command, []string) error {
		if !slices.Contains(export.Formats, *format) {
			return usagef("--format: %q is not one of %s", *format, strings.Join(export.Formats, ", "))
		}
		snap, err := loadWholeAt(*contents, *at)
		if err != nil {
			return err
		}
		var buf bytes.Buffer
		if err := export.Write(&buf, *format, snap, export.Options{Source: filepath.Base(filepath.Clean(*contents)), At: *at}); err != nil {
			return err
		}
		if *out == "" {
			_, err := a.stdout.Write(buf.Bytes())
			return err
		}
		if err := os.WriteFile(*out, buf.Bytes(), 0o644); err != nil {
			return fmt.Errorf("cannot write %s: %v", *out, err)
		}
		return nil
	}
	return cmd
}
