package tui

import (
	"reflect"
	"testing"
)

// A room tells each seat of the others' comings, moves and forms, never of its own,
// and never blocks: a seat that has not listened holds one pending note.
func TestRoomPresence(t *testing.T) {
	r := NewRoom()
	a := r.Join("alice", false)
	<-a.changed // the first listen hears who is here
	c := r.Join("carol", true)
	<-c.changed
	select {
	case <-a.changed:
	default:
		t.Fatal("alice did not hear carol come")
	}
	a.Set("s-015", "writing a reject on s-015")
	a.Set("s-015", "writing a reject on s-015") // unchanged: no news
	for i := 0; i < 100; i++ {
		a.Set("s-01"+string(rune('0'+i%10)), "") // carol does not listen: never blocks
	}
	a.Set("s-015", "writing a reject on s-015")
	<-c.changed
	select {
	case <-c.changed:
		t.Fatal("more than one pending note")
	default:
	}
	select {
	case <-a.changed:
		t.Fatal("alice heard her own move")
	default:
	}
	want := []Presence{{Name: "alice", At: "s-015", Doing: "writing a reject on s-015"}}
	if got := c.Others(); !reflect.DeepEqual(got, want) {
		t.Fatalf("carol sees %+v", got)
	}
	if got := a.Others(); len(got) != 1 || got[0].Name != "carol" || !got[0].ReadOnly {
		t.Fatalf("alice sees %+v", got)
	}
	c.Leave()
	c.Leave()
	if _, ok := <-c.changed; ok {
		t.Fatal("a seat that left still gets news")
	}
	if got := a.Others(); len(got) != 0 {
		t.Fatalf("carol left but alice sees %+v", got)
	}
	if marks := (&Model{others: []Presence{{Name: "bob", At: "s-001"}, {Name: "bea", At: "s-001"}, {Name: "dan", At: "s-002"}}}).room().roomMarks(); !reflect.DeepEqual(marks, map[string]string{"s-001": "bo+", "s-002": "da"}) {
		t.Fatalf("marks %v", marks)
	}
}

// The status bar names at most three of the others, then says how many more there are
// and that @ lists them: a long list would push the run's state off the bar.
func TestWithOthersNamesThreeThenCounts(t *testing.T) {
	people := []Presence{{Name: "alice"}, {Name: "bob"}, {Name: "carol"}, {Name: "dan"}, {Name: "eve\x1b[31m"}}
	for n, want := range map[int]string{
		1: "with alice",
		3: "with alice, bob, carol",
		4: "with alice, bob, carol +1 (@)",
		5: "with alice, bob, carol +2 (@)",
	} {
		if got := withOthers(people[:n]); got != want {
			t.Errorf("%d others: %q, want %q", n, got, want)
		}
	}
}
