// Package pyjson is a JSON codec that reads what Python's json.load reads and writes byte
// for byte what json.dumps writes (indent=4, or one line), keeping key order and keys it
// does not know, so that referee rewrites the agents' files as their own Python would.
// It knows nothing of referee's objects: model types them.
package pyjson

// The agents write every object with Python's json.dumps(obj, indent=4). referee must
// rewrite objects byte for byte the same way, keeping key order and keys it does not
// know, so this file holds an order-preserving JSON tree with a parser that accepts what
// Python's json.load accepts and an encoder that prints what json.dumps prints.

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math"
	"math/bits"
	"strconv"
	"strings"
	"sync"
	"unicode/utf16"
	"unicode/utf8"
	"unsafe"
)

// Kind is the JSON type of a Value.
type Kind uint8

const (
	Null Kind = iota
	Bool
	Number
	String
	Array
	Object
)

func (k Kind) String() string {
	switch k {
	case Null:
		return "null"
	case Bool:
		return "boolean"
	case Number:
		return "number"
	case String:
		return "string"
	case Array:
		return "list"
	case Object:
		return "object"
	}
	return "unknown"
}

// Value is one JSON value. Strings hold their decoded text; a lone UTF-16 surrogate
// (legal in Python strings) is kept as its 3-byte WTF-8 form so it survives a rewrite.
// Numbers hold their literal text; Bool holds "true" or "false".
type Value struct {
	Kind Kind
	Str  string
	Arr  []Value
	Obj  []Member
}

// Member is one key of an object, in file order.
type Member struct {
	Key   string
	Value Value
}

// MaxDepth bounds nesting so that hostile input cannot exhaust the stack.
const MaxDepth = 512

// Str returns a string value.
func Str(s string) Value { return Value{Kind: String, Str: s} }

// Strs returns a list of strings.
func Strs(ss []string) Value {
	v := Value{Kind: Array, Arr: make([]Value, len(ss))}
	for i, s := range ss {
		v.Arr[i] = Str(s)
	}
	return v
}

// Float returns a number printed as Python prints a float (1.0, not 1).
func Float(f float64) Value { return Value{Kind: Number, Str: pyFloat(f)} }

// Int returns an integer number.
func Int(n int) Value { return Value{Kind: Number, Str: strconv.Itoa(n)} }

// Obj returns an object from alternating keys and values.
func Obj(members ...Member) Value { return Value{Kind: Object, Obj: members} }

// M is shorthand for a Member.
func M(key string, v Value) Member { return Member{Key: key, Value: v} }

// Get returns the member value for key and whether it exists.
func (v *Value) Get(key string) (*Value, bool) {
	if v == nil || v.Kind != Object {
		return nil, false
	}
	for i := range v.Obj {
		if v.Obj[i].Key == key {
			return &v.Obj[i].Value, true
		}
	}
	return nil, false
}

// Set replaces the value of key in place, or appends the key when it is new, so that
// rewriting an object never reorders what the agents wrote.
func (v *Value) Set(key string, val Value) {
	if p, ok := v.Get(key); ok {
		*p = val
		return
	}
	v.Obj = append(v.Obj, Member{Key: key, Value: val})
}

// Clone returns a deep copy, so a snapshot's tree is never mutated by a change.
func (v Value) Clone() Value {
	switch v.Kind {
	case Array:
		arr := make([]Value, len(v.Arr))
		for i := range v.Arr {
			arr[i] = v.Arr[i].Clone()
		}
		v.Arr = arr
	case Object:
		obj := make([]Member, len(v.Obj))
		for i := range v.Obj {
			obj[i] = Member{Key: v.Obj[i].Key, Value: v.Obj[i].Value.Clone()}
		}
		v.Obj = obj
	}
	return v
}

// StringList returns the strings of a list value; ok is false when v is not a list of strings.
func (v *Value) StringList() (out []string, ok bool) {
	if v == nil || v.Kind != Array {
		return nil, false
	}
	ok = true
	out = make([]string, 0, len(v.Arr))
	for i := range v.Arr {
		if v.Arr[i].Kind != String {
			ok = false
			continue
		}
		out = append(out, v.Arr[i].Str)
	}
	return out, ok
}

// SyntaxError says where and why a document did not parse.
type SyntaxError struct {
	Offset int
	Line   int
	Msg    string
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("line %d (byte %d): %s", e.Line, e.Offset, e.Msg)
}

