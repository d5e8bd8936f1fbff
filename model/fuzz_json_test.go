package model

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"referee/model/pyjson"
)

// FuzzParse: the parser never panics, and what it accepts re-encodes to a fixed point
// (encode(parse(encode(v))) == encode(v)), so rewrites are stable.
func FuzzParse(f *testing.F) {
	needShared(f)
	files, _ := filepath.Glob(filepath.Join(fixture, "*", "*.json"))
	for _, file := range files {
		if data, err := os.ReadFile(file); err == nil {
			f.Add(data)
		}
	}
	for _, s := range []string{`{"a": [1, 2.5e10, "\ud800", "\u00e9"]}`, `[[[[]]]]`, `{"a": NaN}`, `"\uDBFF\uDFFF"`, `-0.0`, `{"a":1,"a":2}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		v, err := pyjson.Parse(data)
		if err != nil {
			return
		}
		once := pyjson.EncodeIndent(v)
		v2, err := pyjson.Parse(once)
		if err != nil {
			t.Fatalf("our own output does not parse: %v\n%s", err, once)
		}
		if twice := pyjson.EncodeIndent(v2); !bytes.Equal(once, twice) {
			t.Fatalf("not a fixed point:\n%s\n%s", once, twice)
		}
		line := pyjson.EncodeLine(v)
		if bytes.ContainsAny(line, "\n") {
			t.Fatalf("one-line encoding has a newline: %s", line)
		}
		// Typed views never panic on any shape.
		StatementFrom(v)
		ProblemFrom(v)
		ExperienceFrom(v)
		ConfigFrom(v)
	})
}
