package model

import (
	"slices"
	"sync"
)

// IDIndex numbers a list of IDs by their place in it, for lists by index (ObjectsAt,
// Derive). IDs of the usual shape are numbered in a flat table by idKey: a lookup reads
// one slot, where a map by string hashes the ID and compares it with the string it
// finds, two reads far apart in a map of 100k IDs (such lookups were most of Derive's
// time, and of a load's at a million statements). Other IDs go to a map.
type IDIndex struct {
	ids []string
	// When every ID is keyable: those of a run of values (idValue) dense enough in a
	// list of places by value (a lookup reads one word of a list a few bytes an ID long,
	// where the table's slots are sixteen bytes, spread over the whole table: at 100k
	// statements Derive's lookups in it missed the CPU's caches), the others in keys.
	runs []idRun
	keys keyTable
	of   map[string]int32 // else
	dups bool             // some ID is there twice
	// lazy: the table is made on the first Find (NewUniqueIDIndex)
	lazy bool
	once sync.Once
}

// NewUniqueIDIndex is NewIDIndex of IDs that are each there once, as a load's are (one
// folder's file names, told apart from other folders' by their kind), making the table
// on the first Find: `referee status` numbers the objects of a folder this way and
// finds few of them by ID (Derive numbers them its own way).
func NewUniqueIDIndex(ids []string) *IDIndex {
	return &IDIndex{ids: ids, lazy: true}
}

// NewIDIndex numbers ids (which it keeps, and the caller no longer writes); an ID that
// is there twice has its last place.
func NewIDIndex(ids []string) *IDIndex {
	ix := &IDIndex{ids: ids}
	ix.dups = ix.fill()
	return ix
}

// fill makes the table of ix.ids, and says whether some ID is there twice.
func (ix *IDIndex) fill() (dups bool) {
	ids := ix.ids
	for _, id := range ids {
		if !keyable(id) {
			ix.of = make(map[string]int32, len(ids))
			for i, id := range ids {
				ix.of[id] = int32(i)
			}
			return len(ix.of) < len(ids)
		}
	}
	ix.runs = denseRuns(ids)
	rest := len(ids)
	for _, r := range ix.runs {
		rest -= r.n
	}
	ix.keys = newKeyTable(rest)
	for i, id := range ids {
		if at, _ := ix.runAt(id); at != nil {
			dups = dups || *at != 0
			*at = int32(i) + 1
		} else if ix.keys.put(idKey8(id), int32(i)) {
			dups = true
		}
	}
	return dups
}

// idRun holds the places of the IDs of one kind and length whose values (idValue) lie
// from lo to lo+len(at)-1: at[v-lo] is the place + 1 of the ID of value v, 0 if none.
type idRun struct {
	kind, len byte
	lo        int32
	at        []int32
	n         int // how many IDs it holds
}

// denseRuns are the runs of ids' values worth a list: at most four words an ID (a
// key table's slots are eight), the ID's kind and length its run (IDs of the agents'
// shape, s-001 to s-z999, then s-aa001, are of a few lengths, numbered in a row).
func denseRuns(ids []string) []idRun {
	var runs []idRun
	var his []int32 // each run's highest value, while its list is not made
	last := -1
	for _, id := range ids {
		v, ok := idValue(id)
		if !ok {
			continue
		}
		if last < 0 || runs[last].kind != id[0] || runs[last].len != byte(len(id)) {
			last = slices.IndexFunc(runs, func(r idRun) bool { return r.kind == id[0] && r.len == byte(len(id)) })
			if last < 0 {
				runs, his, last = append(runs, idRun{kind: id[0], len: byte(len(id)), lo: v}), append(his, v), len(runs)
			}
		}
		runs[last].n++
		runs[last].lo, his[last] = min(runs[last].lo, v), max(his[last], v)
	}
	dense := runs[:0]
	for k, r := range runs {
		if span := int(his[k]-r.lo) + 1; span <= 4*r.n+1024 {
			r.at = make([]int32, span)
			dense = append(dense, r)
		}
	}
	return dense
}

