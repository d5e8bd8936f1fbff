package model

import (
	"strings"

	"github.com/aymanbagabas/go-udiff/lcs"

	"referee/model/pyjson"
)

// FieldDiff is one field that differs between two versions of an object: the one model
// of an object diff, which the change preview, time travel, `referee diff`, the activity
// list and consequences all read.
//
// Old, New and Appended are the change as values: a list that only grew has Appended (its
// new items); anything else has Old and New (nil where the key is absent on that side).
// DiffFields stops there. DiffObject adds the reader's view, exactly one shape by the
// field's kind: Added/Removed for a list of strings (notes, issues, responses,
// references), Lines for a text that spans lines (a proof), From/To for anything else (as
// text; a value that is not a string as its JSON). Only the reader's view is JSON.
type FieldDiff struct {
	Field   string     `json:"field"` // dotted path, e.g. "proof.full", "validation.issues"
	From    string     `json:"from,omitempty"`
	To      string     `json:"to,omitempty"`
	Added   []string   `json:"added,omitempty"`
	Removed []string   `json:"removed,omitempty"`
	Lines   []DiffLine `json:"lines,omitempty"`

	Old, New *pyjson.Value  `json:"-"`
	Appended []pyjson.Value `json:"-"`
}

// DiffLine is one line of a text diff: Op is "=" (kept), "-" (removed) or "+" (added).
type DiffLine struct {
	Op   string `json:"op"`
	Text string `json:"text"`
}

// DiffObject lists how after differs from before, field by field (DiffFields' order).
// An absent version is the zero Value: every field of the other shows as added or removed.
func DiffObject(before, after pyjson.Value) []FieldDiff {
	if before.Kind == pyjson.Null {
		before = pyjson.Obj()
	}
	if after.Kind == pyjson.Null {
		after = pyjson.Obj()
	}
	var out []FieldDiff
	for _, c := range DiffFields(before, after) {
		d := c
		var old, cur pyjson.Value
		if c.Old != nil {
			old = *c.Old
		}
		if c.New != nil {
			cur = *c.New
		}
		switch {
		case c.Old == nil && cur.Kind == pyjson.Object, c.New == nil && old.Kind == pyjson.Object:
			// A whole object added or dropped: its fields one by one.
			for _, sub := range DiffObject(old, cur) {
				sub.Field = c.Field + "." + sub.Field
				out = append(out, sub)
			}
			continue
		case c.Appended != nil:
			for _, v := range c.Appended {
				d.Added = append(d.Added, scalarText(&v))
			}
		case isStringList(&old) && isStringList(&cur):
			la, _ := old.StringList()
			lb, _ := cur.StringList()
			d.Added, d.Removed = listDiff(la, lb)
		case (old.Kind == pyjson.String || old.Kind == pyjson.Null) && (cur.Kind == pyjson.String || cur.Kind == pyjson.Null) &&
			(strings.Contains(old.Str, "\n") || strings.Contains(cur.Str, "\n")):
			d.Lines = DiffLines(old.Str, cur.Str)
		default:
			d.From, d.To = scalarText(&old), scalarText(&cur)
		}
		out = append(out, d)
	}
	return out
}

// isStringList is true for a list of strings and for an absent value (no list yet).
func isStringList(v *pyjson.Value) bool {
	if v.Kind == pyjson.Null {
		return true
	}
	_, ok := v.StringList()
	return ok
}

func scalarText(v *pyjson.Value) string {
	switch v.Kind {
	case pyjson.Null:
		return ""
	case pyjson.String:
		return v.Str
	}
	return string(pyjson.EncodeLine(*v))
}

// listDiff is what b adds to a and what it drops from a, as multisets, each in its own
// list's order: an item repeated once more counts as added once.
func listDiff(a, b []string) (added, removed []string) {
	left := func(from, minus []string) []string {
		count := map[string]int{}
		for _, s := range minus {
			count[s]++
		}
		var out []string
		for _, s := range from {
			if count[s] > 0 {
				count[s]--
			} else {
				out = append(out, s)
			}
		}
		return out
	}
	return left(b, a), left(a, b)
}

// DiffLines is all of texts a and b, line by line, each line kept, removed or added
// (a longest common subsequence of lines).
func DiffLines(a, b string) []DiffLine {
	la, lb := textLines(a), textLines(b)
	var out []DiffLine
	i := 0
	for _, d := range lcs.DiffLines(la, lb) {
		for ; i < d.Start; i++ {
			out = append(out, DiffLine{Op: "=", Text: la[i]})
		}
		for j := d.Start; j < d.End; j++ {
			out = append(out, DiffLine{Op: "-", Text: la[j]})
		}
		for j := d.ReplStart; j < d.ReplEnd; j++ {
			out = append(out, DiffLine{Op: "+", Text: lb[j]})
		}
		i = d.End
	}
	for ; i < len(la); i++ {
		out = append(out, DiffLine{Op: "=", Text: la[i]})
	}
	return out
}

// textLines splits a text at newlines; the empty text has no lines.
func textLines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

// DiffFields lists what changed from before to after as values (Old, New, Appended), in
// the after object's key order, descending into nested objects ("proof.full",
// "validation.issues"); an object added or removed whole is one FieldDiff. A change's
// preview shows these values (the workbench's confirm dialog).
func DiffFields(before, after pyjson.Value) []FieldDiff {
	var out []FieldDiff
	diffInto(&out, "", &before, &after)
	return out
}

func diffInto(out *[]FieldDiff, path string, before, after *pyjson.Value) {
	join := func(key string) string {
		if path == "" {
			return key
		}
		return path + "." + key
	}
	if before.Kind == pyjson.Object && after.Kind == pyjson.Object {
		for i := range after.Obj {
			m := &after.Obj[i]
			old, ok := before.Get(m.Key)
			if !ok {
				*out = append(*out, FieldDiff{Field: join(m.Key), New: &m.Value})
				continue
			}
			diffInto(out, join(m.Key), old, &m.Value)
		}
		for i := range before.Obj {
			if _, ok := after.Get(before.Obj[i].Key); !ok {
				*out = append(*out, FieldDiff{Field: join(before.Obj[i].Key), Old: &before.Obj[i].Value})
			}
		}
		return
	}
	if equalValues(before, after) {
		return
	}
	if before.Kind == pyjson.Array && after.Kind == pyjson.Array && len(after.Arr) > len(before.Arr) {
		prefix := true
		for i := range before.Arr {
			if !equalValues(&before.Arr[i], &after.Arr[i]) {
				prefix = false
				break
			}
		}
		if prefix {
			*out = append(*out, FieldDiff{Field: path, Appended: after.Arr[len(before.Arr):]})
			return
		}
	}
	*out = append(*out, FieldDiff{Field: path, Old: before, New: after})
}

func equalValues(a, b *pyjson.Value) bool {
	if a.Kind != b.Kind || a.Str != b.Str || len(a.Arr) != len(b.Arr) || len(a.Obj) != len(b.Obj) {
		return false
	}
	for i := range a.Arr {
		if !equalValues(&a.Arr[i], &b.Arr[i]) {
			return false
		}
	}
	for i := range a.Obj {
		if a.Obj[i].Key != b.Obj[i].Key || !equalValues(&a.Obj[i].Value, &b.Obj[i].Value) {
			return false
		}
	}
	return true
}
