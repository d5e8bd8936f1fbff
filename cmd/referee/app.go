package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"referee/model"
	"referee/skill"
	"referee/store"
	"referee/themes"
)

// Exit codes.
const (
	exitOK      = 0
	exitRefused = 1 // precondition, conflict, init on a used folder, check found errors
	exitUsage   = 2 // bad usage or bad input
)

// Environment variables the CLI reads.
const (
	envActor = "REFEREE_ACTOR"
	// envNow pins the time of changes (RFC 3339). It is for tests and reproducible
	// examples; it is deliberately left out of the help.
	envNow = "REFEREE_NOW"
)

// usageError is a bad command line: exit 2.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error {
	return &usageError{msg: fmt.Sprintf(format, args...)}
}

// silentExit ends the command with a code and no message (the output said it all).
type silentExit struct{ code int }

func (e *silentExit) Error() string { return fmt.Sprintf("exit %d", e.code) }

// exitCode maps an error to the exit code.
func exitCode(err error) int {
	var (
		se *silentExit
		ue *usageError
		ie *skill.InputError
		le *store.LinkError
	)
	switch {
	case errors.As(err, &se):
		return se.code
	case errors.As(err, &le): // the command was right; the folder refuses it
		return exitRefused
	case errors.As(err, &ue), errors.As(err, &ie):
		return exitUsage
	}
	// skill.PreconditionError, store.ConflictError, store.NotEmptyError and failures to
	// read or write the folder: the command was fine but could not be done.
	return exitRefused
}

// app holds the streams of one run.
type app struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	served         *servedAs // the command came over SSH (serve.go): its folder, its person
}

func newApp(stdin io.Reader, stdout, stderr io.Writer) *app {
	return &app{stdin: stdin, stdout: stdout, stderr: stderr}
}

func (a *app) execute(args []string) int {
	root := a.rootCommand(args)
	if err := unknownBeforeHelp(root, args); err != nil {
		fmt.Fprintln(a.stderr, "referee: "+oneLine(err.Error()))
		return exitUsage
	}
	root.SetArgs(args)
	root.SetIn(a.stdin)
	root.SetOut(a.stdout)
	root.SetErr(a.stderr)
	err := root.Execute()
	if err == nil {
		return exitOK
	}
	var se *silentExit
	if !errors.As(err, &se) {
		fmt.Fprintln(a.stderr, "referee: "+oneLine(err.Error()))
	}
	return exitCode(err)
}

// oneLine makes a message one clean terminal line.
func oneLine(s string) string {
	return model.SanitizeLine(strings.TrimSpace(s))
}

// uiOptions are the root command's flags for the terminal UI.
type uiOptions struct {
	theme      string
	stallAfter time.Duration
	claudeDir  string // Claude Code's config folder, whose transcripts the runs pane follows
}

// openTUI opens the terminal UI (bare `referee`); it is nil in a build without the UI
// (ui.go, noui.go).
var openTUI func(dir string, o uiOptions) error

