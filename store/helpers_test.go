package store

import "referee/model/pyjson"

// appendStr appends s to doc's list under key, as the agents' scripts append a note.
func appendStr(doc *pyjson.Value, key, s string) {
	if v, ok := doc.Get(key); ok && v.Kind == pyjson.Array {
		v.Arr = append(v.Arr, pyjson.Str(s))
		return
	}
	doc.Set(key, pyjson.Strs([]string{s}))
}
