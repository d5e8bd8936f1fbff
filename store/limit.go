package store

import (
	"fmt"

	"referee/model/pyjson"
)

// One limit on every path: what the readers refuse (an object file over MaxObjectSize),
// no writer creates.

// checkObjectSize refuses an object that would be written over MaxObjectSize, naming the
// field that holds most of it.
func checkObjectSize(skill, id string, doc pyjson.Value, data []byte) error {
	if len(data) <= writeLimit {
		return nil
	}
	field := largestField(doc)
	limit := fmt.Sprintf("%d bytes", writeLimit)
	if writeLimit%(1<<20) == 0 {
		limit = fmt.Sprintf("%d MiB (%d bytes)", writeLimit>>20, writeLimit)
	}
	return inputf("%s: %s would be %d bytes, over the %s an object file may have; its largest field is %s (%d bytes); nothing was changed",
		skill, id, len(data), limit, field.path, field.size)
}

// writeLimit is MaxObjectSize; tests lower it to try the refusal without 64 MiB objects.
var writeLimit = MaxObjectSize

type fieldSize struct {
	path string
	size int
}

// largestField is the path (a.b[3]) of the biggest leaf or list inside v, the way a
// user would look for it: down the biggest member at each level.
func largestField(v pyjson.Value) fieldSize {
	path := ""
	for {
		switch v.Kind {
		case pyjson.Object:
			if len(v.Obj) == 0 {
				return fieldSize{path, valueSize(v)}
			}
			best := 0
			for i := range v.Obj {
				if valueSize(v.Obj[i].Value) > valueSize(v.Obj[best].Value) {
					best = i
				}
			}
			if path != "" {
				path += "."
			}
			path += v.Obj[best].Key
			v = v.Obj[best].Value
		case pyjson.Array:
			if len(v.Arr) == 0 {
				return fieldSize{path, valueSize(v)}
			}
			best := 0
			for i := range v.Arr {
				if valueSize(v.Arr[i]) > valueSize(v.Arr[best]) {
					best = i
				}
			}
			// A list of many items is itself the field; one big item is named.
			if valueSize(v.Arr[best])*2 < valueSize(v) {
				return fieldSize{path, valueSize(v)}
			}
			path += fmt.Sprintf("[%d]", best)
			v = v.Arr[best]
		default:
			return fieldSize{path, valueSize(v)}
		}
	}
}

// valueSize is about how many bytes v takes in a file (its strings, and a little for
// the rest): enough to compare fields.
func valueSize(v pyjson.Value) int {
	n := len(v.Str) + 2
	for _, a := range v.Arr {
		n += valueSize(a) + 1
	}
	for _, m := range v.Obj {
		n += len(m.Key) + 3 + valueSize(m.Value)
	}
	return n
}
