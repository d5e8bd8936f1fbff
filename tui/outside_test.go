package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"referee/internal/testutil"
	"referee/skill"
	"referee/store"
)

// An agent's in-place write after a change made through referee (whose log line records
// the version it wrote) is shown as what it is in time travel: the status line of that
// change says the object changed outside the log, instead of crediting the edit to it.
func TestTravelSaysWhatChangedOutsideTheLog(t *testing.T) {
	dir := testutil.Demo(t)
	sk, _ := skill.Lookup("abandon")
	res, err := store.Run(dir, sk, skill.Args{"statement_id": "s-017", "reason": "out of scope"}, store.Options{Actor: "human"})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "statement", "s-017.json")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(strings.Replace(string(data), `"count_usage": 0`, `"count_usage": 2`, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	m := openTestModel(t, dir, 160, 40)
	keys(t, m, "t")
	if m.travel == nil {
		t.Fatalf("t did not start time travel: %q", m.status.message)
	}
	got := strings.Join(m.statusLines(), "\n")
	if !strings.Contains(got, "after "+res.Change) || !strings.Contains(got, "⚠ s-017 changed outside the log since (shown as it is now)") {
		t.Fatalf("the status line does not say s-017 changed outside the log after %s:\n%s", res.Change, got)
	}
}
