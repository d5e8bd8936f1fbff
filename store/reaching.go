package store

import (
	"bytes"
	"cmp"
	"errors"
	"io"
	"maps"
	"os"
	"slices"

	"referee/model"
)

// Reaching is a History that can answer for changes older than h's window: h itself
// when it holds every one of changes (or the whole log), else h with the lines of the
// log's head that those answers need, read from the file once, a megabyte at a time, and
// parsed only where they may matter:
//
//   - each change of changes (the first line naming it);
//   - for each object asked of (objects; nil for every object), the first line that
//     created it, the last lines that created and deleted it before each change asked
//     for, and the first maxUnusable+1 lines after each that name it (source stops at the
//     first usable backup, or after maxUnusable unusable ones, or at a creation).
//
// With objects named, only the lines that hold one of the quoted IDs are parsed; what
// the result holds is bounded by those lines, not by the log. The answers (Object, At,
// before, after) about those objects at those changes are the whole log's; its Changes
// are not the log's (lines that matter to no answer are left out), so it is for answers,
// not for listings. A change ID logged twice (check reports it) is the first line naming
// it among the lines read.
func (h *History) Reaching(objects, changes []string) (*History, error) {
	if h.head.Offset == 0 || !slices.ContainsFunc(changes, func(c string) bool { return c != "" && !h.Holds(c) }) {
		return h, nil
	}
	f, err := h.openSame()
	if err != nil {
		return nil, err
	}
	defer f.Close()
	r := newReach(objects, changes)
	var scratch []string
	err = eachHeadLine(f, h.head.Offset, &r.keys, func(n int, off int64, line []byte) {
		if len(line) > MaxLogLine || len(bytes.TrimSpace(line)) == 0 {
			return // a bad line names no change
		}
		// Most lines of a long run change nothing here (an object whose answers are all
		// kept, modified again): they are looked at in place and only the others parsed.
		if peek, ok := model.PeekLogLine(line, &scratch); ok && !r.matters(peek) {
			return
		}
		e := model.ParseLogLine(n, string(line))
		e.Off = off
		r.add(e)
	})
	if err != nil {
		return nil, err
	}
	kept := r.lines()
	entries := make([]model.LogEntry, 0, len(kept)+len(h.entries))
	entries = append(append(entries, kept...), h.entries...)
	return newHistory(h.dir, h.snap, entries, model.LogHead{}, h.cache), nil
}

// reach is what Reaching keeps of the head, line by line in file order.
type reach struct {
	all     bool // every object is asked of
	objects map[string]bool
	changes map[string]bool // the changes asked for, not yet met
	// keys are the quoted IDs a line must hold to be parsed (nil: every line); a key
	// goes once no later line can change an answer: its change met, or its object's
	// first creation and lines after the last change asked for kept.
	keys     [][]byte
	searched map[string]bool // the IDs whose keys are in keys
	met      int             // how many of them were met so far
	kept     map[int64]model.LogEntry
	created  map[string]bool // objects whose first creation was kept
	// lastMade and lastGone are the last lines that created (deleted) an object since
	// the last change asked for, kept when the next one is met.
	lastMade, lastGone map[string]model.LogEntry
	// after counts the lines naming an object kept after the last change asked for
	// (at: which one, by met).
	after map[string]struct{ at, n int }
}

func newReach(objects, changes []string) *reach {
	r := &reach{all: objects == nil, objects: map[string]bool{}, changes: map[string]bool{},
		kept: map[int64]model.LogEntry{}, created: map[string]bool{},
		lastMade: map[string]model.LogEntry{}, lastGone: map[string]model.LogEntry{},
		after: map[string]struct{ at, n int }{}, searched: map[string]bool{}}
	for _, id := range objects {
		r.objects[id] = true
	}
	for _, c := range changes {
		if c != "" {
			r.changes[c] = true
		}
	}
	if !r.all {
		for id := range r.objects {
			r.keys = append(r.keys, []byte(`"`+id+`"`))
			r.searched[id] = true
		}
		for c := range r.changes {
			r.keys = append(r.keys, []byte(`"`+c+`"`))
			r.searched[c] = true
		}
		r.keys = append(r.keys, escapeKey)
	}
	return r
}

