package store

import (
	"bytes"
	"errors"
	"io"

	"referee/model"
)

// A command about a recent change (a rewind's plan, `show l-NNN`, `diff ID l-NNN`, `log
// --last N`) needs only the lines from that change to the end: readRecent reads the log
// backwards from its end to it, and neither parses nor counts the lines before unless a
// line number is shown. Its answers are those of a History of the log's tail (LoadTail),
// which the commands read otherwise: when it cannot be sure they are, it says so and the
// caller reads the tail.

// recentOff makes readRecent decline, so that tests compare its answers with the tail's.
var recentOff bool

// recentLog is the log's last lines, from one a caller asked for to the end (readRecent).
type recentLog struct {
	entries []model.LogEntry // parsed as ParseLog parses them, in file order
	// head is what comes before them: Offset where they start; Lines how many lines,
	// when they were counted (else 0, and the entries are numbered from 1: their
	// numbers say their order only). Changes is not counted.
	head    model.LogHead
	counted bool
}

// readRecent reads the log of dir backwards from its end, giving stop each line, the
// last first, blank ones too (a last line without its newline too), until it says the
// line is the first wanted; it then parses the lines from there to the end. With count,
// the lines before are counted (the bytes read, not parsed), so that the entries carry
// their numbers in the file.
//
// ok is false, and the caller reads the log's tail instead, whenever the answers of a
// History of these lines could differ from those of a History of the tail (the last
// logWindowLines lines in logWindowBytes), or the read could differ from the tail's:
//   - the log cannot be read as the tail is (missing, too large, history/ a link, an
//     error), or the line stop wants does not start within the window;
//   - a line of the window before it holds `"deleted"` (an object deleted then may be
//     absent after a change, whatever the folder now holds), an escape `\u` (which can
//     spell any key or ID), or the quoted ID of a change read or of an object one of
//     them creates (a change logged twice is the first line naming it; a creation
//     before another says whether the object existed).
//
// Without those lines, every answer about the changes read (an object after one of
// them, its backup, the changes after it, the changes themselves) is the tail's.
func readRecent(dir string, count bool, stop func(line []byte) bool) (recentLog, bool) {
	if recentOff || isLink(dir, HistoryDir) {
		return recentLog{}, false
	}
	f, st, err := openLogFile(dir)
	if err != nil {
		return recentLog{}, false
	}
	defer f.Close()
	size := st.Size
	if size == 0 || size > MaxLogSize {
		return recentLog{}, false
	}
	low := max(size-logWindowBytes, 0) // no line of the window starts before
	start, whole := int64(-1), 0       // whole: the lines read that end with a newline
	err = eachLineBackAt(f, size, func(off int64, line []byte) bool {
		if off < low {
			return true
		}
		if off+int64(len(line)) < size {
			whole++
		}
		if whole > logWindowLines {
			return true
		}
		if stop(line) {
			start = off
			return true
		}
		return false
	})
	if err != nil || start < 0 {
		return recentLog{}, false
	}
	buf := make([]byte, size-start)
	if _, err := f.ReadAt(buf, start); err != nil && !errors.Is(err, io.EOF) {
		return recentLog{}, false
	}
	r := recentLog{head: model.LogHead{Offset: start}, counted: count}
	r.entries = parseLogLines(string(buf), 1, start)
	keys := map[string]bool{}
	for _, e := range r.entries {
		if e.ID != "" {
			keys[e.ID] = true
		}
		for _, id := range e.Creation {
			keys[id] = true
		}
	}
	// The window's lines before start are within [low-1, start): searched a megabyte
	// at a time, each read overlapping the last by more than a quoted key.
	overlap := int64(len(`"deleted"`))
	for k := range keys {
		overlap = max(overlap, int64(len(k)+2))
	}
	chunk := make([]byte, 0, 1<<20+overlap)
	for at := max(low-1, 0); at < start; {
		end := min(at+1<<20+overlap, start)
		b := chunk[:end-at]
		if _, err := f.ReadAt(b, at); err != nil {
			return recentLog{}, false
		}
		if !quietBefore(b, keys) {
			return recentLog{}, false
		}
		if end == start {
			break
		}
		at = end - overlap
	}
	if count {
		n, err := countNewlines(f, 0, start)
		if err != nil {
			return recentLog{}, false
		}
		for i := range r.entries {
			r.entries[i].Line += n
		}
		r.head.Lines = n
	}
	return r, true
}

