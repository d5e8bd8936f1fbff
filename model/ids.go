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

// parseID splits an ID of the form ^([pesl])-([a-z]*)([0-9]{3})$ into the kind letter,
// the letters and the three digits. It matches by hand: a load checks, sorts and
// resolves hundreds of thousands of IDs, and the regular expression was most of the time
// it took to derive a folder's graph. ids_ref_test.go checks it against the expression.
func parseID(s string) (kind byte, letters, digits string, ok bool) {
	n := len(s)
	if n < 5 || s[1] != '-' {
		return 0, "", "", false
	}
	switch s[0] {
	case 'p', 'e', 's', 'l':
	default:
		return 0, "", "", false
	}
	for i := n - 3; i < n; i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, "", "", false
		}
	}
	for i := 2; i < n-3; i++ {
		if s[i] < 'a' || s[i] > 'z' {
			return 0, "", "", false
		}
	}
	return s[0], s[2 : n-3], s[n-3:], true
}

// ValidID reports whether s is an ID of the given kind ("" for any kind) and so safe to
// use as a file name. Counter values like "s-000" (nothing issued yet) are not object IDs.
func ValidID(s, kind string) bool {
	k, _, digits, ok := parseID(s)
	if !ok || digits == "000" {
		return false
	}
	return kind == "" || len(kind) == 1 && k == kind[0]
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
	kind, letters, digits, ok := parseID(last)
	if !ok {
		return "", fmt.Errorf("counter %q is not of the form <kind>-<letters><three digits>", last)
	}
	n, _ := strconv.Atoi(digits)
	if n < 999 {
		return fmt.Sprintf("%c-%s%03d", kind, letters, n+1), nil
	}
	return fmt.Sprintf("%c-%s001", kind, nextLetters(letters)), nil
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
	ka, la, da, oka := parseID(a)
	kb, lb, db, okb := parseID(b)
	if !oka || !okb {
		return strings.Compare(a, b)
	}
	if ka != kb {
		return strings.Compare(a[:1], b[:1])
	}
	if len(la) != len(lb) {
		return len(la) - len(lb)
	}
	if c := strings.Compare(la, lb); c != 0 {
		return c
	}
	return strings.Compare(da, db)
}

// RefID returns the object a text item references: the item is exactly an ID, or starts
// with one in parentheses ("(s-007) The unique solution …").
func RefID(item string) (string, bool) {
	if ValidID(item, "") && KindOf(item) != KindChange {
		return item, true
	}
	// "(s-007) …" or "(e-a12) …": ^\(([se]-[a-z]*\d+)\)
	if len(item) < 5 || item[0] != '(' || item[1] != 's' && item[1] != 'e' || item[2] != '-' {
		return "", false
	}
	i := 3
	for i < len(item) && 'a' <= item[i] && item[i] <= 'z' {
		i++
	}
	j := i
	for j < len(item) && '0' <= item[j] && item[j] <= '9' {
		j++
	}
	if j == i || j == len(item) || item[j] != ')' {
		return "", false
	}
	return item[1:j], true
}

// BadRefPrefix is the "(…)" an item starts with when it looks like a reference but is
// not one ("(s-../x) text", "(s-001/../../x) text"), or "". The skills refuse such a
// premise and check reports one: the graph reads it as no reference at all.
func BadRefPrefix(item string) string {
	if _, ok := RefID(item); ok {
		return ""
	}
	return looksLikeRef.FindString(item)
}

var looksLikeRef = regexp.MustCompile(`^\([pesl]-[^)]*\)`)
