package tui

import (
	"reflect"
	"testing"

	tea "charm.land/bubbletea/v2"

	"referee/internal/testutil"
	"referee/store"
)

// setListing sets how many changes a listing reads whole at once and how many each
// reading of the older ones reads, for one test.
func setListing(t *testing.T, whole, chunk int) {
	oldWhole, oldChunk := wholeFirst, fillChunk
	wholeFirst, fillChunk = whole, chunk
	t.Cleanup(func() { wholeFirst, fillChunk = oldWhole, oldChunk })
}

// A listing reads the newest changes whole and lists the older ones from their lines
// (Unread); the readings that follow, newest first, a chunk at a time, make it the
// whole listing exactly. A reading made for a list whose indexes moved since is not put.
func TestChangesListNewestFirstThenTheRest(t *testing.T) {
	setListing(t, 5, 7)
	dir := testutil.Demo(t)
	snap, err := store.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := store.NewHistory(dir, snap).Activity()
	if len(want) != 38 {
		t.Fatalf("the demo has %d changes, want 38", len(want))
	}
	c := newChanges(dir, fakeLatest{snap})
	c.Want()
	cmd, _ := c.Update(testCommon(), c.List()())
	unread := func() (n []int) {
		for i, ch := range c.Listed() {
			if ch.Unread {
				n = append(n, i)
			}
		}
		return n
	}
	if u := unread(); len(u) != 33 || u[0] != 0 || u[32] != 32 {
		t.Fatalf("after the first listing, unread %v; want 0–32", u)
	}
	for i, ch := range c.Listed()[:33] {
		w := want[i]
		if ch.ID != w.ID || ch.Line != w.Line || ch.Skill != w.Skill || ch.Actor != w.Actor ||
			!reflect.DeepEqual(ch.Created, w.Created) || !reflect.DeepEqual(ch.Modified, w.Modified) ||
			!reflect.DeepEqual(ch.Deleted, w.Deleted) || ch.Objects != nil {
			t.Fatalf("unread change %d is %+v; its line says %+v", i, ch, w)
		}
	}
	if !reflect.DeepEqual(c.Listed()[33:], want[33:]) {
		t.Fatal("the newest five are not listed whole")
	}
	// The first reading: the seven before the newest five.
	msg := cmd()
	if f, ok := msg.(changesFilledMsg); !ok || f.from != 26 || len(f.changes) != 7 {
		t.Fatalf("first reading %#v", msg)
	}
	// Meanwhile the list's indexes moved: the reading is not put, and is asked again.
	c.gen++
	cmd, out := c.Update(testCommon(), msg)
	if out != nil || len(unread()) != 33 || cmd == nil {
		t.Fatalf("a stale reading was put (%d unread, %#v)", len(unread()), out)
	}
	for steps := 0; cmd != nil; steps++ {
		if steps > 10 {
			t.Fatal("the readings do not end")
		}
		msg := cmd()
		if _, ok := msg.(changesFilledMsg); !ok {
			t.Fatalf("a reading gave %#v", msg)
		}
		cmd, out = c.Update(testCommon(), msg)
		if out != (changesListedMsg{h: c.listedBy}) {
			t.Fatalf("a reading was not shown: %#v", out)
		}
	}
	if u := unread(); u != nil {
		t.Fatalf("unread left: %v", u)
	}
	if got := c.Listed(); !reflect.DeepEqual(got, want) {
		t.Fatalf("after the readings the listing differs from the whole one")
	}
	var none tea.Cmd = c.fill()
	if none != nil {
		t.Fatal("a reading starts with nothing unread")
	}
}

// The activity pane listed newest first shows, once every reading is in, what it shows
// when every change is read at once.
func TestActivityPaneReadNewestFirstIsTheWholeOne(t *testing.T) {
	screens := map[int]string{}
	for _, whole := range []int{3, 1024} {
		t.Run("", func(t *testing.T) {
			setListing(t, whole, 4)
			m, _ := newTestModel(t, 120, 60)
			keys(t, m, "a")
			for _, r := range m.bg.changes.Listed() {
				if r.Unread {
					t.Fatalf("%s still unread", r.ID)
				}
			}
			keys(t, m, "G", "g") // every row drawn once, back at the top
			screens[whole] = screen(m)
		})
	}
	if screens[3] != screens[1024] {
		t.Errorf("listed newest first:\n%s\nlisted whole:\n%s", screens[3], screens[1024])
	}
}

// The older changes read back (enter on the pane's last row) are listed as a listing
// is: the newest of them whole, those before from their lines, then read whole, newest
// first; once every reading is in, the pane shows what it shows with them read at once.
func TestActivityOlderChangesReadNewestFirst(t *testing.T) {
	screens := map[int]string{}
	for _, whole := range []int{3, 1024} {
		t.Run("", func(t *testing.T) {
			t.Cleanup(store.SetLogWindow(10, 1<<20))
			setListing(t, whole, 4)
			m, _ := newTestModel(t, 120, 60)
			keys(t, m, "a")
			cmd, why := m.bg.changes.readOlder()
			if cmd == nil {
				t.Fatalf("cannot read further back: %s", why)
			}
			older, ok := cmd().(olderMsg)
			if !ok || older.err != nil || len(older.changes) != 28 {
				t.Fatalf("read back %#v", older)
			}
			for i, c := range older.changes {
				if c.Unread != (i < 28-whole) {
					t.Fatalf("whole %d: change %d (%s) unread %v", whole, i, c.ID, c.Unread)
				}
			}
			keys(t, m, "G", "enter")
			if h := headers(m); len(h) != 38 || h[37] != "l-001" {
				t.Fatalf("after reading back, activity lists %d: %v", len(h), h)
			}
			for _, c := range m.bg.changes.Listed() {
				if c.Unread {
					t.Fatalf("%s still unread", c.ID)
				}
			}
			if m.activity.unread != 0 || m.bg.changes.unread != 0 {
				t.Fatalf("counted unread: pane %d, list %d", m.activity.unread, m.bg.changes.unread)
			}
			keys(t, m, "g")
			screens[whole] = screen(m)
		})
	}
	if screens[3] != screens[1024] {
		t.Errorf("read back newest first:\n%s\nread back whole:\n%s", screens[3], screens[1024])
	}
}
