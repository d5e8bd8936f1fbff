package main

import (
	"io"
	"slices"
	"testing"

	"github.com/spf13/cobra"

	"referee/skill"
)

// commandNames lists a command's subcommands by name.
func commandNames(cmd *cobra.Command) []string {
	var names []string
	for _, c := range cmd.Commands() {
		names = append(names, c.Name())
	}
	return names
}

// A skill call builds only its own command (by name or alias); anything else, the whole
// tree. The process start of a skill call depends on it.
func TestSkillCallBuildsOnlyItsCommand(t *testing.T) {
	a := newApp(nil, io.Discard, io.Discard)
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"skill", "check-reject-proof", "--statement-id", "s-007"}, "check-reject-proof"},
		{[]string{"skill", "prob-core-statement", "--help"}, "prob-wrapup-statement"},
	} {
		root := a.rootCommand(c.args)
		if got := commandNames(root); !slices.Equal(got, []string{"skill"}) {
			t.Errorf("%q: the root has %v, want only skill", c.args, got)
			continue
		}
		if got := commandNames(root.Commands()[0]); !slices.Equal(got, []string{c.want}) {
			t.Errorf("%q: skill has %v, want only %s", c.args, got, c.want)
		}
	}
	for _, args := range [][]string{{"skill"}, {"skill", "nope"}, {"skill", "--help"}, {"status"}, {"--contents", "x", "skill", "abandon"}, nil} {
		root := a.rootCommand(args)
		if got := commandNames(root); !slices.Contains(got, "status") || !slices.Contains(got, "skill") {
			t.Errorf("%q: the root has %v, want every command", args, got)
		}
		sub, _, err := root.Find([]string{"skill"})
		if err != nil || len(sub.Commands()) != len(skill.Skills) {
			t.Errorf("%q: skill has %v, want all %d skills", args, commandNames(sub), len(skill.Skills))
		}
	}
}

// The command tree a process builds before it runs anything: a skill call's, and the
// whole tree every other command builds.
func BenchmarkCommandTree(b *testing.B) {
	a := newApp(nil, io.Discard, io.Discard)
	for _, c := range []struct {
		name string
		args []string
	}{
		{"skill", []string{"skill", "check-reject-proof"}},
		{"all", []string{"status"}},
	} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				a.rootCommand(c.args)
			}
		})
	}
}