// runAt is where id's place is in its run (nil if its value is outside it), and run
// whether a run holds IDs of its kind and length: the others are in the key table.
func (ix *IDIndex) runAt(id string) (at *int32, run bool) {
	if len(ix.runs) == 0 {
		return nil, false
	}
	v, ok := idValue(id)
	if !ok {
		return nil, false
	}
	for k := range ix.runs {
		if r := &ix.runs[k]; r.kind == id[0] && r.len == byte(len(id)) {
			if v -= r.lo; v < 0 || int(v) >= len(r.at) {
				return nil, true
			}
			return &r.at[v], true
		}
	}
	return nil, false
}

// idValue numbers an ID of the agents' shape (a kind letter, a dash, lower-case letters,
// three digits) among those of its kind and length: the letters in base 26, then the
// digits, in the order of the IDs as text.
func idValue(id string) (int32, bool) {
	if len(id) < 5 || len(id) > 8 || id[1] != '-' {
		return 0, false
	}
	v := int32(0)
	for i := 2; i < len(id)-3; i++ {
		c := id[i]
		if c < 'a' || c > 'z' {
			return 0, false
		}
		v = v*26 + int32(c-'a')
	}
	for i := len(id) - 3; i < len(id); i++ {
		c := id[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		v = v*10 + int32(c-'0')
	}
	return v, true
}

// Find is the place of id, if it is there.
func (ix *IDIndex) Find(id string) (int32, bool) {
	if ix.lazy {
		ix.once.Do(func() { ix.fill() }) // the IDs are unique: no dups to set
	}
	if ix.of != nil {
		i, ok := ix.of[id]
		return i, ok
	}
	if !keyable(id) {
		return 0, false // every ID of the index is keyable
	}
	if at, run := ix.runAt(id); run {
		if at == nil || *at == 0 {
			return 0, false
		}
		return *at - 1, true
	}
	return ix.keys.get(idKey8(id))
}

// IDs is the list numbered.
func (ix *IDIndex) IDs() []string { return ix.ids }

// keyable says whether idKey numbers id one to one among the IDs it numbers: of up to
// eight bytes, with the dash of every ID second (idKey skips that byte).
func keyable(id string) bool { return len(id) >= 2 && len(id) <= 8 && id[1] == '-' }

// idKey8 is idKey of a keyable ID.
func idKey8(id string) uint64 {
	key, _ := idKey(id)
	return key
}

// keyTable maps idKeys (never 0: an ID's first byte is not 0, or its length is) to
// places, by open addressing: a slot is empty when its key is 0.
type keyTable struct {
	slots []keySlot
	shift uint // the hash's top bits index slots
}

type keySlot struct {
	key uint64
	at  int32
}

func newKeyTable(n int) keyTable {
	bits := uint(4)
	for 1<<bits < 2*n {
		bits++
	}
	return keyTable{slots: make([]keySlot, 1<<bits), shift: 64 - bits}
}

// slot is where key's probe starts: Fibonacci hashing spreads keys that differ in a
// few low bytes over the whole table.
func (t *keyTable) slot(key uint64) uint64 { return (key * 0x9e3779b97f4a7c15) >> t.shift }

// put sets key's place, and says whether key had one.
func (t *keyTable) put(key uint64, at int32) (had bool) {
	mask := uint64(len(t.slots) - 1)
	for i := t.slot(key); ; i = (i + 1) & mask {
		if s := &t.slots[i]; s.key == 0 || s.key == key {
			had = s.key == key
			s.key, s.at = key, at
			return had
		}
	}
}

func (t *keyTable) get(key uint64) (int32, bool) {
	mask := uint64(len(t.slots) - 1)
	for i := t.slot(key); ; i = (i + 1) & mask {
		switch s := t.slots[i]; s.key {
		case key:
			return s.at, true
		case 0:
			return 0, false
		}
	}
}

// owns says whether place i is where Find finds ids[i]: not the first place of an ID
// that is there twice. A walk of the places meets each ID once, as a map's range does.
func (ix *IDIndex) owns(id string, i int) bool {
	if !ix.dups {
		return true
	}
	j, ok := ix.Find(id)
	return ok && int(j) == i
}