// quietBefore says that none of the lines in b holds `"deleted"`, `\u` or one of keys
// quoted (readRecent).
func quietBefore(b []byte, keys map[string]bool) bool {
	if bytes.Contains(b, []byte(`"deleted"`)) || bytes.Contains(b, []byte(`\u`)) {
		return false
	}
	// Keys are looked for by their first two bytes ("l-", "s-"): one search per kind,
	// each hit's string looked up, however many keys.
	prefixes := map[string]bool{}
	for k := range keys {
		if len(k) < 2 {
			if bytes.Contains(b, []byte(`"`+k+`"`)) {
				return false
			}
			continue
		}
		prefixes[k[:2]] = true
	}
	for p := range prefixes {
		pat := []byte(`"` + p)
		for at := 0; ; {
			i := bytes.Index(b[at:], pat)
			if i < 0 {
				break
			}
			s := at + i + 1
			e := bytes.IndexByte(b[s:], '"')
			if e < 0 {
				e = len(b) - s
			}
			if keys[string(b[s:s+e])] {
				return false
			}
			at = s
		}
	}
	return true
}

// countNewlines counts the newlines in the log's bytes from start to end, a megabyte at
// a time (a vectorised count, nothing parsed).
func countNewlines(f io.ReaderAt, start, end int64) (int, error) {
	n := 0
	err := eachMegabyte(f, start, end, func(b []byte) { n += bytes.Count(b, []byte{'\n'}) })
	return n, err
}

// changeLine says whether line names change id: holds it quoted, and parses with it as
// its change (a line longer than MaxLogLine names none).
func changeLine(line []byte, id string) bool {
	return len(line) <= MaxLogLine && bytes.Contains(line, []byte(`"`+id+`"`)) &&
		model.ParseLogLine(0, string(line)).ID == id
}

// RecentHistory is the History of the folder dir now holding the log's last lines back
// to the first of changes, read backwards from the end, so that what it says of them
// costs those lines, not the log (readRecent); load reads the folder's objects (its log
// is not read), and only once the lines are. With lines, the lines before are counted
// so that line numbers are the file's. It is nil, and nothing was loaded, when it cannot
// answer as a History of the log's tail would: the caller reads the tail then (LoadTail,
// NewHistory).
func RecentHistory(dir string, changes []string, lines bool, load func() (*model.Snapshot, error)) (*History, error) {
	want := map[string]bool{}
	for _, c := range changes {
		if c != "" {
			if !model.ValidID(c, model.KindChange) {
				return nil, nil
			}
			want[c] = true
		}
	}
	if len(want) == 0 {
		return nil, nil
	}
	r, ok := readRecent(dir, lines, func(line []byte) bool {
		for c := range want {
			if changeLine(line, c) {
				delete(want, c)
			}
		}
		return len(want) == 0
	})
	if !ok {
		return nil, nil
	}
	h := newHistory(dir, &model.Snapshot{}, r.entries, r.head, &backupCache{backups: map[string]backup{}})
	for _, c := range changes {
		if c != "" && !h.Holds(c) {
			return nil, nil
		}
	}
	return h.loaded(load)
}

// LastChanges is RecentHistory holding the log's last n changes: nil when it cannot list
// them as a History of the tail would (ActivityFrom).
func LastChanges(dir string, n int, lines bool, load func() (*model.Snapshot, error)) (*History, error) {
	if n <= 0 {
		return nil, nil
	}
	seen := map[string]bool{}
	r, ok := readRecent(dir, lines, func(line []byte) bool {
		if len(line) > MaxLogLine || len(bytes.TrimSpace(line)) == 0 {
			return false
		}
		if id := model.ParseLogLine(0, string(line)).ID; id != "" && model.ValidID(id, model.KindChange) {
			seen[id] = true
		}
		return len(seen) >= n
	})
	if !ok {
		return nil, nil
	}
	h := newHistory(dir, &model.Snapshot{}, r.entries, r.head, &backupCache{backups: map[string]backup{}})
	if len(h.log) < n {
		return nil, nil
	}
	return h.loaded(load)
}

// loaded is h on the snapshot load reads (h's own is empty: its lines were read first).
func (h *History) loaded(load func() (*model.Snapshot, error)) (*History, error) {
	snap, err := load()
	if err != nil {
		return nil, err
	}
	h.snap = snap
	return h, nil
}
