package model

import (
	"testing"
	"unsafe"
)

func TestSanitize(t *testing.T) {
	tests := []struct {
		name, in, want, line string
	}{
		{"plain", "Step 1: x = 1.", "Step 1: x = 1.", "Step 1: x = 1."},
		{"newline and tab", "a\n\tb", "a\n\tb", "a  b"},
		{"unicode text", "∀ε>0 “quoted” é 日本 \uFFFD", "∀ε>0 “quoted” é 日本 \uFFFD", "∀ε>0 “quoted” é 日本 \uFFFD"},
		{"CSI colour", "\x1b[31mred\x1b[0m", "␛[31mred␛[0m", "␛[31mred␛[0m"},
		{"OSC 52 clipboard", "\x1b]52;c;ZWNobyBoaQ==\x07", "␛]52;c;ZWNobyBoaQ==␇", "␛]52;c;ZWNobyBoaQ==␇"},
		{"OSC 8 hyperlink", "\x1b]8;;https://evil.example\x1b\\click\x1b]8;;\x1b\\", "␛]8;;https://evil.example␛\\click␛]8;;␛\\", "␛]8;;https://evil.example␛\\click␛]8;;␛\\"},
		{"OSC 0 title", "\x1b]0;pwned\x07", "␛]0;pwned␇", "␛]0;pwned␇"},
		{"DCS", "\x1bP1$r\x1b\\", "␛P1$r␛\\", "␛P1$r␛\\"},
		{"8-bit CSI and other C1", "\u009b31m\u0085\u009d", "<U+009B>31m<U+0085><U+009D>", "<U+009B>31m<U+0085><U+009D>"},
		{"bidi overrides", "a\u202eevil\u202cb\u2066c\u2069\u200e\u200f\u061c", "a<U+202E>evil<U+202C>b<U+2066>c<U+2069><U+200E><U+200F><U+061C>", "a<U+202E>evil<U+202C>b<U+2066>c<U+2069><U+200E><U+200F><U+061C>"},
		{"NUL, CR, DEL, other C0", "\x00\r\x7f\x01\x1f\x08", "␀␍␡␁␟␈", "␀␍␡␁␟␈"},
		{"CRLF", "a\r\nb", "a␍\nb", "a␍ b"},
		{"invalid UTF-8", "a\xffb\xc3", "a\uFFFDb\uFFFD", "a\uFFFDb\uFFFD"},
		{"8-bit CSI as a raw byte", "\x9b31m", "\uFFFD31m", "\uFFFD31m"},
		{"empty", "", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Sanitize(tt.in); got != tt.want {
				t.Errorf("Sanitize(%q) = %q, want %q", tt.in, got, tt.want)
			}
			if got := SanitizeLine(tt.in); got != tt.line {
				t.Errorf("SanitizeLine(%q) = %q, want %q", tt.in, got, tt.line)
			}
		})
	}
}

func TestSanitizeReturnsCleanInputAsIs(t *testing.T) {
	in := "Step 2: Check Olivia's statement \"Alice and I have the same role.\"\n∀x"
	out := Sanitize(in)
	if unsafe.StringData(out) != unsafe.StringData(in) {
		t.Error("Sanitize copied a string that needed no change")
	}
	if n := testing.AllocsPerRun(100, func() { out = Sanitize(in) }); n != 0 {
		t.Errorf("Sanitize allocated %v times on clean input", n)
	}
	line := "no newline here"
	if n := testing.AllocsPerRun(100, func() { out = SanitizeLine(line) }); n != 0 {
		t.Errorf("SanitizeLine allocated %v times on clean input", n)
	}
}
