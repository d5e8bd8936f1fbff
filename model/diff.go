package model

// FieldChange is one difference between two versions of an object, at a dotted path.
// A list that only grew has Appended set; anything else has Old and New (nil when the
// key is absent on that side).
type FieldChange struct {
	Path     string
	Old, New *Value
	Appended []Value
}

// DiffFields lists what changed from before to after, in the after object's key order,
// descending into nested objects ("proof.full", "validation.issues").
func DiffFields(before, after Value) []FieldChange {
	var out []FieldChange
	diffInto(&out, "", &before, &after)
	return out
}

func diffInto(out *[]FieldChange, path string, before, after *Value) {
	join := func(key string) string {
		if path == "" {
			return key
		}
		return path + "." + key
	}
	if before.Kind == Object && after.Kind == Object {
		for i := range after.Obj {
			m := &after.Obj[i]
			old, ok := before.Get(m.Key)
			if !ok {
				*out = append(*out, FieldChange{Path: join(m.Key), New: &m.Value})
				continue
			}
			diffInto(out, join(m.Key), old, &m.Value)
		}
		for i := range before.Obj {
			if _, ok := after.Get(before.Obj[i].Key); !ok {
				*out = append(*out, FieldChange{Path: join(before.Obj[i].Key), Old: &before.Obj[i].Value})
			}
		}
		return
	}
	if equalValues(before, after) {
		return
	}
	if before.Kind == Array && after.Kind == Array && len(after.Arr) > len(before.Arr) {
		prefix := true
		for i := range before.Arr {
			if !equalValues(&before.Arr[i], &after.Arr[i]) {
				prefix = false
				break
			}
		}
		if prefix {
			*out = append(*out, FieldChange{Path: path, Appended: after.Arr[len(before.Arr):]})
			return
		}
	}
	*out = append(*out, FieldChange{Path: path, Old: before, New: after})
}

func equalValues(a, b *Value) bool {
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
