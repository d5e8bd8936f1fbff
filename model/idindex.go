package model

import "sync"

// IDIndex numbers a list of IDs by their place in it, for lists by index (ObjectsAt,
// Derive). IDs of the usual shape are numbered in a flat table by idKey: a lookup reads
// one slot, where a map by string hashes the ID and compares it with the string it
// finds, two reads far apart in a map of 100k IDs (such lookups were most of Derive's
// time, and of a load's at a million statements). Other IDs go to a map.
type IDIndex struct {
	ids  []string
	keys keyTable         // when every ID is keyable
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
	ix.keys = newKeyTable(len(ids))
	for i, id := range ids {
		if ix.keys.put(idKey8(id), int32(i)) {
			dups = true
		}
	}
	return dups
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
