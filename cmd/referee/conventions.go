package main

import (
	"fmt"
	"os"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/cobra/doc"
)

// The conventions of a cobra CLI that are not cobra's defaults here: an unknown command is
// bad usage with a suggestion, even with --help; help topics and man pages come from the
// same command tree as the help.

// unknownCommand is the error for a word that names no command of parent: exit 2, with
// cobra's "did you mean" suggestions.
func unknownCommand(parent *cobra.Command, word string) error {
	msg := fmt.Sprintf("unknown command %q for %q", word, parent.CommandPath())
	if parent.SuggestionsMinimumDistance <= 0 {
		parent.SuggestionsMinimumDistance = 2 // cobra's own default, set only on its paths
	}
	if s := parent.SuggestionsFor(word); len(s) > 0 {
		msg += "; did you mean " + strings.Join(s, " or ") + "?"
	} else {
		msg += " (" + parent.CommandPath() + " --help lists the commands)"
	}
	return &usageError{msg: msg}
}

// unknownBeforeHelp finds, on a command line asking for help (-h, --help, or `help
// WORDS`), a word that names no command: cobra would print its parent's help and exit 0,
// as if the word had been understood.
func unknownBeforeHelp(root *cobra.Command, args []string) error {
	if len(args) > 0 && args[0] == "help" {
		args = args[1:]
	} else if !asksHelp(args) {
		return nil
	}
	cmd, rest, err := root.Find(args)
	if err != nil {
		return &usageError{msg: err.Error()}
	}
	if !cmd.HasAvailableSubCommands() {
		return nil // a command's own arguments: its help explains them
	}
	word := firstPositional(cmd, rest)
	if word == "" {
		return nil
	}
	if cmd.Name() == "skill" {
		return usagef("unknown skill %q (referee skills list shows them)", word)
	}
	return unknownCommand(cmd, word)
}

func asksHelp(args []string) bool {
	for _, a := range args {
		if a == "--" {
			return false
		}
		if a == "-h" || a == "--help" || a == "--help=true" {
			return true
		}
	}
	return false
}

// firstPositional is the first word of args that is neither a flag of cmd nor a flag's
// value, "" when there is none.
func firstPositional(cmd *cobra.Command, args []string) string {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			return ""
		case strings.HasPrefix(a, "--"):
			name, _, hasValue := strings.Cut(a[2:], "=")
			if f := cmd.Flags().Lookup(name); !hasValue && f != nil && f.NoOptDefVal == "" {
				i++ // the flag's value
			}
		case strings.HasPrefix(a, "-") && len(a) > 1:
			if len(a) == 2 {
				if f := cmd.Flags().ShorthandLookup(a[1:]); f != nil && f.NoOptDefVal == "" {
					i++
				}
			}
		default:
			return a
		}
	}
	return ""
}

// exitCodesHelp and environmentHelp are help topics: `referee help exit-codes`.
const exitCodesHelp = `Every referee command exits with one of three codes:

  0  done: the command did what was asked, or there was nothing to do (a rewind to
     the change the folder is already at)
  1  refused or failed: the command was right but could not be done — a skill's
     precondition, a conflict with another writer, a folder in use, a link in the
     folder, a folder init will not touch, a read or write that failed — or check
     found errors. Nothing was written.
  2  bad usage or bad input: an unknown command or flag, a missing or malformed
     parameter, a folder that does not exist or is not a contents folder. Nothing
     was written.

Errors are one line on standard error, starting "referee: ".`

const environmentHelp = `Environment variables referee reads:

  REFEREE_ACTOR       the default --actor of the commands that write a change
  REFEREE_NOW         an RFC 3339 time written to the log instead of the clock (for
                      tests and reproducible examples)
  REFEREE_CPUPROFILE  a file to write a CPU profile of the whole run into
  REFEREE_MCP_TOKEN   the bearer token of referee mcp --http (keeps it out of ps)
  CLAUDE_CONFIG_DIR   Claude Code's config folder (default ~/.claude), whose session
                      transcripts the runs pane and referee runs follow
  TMPDIR              where the demo's scratch copy and referee bench's folders go`

// helpTopics are the commands that only hold help text.
func helpTopics() []*cobra.Command {
	return []*cobra.Command{
		{Use: "exit-codes", Short: "What referee's exit codes mean", Long: exitCodesHelp},
		{Use: "environment", Short: "The environment variables referee reads", Long: environmentHelp},
	}
}

// manCommand writes a man page per command, generated from the command tree the help
// shows (hidden: packagers run it, users read the pages).
func (a *app) manCommand(root *cobra.Command) *cobra.Command {
	cmd := &cobra.Command{
		Use:    "man --dir DIR",
		Short:  "Write the man pages (referee.1, referee-status.1, …) into a folder",
		Hidden: true,
		Args:   noArgs,
	}
	dir := cmd.Flags().String("dir", "", "the folder to write the pages into (created if missing)")
	cmd.RunE = func(*cobra.Command, []string) error {
		if *dir == "" {
			return usagef("man needs --dir DIR")
		}
		if err := os.MkdirAll(*dir, 0o755); err != nil {
			return err
		}
		prepareForDocs(root)
		if err := doc.GenManTree(root, &doc.GenManHeader{Title: "REFEREE", Section: "1", Source: "referee " + version()}, *dir); err != nil {
			return err
		}
		fmt.Fprintf(a.stdout, "wrote the man pages into %s\n", oneLine(*dir))
		return nil
	}
	return cmd
}

// prepareForDocs adds what cobra adds only when it executes (the help and completion
// commands) and makes the output reproducible (no generation date).
func prepareForDocs(root *cobra.Command) {
	root.InitDefaultHelpCmd()
	root.InitDefaultCompletionCmd()
	root.InitDefaultHelpFlag()
	root.InitDefaultVersionFlag()
	root.DisableAutoGenTag = true
	var walk func(*cobra.Command)
	walk = func(c *cobra.Command) {
		c.DisableAutoGenTag = true
		for _, s := range c.Commands() {
			walk(s)
		}
	}
	walk(root)
}

// cliReference is docs/cli.md's generated part: the exit codes and environment (the help
// topics), then every command as cobra's doc generator writes it, linked within the page.
// The skills' own commands are left to docs/skills.md (made from the registry).
func cliReference(root *cobra.Command) (string, error) {
	prepareForDocs(root)
	for _, c := range root.Commands() {
		if c.Name() == "skill" {
			c.RemoveCommand(c.Commands()...)
			c.Long = "Each skill is a subcommand whose flags are its parameters: docs/skills.md lists them,\n" +
				"and `referee skill NAME --help` shows one."
		}
	}
	var b strings.Builder
	b.WriteString("## Exit codes\n\n```\n" + exitCodesHelp + "\n```\n\n")
	b.WriteString("## Environment\n\n```\n" + environmentHelp + "\n```\n\n")
	link := func(file string) string {
		return "#" + strings.ReplaceAll(strings.TrimSuffix(file, ".md"), "_", "-")
	}
	var walk func(*cobra.Command) error
	walk = func(c *cobra.Command) error {
		if !c.IsAvailableCommand() && c != root || c.IsAdditionalHelpTopicCommand() {
			return nil
		}
		if err := doc.GenMarkdownCustom(c, &b, link); err != nil {
			return err
		}
		for _, s := range c.Commands() {
			if err := walk(s); err != nil {
				return err
			}
		}
		return nil
	}
	if err := walk(root); err != nil {
		return "", err
	}
	return strings.ReplaceAll(b.String(), "\t - ", " — "), nil
}
