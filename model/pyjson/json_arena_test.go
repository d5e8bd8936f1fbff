package pyjson

import (
	"reflect"
	"strings"
	"testing"
)

// The scanner reads strings sixteen bytes at a time and copies the word past a run's end:
// every special byte (escape, quote, control character, multi-byte character, the end of
// the file) at every offset from a word boundary, and every truncation of such a string,
// parses as the reference parser does: the same tree, or the same error at the same byte.
func TestParseStringsAtEveryOffset(t *testing.T) {
	specials := []string{`\\`, `\"`, `\n`, `\/`, `\u00e9`, `\ud83d\ude00`, `\ud800`, `\udc00x`, "é", "≤", "😀", "\t", "\x01", `\x`, `\u12`, "\xff", `"`}
	for _, special := range specials {
		for before := 0; before < 35; before++ {
			for _, after := range []int{0, 1, 7, 8, 9, 15, 16, 17, 33} {
				body := strings.Repeat("a", before) + special + strings.Repeat("b", after)
				for _, doc := range []string{
					`"` + body + `"`,
					`["` + body + `", "` + body + `"]`,
					`{"` + body + `": 1, "k": "` + body + `"}`,
				} {
					for end := len(doc); end >= len(doc)-len(body)-2 && end > 0; end-- {
						compareWithReference(t, doc[:end])
					}
				}
			}
		}
	}
}

func compareWithReference(t *testing.T, doc string) {
	t.Helper()
	got, err := Parse([]byte(doc))
	want, refErr := refParse([]byte(doc))
	switch {
	case strings.ContainsRune(doc, 0xfffd) || !validUTF8(doc):
		// The one deliberate difference (see FuzzParseMatchesReference): invalid UTF-8
		// is refused wherever it is.
		if err == nil && refErr != nil {
			t.Fatalf("%q: accepted what the reference refused: %v", doc, refErr)
		}
	case (err == nil) != (refErr == nil):
		t.Fatalf("%q: error %v, the reference says %v", doc, err, refErr)
	case err != nil && err.Error() != refErr.Error():
		t.Fatalf("%q: error %q, the reference says %q", doc, err, refErr)
	case err == nil && !reflect.DeepEqual(got, want):
		t.Fatalf("%q: tree differs:\n got %#v\nwant %#v", doc, got, want)
	}
}

func validUTF8(s string) bool { return strings.ToValidUTF8(s, "\x00") == s }

// A document's strings live in one arena and its lists and objects in shared slabs: the
// next document parsed (the scratch is reused) must not change them, and appending to one
// list or object must not write over its neighbour in the slab.
func TestParsedDocumentsStayIndependent(t *testing.T) {
	first, err := Parse([]byte(`{"a": ["x\ny", "z"], "b": ["w"], "odd key": {"c": "1.5e3"}, "n": 12}`))
	if err != nil {
		t.Fatal(err)
	}
	want := string(EncodeLine(first))
	for range 3 {
		if _, err := Parse([]byte(`{"a": ["XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX", "\u00e9\u00e9\u00e9"], "zz": 99999}`)); err != nil {
			t.Fatal(err)
		}
	}
	if got := string(EncodeLine(first)); got != want {
		t.Fatalf("a later parse changed the first document:\n got %s\nwant %s", got, want)
	}
	a, _ := first.Get("a")
	a.Arr = append(a.Arr, Str("appended"))
	first.Set("new", Str("member"))
	b, _ := first.Get("b")
	if got := string(EncodeLine(*b)); got != `["w"]` {
		t.Fatalf("appending to a list changed its neighbour: b = %s", got)
	}
	if got := string(EncodeLine(first)); got != `{"a": ["x\ny", "z", "appended"], "b": ["w"], "odd key": {"c": "1.5e3"}, "n": 12, "new": "member"}` {
		t.Fatalf("after the appends: %s", got)
	}
}

// A document costs three allocations: the arena and the two slabs.
func TestParseAllocatesPerDocumentNotPerValue(t *testing.T) {
	doc := []byte(`{"id": "s-001", "conclusion": ["one \\alpha", "two"], "proof": {"cot": [], "full": "x\\ny", "ref": ["s-002"]}, "other": [1, 2.5, true, null, {"k": "v"}]}`)
	if raceEnabled {
		t.Skip("the race detector drops sync.Pool items at random")
	}
	Parse(doc) // the pool's parser and its scratch
	if n := testing.AllocsPerRun(100, func() { Parse(doc) }); n > 3 {
		t.Fatalf("%v allocations per parse, want at most 3", n)
	}
}
