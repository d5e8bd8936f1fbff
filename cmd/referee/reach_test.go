package main

import (
	"testing"
)

// The commands that show the past (diff, show --at, show l-NNN, export --at, graveyard
// --at), log --object and branch list print the same bytes when the changes they name have gone
// before the log's window (64k lines, read from the tail, the rest only where it names
// what is asked) as when the whole log was in it: 70,000 changes that touch nothing
// are appended, then a torn line.
func TestPastThroughTheLogsHead(t *testing.T) {
	root := copyFixture(t)
	commands := [][]string{
		{"diff", "s-007", "l-003"},
		{"diff", "s-007", "l-002", "l-005"},
		{"diff", "p-001", "l-001", "l-006", "-o", "json"},
		{"diff", "s-007", "l-yyy"},
		{"show", "l-yyy"},
		{"show", "l-003"},
		{"show", "l-004", "-o", "json"},
		{"show", "s-007", "--at", "l-003"},
		{"show", "s-007", "--at", "l-005", "--sentences"},
		{"show", "l-002", "--at", "l-004"},
		{"show", "l-005", "--at", "l-004"},
		{"export", "--at", "l-003"},
		{"export", "--format", "html", "--at", "l-005"},
		{"export", "--format", "dot"},
		{"graveyard", "--at", "l-004"},
		{"branch", "list"},
		{"log", "--object", "s-007"},
		{"log", "--object", "p-001", "-o", "json"},
		{"log", "--object", "s-007", "--actor", "agent-prove"},
		{"log", "--object", "s-999"},
	}
	before := map[int]outcome{}
	for i, args := range commands {
		before[i] = referee(t, root, "", args...)
	}
	pastTheWindow(t, root, `{"l-zzz": {"creation": ["s-0`)
	for i, args := range commands {
		if got := referee(t, root, "", args...); got != before[i] {
			t.Errorf("%v with the change before the window:\n%+v\nwith it in the window:\n%+v", args, got, before[i])
		}
	}
}
