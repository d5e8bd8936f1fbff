package model

import "slices"

// Graves keeps the graveyard (Graveyard) from one version of a folder to the next: a
// grave is made again only when something it was made from changed (graveOf's deps:
// its statement, what its walk up the graph looked at, what rests on it) or an object
// changed its references to one of those; the others are kept. The zero Graves is
// ready: its first Update makes every grave. Not safe for concurrent use; the lists it
// returns are never changed afterwards.
type Graves struct {
	snap *Snapshot
	list []Grave // in ID order

	// Which graves each object was looked at by, as slots; a slot's generation tells an
	// entry of a grave made again since (dropped when met, or when they outnumber the
	// live ones).
	slot  map[string]int32 // grave ID → slot
	slots []graveSlot
	free  []int32
	users map[string][]graveUse
	uses  int // entries in users, stale ones included
	live  int // entries of the graves as they are
}

type graveSlot struct {
	id   string
	gen  uint32
	deps int32 // its entries in users
}

type graveUse struct {
	slot int32
	gen  uint32
}

// Update brings the graveyard to s and g, where t is what differs from the version of
// the last Update (TouchedBetween), and returns it in ID order. The first Update makes
// every grave.
func (gy *Graves) Update(s *Snapshot, g *Graph, t Touched) []Grave {
	if gy.snap == nil {
		gy.slot, gy.users = map[string]int32{}, map[string][]graveUse{}
		gy.list = nil
		for id, st := range s.Statements.All() {
			if inGraveyard(st) {
				gy.list = append(gy.list, gy.make(s, g, id, st))
			}
		}
		slices.SortFunc(gy.list, func(a, b Grave) int { return CompareIDs(a.ID, b.ID) })
		gy.snap = s
		return gy.list
	}
	prev := gy.snap
	gy.snap = s
	if t.Empty() {
		return gy.list
	}
	again := map[string]bool{}
	touch := func(id string) {
		es := gy.users[id]
		k := 0
		for _, u := range es {
			if sl := gy.slots[u.slot]; sl.gen == u.gen {
				again[sl.id] = true
				es[k] = u
				k++
			}
		}
		switch {
		case k == 0:
			delete(gy.users, id)
		case k < len(es):
			clear(es[k:])
			gy.users[id] = es[:k]
		}
		gy.uses -= len(es) - k
	}
	for _, id := range t.Objects {
		touch(id)
		// A reference gained or lost puts this object among what the target's graves
		// look at, or takes it away.
		linksOf(prev, id, func(e Edge) { touch(e.To) })
		linksOf(s, id, func(e Edge) { touch(e.To) })
		if KindOf(id) == KindStatement {
			again[id] = true // it may have become a grave, or stopped being one
		}
	}
	for _, id := range t.Phases {
		touch(id)
	}
	if len(again) == 0 {
		return gy.list
	}
	// The graves made again; the list is copied only when one of them differs from the
	// grave it replaces, or came or went: under a run's writes most touched statements
	// are no graves and most graves made again come out the same, and a copy of the
	// list per update was much of what the extras allocated at 100k statements.
	made := make([]Grave, 0, len(again))
	changed := false
	for id := range again {
		old, had := gy.find(id)
		gy.drop(id)
		if st := s.Statements.Get(id); st != nil && inGraveyard(st) {
			gr := gy.make(s, g, id, st)
			made = append(made, gr)
			if !had || !sameGrave(old, gr) {
				changed = true
			}
		} else if had {
			changed = true
		}
	}
	if !changed {
		return gy.list
	}
	list := make([]Grave, 0, len(gy.list)+len(made))
	for _, gr := range gy.list {
		if !again[gr.ID] {
			list = append(list, gr)
		}
	}
	list = append(list, made...)
	slices.SortFunc(list, func(a, b Grave) int { return CompareIDs(a.ID, b.ID) })
	if len(list) == 0 {
		list = nil // as Graveyard gives it
	}
	gy.list = list
	if gy.uses > 2*gy.live+1024 {
		gy.compact()
	}
	return list
}

// find is the grave of id in the list, if it has one.
func (gy *Graves) find(id string) (Grave, bool) {
	i, ok := slices.BinarySearchFunc(gy.list, id, func(gr Grave, id string) int { return CompareIDs(gr.ID, id) })
	if !ok {
		return Grave{}, false
	}
	return gy.list[i], true
}

// sameGrave reports whether two graves read the same, to the nil-ness of their lists
// (a nil list and an empty one are written differently as JSON).
func sameGrave(a, b Grave) bool {
	sameList := func(x, y []string) bool { return (x == nil) == (y == nil) && slices.Equal(x, y) }
	return a.ID == b.ID && a.Status == b.Status && a.Claim == b.Claim && a.Counterexample == b.Counterexample &&
		a.Reason == b.Reason && a.Disproof == b.Disproof && sameList(a.Blocked, b.Blocked) && sameList(a.Stale, b.Stale)
}

// make makes the grave of id and notes what it was made from.
func (gy *Graves) make(s *Snapshot, g *Graph, id string, st *Statement) Grave {
	gr, deps := graveOf(s, g, id, st, true)
	var k int32
	if n := len(gy.free); n > 0 {
		k, gy.free = gy.free[n-1], gy.free[:n-1]
	} else {
		k = int32(len(gy.slots))
		gy.slots = append(gy.slots, graveSlot{})
	}
	sl := &gy.slots[k]
	sl.id, sl.deps = id, int32(len(deps))
	gy.slot[id] = k
	for _, d := range deps {
		gy.users[d] = append(gy.users[d], graveUse{k, sl.gen})
	}
	gy.uses += len(deps)
	gy.live += len(deps)
	return gr
}

// drop forgets the grave of id, if it has one: its entries in users go stale.
func (gy *Graves) drop(id string) {
	k, ok := gy.slot[id]
	if !ok {
		return
	}
	delete(gy.slot, id)
	sl := &gy.slots[k]
	gy.live -= int(sl.deps)
	sl.id, sl.deps = "", 0
	sl.gen++
	gy.free = append(gy.free, k)
}

// compact drops every stale entry.
func (gy *Graves) compact() {
	for id, es := range gy.users {
		keep := slices.DeleteFunc(es, func(u graveUse) bool { return gy.slots[u.slot].gen != u.gen })
		if len(keep) == 0 {
			delete(gy.users, id)
		} else {
			gy.users[id] = slices.Clip(keep)
		}
	}
	gy.uses = gy.live
}
