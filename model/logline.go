package model

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"
	"unsafe"

	"referee/model/pyjson"
)

// LogEntry is one line of history/log.jsonl: one change batch.
type LogEntry struct {
	Line         int   // 1-based line number in the file
	Off          int64 // byte offset of the line in the file (when read from one)
	ID           string
	Creation     []string
	Modification []string
	Current      []string
	Deleted      []string // referee's extra keys from here to Skill; empty on the agents' own lines
	Reverts      string   // the change an undo reverts
	At           string
	By           string
	Skill        string
	Raw          string
	Err          string // why the line did not parse; the other fields are then partial
}

// Document is the line's whole JSON value, for a reader that wants every key (the zero
// Value when it does not parse). Entries keep only the fields above: a 100k log is
// 230k lines, and their trees were a fifth of the heap.
func (e LogEntry) Document() pyjson.Value {
	v, _ := pyjson.Parse([]byte(e.Raw))
	return v
}

// ParseLogLine reads one log line. Readers find the change ID as the key starting "l-".
// The lines referee and the agents write take a scanner that allocates one list per
// line; anything else (escapes, numbers, duplicate keys, errors) goes through Parse.
func ParseLogLine(n int, line string) LogEntry {
	if e, ok := scanLogLine(line, nil); ok {
		e.Line = n
		return e
	}
	return parseLogLine(n, line)
}

// parseLogLine is ParseLogLine for any line: Parse, then the fields.
func parseLogLine(n int, line string) LogEntry {
	e := LogEntry{Line: n, Raw: line}
	doc, err := pyjson.Parse([]byte(line))
	if err != nil {
		e.Err = err.Error()
		return e
	}
	if doc.Kind != pyjson.Object {
		e.Err = "expected an object"
		return e
	}
	for _, m := range doc.Obj {
		switch {
		case KindOf(m.Key) == KindChange && e.ID == "":
			e.ID = m.Key
			if !ValidID(m.Key, KindChange) {
				e.Err = fmt.Sprintf("%q is not a change ID", m.Key)
			}
			r := reader{doc: &m.Value}
			if m.Value.Kind != pyjson.Object {
				e.Err = fmt.Sprintf("%s: expected {creation, modification}", m.Key)
				continue
			}
			e.Creation = r.list("creation")
			e.Modification = r.list("modification")
			if len(r.problems) > 0 && e.Err == "" {
				e.Err = m.Key + "." + r.problems[0].String()
			}
		case m.Key == "current":
			e.Current, _ = m.Value.StringList()
		case m.Key == "deleted":
			e.Deleted, _ = m.Value.StringList()
		case m.Key == "reverts" && m.Value.Kind == pyjson.String:
			e.Reverts = m.Value.Str
		case m.Key == "at" && m.Value.Kind == pyjson.String:
			e.At = m.Value.Str
		case m.Key == "by" && m.Value.Kind == pyjson.String:
			e.By = m.Value.Str
		case m.Key == "skill" && m.Value.Kind == pyjson.String:
			e.Skill = m.Value.Str
		}
	}
	if e.ID == "" && e.Err == "" {
		e.Err = "no key naming a change (l-…)"
	}
	return e
}

// PeekLogLine is ParseLogLine for a reader that only looks before it parses: for a line
// of the usual shape it reads the same fields, but its strings are the bytes of line and
// its lists are in *scratch (both reused by the caller, so the entry is not to be kept),
// and it allocates nothing once scratch has grown. ok is false for any other line, which
// only ParseLogLine reads.
func PeekLogLine(line []byte, scratch *[]string) (e LogEntry, ok bool) {
	return scanLogLine(unsafe.String(unsafe.SliceData(line), len(line)), scratch)
}

// scanLogLine reads a line of the usual shape without building a tree: an object of
// plain strings (no escapes), lists and objects of those, no key twice. Its strings are
// slices of the line; its lists are in one new array, or in *scratch when given. ok is
// false for anything else, and for every line with an error, so that parseLogLine
// words it.
func scanLogLine(line string, scratch *[]string) (e LogEntry, ok bool) {
	s := logScanner{data: line}
	var buf [32]string
	items := buf[:0] // the strings of every list read, in order, until the one allocation below
	type list struct {
		from, to int
		read     bool
	}
	var creation, modification, current, deleted list
	readList := func(l *list) bool {
		l.from = len(items)
		items, l.read = s.list(items)
		l.to = len(items)
		return l.read
	}
	change := func(key string) bool {
		switch key {
		case "creation":
			return readList(&creation)
		case "modification":
			return readList(&modification)
		}
		return s.skip(maxSkipDepth - 1)
	}
	member := func(key string) (ok bool) {
		switch {
		case KindOf(key) == KindChange && e.ID == "":
			e.ID = key
			return ValidID(key, KindChange) && s.object(change, true) && creation.read && modification.read
		case key == "current":
			return readList(&current)
		case key == "deleted":
			return readList(&deleted)
		case key == "reverts":
			e.Reverts, ok = s.str()
		case key == "at":
			e.At, ok = s.str()
		case key == "by":
			e.By, ok = s.str()
		case key == "skill":
			e.Skill, ok = s.str()
		default:
			return s.skip(maxSkipDepth)
		}
		return ok
	}
	s.space()
	if !s.object(member, true) || e.ID == "" {
		return e, false
	}
	if s.space(); s.pos != len(s.data) {
		return e, false
	}
	// One array for all the lists of the line; each list is capped so that an append
	// to one cannot write into the next.
	var all []string
	if scratch != nil {
		*scratch = append((*scratch)[:0], items...)
		all = *scratch
	} else {
		all = make([]string, len(items))
		copy(all, items)
	}
	cut := func(l list) []string {
		if !l.read {
			return nil
		}
		return all[l.from:l.to:l.to]
	}
	e.Creation, e.Modification, e.Current, e.Deleted = cut(creation), cut(modification), cut(current), cut(deleted)
	e.Raw = line
	return e, true
}