// Parse decodes one JSON document with the leniencies of Python's json.load
// (NaN, Infinity, -Infinity; duplicate keys keep their first position and last value)
// and its strictness (no control characters inside strings, valid UTF-8 only).
//
// A document costs three allocations, whatever its size: one slab for all its list
// items, one for all its object members, and one string, the arena, holding the decoded
// text of all its strings, keys and numbers, which the Values hold parts of. The parse
// runs on scratch kept between documents and sizes the three at the end. (So a part of
// a document held alone keeps the whole document's slabs and text alive.)
func Parse(data []byte) (Value, error) {
	p := parsers.Get().(*parser)
	p.data, p.pos = data, 0
	defer p.release()
	return p.parse()
}

// parse parses p.data, from its start.
func (p *parser) parse() (Value, error) {
	// The decoded text is never longer than the document: text needs no growing.
	if cap(p.text) < len(p.data) {
		p.text = make([]byte, 0, len(p.data))
	}
	p.space()
	if p.pos < len(p.data) && strings.HasPrefix(string(p.data[p.pos:min(len(p.data), p.pos+3)]), "\ufeff") {
		return Value{}, p.fail("unexpected UTF-8 byte-order mark")
	}
	t, err := p.value(0)
	if err != nil {
		return Value{}, err
	}
	p.space()
	if p.pos != len(p.data) {
		return Value{}, p.fail("extra data after the document")
	}
	if p.lean {
		p.arena = string(p.text) // the nodes are read as they are (Node)
		p.root = t
		return Value{}, nil
	}
	return p.build(t), nil
}

// member is the value of key in the object node n.
func (p *parser) member(n node, key string) (node, bool) {
	if n.kind != Object {
		return node{}, false
	}
	for _, m := range p.members[n.off : n.off+n.n] {
		if m.key == key {
			return m.val, true
		}
	}
	return node{}, false
}

// A load parses thousands of files on a few goroutines; each parser keeps its scratch
// between documents.
var parsers = sync.Pool{New: func() any { return &parser{body: span{n: -1}} }}

type parser struct {
	data []byte
	pos  int
	// While parsing, a value is a node. The items of the lists (members of the objects)
	// being parsed wait on vals (mems), innermost last; a finished list moves its items to
	// the end of items (members), where they stay together: a list node names its items
	// by their place there, and build turns that place into a slice of the slab.
	vals    []node
	mems    []member
	items   []node
	members []member
	text    []byte // the decoded strings, keys and numbers, one after the other
	// set by build
	arena string
	slabV []Value
	slabM []Member
	// A tree parse (ParseTree) leaves the lazy string in data (body says where, n < 0:
	// nowhere) and builds no document: the reader reads the nodes, from root.
	lean    bool
	lazy    Lazy
	root    node
	inProof bool // parsing the root's lazy.Outer object
	body    span
	// outer is the root's member being parsed; dropping is set while the strings parsed
	// are ones lazy.Drop names.
	outer    string
	dropping bool
}

// span is a part of a document: the off..off+n bytes of data.
type span struct{ off, n int }

// node is a Value before its document's slabs exist: its Str is statics[off] or
// text[off:off+n]; a list's items are items[off:off+n], an object's members
// members[off:off+n].
type node struct {
	kind   Kind
	static bool
	off, n int
}

// statics are the literals and the numbers every object has, stored without a byte.
var statics = [...]string{"true", "false", "NaN", "Infinity", "-Infinity", "0", "0.0", "1.0"}

const (
	staticTrue = iota
	staticFalse
	staticNaN
	staticInf
	staticNegInf
	staticZero
	staticZeroF
	staticOneF
)

// member is a Member before the slabs exist. Its key is either interned (off < 0) or
// text[off:off+len(key)], which key views until build.
type member struct {
	key string
	off int
	val node
}

func (p *parser) release() {
	p.data, p.arena, p.slabV, p.slabM = nil, "", nil, nil
	p.lean, p.lazy, p.inProof, p.body, p.root = false, Lazy{}, false, span{n: -1}, node{}
	p.outer, p.dropping = "", false
	p.vals, p.mems, p.items, p.members, p.text = p.vals[:0], p.mems[:0], p.items[:0], p.members[:0], p.text[:0]
	parsers.Put(p)
}

