package store

import (
	"errors"
	"path/filepath"
	"slices"
	"testing"

	"referee/internal/testshared"
)

func TestCheckFixtureIsClean(t *testing.T) {
	testshared.Need(t, "../../shared/fixtures/mra-knights/contents")
	findings, err := Check("../../shared/fixtures/mra-knights/contents")
	if err != nil || findings == nil || len(findings) != 0 {
		t.Errorf("Check(fixture) = %v, %v; want an empty list", findings, err)
	}
	var ie *InputError
	if _, err := Check(filepath.Join(t.TempDir(), "nowhere")); !errors.As(err, &ie) {
		t.Errorf("missing folder: %v", err)
	}
}

func TestFindingOrder(t *testing.T) {
	in := []Finding{
		{SeverityWarning, "statement/s-001.json", "s-001", "w"},
		{SeverityError, "statement/s-a001.json", "s-a001", "late"},
		{SeverityError, "statement/s-999.json", "s-999", "first of two"},
		{SeverityError, "statement/s-999.json", "s-999", "second of two"},
		{SeverityError, "config.json", "", "c"},
		{SeverityError, "statement/s-b001.json", "s-b001", "b"},
		{SeverityError, "statement/s-aa001.json", "s-aa001", "aa"},
	}
	slices.SortStableFunc(in, compareFindings)
	var got []string
	for _, f := range in {
		got = append(got, f.Msg)
	}
	want := []string{"c", "first of two", "second of two", "late", "b", "aa", "w"}
	if !slices.Equal(got, want) {
		t.Errorf("order %v, want %v", got, want)
	}
	if s := (Finding{SeverityError, "config.json", "", "missing"}).String(); s != "config.json: missing" {
		t.Errorf("String() = %q", s)
	}
}