// rootCommand is the command tree for a command line. A skill call, what agents run most,
// gets only its own command: the others (and the other skills' flags) would cost a
// quarter of a millisecond at every start, and cobra would only look them up.
func (a *app) rootCommand(args []string) *cobra.Command {
	root := &cobra.Command{
		Use:   "referee",
		Short: "Review and steer the proof trees AI agents write",
		Long: "referee reads and writes the contents folder of the proof agents (problems, statements,\n" +
			"the change log). Bare `referee` opens the terminal UI; the subcommands are the CLI.\n\n" +
			"Exit codes: 0 done; 1 refused (precondition, conflict, folder in use) or check found\n" +
			"errors; 2 bad usage or input. Errors are one line on stderr starting \"referee: \".",
		Example: "  referee                              # the workbench on ./contents\n" +
			"  referee --contents ~/run/contents    # on an agents' live run\n" +
			"  referee status                       # what runs next, the counts\n" +
			"  referee show s-007                   # one statement, its proof and its log\n" +
			"  referee skill --help                 # the agents' skills, from the shell",
		SilenceErrors: true,
		SilenceUsage:  true,
		Version:       version(),
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				return unknownCommand(cmd, args[0])
			}
			return nil
		},
	}
	root.SetVersionTemplate("referee {{.Version}}\n")
	contents := addContentsFlag(root)
	theme := root.Flags().String("theme", "auto", "the UI theme: auto (follows the terminal), dark, light, high-contrast or none")
	stallAfter := root.Flags().Duration("stall-after", model.DefaultStallAfter, "the UI's stall alarm: how long nothing may change while work is actionable (negative turns it off)")
	claudeDir := root.Flags().String("claude-dir", "", "Claude Code's config folder, whose session transcripts the runs pane follows (default $CLAUDE_CONFIG_DIR, else ~/.claude)")
	root.RunE = func(cmd *cobra.Command, args []string) error {
		if !themes.Valid(*theme) {
			return usagef("--theme: %q is not one of %s", oneLine(*theme), strings.Join(themes.Names, ", "))
		}
		if openTUI != nil {
			return openTUI(*contents, uiOptions{theme: *theme, stallAfter: *stallAfter, claudeDir: *claudeDir})
		}
		if err := a.printStatus(*contents, "text", defaultNextLimit); err != nil {
			return err
		}
		fmt.Fprintln(a.stdout, "\n(This referee was built without the terminal UI (-tags noui); this is `referee status`.)")
		return nil
	}
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return &usageError{msg: err.Error()} })
	if a.served != nil {
		root.PersistentPreRunE = a.served.check
	}
	if s := calledSkill(args); s != nil {
		root.AddCommand(a.skillCommand(s))
		return root
	}
	root.AddCommand(a.skillCommand(skill.Skills...), a.skillsCommand(), a.statusCommand(), a.showCommand(), a.checkCommand(), a.initCommand(), a.genCommand(),
		a.logCommand(), a.runsCommand(), a.whyCommand(), a.diffCommand(), a.graveyardCommand(), a.similarCommand(), a.exportCommand(), a.repairCommand(), a.mcpCommand(), a.serveCommand(), a.benchCommand())
	root.AddCommand(a.rewindCommand(), a.undoCommand(), a.branchCommand())
	root.AddCommand(helpTopics()...)
	if man := a.manCommand(root); man != nil {
		root.AddCommand(man)
	}
	return root
}

// --- shared flags ------------------------------------------------------------------------

func addContentsFlag(cmd *cobra.Command) *string {
	return cmd.Flags().String("contents", "./contents", "the contents folder")
}

func addOutputFlag(cmd *cobra.Command) *string {
	return cmd.Flags().StringP("output", "o", "text", "output format: text or json")
}

func checkOutput(output string) error {
	if output != "text" && output != "json" {
		return usagef("--output: %q is not text or json", output)
	}
	return nil
}

// options builds the store options from --actor, $REFEREE_ACTOR and $REFEREE_NOW.
func options(actor, expect string) (store.Options, error) {
	if actor == "" {
		actor = os.Getenv(envActor)
	}
	if actor == "" {
		actor = "agent"
	}
	opts := store.Options{Actor: actor, ExpectVersion: expect}
	if now := os.Getenv(envNow); now != "" {
		t, err := time.Parse(time.RFC3339, now)
		if err != nil {
			return opts, usagef("%s: %q is not an RFC 3339 time (e.g. 2026-01-08T12:00:00Z)", envNow, now)
		}
		opts.Now = func() time.Time { return t }
	}
	return opts, nil
}

func noArgs(cmd *cobra.Command, args []string) error {
	if len(args) > 0 {
		return usagef("%s takes no arguments, got %q", cmd.CommandPath(), args[0])
	}
	return nil
}

// writeJSON prints v as indented JSON.
func (a *app) writeJSON(v any) error {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return err
	}
	_, err := a.stdout.Write(model.InertJSON(buf.Bytes())) // agents' text: no C1 or bidi controls raw
	return err
}

// printResult prints a change: one line (and its notes) or the JSON of store.Result.
func (a *app) printResult(res *store.Result, output string) error {
	if output == "json" {
		return a.writeJSON(res)
	}
	fmt.Fprintf(a.stdout, "%s %s by %s: %s\n", res.Change, res.Skill, oneLine(res.Actor), res.Objects())
	for _, n := range res.Notes {
		fmt.Fprintln(a.stdout, "note: "+oneLine(n))
	}
	return nil
}
