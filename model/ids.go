package model

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// Kinds of object, as the first letter of their IDs.
const (
	KindProblem    = "p"
	KindStatement  = "s"
	KindExperience = "e"
	KindChange     = "l"
)

var (
	idPattern  = regexp.MustCompile(`^([pesl])-([a-z]*)([0-9]{3})$`)
	refPattern = regexp.MustCompile(`^\(([se]-[a-z]*\d+)\)`)
)

// ValidID reports whether s is an ID of the given kind ("" for any kind) and so safe to
// use as a file name. Counter values like "s-000" (nothing issued yet) are not object IDs.
func ValidID(s, kind string) bool {
	m := idPattern.FindStringSubmatch(s)
	if m == nil || m[3] == "000" {
		return false
	}
	return kind == "" || m[1] == kind
}

// CheckID returns a clear error when s is not a usable ID of the kind.
func CheckID(s, kind string) error {
	if ValidID(s, kind) {
		return nil
	}
	if kind == "" {
		return fmt.Errorf("%q is not an ID (expected <kind>-<letters><three digits>, e.g. s-007, p-001 or l-012)", s)
	}
	return fmt.Errorf("%q is not a %s ID (expected %s-<letters><three digits>, e.g. %s-007)", s, KindName(kind), kind, kind)
}

// KindName names a kind in the users' words.
func KindName(kind string) string {
	switch kind {
	case KindProblem:
		return "problem"
	case KindStatement:
		return "statement"
	case KindExperience:
		return "experience"
	case KindChange:
		return "change"
	}
	return "object"
}

// KindOf returns the kind letter of an ID ("" when it has none).
func KindOf(id string) string {
	if len(id) >= 2 && id[1] == '-' {
		return id[:1]
	}
	return ""
}

// NextID returns the successor of a counter value: 001 … 999, a001 … a999, b001 … z999,
// aa001 …; "s-000" gives "s-001".
func NextID(last string) (string, error) {
	m := idPattern.FindStringSubmatch(last)
	if m == nil {
		return "", fmt.Errorf("counter %q is not of the form <kind>-<letters><three digits>", last)
	}
	n, _ := strconv.Atoi(m[3])
	letters := m[2]
	if n < 999 {
		return fmt.Sprintf("%s-%s%03d", m[1], letters, n+1), nil
	}
	return fmt.Sprintf("%s-%s001", m[1], nextLetters(letters)), nil
}

// nextLetters counts in bijective base 26: "" → a, z → aa, az → ba, zz → aaa.
func nextLetters(s string) string {
	b := []byte(s)
	for i := len(b) - 1; i >= 0; i-- {
		if b[i] < 'z' {
			b[i]++
			return string(b)
		}
		b[i] = 'a'
	}
	return "a" + string(b)
}

// CompareIDs orders IDs of one kind by issue order (a001 comes after 999).
func CompareIDs(a, b string) int {
	ma, mb := idPattern.FindStringSubmatch(a), idPattern.FindStringSubmatch(b)
	if ma == nil || mb == nil {
		return strings.Compare(a, b)
	}
	if c := strings.Compare(ma[1], mb[1]); c != 0 {
		return c
	}
	if len(ma[2]) != len(mb[2]) {
		return len(ma[2]) - len(mb[2])
	}
	if c := strings.Compare(ma[2], mb[2]); c != 0 {
		return c
	}
	return strings.Compare(ma[3], mb[3])
}

// RefID returns the object a text item references: the item is exactly an ID, or starts
// with one in parentheses ("(s-007) The unique solution …").
func RefID(item string) (string, bool) {
	if ValidID(item, "") && KindOf(item) != KindChange {
		return item, true
	}
	if m := refPattern.FindStringSubmatch(item); m != nil {
		return m[1], true
	}
	return "", false
}
