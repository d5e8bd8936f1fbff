package model

import "testing"

func TestNextID(t *testing.T) {
	cases := map[string]string{
		"s-000": "s-001", "s-007": "s-008", "s-999": "s-a001", "s-a999": "s-b001",
		"s-z999": "s-aa001", "l-az999": "l-ba001", "p-zz999": "p-aaa001", "e-a010": "e-a011",
	}
	for in, want := range cases {
		got, err := NextID(in)
		if err != nil || got != want {
			t.Errorf("NextID(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "s-1", "x-001", "s-A001", "../s-001", "s-0001"} {
		if _, err := NextID(bad); err == nil {
			t.Errorf("NextID(%q) accepted a malformed counter", bad)
		}
	}
}

func TestValidIDRejectsPathsAndCounters(t *testing.T) {
	for _, id := range []string{"s-001", "p-a001", "l-zz999", "e-123"} {
		if !ValidID(id, "") {
			t.Errorf("ValidID(%q) = false", id)
		}
	}
	for _, id := range []string{"s-000", "../s-001", "s-001/..", "s-001.json", "S-001", "s-01", "s-001 ", "q-001", "s-a1b001"} {
		if ValidID(id, "") {
			t.Errorf("ValidID(%q) = true", id)
		}
	}
	if ValidID("s-001", KindProblem) {
		t.Error("s-001 accepted as a problem ID")
	}
	if err := CheckID("../etc", KindStatement); err == nil || err.Error() != `"../etc" is not a statement ID (expected s-<letters><three digits>, e.g. s-007)` {
		t.Errorf("CheckID error = %v", err)
	}
}

func TestCompareIDs(t *testing.T) {
	if CompareIDs("s-999", "s-a001") >= 0 || CompareIDs("s-z999", "s-aa001") >= 0 || CompareIDs("s-002", "s-010") >= 0 {
		t.Error("IDs out of issue order")
	}
}

func TestRefID(t *testing.T) {
	cases := map[string]string{
		"s-007": "s-007", "(s-007) The unique solution": "s-007", "(e-001) x": "e-001",
		"p-001": "p-001", "The claim s-007": "", "(p-001) x": "", "(s-../x) y": "", "l-001": "",
	}
	for in, want := range cases {
		got, ok := RefID(in)
		if got != want || ok != (want != "") {
			t.Errorf("RefID(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
}