// add looks at e, the next line of the head.
func (r *reach) add(e model.LogEntry) {
	if e.ID == "" || !model.ValidID(e.ID, model.KindChange) {
		return
	}
	if r.changes[e.ID] {
		delete(r.changes, e.ID)
		r.drop(e.ID)
		r.met++
		r.kept[e.Off] = e
		for _, m := range []map[string]model.LogEntry{r.lastMade, r.lastGone} {
			for _, l := range m {
				r.kept[l.Off] = l
			}
			clear(m)
		}
		for _, id := range e.Creation { // kept: its first creation if none came before
			if r.all || r.objects[id] {
				r.created[id] = true
			}
		}
		return
	}
	name := func(id string) {
		if !r.all && !r.objects[id] || r.met == 0 {
			return
		}
		a := r.after[id]
		if a.at != r.met {
			a = struct{ at, n int }{r.met, 0}
		}
		if a.n <= maxUnusable {
			a.n++
			r.kept[e.Off] = e
		}
		r.after[id] = a
		if a.n > maxUnusable && len(r.changes) == 0 && r.created[id] {
			r.drop(id)
		}
	}
	waiting := len(r.changes) > 0 // lastMade and lastGone matter only until the last is met
	for _, id := range e.Creation {
		if r.all || r.objects[id] {
			if !r.created[id] {
				r.created[id] = true
				r.kept[e.Off] = e
			}
			if waiting {
				r.lastMade[id] = e
			}
		}
		name(id)
	}
	for _, id := range e.Modification {
		name(id)
	}
	for _, id := range e.Deleted {
		if (r.all || r.objects[id]) && waiting {
			r.lastGone[id] = e
		}
		name(id)
	}
}

// matters says whether add(e) would change what r holds or keeps: when not, the line
// need not be parsed to be kept. It follows add case by case.
func (r *reach) matters(e model.LogEntry) bool {
	if e.ID == "" || !model.ValidID(e.ID, model.KindChange) {
		return false
	}
	if r.changes[e.ID] {
		return true
	}
	waiting := len(r.changes) > 0
	asked := func(id string) bool { return r.all || r.objects[id] }
	named := func(id string) bool { // name(id) would count or keep the line
		if !asked(id) || r.met == 0 {
			return false
		}
		a := r.after[id]
		return a.at != r.met || a.n <= maxUnusable || len(r.changes) == 0 && r.created[id] && r.searched[id]
	}
	for _, id := range e.Creation {
		if asked(id) && (!r.created[id] || waiting) || named(id) {
			return true
		}
	}
	for _, id := range e.Modification {
		if named(id) {
			return true
		}
	}
	for _, id := range e.Deleted {
		if asked(id) && waiting || named(id) {
			return true
		}
	}
	return false
}

// drop stops looking for the lines that hold id.
func (r *reach) drop(id string) {
	if r.all {
		return
	}
	if !r.searched[id] {
		return
	}
	delete(r.searched, id)
	key := `"` + id + `"`
	r.keys = slices.DeleteFunc(r.keys, func(k []byte) bool { return string(k) == key })
}

// lines is what was kept, in file order.
func (r *reach) lines() []model.LogEntry {
	out := make([]model.LogEntry, 0, len(r.kept))
	for _, e := range r.kept {
		out = append(out, e)
	}
	slices.SortFunc(out, func(a, b model.LogEntry) int { return cmp.Compare(a.Off, b.Off) })
	return out
}

// openSame opens the log h's snapshot read, failing when it is no longer that file
// (rewritten, replaced or cut short): the snapshot's log must be read again then.
func (h *History) openSame() (*os.File, error) {
	m, _ := h.snap.LogMark.(*logMark)
	if m == nil || m.used == nil {
		return nil, inputf("%s: this snapshot did not read the log, so cannot read back in it", LogFile)
	}
	f, st, err := openLogFile(h.dir)
	if err != nil {
		return nil, inputf("cannot read %s: %v", LogFile, unwrapPath(err))
	}
	if uint64(st.Dev) != m.dev || st.Ino != m.ino || st.Size < m.off || !sameTail(f, m) {
		f.Close()
		return nil, inputf("%s has been rewritten since it was read: nothing older can be read until it is read again", LogFile)
	}
	return f, nil
}

// escapeKey is among the keys of every search for IDs: a line may write an ID with
// escapes ("\u0073-001" is "s-001"), which only a parse reads as the ID, so the lines
// holding one are parsed too.
var escapeKey = []byte(`\u`)

