package main

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"
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
  REFEREE_MEMPROFILE  a file to write a heap profile into when the run ends (and
                      FILE.1, FILE.2, … on each SIGUSR1)
  REFEREE_MCP_TOKEN   the bearer token of referee mcp --http (keeps it out of ps)
  CLAUDE_CONFIG_DIR   Claude Code's config folder (default ~/.claude), whose session
                      transcripts the runs pane and referee runs follow
  TMPDIR              where the demo's scratch copy and referee-bench's folders go`

// helpTopics are the commands that only hold help text.
func helpTopics() []*cobra.Command {
	return []*cobra.Command{
		{Use: "exit-codes", Short: "What referee's exit codes mean", Long: exitCodesHelp},
		{Use: "environment", Short: "The environment variables referee reads", Long: environmentHelp},
	}
}
