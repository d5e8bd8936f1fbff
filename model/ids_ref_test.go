package model

import (
	"regexp"
	"strings"
	"testing"
)

// idPattern is the form of an ID, as FORMAT.md gives it; parseID matches it by hand.
var idPattern = regexp.MustCompile(`^([pesl])-([a-z]*)([0-9]{3})$`)

// The ID functions match the ID forms by hand; these are the regular expressions they
// replaced, as the reference they must agree with on every input.
var refRefPattern = regexp.MustCompile(`^\(([se]-[a-z]*\d+)\)`)

func refValidID(s, kind string) bool {
	m := idPattern.FindStringSubmatch(s)
	if m == nil || m[3] == "000" {
		return false
	}
	return kind == "" || m[1] == kind
}

func refCompareIDs(a, b string) int {
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

func refRefID(item string) (string, bool) {
	if refValidID(item, "") && KindOf(item) != KindChange {
		return item, true
	}
	if m := refRefPattern.FindStringSubmatch(item); m != nil {
		return m[1], true
	}
	return "", false
}

func FuzzIDsMatchReference(f *testing.F) {
	for _, s := range []string{"s-001", "s-000", "p-a001", "l-zz999", "e-123", "s-1234", "s-a1b001", "S-001", "s-01",
		"(s-007) The claim", "(e-a12)", "(s-)", "(s-1", "(l-001) x", "(s-abc)", "s-001 ", "x-001", "(s-0000001) y", "s-\u00e9001"} {
		f.Add(s, "s-a001")
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		for _, kind := range []string{"", "s", "p", "e", "l", "ss"} {
			if got, want := ValidID(a, kind), refValidID(a, kind); got != want {
				t.Fatalf("ValidID(%q, %q) = %v, want %v", a, kind, got, want)
			}
		}
		if got, want := CompareIDs(a, b), refCompareIDs(a, b); got != want {
			t.Fatalf("CompareIDs(%q, %q) = %d, want %d", a, b, got, want)
		}
		gotID, gotOK := RefID(a)
		wantID, wantOK := refRefID(a)
		if gotID != wantID || gotOK != wantOK {
			t.Fatalf("RefID(%q) = %q, %v; want %q, %v", a, gotID, gotOK, wantID, wantOK)
		}
		next, err := NextID(a)
		if refValidID(a, "") || strings.HasSuffix(a, "000") && idPattern.MatchString(a) {
			if err != nil || !idPattern.MatchString(next) || refCompareIDs(a, next) >= 0 {
				t.Fatalf("NextID(%q) = %q, %v", a, next, err)
			}
		} else if err == nil {
			t.Fatalf("NextID(%q) = %q for a malformed counter", a, next)
		}
	})
}
