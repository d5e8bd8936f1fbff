package tui

import (
	"testing"

	"referee/internal/testutil"
	"referee/live"
	"referee/store"
	"referee/views"
)

// A session of a shared workbench keeps few proof renderings; a local one many. Past
// its number, a new rendering drops the others.
func TestSharedSessionsKeepFewProofs(t *testing.T) {
	dir := testutil.Demo(t)
	hub, err := live.NewHub(dir, store.WatchOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer hub.Close()
	shared, err := New(dir, Options{Shared: NewShared(hub)})
	if err != nil {
		t.Fatal(err)
	}
	local := newDetail()
	if shared.detail.keep != sharedProofsKept || local.keep != 256 || sharedProofsKept >= local.keep {
		t.Fatalf("kept: shared %d (want %d), local %d", shared.detail.keep, sharedProofsKept, local.keep)
	}
	p := &proofRenderings{proofs: map[string]*views.RenderedProof{}, inflight: map[string]bool{}, keep: 2}
	for _, c := range []struct {
		key  string
		kept int
	}{{"a", 1}, {"b", 2}, {"c", 1}, {"d", 2}} {
		p.inflight[c.key] = true
		if !p.rendered(proofRenderedMsg{key: c.key, rp: &views.RenderedProof{}}) {
			t.Fatalf("%s: not kept", c.key)
		}
		if len(p.proofs) != c.kept || p.proofs[c.key] == nil || p.inflight[c.key] {
			t.Fatalf("after %s: %d kept (want %d), in flight %v", c.key, len(p.proofs), c.kept, p.inflight[c.key])
		}
	}
}
