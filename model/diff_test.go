package model

import (
	"strings"
	"testing"
)

func TestDiffFields(t *testing.T) {
	before, _ := Parse([]byte(`{"id": "s-1", "status": "awaiting_verification", "reliability": 0.0, "progresses": ["PROOF: x"], "proof": {"full": "a", "ref": ["s-2"]}, "gone": 1}`))
	after, _ := Parse([]byte(`{"id": "s-1", "status": "true", "reliability": 1.0, "progresses": ["PROOF: x", "VERIFIED: y"], "proof": {"full": "b", "ref": []}, "extra": "e"}`))
	var got []string
	for _, c := range DiffFields(before, after) {
		switch {
		case c.Appended != nil:
			got = append(got, c.Path+" += "+string(EncodeLine(Value{Kind: Array, Arr: c.Appended})))
		case c.Old == nil:
			got = append(got, c.Path+" new "+string(EncodeLine(*c.New)))
		case c.New == nil:
			got = append(got, c.Path+" removed")
		default:
			got = append(got, c.Path+": "+string(EncodeLine(*c.Old))+" -> "+string(EncodeLine(*c.New)))
		}
	}
	want := `status: "awaiting_verification" -> "true"
reliability: 0.0 -> 1.0
progresses += ["VERIFIED: y"]
proof.full: "a" -> "b"
proof.ref: ["s-2"] -> []
extra new "e"
gone removed`
	if strings.Join(got, "\n") != want {
		t.Errorf("got\n%s", strings.Join(got, "\n"))
	}
	if len(DiffFields(before, before)) != 0 {
		t.Error("an object differs from itself")
	}
}
