package model

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
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf16"
	"unicode/utf8"
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
func Parse(data []byte) (Value, error) {
	p := parsers.Get().(*parser)
	p.data, p.pos = data, 0
	defer func() {
		p.data = nil
		p.vals, p.mems = p.vals[:0], p.mems[:0]
		parsers.Put(p)
	}()
	p.space()
	if p.pos < len(p.data) && strings.HasPrefix(string(p.data[p.pos:min(len(p.data), p.pos+3)]), "\ufeff") {
		return Value{}, p.fail("unexpected UTF-8 byte-order mark")
	}
	v, err := p.value(0)
	if err != nil {
		return Value{}, err
	}
	p.space()
	if p.pos != len(p.data) {
		return Value{}, p.fail("extra data after the document")
	}
	return v, nil
}

// A load parses thousands of files on a few goroutines; each parser keeps its scratch
// stacks between documents, so lists and objects are allocated once, at their size.
var parsers = sync.Pool{New: func() any { return new(parser) }}

type parser struct {
	data []byte
	pos  int
	vals []Value  // items of the lists being parsed, innermost last
	mems []Member // members of the objects being parsed, innermost last
}

func (p *parser) fail(msg string) error {
	line := 1 + bytes.Count(p.data[:min(p.pos, len(p.data))], []byte{'\n'})
	return &SyntaxError{Offset: p.pos, Line: line, Msg: msg}
}