// build allocates the document's slabs and arena at their size and makes the Values.
func (p *parser) build(root node) Value {
	p.arena = string(p.text) // not zeroed first, unlike a make
	if len(p.items) > 0 {
		p.slabV = make([]Value, len(p.items))
	}
	if len(p.members) > 0 {
		p.slabM = make([]Member, len(p.members))
	}
	for i, t := range p.items {
		p.slabV[i] = p.finish(t)
	}
	for i := range p.members {
		m := &p.members[i]
		key := m.key
		if m.off >= 0 {
			key = p.arena[m.off : m.off+len(key)]
		}
		p.slabM[i] = Member{Key: key, Value: p.finish(m.val)}
	}
	return p.finish(root)
}

// finish makes the Value of a node; a list or object needs only the slabs to exist.
func (p *parser) finish(t node) Value {
	v := Value{Kind: t.kind}
	switch {
	case t.kind == Array:
		if t.n == 0 {
			v.Arr = []Value{}
		} else { // capped, so that an append copies instead of writing over the next list
			v.Arr = p.slabV[t.off : t.off+t.n : t.off+t.n]
		}
	case t.kind == Object:
		if t.n == 0 {
			v.Obj = []Member{}
		} else {
			v.Obj = p.slabM[t.off : t.off+t.n : t.off+t.n]
		}
	case t.static:
		v.Str = statics[t.off]
	default:
		v.Str = p.arena[t.off : t.off+t.n]
	}
	return v
}

func (p *parser) fail(msg string) error {
	line := 1 + bytes.Count(p.data[:min(p.pos, len(p.data))], []byte{'\n'})
	return &SyntaxError{Offset: p.pos, Line: line, Msg: msg}
}

func (p *parser) space() {
	for p.pos < len(p.data) {
		switch p.data[p.pos] {
		case '\n':
			p.pos++
			// json.dumps(indent=4) starts every line with spaces: skip them eight at a time.
			for p.pos+8 <= len(p.data) && binary.LittleEndian.Uint64(p.data[p.pos:]) == ones*' ' {
				p.pos += 8
			}
		case ' ', '\t', '\r':
			p.pos++
		default:
			return
		}
	}
}

func (p *parser) value(depth int) (node, error) {
	if depth > MaxDepth {
		return node{}, p.fail(fmt.Sprintf("nesting deeper than %d levels", MaxDepth))
	}
	if p.pos >= len(p.data) {
		if len(p.data) == 0 {
			return node{}, p.fail("empty file")
		}
		return node{}, p.fail("unexpected end of file (truncated?)")
	}
	switch c := p.data[p.pos]; {
	case c == '{':
		return p.object(depth)
	case c == '[':
		return p.array(depth)
	case c == '"':
		off, n, err := p.str()
		if p.dropping {
			p.text = p.text[:off] // checked, not kept
			n = 0
		}
		return node{kind: String, off: off, n: n}, err
	case c == 't':
		return p.literal(Bool, staticTrue)
	case c == 'f':
		return p.literal(Bool, staticFalse)
	case c == 'n':
		return p.literal(Null, -1)
	case c == 'N':
		return p.literal(Number, staticNaN)
	case c == 'I':
		return p.literal(Number, staticInf)
	case c == '-' || (c >= '0' && c <= '9'):
		if strings.HasPrefix(string(p.data[p.pos:min(len(p.data), p.pos+9)]), "-Infinity") {
			return p.literal(Number, staticNegInf)
		}
		return p.number()
	default:
		// Name a byte that does not start a UTF-8 character as a byte, not as the Latin-1
		// character it would be.
		r, size := utf8.DecodeRune(p.data[p.pos:])
		if r == utf8.RuneError && size <= 1 {
			return node{}, p.fail(fmt.Sprintf("unexpected byte 0x%02x (not UTF-8 text)", c))
		}
		return node{}, p.fail(fmt.Sprintf("unexpected character %q", r))
	}
}

// literal reads the word statics[i] (null when i < 0).
func (p *parser) literal(kind Kind, i int) (node, error) {
	word, t := "null", node{kind: kind}
	if i >= 0 {
		word, t.static, t.off = statics[i], true, i
	}
	if len(p.data)-p.pos >= len(word) && string(p.data[p.pos:p.pos+len(word)]) == word {
		p.pos += len(word)
		return t, nil
	}
	return node{}, p.fail("invalid literal (expected " + word + ")")
}

