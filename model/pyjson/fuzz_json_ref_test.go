package pyjson

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"unicode/utf8"
)

// FuzzParseMatchesReference: the fast parser reads every document as the reference
// parser did (json_ref_test.go): the same tree, or the same error at the same byte. The
// one deliberate difference is invalid UTF-8, which the reference let through before a
// string's first escape and reported at the closing quote; the fast parser rejects it
// wherever it is and reports the byte itself.
func FuzzParseMatchesReference(f *testing.F) {
	needShared(f)
	files, _ := filepath.Glob(filepath.Join(fixture, "*", "*.json"))
	for _, file := range files {
		if data, err := os.ReadFile(file); err == nil {
			f.Add(data)
		}
	}
	for _, s := range []string{
		`{"a": [1, 2.5e10, "\ud800", "\u00e9"]}`, `[[[[]]]]`, `{"a": NaN}`, `"\uDBFF\uDFFF"`, `-0.0`,
		`{"a":1,"a":2}`, `"abcdefgh\"ijklmnop\\qrstuvwx\u0041yz"`, `"long plain text without any escapes at all"`,
		`"bad \x escape"`, `"\u12"`, "\"tab\there\"", `"trailing \`, `"unterminated long string....`,
		`{"k1":1,"k2":2,"k3":3,"k4":4,"k5":5,"k6":6,"k7":7,"k8":8,"k9":9,"k10":10,"k11":11,"k12":12,"k13":13,"k14":14,"k15":15,"k16":16,"k17":17,"k1":18}`,
		`"caf\u00e9 ≤ \ud83d\ude00 \ud83d x"`, `{"id": "s-001", "sta`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		got, err := Parse(data)
		want, refErr := refParse(data)
		if !utf8.Valid(data) {
			if err == nil && refErr != nil {
				t.Fatalf("accepted what the reference refused: %v", refErr)
			}
			return
		}
		switch {
		case (err == nil) != (refErr == nil):
			t.Fatalf("error %v, the reference says %v", err, refErr)
		case err != nil && err.Error() != refErr.Error():
			t.Fatalf("error %q, the reference says %q", err, refErr)
		case err == nil && !reflect.DeepEqual(got, want):
			t.Fatalf("tree differs:\n got %#v\nwant %#v", got, want)
		}
	})
}

func TestParseInvalidUTF8AnywhereInAString(t *testing.T) {
	for _, in := range []string{"\"\xff\\n\"", "\"ab\\n\xffcd\"", "{\"k\xff\": 1}", "\"abcdefghijkl\xc3\""} {
		if _, err := Parse([]byte(in)); err == nil || err.(*SyntaxError).Msg != "invalid UTF-8 in a string" {
			t.Errorf("%q: %v", in, err)
		}
	}
	_, err := Parse([]byte("\"abc\xffdef\""))
	if se, ok := err.(*SyntaxError); !ok || se.Offset != 4 {
		t.Errorf("the error names byte %v, want 4 (the bad byte)", err)
	}
}