func (p *parser) space() {
	for p.pos < len(p.data) {
		switch p.data[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

func (p *parser) value(depth int) (Value, error) {
	if depth > MaxDepth {
		return Value{}, p.fail(fmt.Sprintf("nesting deeper than %d levels", MaxDepth))
	}
	if p.pos >= len(p.data) {
		if len(p.data) == 0 {
			return Value{}, p.fail("empty file")
		}
		return Value{}, p.fail("unexpected end of file (truncated?)")
	}
	switch c := p.data[p.pos]; {
	case c == '{':
		return p.object(depth)
	case c == '[':
		return p.array(depth)
	case c == '"':
		s, err := p.str(false)
		return Value{Kind: String, Str: s}, err
	case c == 't':
		return p.literal("true", Value{Kind: Bool, Str: "true"})
	case c == 'f':
		return p.literal("false", Value{Kind: Bool, Str: "false"})
	case c == 'n':
		return p.literal("null", Value{Kind: Null})
	case c == 'N':
		return p.literal("NaN", Value{Kind: Number, Str: "NaN"})
	case c == 'I':
		return p.literal("Infinity", Value{Kind: Number, Str: "Infinity"})
	case c == '-' || (c >= '0' && c <= '9'):
		if strings.HasPrefix(string(p.data[p.pos:min(len(p.data), p.pos+9)]), "-Infinity") {
			return p.literal("-Infinity", Value{Kind: Number, Str: "-Infinity"})
		}
		return p.number()
	default:
		// Name a byte that does not start a UTF-8 character as a byte, not as the Latin-1
		// character it would be.
		r, size := utf8.DecodeRune(p.data[p.pos:])
		if r == utf8.RuneError && size <= 1 {
			return Value{}, p.fail(fmt.Sprintf("unexpected byte 0x%02x (not UTF-8 text)", c))
		}
		return Value{}, p.fail(fmt.Sprintf("unexpected character %q", r))
	}
}

func (p *parser) literal(word string, v Value) (Value, error) {
	if len(p.data)-p.pos >= len(word) && string(p.data[p.pos:p.pos+len(word)]) == word {
		p.pos += len(word)
		return v, nil
	}
	return Value{}, p.fail("invalid literal (expected " + word + ")")
}

func (p *parser) number() (Value, error) {
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
		return Value{}, p.fail("invalid number")
	}
	if p.data[intStart] == '0' && p.pos-intStart > 1 {
		// Python reads "01" as 0 followed by extra data; say so plainly.
		return Value{}, p.fail("number with a leading zero")
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
	switch string(lit) { // the numbers every object has, without an allocation
	case "0":
		return Value{Kind: Number, Str: "0"}, nil
	case "0.0":
		return Value{Kind: Number, Str: "0.0"}, nil
	case "1.0":
		return Value{Kind: Number, Str: "1.0"}, nil
	}
	return Value{Kind: Number, Str: string(lit)}, nil
}

func (p *parser) array(depth int) (Value, error) {
	p.pos++ // [
	v := Value{Kind: Array}
	p.space()
	if p.pos < len(p.data) && p.data[p.pos] == ']' {
		p.pos++
		v.Arr = []Value{}
		return v, nil
	}
	mark := len(p.vals)
	defer func() { p.vals = p.vals[:mark] }()
	for {
		p.space()
		item, err := p.value(depth + 1)
		if err != nil {
			return Value{}, err
		}
		p.vals = append(p.vals, item)
		p.space()
		if p.pos >= len(p.data) {
			return Value{}, p.fail("unexpected end of file inside a list (truncated?)")
		}
		switch p.data[p.pos] {
		case ',':
			p.pos++
		case ']':
			p.pos++
			v.Arr = slices.Clone(p.vals[mark:])
			return v, nil
		default:
			return Value{}, p.fail("expected ',' or ']' in a list")
		}
	}
}

func (p *parser) object(depth int) (Value, error) {
	p.pos++ // {
	v := Value{Kind: Object}
	p.space()
	if p.pos < len(p.data) && p.data[p.pos] == '}' {
		p.pos++
		v.Obj = []Member{}
		return v, nil
	}
	mark := len(p.mems)
	defer func() { p.mems = p.mems[:mark] }()
	var index map[string]int // built only for large objects with duplicate checks
	for {
		p.space()
		if p.pos >= len(p.data) {
			return Value{}, p.fail("unexpected end of file inside an object (truncated?)")
		}
		if p.data[p.pos] != '"' {
			return Value{}, p.fail("expected a quoted key")
		}
		key, err := p.str(true)
		if err != nil {
			return Value{}, err
		}
		p.space()
		if p.pos >= len(p.data) || p.data[p.pos] != ':' {
			return Value{}, p.fail("expected ':' after a key")
		}
		p.pos++
		p.space()
		val, err := p.value(depth + 1)
		if err != nil {
			return Value{}, err
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
				if members[i].Key == key {
					dup = i
					break
				}
			}
		}
		if dup >= 0 {
			members[dup].Value = val
		} else {
			p.mems = append(p.mems, Member{Key: key, Value: val})
			if n := len(p.mems) - mark; index != nil {
				index[key] = n - 1
			} else if n > 16 {
				index = make(map[string]int, 32)
				for i, m := range p.mems[mark:] {
					index[m.Key] = i
				}
			}
		}
		p.space()
		if p.pos >= len(p.data) {
			return Value{}, p.fail("unexpected end of file inside an object (truncated?)")
		}
		switch p.data[p.pos] {
		case ',':
			p.pos++
		case '}':
			p.pos++
			v.Obj = slices.Clone(p.mems[mark:])
			return v, nil
		default:
			return Value{}, p.fail("expected ',' or '}' in an object")
		}
	}
}

const (
	ones  = 0x0101010101010101
	highs = 0x8080808080808080
)

// nextSpecial returns the index of the first byte at or after i that a string scan must
// look at (a quote, a backslash, a control character, a byte of a multi-byte character),
// or len(data). It tests eight bytes at a time (the usual SWAR tests; the lowest flagged
// byte is exact, as borrows only run upwards).
func nextSpecial(data []byte, i int) int {
	for ; i+8 <= len(data); i += 8 {
		w := binary.LittleEndian.Uint64(data[i:])
		quote, backslash := w^(ones*'"'), w^(ones*'\\')
		if m := ((w-ones*0x20)&^w | (quote-ones)&^quote | (backslash-ones)&^backslash | w) & highs; m != 0 {
			return i + bits.TrailingZeros64(m)>>3
		}
	}
	for i < len(data) && plain[data[i]] {
		i++
	}
	return i
}

// plain marks the bytes a string holds as they are: printable ASCII but '"' and '\\'.
var plain = func() (t [256]bool) {
	for c := 0x20; c < 0x80; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// closingQuote returns the index of the quote that ends the string whose body starts at
// start (-1 if none): the first quote not escaped by an odd run of backslashes.
func closingQuote(data []byte, start int) int {
	for i := start; ; {
		q := bytes.IndexByte(data[i:], '"')
		if q < 0 {
			return -1
		}
		q += i
		n := 0
		for k := q - 1; k >= start && data[k] == '\\'; k-- {
			n++
		}
		if n%2 == 0 {
			return q
		}
		i = q + 1
	}
}

// str reads a string in one pass, skipping runs of plain bytes eight at a time. A string
// without escapes is copied once; one with escapes is decoded straight into a buffer of
// its raw length (escapes only shrink), which becomes the string without a copy. Errors
// are reported at the byte where they are. Keys are interned.
func (p *parser) str(key bool) (string, error) {
	data := p.data
	start := p.pos + 1 // after the opening quote
	i := start
	var out strings.Builder
	escaped := false
	for {
		j := nextSpecial(data, i)
		if escaped {
			out.Write(data[i:j])
		}
		i = j
		if i >= len(data) {
			p.pos = len(data)
			return "", p.fail("unterminated string (truncated?)")
		}
		switch c := data[i]; {
		case c == '"':
			p.pos = i + 1
			switch {
			case escaped:
				return out.String(), nil
			case key:
				return internKey(data[start:i]), nil
			}
			return string(data[start:i]), nil
		case c == '\\':
			if i+1 >= len(data) {
				p.pos = i
				return "", p.fail("unterminated string (truncated?)")
			}
			if !escaped {
				escaped = true
				if end := closingQuote(data, i); end >= 0 {
					// Each escape shrinks by at least one byte and has at most two
					// backslashes: a bound that leaves almost no slack in the string.
					out.Grow(end - start - bytes.Count(data[i:end], []byte{'\\'})/2)
				}
				out.Write(data[start:i])
			}
			e := data[i+1]
			i += 2
			switch e {
			case '"', '\\', '/':
				out.WriteByte(e)
			case 'b':
				out.WriteByte('\b')
			case 'f':
				out.WriteByte('\f')
			case 'n':
				out.WriteByte('\n')
			case 'r':
				out.WriteByte('\r')
			case 't':
				out.WriteByte('\t')
			case 'u':
				r, ok := hex4(data, i)
				if !ok {
					p.pos = i
					return "", p.fail("invalid \\u escape")
				}
				i += 4
				if utf16.IsSurrogate(r) && r < 0xdc00 && i+6 <= len(data) && data[i] == '\\' && data[i+1] == 'u' {
					if r2, ok := hex4(data, i+2); ok && r2 >= 0xdc00 && r2 <= 0xdfff {
						out.WriteRune(utf16.DecodeRune(r, r2))
						i += 6
						continue
					}
				}
				if utf16.IsSurrogate(r) {
					writeSurrogate(&out, r)
				} else {
					out.WriteRune(r)
				}
			default:
				p.pos = i
				return "", p.fail(fmt.Sprintf("invalid escape \\%c", e))
			}
		case c < 0x20:
			p.pos = i
			return "", p.fail("control character inside a string")
		default: // a byte of a multi-byte character
			r, size := utf8.DecodeRune(data[i:])
			if r == utf8.RuneError && size <= 1 {
				p.pos = i
				return "", p.fail("invalid UTF-8 in a string")
			}
			if escaped {
				out.Write(data[i : i+size])
			}
			i += size
		}
	}
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

// internKey returns the keys of FORMAT.md's objects as constants: a folder has hundreds
// of thousands of them, and they need not be allocated one by one.
func internKey(b []byte) string {
	switch string(b) {
	case "id":
		return "id"
	case "type":
		return "type"
	case "conclusion":
		return "conclusion"
	case "hypothesis":
		return "hypothesis"
	case "preliminaries":
		return "preliminaries"
	case "status":
		return "status"
	case "reliability":
		return "reliability"
	case "stats":
		return "stats"
	case "count_usage":
		return "count_usage"
	case "progresses":
		return "progresses"
	case "proof":
		return "proof"
	case "cot":
		return "cot"
	case "full":
		return "full"
	case "ref":
		return "ref"
	case "validation":
		return "validation"
	case "issues":
		return "issues"
	case "responses":
		return "responses"
	case "objectives":
		return "objectives"
	case "priority":
		return "priority"
	case "summary":
		return "summary"
	case "solution":
		return "solution"
	case "creation":
		return "creation"
	case "modification":
		return "modification"
	case "current":
		return "current"
	}
	return string(b)
}

// writeSurrogate stores a lone surrogate as WTF-8 (ED A0..BF xx).
func writeSurrogate(b *strings.Builder, r rune) {
	b.WriteByte(0xe0 | byte(r>>12))
	b.WriteByte(0x80 | byte(r>>6)&0x3f)
	b.WriteByte(0x80 | byte(r)&0x3f)
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
		return append(b, pyNumber(v.Str)...)
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
				b = appendU(b, rune(c))
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size <= 1 {
			// A WTF-8 lone surrogate from the parser: ED A0..BF xx.
			if c == 0xed && i+2 < len(s) && s[i+1] >= 0xa0 && s[i+1] <= 0xbf && s[i+2]&0xc0 == 0x80 {
				b = appendU(b, rune(c&0x0f)<<12|rune(s[i+1]&0x3f)<<6|rune(s[i+2]&0x3f))
				i += 3
				continue
			}
			b = appendU(b, utf8.RuneError)
			i++
			continue
		}
		if r > 0xffff {
			r1, r2 := utf16.EncodeRune(r)
			b = appendU(b, r1)
			b = appendU(b, r2)
		} else {
			b = appendU(b, r)
		}
		i += size
	}
	return append(b, '"')
}

func appendU(b []byte, r rune) []byte {
	return append(b, '\\', 'u', hexDigits[r>>12&0xf], hexDigits[r>>8&0xf], hexDigits[r>>4&0xf], hexDigits[r&0xf])
}

// pyNumber prints a number literal the way Python would after json.load: integers as
// written (arbitrary size), floats as repr(float).
func pyNumber(lit string) string {
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