func (p *parser) number() (node, error) {
	start := p.pos
	if p.data[p.pos] == '-' {
		p.pos++
	}
	digits := func() int {
		n := 0
		for p.pos < len(p.data) && p.data[p.pos] >= '0' && p.data[p.pos] <= '9' {
			p.pos++
			n++
		}
		return n
	}
	intStart := p.pos
	if digits() == 0 {
		return node{}, p.fail("invalid number")
	}
	if p.data[intStart] == '0' && p.pos-intStart > 1 {
		// Python reads "01" as 0 followed by extra data; say so plainly.
		return node{}, p.fail("number with a leading zero")
	}
	if p.pos < len(p.data) && p.data[p.pos] == '.' {
		save := p.pos
		p.pos++
		if digits() == 0 {
			p.pos = save
		}
	}
	if p.pos < len(p.data) && (p.data[p.pos] == 'e' || p.data[p.pos] == 'E') {
		save := p.pos
		p.pos++
		if p.pos < len(p.data) && (p.data[p.pos] == '+' || p.data[p.pos] == '-') {
			p.pos++
		}
		if digits() == 0 {
			p.pos = save
		}
	}
	lit := p.data[start:p.pos]
	switch string(lit) { // the numbers every object has, without a byte
	case "0":
		return node{kind: Number, static: true, off: staticZero}, nil
	case "0.0":
		return node{kind: Number, static: true, off: staticZeroF}, nil
	case "1.0":
		return node{kind: Number, static: true, off: staticOneF}, nil
	}
	off := len(p.text)
	p.text = append(p.text, lit...)
	return node{kind: Number, off: off, n: len(lit)}, nil
}

func (p *parser) array(depth int) (node, error) {
	p.pos++ // [
	p.space()
	if p.pos < len(p.data) && p.data[p.pos] == ']' {
		p.pos++
		return node{kind: Array}, nil
	}
	mark := len(p.vals)
	for {
		p.space()
		item, err := p.value(depth + 1)
		if err != nil {
			return node{}, err
		}
		p.vals = append(p.vals, item)
		p.space()
		if p.pos >= len(p.data) {
			return node{}, p.fail("unexpected end of file inside a list (truncated?)")
		}
		switch p.data[p.pos] {
		case ',':
			p.pos++
		case ']':
			p.pos++
			t := node{kind: Array, off: len(p.items), n: len(p.vals) - mark}
			p.items = append(p.items, p.vals[mark:]...)
			p.vals = p.vals[:mark]
			return t, nil
		default:
			return node{}, p.fail("expected ',' or ']' in a list")
		}
	}
}

func (p *parser) object(depth int) (node, error) {
	p.pos++ // {
	p.space()
	if p.pos < len(p.data) && p.data[p.pos] == '}' {
		p.pos++
		return node{kind: Object}, nil
	}
	mark := len(p.mems)
	var index map[string]int // built only for large objects with duplicate checks
	for {
		p.space()
		if p.pos >= len(p.data) {
			return node{}, p.fail("unexpected end of file inside an object (truncated?)")
		}
		if p.data[p.pos] != '"' {
			return node{}, p.fail("expected a quoted key")
		}
		off, n, err := p.str()
		if err != nil {
			return node{}, err
		}
		key, known := internKey(p.text[off:])
		if known {
			p.text = p.text[:off]
			off = -1
		} else if n > 0 {
			// A view of text, for the duplicate checks below: text does not move (see
			// Parse), and build takes the key from the arena.
			key = unsafe.String(&p.text[off], n)
		}
		p.space()
		if p.pos >= len(p.data) || p.data[p.pos] != ':' {
			return node{}, p.fail("expected ':' after a key")
		}
		p.pos++
		p.space()
		var val node
		if p.lean && depth <= 1 {
			val, err = p.leanMember(depth, key)
		} else {
			val, err = p.value(depth + 1)
		}
		if err != nil {
			return node{}, err
		}
		// Python keeps a duplicate key at its first position with the last value.
		members := p.mems[mark:]
		dup := -1
		if index != nil {
			if i, ok := index[key]; ok {
				dup = i
			}
		} else {
			for i := range members {
				if members[i].key == key {
					dup = i
					break
				}
			}
		}
		if dup >= 0 {
			members[dup].val = val
		} else {
			p.mems = append(p.mems, member{key: key, off: off, val: val})
			if n := len(p.mems) - mark; index != nil {
				index[key] = n - 1
			} else if n > 16 {
				index = make(map[string]int, 32)
				for i, m := range p.mems[mark:] {
					index[m.key] = i
				}
			}
		}
		p.space()
		if p.pos >= len(p.data) {
			return node{}, p.fail("unexpected end of file inside an object (truncated?)")
		}
		switch p.data[p.pos] {
		case ',':
			p.pos++
		case '}':
			p.pos++
			t := node{kind: Object, off: len(p.members), n: len(p.mems) - mark}
			p.members = append(p.members, p.mems[mark:]...)
			p.mems = p.mems[:mark]
			return t, nil
		default:
			return node{}, p.fail("expected ',' or '}' in an object")
		}
	}
}

