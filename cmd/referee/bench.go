package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"
)

// benchCommand is `referee bench`: it runs referee-bench on this binary. The measuring
// code is its own command (cmd/referee-bench) so that referee links no benchmark, pty
// or terminal emulator; this is the name the speed goals are quoted with.
func (a *app) benchCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "bench [referee-bench flags]",
		Short: "Time this referee beside the agents' Python tools and the raw read floor (runs referee-bench)",
		Long: "bench runs referee-bench with --binary set to this referee: the timing table (load, reload,\n" +
			"memory, skill calls, the MCP server, the workbench), and with its flags the live rows,\n" +
			"the SSH rows, the long-log rows and the shapes. referee-bench is looked for beside this\n" +
			"binary, then on $PATH; in referee's source tree, without either, it is run with\n" +
			"`go run ./cmd/referee-bench`. Every flag goes to referee-bench (`referee bench --help`\n" +
			"lists them).",
		Example: "  referee bench                              # the table at 1,000 and 10,000 statements\n" +
			"  referee bench --sizes 10000,100000         # and at 100,000\n" +
			"  referee bench --table=false --long-log     # the commands that read a run's past\n" +
			"  referee bench --table=false --live 30s     # the workbench under a live run",
		DisableFlagParsing: true,
		RunE: func(_ *cobra.Command, args []string) error {
			self, err := os.Executable()
			if err != nil {
				return err
			}
			if !slices.ContainsFunc(args, func(s string) bool { return s == "--binary" || strings.HasPrefix(s, "--binary=") }) {
				args = append([]string{"--binary", self}, args...)
			}
			name, argv, err := benchProgram(self)
			if err != nil {
				return err
			}
			cmd := exec.Command(name, append(argv, args...)...)
			cmd.Stdin, cmd.Stdout, cmd.Stderr = a.stdin, a.stdout, a.stderr
			err = cmd.Run()
			var ee *exec.ExitError
			if errors.As(err, &ee) && ee.ExitCode() > 0 { // referee-bench said why
				return &silentExit{code: ee.ExitCode()}
			}
			return err
		},
	}
}

// benchProgram is how to start referee-bench: beside self, on $PATH, or `go run` in
// referee's source tree (the working folder).
func benchProgram(self string) (name string, argv []string, err error) {
	beside := filepath.Join(filepath.Dir(self), "referee-bench")
	if info, err := os.Stat(beside); err == nil && info.Mode().IsRegular() && info.Mode()&0o111 != 0 {
		return beside, nil, nil
	}
	if path, err := exec.LookPath("referee-bench"); err == nil {
		return path, nil, nil
	}
	mod, _ := os.ReadFile("go.mod")
	if first, _, _ := bytes.Cut(mod, []byte("\n")); string(bytes.TrimSpace(first)) == "module referee" {
		if _, err := os.Stat(filepath.Join("cmd", "referee-bench", "main.go")); err == nil {
			if gobin, err := exec.LookPath("go"); err == nil {
				return gobin, []string{"run", "./cmd/referee-bench"}, nil
			}
		}
	}
	return "", nil, usagef("bench runs referee-bench, found neither beside %s nor on $PATH: install it from referee's source with `go install ./cmd/referee-bench`, or run `referee bench` in that source folder", self)
}
