package live

import (
	"reflect"
	"testing"
	"time"

	"referee/internal/testutil"
	"referee/store"
)

func subNext(t *testing.T, s *Sub) Frame {
	t.Helper()
	got := make(chan Frame, 1)
	go func() { got <- s.Next(nil) }()
	select {
	case fr := <-got:
		return fr
	case <-time.After(5 * time.Second):
		t.Fatal("no frame within 5 s")
	}
	return Frame{}
}

// Every subscriber gets the one derivation of a write (the same snapshot, not a copy);
// one that took nothing meanwhile gets the writes merged into one frame; Close gives a
// closed frame to the others.
func TestHubFansOneDerivationOut(t *testing.T) {
	dir := testutil.Demo(t)
	h, err := NewHub(dir, store.WatchOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	a, b := h.Subscribe(), h.Subscribe()
	if a.Current().Snap == nil || a.Current().Snap != b.Current().Snap || h.Subscribers() != 2 {
		t.Fatalf("first frames differ or are empty (%d subscribers)", h.Subscribers())
	}
	edit(t, dir, "statement/s-017.json", `"pending"`, `"abandoned"`)
	fa := subNext(t, a)
	if fa.Snap == nil || fa.Snap.Statements.Get("s-017").Status != "abandoned" {
		t.Fatalf("a's frame: %+v", fa)
	}
	// b has not taken its frame; a second write is merged into it.
	edit(t, dir, "statement/s-016.json", `"id"`, `"id"`)
	fa2 := subNext(t, a)
	deadline := time.Now().Add(5 * time.Second)
	for h.Current().Snap != fa2.Snap && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	fb := subNext(t, b)
	if fb.Snap != fa2.Snap {
		t.Fatal("b's merged frame is not the newest derivation a got")
	}
	if want := []string{"statement/s-016.json", "statement/s-017.json"}; !reflect.DeepEqual(fb.Paths, want) {
		t.Fatalf("b's merged paths %v, want %v", fb.Paths, want)
	}
	_ = b.Close()
	if fr := subNext(t, b); !fr.Closed || h.Subscribers() != 1 {
		t.Fatalf("after Close: %+v, %d subscribers", fr, h.Subscribers())
	}
	_ = h.Close()
	if fr := subNext(t, a); !fr.Closed {
		t.Fatalf("after the hub closed: %+v", fr)
	}
	if fr := subNext(t, a); !fr.Closed {
		t.Fatal("a second Next after the hub closed waits")
	}
}
