package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"referee/store"
)

func (a *app) checkCommand() *cobra.Command {
	cmd := &cobra.Command{
		Use: "check",
		Example: "  referee check\n" +
			"  referee check --contents ~/run/contents -o json",
		Short: "Lint a contents folder; exits 1 when it finds errors (warnings do not fail)",
		Args:  noArgs,
	}
	contents := addContentsFlag(cmd)
	output := addOutputFlag(cmd)
	cmd.RunE = func(*cobra.Command, []string) error {
		if err := checkOutput(*output); err != nil {
			return err
		}
		findings, err := store.Check(*contents)
		if err != nil {
			return err
		}
		errs, warns := 0, 0
		for _, f := range findings {
			if f.Severity == store.SeverityError {
				errs++
			} else {
				warns++
			}
		}
		if *output == "json" {
			if err := a.writeJSON(findings); err != nil {
				return err
			}
		} else {
			for _, f := range findings {
				fmt.Fprintf(a.stdout, "%s: %s\n", f.Severity, oneLine(f.String()))
			}
			fmt.Fprintf(a.stdout, "%s, %s\n", plural(errs, "error"), plural(warns, "warning"))
		}
		if errs > 0 {
			return &silentExit{code: exitRefused}
		}
		return nil
	}
	return cmd
}

func plural(n int, word string) string {
	if n == 1 {
		return fmt.Sprintf("1 %s", word)
	}
	return fmt.Sprintf("%d %ss", n, word)
}