const (
	ones  = 0x0101010101010101
	highs = 0x8080808080808080
)

// specials flags (high bit) the bytes of w, little-endian, that a string scan must look
// at: a quote, a backslash, a control character, a byte of a multi-byte character. The
// usual SWAR tests, with one for two: w^0x02 turns '"' into 0x20 and keeps control
// characters below it, so "below 0x21" finds both. The lowest flagged byte is exact, as
// borrows only run upwards.
func specials(w uint64) uint64 {
	t, b := w^(ones*0x02), w^(ones*'\\')
	return ((t - ones*0x21) | t | (b-ones)&^b) & highs
}

// plain marks the bytes a string holds as they are: printable ASCII but '"' and '\\'.
var plain = func() (t [256]bool) {
	for c := 0x20; c < 0x80; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// unescape maps the letter of a one-letter escape (\n) to the byte it stands for.
var unescape = [256]byte{'"': '"', '\\': '\\', '/': '/', 'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t'}

// str decodes the string at p.pos to the end of text and says where it is there. Runs
// of plain bytes are scanned and copied sixteen bytes at a time (the bytes past a run's
// end are stored too, and written over next). Errors are reported at the byte where
// they are.
func (p *parser) str() (off, n int, err error) {
	data := p.data
	i := p.pos + 1 // after the opening quote
	// Nothing is written past the last byte read: escapes only shrink (a lone surrogate's
	// \uXXXX, 6 bytes, becomes 3 of WTF-8), quotes are dropped. So w <= i, and a word
	// stored at w fits in text, whose capacity is len(data).
	buf := p.text[:cap(p.text)]
	off = len(p.text)
	w := off
	for {
		for {
			if i+16 > len(data) {
				for i < len(data) && plain[data[i]] {
					buf[w] = data[i]
					i, w = i+1, w+1
				}
				break
			}
			src, dst := data[i:i+16:i+16], buf[w:w+16:w+16]
			x, y := binary.LittleEndian.Uint64(src), binary.LittleEndian.Uint64(src[8:])
			binary.LittleEndian.PutUint64(dst, x)
			binary.LittleEndian.PutUint64(dst[8:], y)
			if mx, my := specials(x), specials(y); mx|my != 0 {
				k := bits.TrailingZeros64(mx) >> 3
				if mx == 0 {
					k = 8 + bits.TrailingZeros64(my)>>3
				}
				i, w = i+k, w+k
				break
			}
			i, w = i+16, w+16
		}
		if i >= len(data) {
			p.pos = len(data)
			return 0, 0, p.fail("unterminated string (truncated?)")
		}
		switch c := data[i]; {
		case c == '"':
			p.pos = i + 1
			p.text = buf[:w]
			return off, w - off, nil
		case c == '\\':
			if i+1 >= len(data) {
				p.pos = i
				return 0, 0, p.fail("unterminated string (truncated?)")
			}
			e := data[i+1]
			i += 2
			if d := unescape[e]; d != 0 {
				buf[w] = d
				w++
				continue
			}
			if e != 'u' {
				p.pos = i
				return 0, 0, p.fail(fmt.Sprintf("invalid escape \\%c", e))
			}
			r, ok := hex4(data, i)
			if !ok {
				p.pos = i
				return 0, 0, p.fail("invalid \\u escape")
			}
			r, i = pairUp(data, r, i+4)
			w += len(appendEscaped(buf[w:w], r))
		case c < 0x20:
			p.pos = i
			return 0, 0, p.fail("control character inside a string")
		default: // a byte of a multi-byte character
			r, size := utf8.DecodeRune(data[i:])
			if r == utf8.RuneError && size <= 1 {
				p.pos = i
				return 0, 0, p.fail("invalid UTF-8 in a string")
			}
			w += copy(buf[w:], data[i:i+size])
			i += size
		}
	}
}

// pairUp completes the \u escape of r, whose digits end before data[i]: a high
// surrogate followed by the \u escape of a low one is the character of the pair, and i
// moves past both.
func pairUp(data []byte, r rune, i int) (rune, int) {
	if utf16.IsSurrogate(r) && r < 0xdc00 && i+6 <= len(data) && data[i] == '\\' && data[i+1] == 'u' {
		if r2, ok := hex4(data, i+2); ok && r2 >= 0xdc00 && r2 <= 0xdfff {
			return utf16.DecodeRune(r, r2), i + 6
		}
	}
	return r, i
}

// appendEscaped appends the character of a \u escape: a lone surrogate as WTF-8.
func appendEscaped(b []byte, r rune) []byte {
	if utf16.IsSurrogate(r) {
		return appendSurrogate(b, r)
	}
	return utf8.AppendRune(b, r)
}

// hex4 reads the four hex digits at data[at:].
func hex4(data []byte, at int) (rune, bool) {
	if at+4 > len(data) {
		return 0, false
	}
	var r rune
	for _, c := range data[at : at+4] {
		r <<= 4
		switch {
		case c >= '0' && c <= '9':
			r |= rune(c - '0')
		case c >= 'a' && c <= 'f':
			r |= rune(c-'a') + 10
		case c >= 'A' && c <= 'F':
			r |= rune(c-'A') + 10
		default:
			return 0, false
		}
	}
	return r, true
}

// internKey returns the keys of FORMAT.md's objects as constants (ok is false for any
// other): a folder has hundreds of thousands of them, and they need no byte in an arena.
func internKey(b []byte) (string, bool) {
	switch string(b) {
	case "id":
		return "id", true
	case "type":
		return "type", true
	case "conclusion":
		return "conclusion", true
	case "hypothesis":
		return "hypothesis", true
	case "preliminaries":
		return "preliminaries", true
	case "status":
		return "status", true
	case "reliability":
		return "reliability", true
	case "stats":
		return "stats", true
	case "count_usage":
		return "count_usage", true
	case "progresses":
		return "progresses", true
	case "proof":
		return "proof", true
	case "cot":
		return "cot", true
	case "full":
		return "full", true
	case "ref":
		return "ref", true
	case "validation":
		return "validation", true
	case "issues":
		return "issues", true
	case "responses":
		return "responses", true
	case "objectives":
		return "objectives", true
	case "priority":
		return "priority", true
	case "summary":
		return "summary", true
	case "solution":
		return "solution", true
	case "creation":
		return "creation", true
	case "modification":
		return "modification", true
	case "current":
		return "current", true
	}
	return "", false
}

// writeSurrogate stores a lone surrogate as WTF-8 (ED A0..BF xx).
func writeSurrogate(b *strings.Builder, r rune) {
	b.Write(appendSurrogate(nil, r))
}

// appendSurrogate appends a lone surrogate as WTF-8 (ED A0..BF xx).
func appendSurrogate(b []byte, r rune) []byte {
	return append(b, 0xe0|byte(r>>12), 0x80|byte(r>>6)&0x3f, 0x80|byte(r)&0x3f)
}

// EncodeIndent prints v as json.dumps(v, indent=4) does.
func EncodeIndent(v Value) []byte {
	var b []byte
	return appendValue(b, &v, 0, true)
}

// EncodeLine prints v as json.dumps(v) does: one line, ", " and ": " separators.
func EncodeLine(v Value) []byte {
	var b []byte
	return appendValue(b, &v, 0, false)
}

func appendIndent(b []byte, level int) []byte {
	b = append(b, '\n')
	for i := 0; i < level; i++ {
		b = append(b, "    "...)
	}
	return b
}

func appendValue(b []byte, v *Value, level int, indent bool) []byte {
	switch v.Kind {
	case Null:
		return append(b, "null"...)
	case Bool:
		return append(b, v.Str...)
	case Number:
		return append(b, PyNumber(v.Str)...)
	case String:
		return AppendPyString(b, v.Str)
	case Array:
		if len(v.Arr) == 0 {
			return append(b, "[]"...)
		}
		b = append(b, '[')
		for i := range v.Arr {
			if i > 0 {
				b = append(b, ',')
				if !indent {
					b = append(b, ' ')
				}
			}
			if indent {
				b = appendIndent(b, level+1)
			}
			b = appendValue(b, &v.Arr[i], level+1, indent)
		}
		if indent {
			b = appendIndent(b, level)
		}
		return append(b, ']')
	case Object:
		if len(v.Obj) == 0 {
			return append(b, "{}"...)
		}
		b = append(b, '{')
		for i := range v.Obj {
			if i > 0 {
				b = append(b, ',')
				if !indent {
					b = append(b, ' ')
				}
			}
			if indent {
				b = appendIndent(b, level+1)
			}
			b = AppendPyString(b, v.Obj[i].Key)
			b = append(b, ": "...)
			b = appendValue(b, &v.Obj[i].Value, level+1, indent)
		}
		if indent {
			b = appendIndent(b, level)
		}
		return append(b, '}')
	}
	return append(b, "null"...)
}

const hexDigits = "0123456789abcdef"

// AppendPyString appends s quoted as Python's json.dumps quotes it with ensure_ascii:
// printable ASCII as is, everything else as lowercase \uXXXX (surrogate pairs above U+FFFF).
func AppendPyString(b []byte, s string) []byte {
	b = append(b, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c >= 0x20 && c < 0x7f && c != '"' && c != '\\' {
			b = append(b, c)
			i++
			continue
		}
		if c < utf8.RuneSelf {
			switch c {
			case '"':
				b = append(b, '\\', '"')
			case '\\':
				b = append(b, '\\', '\\')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			default:
				b = AppendEscape(b, rune(c))
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size <= 1 {
			// A WTF-8 lone surrogate from the parser: ED A0..BF xx.
			if c == 0xed && i+2 < len(s) && s[i+1] >= 0xa0 && s[i+1] <= 0xbf && s[i+2]&0xc0 == 0x80 {
				b = AppendEscape(b, rune(c&0x0f)<<12|rune(s[i+1]&0x3f)<<6|rune(s[i+2]&0x3f))
				i += 3
				continue
			}
			b = AppendEscape(b, utf8.RuneError)
			i++
			continue
		}
		if r > 0xffff {
			r1, r2 := utf16.EncodeRune(r)
			b = AppendEscape(b, r1)
			b = AppendEscape(b, r2)
		} else {
			b = AppendEscape(b, r)
		}
		i += size
	}
	return append(b, '"')
}

// AppendEscape appends r as the JSON escape \uXXXX (r in the Basic Multilingual Plane).
func AppendEscape(b []byte, r rune) []byte {
	return append(b, '\\', 'u', hexDigits[r>>12&0xf], hexDigits[r>>8&0xf], hexDigits[r>>4&0xf], hexDigits[r&0xf])
}

// PyNumber prints a number literal the way Python would after json.load: integers as
// written (arbitrary size), floats as repr(float).
func PyNumber(lit string) string {
	switch lit {
	case "NaN", "Infinity", "-Infinity":
		return lit
	}
	if !strings.ContainsAny(lit, ".eE") {
		if lit == "-0" {
			return "0"
		}
		return lit
	}
	f, err := strconv.ParseFloat(lit, 64)
	if err != nil { // out of range: Python reads inf
		if strings.HasPrefix(lit, "-") {
			return "-Infinity"
		}
		return "Infinity"
	}
	return pyFloat(f)
}

// pyFloat is Python's float repr: shortest round-trip digits, fixed notation for
// exponents in [-4, 16), otherwise d.ddde+XX.
func pyFloat(f float64) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	}
	s := strconv.FormatFloat(f, 'e', -1, 64) // e.g. "-1.2345e+06"
	mant, expStr, _ := strings.Cut(s, "e")
	exp, _ := strconv.Atoi(expStr)
	neg := strings.HasPrefix(mant, "-")
	mant = strings.TrimPrefix(mant, "-")
	digits := strings.Replace(mant, ".", "", 1)
	var out string
	if exp >= -4 && exp < 16 {
		if exp >= 0 {
			if len(digits) <= exp+1 {
				out = digits + strings.Repeat("0", exp+1-len(digits)) + ".0"
			} else {
				out = digits[:exp+1] + "." + digits[exp+1:]
			}
		} else {
			out = "0." + strings.Repeat("0", -exp-1) + digits
		}
	} else {
		m := digits[:1]
		if len(digits) > 1 {
			m += "." + digits[1:]
		}
		sign := "+"
		if exp < 0 {
			sign = "-"
			exp = -exp
		}
		out = fmt.Sprintf("%se%s%02d", m, sign, exp)
	}
	if neg {
		out = "-" + out
	}
	return out
}
