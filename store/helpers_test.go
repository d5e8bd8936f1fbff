package store

import "referee/model"

// appendStr appends s to doc's list under key, as the agents' scripts append a note.
func appendStr(doc *model.Value, key, s string) {
	if v, ok := doc.Get(key); ok && v.Kind == model.Array {
		v.Arr = append(v.Arr, model.Str(s))
		return
	}
	doc.Set(key, model.Strs([]string{s}))
}