// logScanner reads the subset of JSON scanLogLine takes; each method reports whether
// what it read was in that subset.
type logScanner struct {
	data string
	pos  int
}

func (s *logScanner) space() {
	for s.pos < len(s.data) {
		switch s.data[s.pos] {
		case ' ', '\t', '\n', '\r':
			s.pos++
		default:
			return
		}
	}
}

func (s *logScanner) byte(c byte) bool {
	if s.pos < len(s.data) && s.data[s.pos] == c {
		s.pos++
		return true
	}
	return false
}

// str reads a string with no escapes and no control characters, in valid UTF-8.
func (s *logScanner) str() (string, bool) {
	if !s.byte('"') {
		return "", false
	}
	start, ascii := s.pos, true
	for ; s.pos < len(s.data); s.pos++ {
		switch c := s.data[s.pos]; {
		case c == '"':
			out := s.data[start:s.pos]
			s.pos++
			return out, ascii || utf8.ValidString(out)
		case c == '\\' || c < 0x20:
			return "", false
		case c >= 0x80:
			ascii = false
		}
	}
	return "", false
}

// object reads an object, calling value to read the value of each key. With unique, a
// key seen before (or more keys than it tracks) is not taken: Parse merges duplicates.
func (s *logScanner) object(value func(key string) bool, unique bool) bool {
	var keys [8]string
	n := 0
	return s.sequence('{', '}', func() bool {
		key, ok := s.str()
		if !ok {
			return false
		}
		if unique {
			if n == len(keys) || slices.Contains(keys[:n], key) {
				return false
			}
			keys[n] = key
			n++
		}
		s.space()
		if !s.byte(':') {
			return false
		}
		s.space()
		return value(key)
	})
}

// sequence reads open, items separated by commas, and close.
func (s *logScanner) sequence(open, close byte, item func() bool) bool {
	if !s.byte(open) {
		return false
	}
	s.space()
	if s.byte(close) {
		return true
	}
	for {
		if !item() {
			return false
		}
		s.space()
		if s.byte(close) {
			return true
		}
		if !s.byte(',') {
			return false
		}
		s.space()
	}
}

// list reads a list of strings onto items.
func (s *logScanner) list(items []string) ([]string, bool) {
	ok := s.sequence('[', ']', func() bool {
		v, ok := s.str()
		items = append(items, v)
		return ok
	})
	return items, ok
}

// maxSkipDepth bounds the nesting of the values scanLogLine skips, far below Parse's
// MaxDepth, so that a line too deep for Parse is never scanned.
const maxSkipDepth = 8

// skip reads a value nobody keeps: a string, or a list or object of such values, at
// most depth levels deep. Its objects may repeat keys: whichever value Parse kept,
// nobody reads it.
func (s *logScanner) skip(depth int) bool {
	if s.pos >= len(s.data) {
		return false
	}
	switch s.data[s.pos] {
	case '"':
		_, ok := s.str()
		return ok
	case '[':
		return depth > 0 && s.sequence('[', ']', func() bool { return s.skip(depth - 1) })
	case '{':
		return depth > 0 && s.object(func(string) bool { return s.skip(depth - 1) }, false)
	}
	return false
}

// LogVersions reads the "versions" key of a referee log line: each object's version
// (Version) right after the change. It is nil for a line without it (the agents' own
// lines, older referee lines) or one whose versions are not an object of strings.
func LogVersions(raw string) map[string]string {
	at := strings.Index(raw, `"versions"`)
	if at < 0 {
		return nil
	}
	// Activity asks this of every line: read just the versions object, a plain object
	// of hex strings in referee's lines, and parse the whole line only when it is not.
	sc := logScanner{data: raw, pos: at + len(`"versions"`)}
	sc.space()
	if sc.byte(':') {
		sc.space()
		out := map[string]string{}
		if sc.object(func(key string) bool {
			v, ok := sc.str()
			out[key] = v
			return ok
		}, false) {
			return out
		}
	}
	doc, err := pyjson.Parse([]byte(raw))
	if err != nil {
		return nil
	}
	v, ok := doc.Get("versions")
	if !ok || v.Kind != pyjson.Object {
		return nil
	}
	out := make(map[string]string, len(v.Obj))
	for _, m := range v.Obj {
		if m.Value.Kind == pyjson.String {
			out[m.Key] = m.Value.Str
		}
	}
	return out
}
