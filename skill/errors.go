package skill

import (
	"fmt"
	"strings"
)

// PreconditionError says which object is not in the state a skill needs. Nothing was written.
type PreconditionError struct {
	Object string // ID
	Status string // its status, or "missing"
	Skill  string
	Need   string
	// Phase is what the status means when the word alone does not say (P014's
	// "validating": awaiting check, has gap, awaiting subs), as the badges show it.
	Phase string
}

func (e *PreconditionError) Error() string {
	switch e.Status {
	case "missing":
		return fmt.Sprintf("%s: %s does not exist", e.Skill, e.Object)
	case "":
		return fmt.Sprintf("%s: %s has no status; it needs %s", e.Skill, e.Object, e.Need)
	}
	if e.Phase != "" {
		is := "is " + e.Phase
		if rest, ok := strings.CutPrefix(e.Phase, "has "); ok {
			is = "has a " + rest // "has gap": s-015 has a gap
		}
		return fmt.Sprintf("%s: %s %s (status %q); it needs %s", e.Skill, e.Object, is, e.Status, e.Need)
	}
	return fmt.Sprintf("%s: %s is %q; it needs %s", e.Skill, e.Object, e.Status, e.Need)
}

// InputError is a bad parameter or a folder that cannot take the change. Nothing was written.
type InputError struct{ Msg string }

func (e *InputError) Error() string { return e.Msg }

func inputf(format string, args ...any) error { return &InputError{Msg: fmt.Sprintf(format, args...)} }
