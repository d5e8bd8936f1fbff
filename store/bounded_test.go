package store

import (
	"strings"
	"testing"
)

// ReadBounded reads up to its limit and refuses one byte more, naming the input.
func TestReadBounded(t *testing.T) {
	if got, err := ReadBounded(strings.NewReader("abcd"), 4, "x"); err != nil || string(got) != "abcd" {
		t.Fatalf("at the limit: %q, %v", got, err)
	}
	_, err := ReadBounded(strings.NewReader("abcde"), 4, "--params")
	if err == nil || err.Error() != "--params is more than 4 bytes (the limit)" {
		t.Fatalf("past the limit: %v", err)
	}
}
