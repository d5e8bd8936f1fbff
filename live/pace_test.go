package live

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"referee/agents"
	"referee/internal/testutil"
	"referee/store"
)

// A paced subscription hands out a frame no sooner than the pace after the one before:
// the writes that come meanwhile are merged into it; the first frame after a quiet
// spell comes at once.
func TestSubPaceMergesFramesThatComeTooSoon(t *testing.T) {
	dir := testutil.Demo(t)
	h, err := NewHub(dir, store.WatchOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	const pace = 400 * time.Millisecond
	h.SetPace(pace)
	s := h.Subscribe()
	defer s.Close()
	edit(t, dir, "statement/s-017.json", `"pending"`, `"abandoned"`)
	first := subNext(t, s)
	start := time.Now()
	if first.Snap == nil || first.Snap.Statements.Get("s-017").Status != "abandoned" {
		t.Fatalf("first frame: %+v", first)
	}
	// Two writes at once after it: one frame, no sooner than the pace after the first.
	edit(t, dir, "statement/s-016.json", `"id"`, `"id"`)
	deadline := time.Now().Add(5 * time.Second)
	for h.Current().Snap == first.Snap && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	mid := h.Current().Snap
	edit(t, dir, "statement/s-015.json", `"id"`, `"id"`)
	for h.Current().Snap == mid && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	fr := subNext(t, s)
	gap := time.Since(start)
	if fr.Snap != h.Current().Snap {
		t.Fatal("the paced frame is not the newest derivation")
	}
	if want := []string{"statement/s-015.json", "statement/s-016.json"}; len(fr.Paths) != 2 || fr.Paths[0] != want[0] || fr.Paths[1] != want[1] {
		t.Fatalf("paths %v, want %v merged", fr.Paths, want)
	}
	if gap < pace {
		t.Fatalf("the second frame came %s after the first, before the pace (%s)", gap, pace)
	}
	_ = s.Close()
	if fr := subNext(t, s); !fr.Closed {
		t.Fatalf("after Close: %+v", fr)
	}
}

// One poll of the run-state files for every screen: each Next after a reading waits
// for a newer one; Close ends the waits.
func TestRunsPollerSharesReadings(t *testing.T) {
	base := t.TempDir()
	dir := filepath.Join(base, "contents")
	if err := os.MkdirAll(filepath.Join(base, agents.RunsDir), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	state := filepath.Join(base, agents.RunsDir, "hol_agent_state.json")
	if err := os.WriteFile(state, []byte(`{"session_id": "a", "message_count": 3}`), 0o644); err != nil {
		t.Fatal(err)
	}
	p := NewRunsPoller(dir, agents.RunsOptions{}, 50*time.Millisecond)
	r1, ok := p.Next(0)
	if !ok || r1.Seq == 0 || len(r1.Runs) != 1 || r1.Runs[0].SessionID != "a" || r1.Runs[0].MessageCount != 3 {
		t.Fatalf("first reading %+v ok=%v", r1, ok)
	}
	if err := os.WriteFile(state, []byte(`{"session_id": "a", "message_count": 4}`), 0o644); err != nil {
		t.Fatal(err)
	}
	r2, ok := p.Next(r1.Seq)
	for ok && r2.Runs[0].MessageCount != 4 {
		r2, ok = p.Next(r2.Seq)
	}
	if !ok || r2.Seq <= r1.Seq {
		t.Fatalf("second reading %+v ok=%v", r2, ok)
	}
	done := make(chan bool)
	go func() {
		_, ok := p.Next(1 << 62)
		done <- ok
	}()
	p.Close()
	select {
	case ok := <-done:
		if ok {
			t.Fatal("a Next after Close said ok")
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Close left a Next waiting")
	}
	p.Close() // twice is fine
}

// Flatten gives the rows a shape was flattened into under the same folds (every session
// of referee serve asks for them after a change of links), the rows of the folds asked
// for otherwise, and the same rows as flattening anew.
func TestFlattenKeepsRowsBySameFolds(t *testing.T) {
	snap, err := store.Load(testutil.DemoDir())
	if err != nil {
		t.Fatal(err)
	}
	_, f := Derive(snap)
	a := f.Flatten(nil)
	if b := f.Flatten(map[string]bool{}); len(a) == 0 || &a[0] != &b[0] {
		t.Fatal("the same (default) folds flattened again")
	}
	folds := map[string]bool{a[0].Path: false}
	c := f.Flatten(folds)
	if len(c) >= len(a) || !reflect.DeepEqual(c, f.flatten(folds)) || !reflect.DeepEqual(a, f.flatten(nil)) {
		t.Fatalf("rows under folds: %d (default %d), or not as flattened anew", len(c), len(a))
	}
	folds[a[0].Path] = true // the caller's map changes: the rows kept are not its
	if d := f.Flatten(folds); !reflect.DeepEqual(d, a) {
		t.Fatal("the rows of the changed folds are not the default rows")
	}
}
