package pyjson

import (
	"testing"

	"referee/internal/testutil"
)

// fixture is the real run's folder in the shared fixtures (see internal/testutil).
var fixture = testutil.Path("fixtures/mra-knights/contents")

// needShared skips a test that reads the real run's fixture in a checkout without the
// shared fixtures beside it, saying so.
func needShared(t testing.TB) {
	t.Helper()
	testutil.Dir(t, "fixtures/mra-knights/contents")
}
