package pyjson

import (
	"bytes"
	"testing"
)

// scanSeeds are strings and numbers of every kind the scan meets: plain runs longer and
// shorter than a word, each escape, surrogates paired and alone, multi-byte characters
// good and bad, control bytes, ends missing.
var scanSeeds = []string{
	`""`, `"a"`, `"abcdefgh"`, `"abcdefghijklmnopq"`, `"abc\"def"`, `"\\"`, `"\\\\\"`, `"\/\b\f\n\r\t"`,
	`"\u00e9\u00E9"`, `"\ud83d\ude00"`, `"\ud800"`, `"\udc00\ud800x"`, `"\ud800\u0041"`, `"\u12"`, `"\u12g4"`,
	`"\q"`, `"\`, `"abc`, `"abcdefghijklmnopqrstuvwxyz`, "\"tab\there\"", "\"x\x7fy\"", "\"caf\xc3\xa9\"",
	"\"\xff\"", "\"abcdefgh\xc3\"", "\"\xed\xa0\x80\"", "\"\xef\xbf\xbd\"", "\"é is ≤ 😀 long enough to span words\"",
	`0`, `-0`, `12`, `01`, `-`, `1.5`, `1.`, `1.e3`, `2e10`, `2E+10`, `2e-`, `-1.25e-3`, `NaN`, `-Infinity`, `1.0`, `0.0`,
}

// FuzzScanAsParse: ScanString accepts a string where Parse does, ends it where Parse
// does, and AppendString decodes it to Parse's text (asIs: its bytes as written);
// StringEnd finds the same end; a number ScanNumber takes is one Parse reads alike.
func FuzzScanAsParse(f *testing.F) {
	for _, s := range scanSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) == 0 {
			return
		}
		if data[0] != '"' {
			end, ok := ScanNumber(data, 0)
			if !ok {
				return
			}
			v, err := Parse(data[:end])
			if err != nil || v.Kind != Number || v.Str != string(data[:end]) {
				t.Fatalf("ScanNumber takes %q, Parse reads %#v, %v", data[:end], v, err)
			}
			return
		}
		v, err := Parse(data)
		end, asIs, ok := ScanString(data, 0)
		if !ok {
			if err == nil {
				t.Fatalf("ScanString refuses what Parse reads: %q", v.Str)
			}
			return
		}
		whole, err := Parse(data[:end+1])
		if err != nil {
			t.Fatalf("ScanString takes %q to byte %d, Parse says %v", data, end, err)
		}
		if got := string(AppendString([]byte("x"), data, 0, end)); got != "x"+whole.Str {
			t.Fatalf("AppendString gives %q, Parse %q", got[1:], whole.Str)
		}
		if asIs && !bytes.Equal(data[1:end], []byte(whole.Str)) {
			t.Fatalf("as is, but Parse reads %q from %q", whole.Str, data[1:end])
		}
		if e, ok := StringEnd(data, 0); !ok || e != end {
			t.Fatalf("StringEnd %d, %v; ScanString %d", e, ok, end)
		}
	})
}

func TestScanSpace(t *testing.T) {
	for in, want := range map[string]int{"": 0, "x": 0, " \t\r\nx": 4, "\n" + "                x": 17, "\n   \n        \t x": 15} {
		if got := SkipSpace([]byte(in), 0); got != want {
			t.Errorf("SkipSpace(%q) = %d, want %d", in, got, want)
		}
	}
}
