package pyjson

// The parser as it was before it was rewritten for speed: the reference the fast one is
// checked against (FuzzParseMatchesReference). Kept verbatim but for the names; a change
// to what Parse accepts or says must be made here too.

import (
	"fmt"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// refParse decodes one JSON document with the leniencies of Python's json.load
// (NaN, Infinity, -Infinity; duplicate keys keep their first position and last value)
// and its strictness (no control characters inside strings, valid UTF-8 only).
func refParse(data []byte) (Value, error) {
	p := refParser{data: data}
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

type refParser struct {
	data []byte
	pos  int
}

func (p *refParser) fail(msg string) error {
	line := 1
	for _, c := range p.data[:min(p.pos, len(p.data))] {
		if c == '\n' {
			line++
		}
	}
	return &SyntaxError{Offset: p.pos, Line: line, Msg: msg}
}

func (p *refParser) space() {
	for p.pos < len(p.data) {
		switch p.data[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

func (p *refParser) value(depth int) (Value, error) {
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
		s, err := p.str()
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
		r, size := utf8.DecodeRune(p.data[p.pos:])
		if r == utf8.RuneError && size <= 1 {
			return Value{}, p.fail(fmt.Sprintf("unexpected byte 0x%02x (not UTF-8 text)", c))
		}
		return Value{}, p.fail(fmt.Sprintf("unexpected character %q", r))
	}
}

func (p *refParser) literal(word string, v Value) (Value, error) {
	if len(p.data)-p.pos >= len(word) && string(p.data[p.pos:p.pos+len(word)]) == word {
		p.pos += len(word)
		return v, nil
	}
	return Value{}, p.fail("invalid literal (expected " + word + ")")
}

func (p *refParser) number() (Value, error) {
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
	return Value{Kind: Number, Str: string(p.data[start:p.pos])}, nil
}

func (p *refParser) array(depth int) (Value, error) {
	p.pos++ // [
	v := Value{Kind: Array}
	p.space()
	if p.pos < len(p.data) && p.data[p.pos] == ']' {
		p.pos++
		v.Arr = []Value{}
		return v, nil
	}
	for {
		p.space()
		item, err := p.value(depth + 1)
		if err != nil {
			return Value{}, err
		}
		v.Arr = append(v.Arr, item)
		p.space()
		if p.pos >= len(p.data) {
			return Value{}, p.fail("unexpected end of file inside a list (truncated?)")
		}
		switch p.data[p.pos] {
		case ',':
			p.pos++
		case ']':
			p.pos++
			return v, nil
		default:
			return Value{}, p.fail("expected ',' or ']' in a list")
		}
	}
}

func (p *refParser) object(depth int) (Value, error) {
	p.pos++ // {
	v := Value{Kind: Object}
	p.space()
	if p.pos < len(p.data) && p.data[p.pos] == '}' {
		p.pos++
		v.Obj = []Member{}
		return v, nil
	}
	var index map[string]int // built only for large objects with duplicate checks
	for {
		p.space()
		if p.pos >= len(p.data) {
			return Value{}, p.fail("unexpected end of file inside an object (truncated?)")
		}
		if p.data[p.pos] != '"' {
			return Value{}, p.fail("expected a quoted key")
		}
		key, err := p.str()
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
		dup := -1
		if index != nil {
			if i, ok := index[key]; ok {
				dup = i
			}
		} else {
			for i := range v.Obj {
				if v.Obj[i].Key == key {
					dup = i
					break
				}
			}
		}
		if dup >= 0 {
			v.Obj[dup].Value = val
		} else {
			v.Obj = append(v.Obj, Member{Key: key, Value: val})
			if index != nil {
				index[key] = len(v.Obj) - 1
			} else if len(v.Obj) > 16 {
				index = make(map[string]int, 32)
				for i := range v.Obj {
					index[v.Obj[i].Key] = i
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
			return v, nil
		default:
			return Value{}, p.fail("expected ',' or '}' in an object")
		}
	}
}

func (p *refParser) str() (string, error) {
	p.pos++ // opening quote
	start := p.pos
	// Fast path: no escapes, plain ASCII or valid UTF-8.
	for p.pos < len(p.data) {
		c := p.data[p.pos]
		if c == '"' {
			s := p.data[start:p.pos]
			if !utf8.Valid(s) {
				return "", p.fail("invalid UTF-8 in a string")
			}
			p.pos++
			return string(s), nil
		}
		if c == '\\' {
			break
		}
		if c < 0x20 {
			return "", p.fail("control character inside a string")
		}
		p.pos++
	}
	var b strings.Builder
	b.Write(p.data[start:p.pos])
	for {
		if p.pos >= len(p.data) {
			return "", p.fail("unterminated string (truncated?)")
		}
		c := p.data[p.pos]
		switch {
		case c == '"':
			p.pos++
			s := b.String()
			return s, nil
		case c < 0x20:
			return "", p.fail("control character inside a string")
		case c == '\\':
			if p.pos+1 >= len(p.data) {
				return "", p.fail("unterminated string (truncated?)")
			}
			e := p.data[p.pos+1]
			p.pos += 2
			switch e {
			case '"', '\\', '/':
				b.WriteByte(e)
			case 'b':
				b.WriteByte('\b')
			case 'f':
				b.WriteByte('\f')
			case 'n':
				b.WriteByte('\n')
			case 'r':
				b.WriteByte('\r')
			case 't':
				b.WriteByte('\t')
			case 'u':
				r, ok := p.hex4()
				if !ok {
					return "", p.fail("invalid \\u escape")
				}
				if utf16.IsSurrogate(r) && r < 0xdc00 && p.pos+6 <= len(p.data) && p.data[p.pos] == '\\' && p.data[p.pos+1] == 'u' {
					save := p.pos
					p.pos += 2
					if r2, ok := p.hex4(); ok && r2 >= 0xdc00 && r2 <= 0xdfff {
						b.WriteRune(utf16.DecodeRune(r, r2))
						continue
					}
					p.pos = save
				}
				if utf16.IsSurrogate(r) {
					writeSurrogate(&b, r)
				} else {
					b.WriteRune(r)
				}
			default:
				return "", p.fail(fmt.Sprintf("invalid escape \\%c", e))
			}
		default:
			r, size := utf8.DecodeRune(p.data[p.pos:])
			if r == utf8.RuneError && size <= 1 {
				return "", p.fail("invalid UTF-8 in a string")
			}
			b.Write(p.data[p.pos : p.pos+size])
			p.pos += size
		}
	}
}

func (p *refParser) hex4() (rune, bool) {
	if p.pos+4 > len(p.data) {
		return 0, false
	}
	var r rune
	for _, c := range p.data[p.pos : p.pos+4] {
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
	p.pos += 4
	return r, true
}
