package model

import (
	"reflect"
	"strings"
	"testing"

	"referee/model/pyjson"
)

func mustParse(t *testing.T, s string) pyjson.Value {
	t.Helper()
	v, err := pyjson.Parse([]byte(s))
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestDiffObject(t *testing.T) {
	before := mustParse(t, `{"id": "s-1", "status": "has_gap", "reliability": 0.0, "preliminaries": ["s-2", "s-3"],
		"proof": {"full": "Step 1: a.\nStep 2: b.\nStep 3: c.\nQED.", "ref": []},
		"validation": {"issues": ["[Issue #1] x"], "responses": []}}`)
	after := mustParse(t, `{"id": "s-1", "status": "awaiting_verification", "reliability": 0.0, "preliminaries": ["s-3", "s-4"],
		"proof": {"full": "Step 1: a.\nStep 2: b, now justified.\nStep 3: c.\nQED.", "ref": ["s-4"]},
		"validation": {"issues": ["[Issue #1] x"], "responses": ["[Response #1] Fixes Issue #1 | Type: patch | Change: y"]}}`)
	got := readerView(DiffObject(before, after))
	want := []FieldDiff{
		{Field: "status", From: "has_gap", To: "awaiting_verification"},
		{Field: "preliminaries", Added: []string{"s-4"}, Removed: []string{"s-2"}},
		{Field: "proof.full", Lines: []DiffLine{{"=", "Step 1: a."}, {"-", "Step 2: b."}, {"+", "Step 2: b, now justified."}, {"=", "Step 3: c."}, {"=", "QED."}}},
		{Field: "proof.ref", Added: []string{"s-4"}},
		{Field: "validation.responses", Added: []string{"[Response #1] Fixes Issue #1 | Type: patch | Change: y"}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("diff\n got %+v\nwant %+v", got, want)
	}
	if d := DiffObject(after, after); d != nil {
		t.Errorf("an object differs from itself: %+v", d)
	}
	// Created: every field is new; a number shows as its JSON text.
	created := readerView(DiffObject(pyjson.Value{}, mustParse(t, `{"id": "s-9", "reliability": 1.0, "proof": {"full": "one\ntwo"}}`)))
	wantCreated := []FieldDiff{{Field: "id", To: "s-9"}, {Field: "reliability", To: "1.0"},
		{Field: "proof.full", Lines: []DiffLine{{"+", "one"}, {"+", "two"}}}}
	if !reflect.DeepEqual(created, wantCreated) {
		t.Errorf("created\n got %+v\nwant %+v", created, wantCreated)
	}
	// A repeated item counts once more.
	if a, r := listDiff([]string{"x", "y"}, []string{"x", "y", "x"}); !reflect.DeepEqual(a, []string{"x"}) || r != nil {
		t.Errorf("listDiff %q %q", a, r)
	}
}

// readerView is ds with the values left out: what a reader sees (and the JSON holds).
func readerView(ds []FieldDiff) []FieldDiff {
	for i := range ds {
		ds[i].Old, ds[i].New, ds[i].Appended = nil, nil, nil
	}
	return ds
}

func TestDiffLines(t *testing.T) {
	if got := DiffLines("", ""); got != nil {
		t.Errorf("empty: %v", got)
	}
	got := DiffLines("a\nb", "")
	if !reflect.DeepEqual(got, []DiffLine{{"-", "a"}, {"-", "b"}}) {
		t.Errorf("removed: %v", got)
	}
}

func TestDiffFields(t *testing.T) {
	before, _ := pyjson.Parse([]byte(`{"id": "s-1", "status": "awaiting_verification", "reliability": 0.0, "progresses": ["PROOF: x"], "proof": {"full": "a", "ref": ["s-2"]}, "gone": 1}`))
	after, _ := pyjson.Parse([]byte(`{"id": "s-1", "status": "true", "reliability": 1.0, "progresses": ["PROOF: x", "VERIFIED: y"], "proof": {"full": "b", "ref": []}, "extra": "e"}`))
	var got []string
	for _, c := range DiffFields(before, after) {
		switch {
		case c.Appended != nil:
			got = append(got, c.Field+" += "+string(pyjson.EncodeLine(pyjson.Value{Kind: pyjson.Array, Arr: c.Appended})))
		case c.Old == nil:
			got = append(got, c.Field+" new "+string(pyjson.EncodeLine(*c.New)))
		case c.New == nil:
			got = append(got, c.Field+" removed")
		default:
			got = append(got, c.Field+": "+string(pyjson.EncodeLine(*c.Old))+" -> "+string(pyjson.EncodeLine(*c.New)))
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