// eachHeadLine calls fn with the number, offset and bytes of each line of the log's
// first end bytes (whole lines) that holds one of *keyp (every line when it is nil; fn
// may take keys out of it, never put one in),
// in file order, reading a megabyte at a time: the lines between are counted, not
// looked at. line is read into a buffer used again: fn copies what it keeps.
func eachHeadLine(f io.ReaderAt, end int64, keyp *[][]byte, fn func(n int, off int64, line []byte)) error {
	all := *keyp == nil
	const chunk = 1 << 20
	buf := make([]byte, chunk)
	var carry []byte // the start of a line the last read cut (in buf)
	n := 1           // the number of the line data starts with
	for pos := int64(0); pos < end; {
		k := min(int64(chunk), end-pos)
		// The carry moved to buf's start and the next megabyte read after it, into the
		// same buffer: the log is read without a new one each time.
		if len(carry)+int(k) > len(buf) {
			buf = make([]byte, len(carry)+int(k))
		}
		data := buf[:len(carry)+int(k)]
		copy(data, carry)
		if _, err := f.ReadAt(data[len(carry):], pos); err != nil && !errors.Is(err, io.EOF) {
			return err
		}
		start := pos - int64(len(carry)) // the offset of data
		pos += k
		last := bytes.LastIndexByte(data, '\n')
		if pos >= end {
			last = len(data) - 1 // the head ends on a line's end
		}
		if last < 0 {
			carry = data
			continue
		}
		whole := data[:last+1]
		from := 0              // whole[:from] is counted into n
		each := func(at int) { // the line holding byte at
			ls := bytes.LastIndexByte(whole[:at], '\n') + 1
			if ls < from {
				return // that line was given already
			}
			le := ls + bytes.IndexByte(whole[ls:], '\n')
			if le < ls {
				le = len(whole)
			}
			n += bytes.Count(whole[from:ls], []byte{'\n'})
			fn(n, start+int64(ls), whole[ls:le])
			from = le
		}
		if all {
			for at := 0; at < len(whole); {
				each(at)
				at = from + 1
			}
		} else {
			var keys [][]byte
			var next []int // where each key is next found, from at on (-1: nowhere)
			for at := 0; ; {
				if len(keys) != len(*keyp) { // fn let one go
					keys, next = *keyp, make([]int, len(*keyp))
					for i, key := range keys {
						if next[i] = bytes.Index(whole[at:], key); next[i] >= 0 {
							next[i] += at
						}
					}
				}
				first := -1
				for i, key := range keys {
					if next[i] >= 0 && next[i] < at {
						if next[i] = bytes.Index(whole[at:], key); next[i] >= 0 {
							next[i] += at
						}
					}
					if next[i] >= 0 && (first < 0 || next[i] < first) {
						first = next[i]
					}
				}
				if first < 0 {
					break
				}
				each(first)
				at = from + 1
			}
		}
		n += bytes.Count(whole[from:], []byte{'\n'})
		carry = data[last+1:]
	}
	return nil
}

// ObjectActivity lists the changes that created, modified or deleted object id, oldest
// first, as Activity lists them, from h (a History of the log's tail): the tail's, and
// before it those of the lines that name id, read once to find them and once more for
// what their other objects were then (Reaching). What it holds is those changes, not
// the log.
func (h *History) ObjectActivity(id string) ([]Change, error) {
	if h.head.Offset > 0 {
		f, err := h.openSame()
		if err != nil {
			return nil, err
		}
		objects, changes := map[string]bool{id: true}, []string{}
		keys := [][]byte{[]byte(`"` + id + `"`), escapeKey}
		var scratch []string
		err = eachHeadLine(f, h.head.Offset, &keys, func(n int, off int64, line []byte) {
			if len(line) > MaxLogLine {
				return
			}
			// A line can hold the ID without changing the object (in "current", in a
			// summary): looked at in place, it is parsed only when it names the object.
			if peek, ok := model.PeekLogLine(line, &scratch); ok && (peek.ID == "" || !names(peek, id)) {
				return
			}
			e := model.ParseLogLine(n, string(line))
			if e.ID == "" || !names(e, id) {
				return
			}
			changes = append(changes, e.ID)
			for _, list := range [][]string{e.Creation, e.Modification, e.Deleted} {
				for _, o := range list {
					objects[o] = true
				}
			}
		})
		f.Close()
		if err != nil {
			return nil, err
		}
		if len(changes) > 0 {
			if h, err = h.Reaching(slices.Collect(maps.Keys(objects)), changes); err != nil {
				return nil, err
			}
		}
	}
	g := h.graph()
	out := []Change{}
	for i, e := range h.log {
		if names(e, id) {
			out = append(out, h.change(i, e, g))
		}
	}
	return out, nil
}

// names says whether a log line created, modified or deleted id.
func names(e model.LogEntry, id string) bool {
	return slices.Contains(e.Creation, id) || slices.Contains(e.Modification, id) || slices.Contains(e.Deleted, id)
}
