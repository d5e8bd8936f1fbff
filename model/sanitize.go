package model

// Everything referee shows comes from files written by agents, so it may hold terminal
// escape sequences (colours, OSC 52 clipboard writes, OSC 8 links, window titles, DCS)
// or bidirectional overrides that make text read differently from what it is. Every
// string from a file passes through Sanitize (or SanitizeLine) before display.

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Sanitize makes agent text inert for a terminal: ESC and every C0 control except \n
// and \t, DEL, C1 controls (U+0080–U+009F) and bidi controls (U+202A–U+202E,
// U+2066–U+2069, U+200E, U+200F, U+061C) are replaced by visible stand-ins (C0 -> the
// control picture U+2400+c, e.g. ESC -> "␛", \r -> "␍"; DEL -> "␡"; the others ->
// "<U+XXXX>"); invalid UTF-8 bytes -> U+FFFD. A string that needs no change is returned
// as is, without allocating.
func Sanitize(s string) string { return sanitize(s, false) }

// SanitizeLine is Sanitize for one-line contexts (tree rows): \n and \t also become a
// space.
func SanitizeLine(s string) string { return sanitize(s, true) }

func sanitize(s string, oneLine bool) string {
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if _, change := standIn(r, size, oneLine); change {
			return sanitizeFrom(s, i, oneLine)
		}
		i += size
	}
	return s
}

// sanitizeFrom builds the sanitised string; s[:i] needs no change.
func sanitizeFrom(s string, i int, oneLine bool) string {
	var b strings.Builder
	b.Grow(len(s) + 16)
	b.WriteString(s[:i])
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		if rep, change := standIn(r, size, oneLine); change {
			b.WriteString(rep)
		} else {
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// standIn returns what replaces the rune r (size bytes long in the input), and whether
// it must be replaced.
func standIn(r rune, size int, oneLine bool) (string, bool) {
	switch {
	case r == utf8.RuneError && size == 1: // an invalid byte, not a real U+FFFD
		return "\uFFFD", true
	case r == '\n' || r == '\t':
		return " ", oneLine
	case r < 0x20:
		return string(0x2400 + r), true // control pictures: ␀ … ␟
	case r == 0x7f:
		return "\u2421", true // ␡
	case 0x80 <= r && r <= 0x9f, isBidiControl(r):
		return fmt.Sprintf("<U+%04X>", r), true
	}
	return "", false
}

func isBidiControl(r rune) bool {
	return 0x202a <= r && r <= 0x202e || 0x2066 <= r && r <= 0x2069 ||
		r == 0x200e || r == 0x200f || r == 0x061c
}
