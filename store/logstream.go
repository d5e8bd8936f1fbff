package store

import (
	"maps"
	"math"
	"slices"
	"sync"

	"referee/model"
)

// streamWindow is how many changes EachChange lists at a time (a variable for tests).
var streamWindow = 16 << 10

// EachChange lists the log of dir as Activity does, oldest first, calling fn with each
// change, without holding the log: a log of millions of lines parsed whole held
// gigabytes. snap is the folder now (read without its log).
//
// It reads the log twice, a line at a time. The first read keeps, per change, where its
// line is, and per object the changes that created, backed up or deleted it (a few bytes
// each). The second lists the changes a window at a time, from a History of the
// window's lines and the few other lines its answers need, read by offset: per object
// the first line that created it, the last that created or deleted it before the window,
// and after it the first maxUnusable+1 lines that back it up and the first that creates
// it (History.source reads no further).
//
// ok is false, and nothing was listed, when it cannot be sure a window answers as the
// whole log: when the log cannot be read so (missing, larger than MaxLogSize, history/
// a link), or a change's ID is not above every ID before it (a change logged twice may
// be among them, and only the whole log says which line is the change). The caller
// lists Activity of the whole log then.
func EachChange(dir string, snap *model.Snapshot, fn func(Change) error) (ok bool, err error) {
	return EachChangeBefore(dir, snap, math.MaxInt64, fn)
}

// EachChangeBefore is EachChange listing only the changes whose lines start before byte
// end: the head of a snapshot that holds the log's tail (Snapshot.LogHead.Offset), so
// that `log --follow` prints the head so and the tail from its snapshot. The changes
// after end still answer for those before it, as in the whole log.
func EachChangeBefore(dir string, snap *model.Snapshot, end int64, fn func(Change) error) (ok bool, err error) {
	if isLink(dir, HistoryDir) {
		return false, nil
	}
	f, st, err := openLogFile(dir)
	if err != nil || st.Size > MaxLogSize {
		return false, nil
	}
	defer f.Close()
	size := st.Size
	// The first read: where each change is, and each object's changes.
	var (
		offs                          []int64
		lines                         []int32
		creations, touched, deletions = map[string][]int32{}, map[string][]int32{}, map[string][]int32{}
		last                          string
		sure                          = true
	)
	err = eachLogEntry(f, size, func(e model.LogEntry) {
		if !sure || e.ID == "" || !model.ValidID(e.ID, model.KindChange) {
			return
		}
		if len(offs) > 0 && model.CompareIDs(e.ID, last) <= 0 || e.Line > math.MaxInt32 || len(offs) == math.MaxInt32 {
			sure = false
			return
		}
		i := int32(len(offs))
		last = e.ID
		offs, lines = append(offs, e.Off), append(lines, int32(e.Line))
		for _, id := range e.Creation {
			creations[id] = append(creations[id], i)
		}
		for _, id := range e.Modification {
			touched[id] = append(touched[id], i)
		}
		for _, id := range e.Deleted {
			if t := touched[id]; len(t) == 0 || t[len(t)-1] != i {
				touched[id] = append(t, i)
			}
			deletions[id] = append(deletions[id], i)
		}
	})
	if err != nil || !sure {
		return false, nil
	}
	last = "" // let the string go
	g := sync.OnceValue(func() *model.Graph { return model.Derive(snap) })
	// The second read: a window of changes at a time.
	window := streamWindow
	var held []model.LogEntry // the window's changes, in file order
	k := 0                    // the index of the next change
	list := func() error {
		if len(held) == 0 {
			return nil
		}
		a, b := int32(k-len(held)), int32(k)
		extra := map[int32]bool{}
		first := func(l []int32, from int32) int { n, _ := slices.BinarySearch(l, from); return n }
		for _, e := range held {
			for _, ids := range [][]string{e.Creation, e.Modification, e.Deleted} {
				for _, id := range ids {
					c, t, d := creations[id], touched[id], deletions[id]
					if len(c) > 0 {
						extra[c[0]] = true
					}
					if n := first(c, a); n > 0 {
						extra[c[n-1]] = true
					}
					if n := first(d, a); n > 0 {
						extra[d[n-1]] = true
					}
					if n := first(c, b); n < len(c) {
						extra[c[n]] = true
					}
					n := first(t, b)
					for _, j := range t[n:min(n+maxUnusable+1, len(t))] {
						extra[j] = true
					}
				}
			}
		}
		var before, after []model.LogEntry
		for _, j := range slices.Sorted(maps.Keys(extra)) {
			if j >= a && j < b {
				continue
			}
			line, err := lineFrom(f, offs[j], size)
			if err != nil {
				return err
			}
			e := model.ParseLogLine(int(lines[j]), string(line))
			e.Off = offs[j]
			if j < a {
				before = append(before, e)
			} else {
				after = append(after, e)
			}
		}
		entries := slices.Concat(before, held, after)
		h := newHistory(dir, snap, entries, model.LogHead{}, &backupCache{backups: map[string]backup{}})
		for i := len(before); i < len(before)+len(held); i++ {
			if err := fn(h.change(i, h.log[i], g)); err != nil {
				return err
			}
		}
		held = held[:0]
		return nil
	}
	var listErr error
	err = eachLogEntry(f, min(size, end), func(e model.LogEntry) {
		if listErr != nil || e.ID == "" || !model.ValidID(e.ID, model.KindChange) {
			return
		}
		if k >= len(offs) || e.Off != offs[k] { // the file changed since the first read
			listErr = inputf("%s changed while it was listed: list it again", LogFile)
			return
		}
		held = append(held, e)
		k++
		if len(held) == window {
			listErr = list()
		}
	})
	if err == nil {
		err = listErr
	}
	if err == nil {
		err = list()
	}
	return true, err
}
