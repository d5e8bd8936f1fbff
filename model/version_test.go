package model

import "testing"

// Version is CRC-32C as eight lowercase hex digits: "123456789" is the check value of
// the CRC catalogue, and one changed byte changes the version.
func TestVersion(t *testing.T) {
	for data, want := range map[string]string{"": "00000000", "123456789": "e3069283", "123456788": "116d1180"} {
		if got := Version([]byte(data)); got != want {
			t.Errorf("Version(%q) = %q, want %q", data, got, want)
		}
	}
}
