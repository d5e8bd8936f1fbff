package pyjson

// A scan reads a document's tokens in place, for a reader that knows the document's shape
// and keeps little of it (model's skimmed statements): it checks what it passes as Parse
// checks it, but builds nothing, and says only whether Parse would accept the token,
// never why not. Such a reader falls back to Parse (or ParseTree) for anything it does not
// expect, a fault included, so its errors are Parse's.

import (
	"bytes"
	"encoding/binary"
	"math/bits"
	"unicode/utf8"
)

// SkipSpace is the index of the first byte at or after i that is not white space as
// Parse skips it.
func SkipSpace(data []byte, i int) int {
	for i < len(data) {
		switch data[i] {
		case '\n':
			i++
			// json.dumps(indent=4) starts every line with spaces: skip them eight at a time.
			for i+8 <= len(data) && binary.LittleEndian.Uint64(data[i:]) == ones*' ' {
				i += 8
			}
		case ' ', '\t', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// ScanString checks the string whose opening quote is data[at] as Parse checks a string,
// without decoding it: end is the index of its closing quote, and asIs says that its
// text is the bytes between the quotes as written (no escape, ASCII only). ok is false
// where Parse fails. Runs of plain bytes are checked eight bytes at a time.
func ScanString(data []byte, at int) (end int, asIs, ok bool) {
	asIs = true
	i := at + 1
	for {
		for i+8 <= len(data) {
			if m := specials(binary.LittleEndian.Uint64(data[i:])); m != 0 {
				i += bits.TrailingZeros64(m) >> 3
				goto special
			}
			i += 8
		}
		for i < len(data) && plain[data[i]] {
			i++
		}
		if i >= len(data) {
			return 0, false, false // unterminated
		}
	special:
		switch c := data[i]; {
		case c == '"':
			return i, asIs, true
		case c == '\\':
			if i+1 >= len(data) {
				return 0, false, false
			}
			asIs = false
			if unescape[data[i+1]] != 0 {
				i += 2
				continue
			}
			if _, ok := hex4(data, i+2); !ok || data[i+1] != 'u' {
				return 0, false, false
			}
			i += 6 // a surrogate pair is two escapes, each checked alike
		case c < 0x20:
			return 0, false, false
		default: // a byte of a multi-byte character
			r, size := utf8.DecodeRune(data[i:])
			if r == utf8.RuneError && size <= 1 {
				return 0, false, false
			}
			asIs = false
			i += size
		}
	}
}

// AppendString appends the text of the string data[at:end+1], which ScanString accepted
// (end is its closing quote), decoded as Parse decodes it: escapes replaced, a lone
// surrogate kept as its 3-byte WTF-8 form.
func AppendString(dst, data []byte, at, end int) []byte {
	for i := at + 1; i < end; {
		c := data[i]
		if c != '\\' {
			j := end
			if k := bytes.IndexByte(data[i+1:end], '\\'); k >= 0 {
				j = i + 1 + k
			}
			dst = append(dst, data[i:j]...) // ScanString checked the characters
			i = j
			continue
		}
		e := data[i+1]
		i += 2
		if d := unescape[e]; d != 0 {
			dst = append(dst, d)
			continue
		}
		r, _ := hex4(data, i) // \u: ScanString checked it
		r, i = pairUp(data, r, i+4)
		dst = appendEscaped(dst, r)
	}
	return dst
}

// StringEnd is the index of the closing quote of the string whose opening quote is
// data[at], found without checking or decoding the bytes before it (a quote ends the
// string unless an odd number of backslashes precede it), as a tree parse finds its lazy
// string (Lazy); ok is false if none does. For a string Parse accepts, it is the quote
// Parse ends it at.
func StringEnd(data []byte, at int) (end int, ok bool) {
	p := parser{data: data, pos: at}
	end, err := p.stringEnd()
	return end, err == nil
}

// ScanNumber checks the number at data[at] as Parse reads one, and says where it ends.
// It takes only the plain forms (digits, a fraction, an exponent; not NaN or
// Infinity): ok is false for any other. Whether the byte after it may follow a value is
// the caller's to check.
func ScanNumber(data []byte, at int) (end int, ok bool) {
	i := at
	if i < len(data) && data[i] == '-' {
		i++
	}
	digits := func() int {
		n := 0
		for i < len(data) && data[i] >= '0' && data[i] <= '9' {
			i++
			n++
		}
		return n
	}
	start := i
	if digits() == 0 || data[start] == '0' && i-start > 1 {
		return 0, false
	}
	if i < len(data) && data[i] == '.' {
		i++
		if digits() == 0 {
			return 0, false
		}
	}
	if i < len(data) && (data[i] == 'e' || data[i] == 'E') {
		i++
		if i < len(data) && (data[i] == '+' || data[i] == '-') {
			i++
		}
		if digits() == 0 {
			return 0, false
		}
	}
	return i, true
}
