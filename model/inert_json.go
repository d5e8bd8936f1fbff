package model

import (
	"unicode/utf8"

	"referee/model/pyjson"
)

// InertJSON makes JSON text safe to print on a terminal without changing the data it
// holds. encoding/json escapes C0 controls but leaves DEL, C1 controls (U+0080–U+009F,
// which some terminals act on) and bidi controls (which reorder what is shown) as they
// are. Outside strings JSON is ASCII, so these can only be inside strings, where
// \uXXXX stands for the same character. b is returned as is when nothing needs escaping.
func InertJSON(b []byte) []byte {
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if inertEscape(r) {
			return inertJSONFrom(b, i)
		}
		i += size
	}
	return b
}

func inertEscape(r rune) bool { return r == 0x7f || 0x80 <= r && r <= 0x9f || isBidiControl(r) }

func inertJSONFrom(b []byte, i int) []byte {
	out := make([]byte, 0, len(b)+16)
	out = append(out, b[:i]...)
	for i < len(b) {
		r, size := utf8.DecodeRune(b[i:])
		if inertEscape(r) {
			out = pyjson.AppendEscape(out, r)
		} else {
			out = append(out, b[i:i+size]...)
		}
		i += size
	}
	return out
}
