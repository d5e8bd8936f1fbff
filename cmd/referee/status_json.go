package main

import (
	"bytes"
	"encoding/json"
	"slices"
	"strconv"

	"referee/model"
	"referee/store"
)

// statusJSON is writeJSON's text of a status, made without reflection: at 100k
// statements its next list is 100k objects, and encoding/json's encoder, its indenting
// pass over the whole text and InertJSON's rune by rune walk were a tenth of status's
// own work after the load, with as much again in buffers. A test holds it to writeJSON's
// bytes.
func statusJSON(st *store.Status) []byte {
	b := make([]byte, 0, 64+len(st.Next)*96)
	b = append(b, "{\n  \"vocabulary\": "...)
	b = appendJSONString(b, st.Vocabulary)
	b = append(b, ",\n  \"next\": "...)
	b = appendJSONList(b, st.Next, "  ", func(b []byte, n store.StatusNext) []byte {
		b = append(b, "{\n      \"id\": "...)
		b = appendJSONString(b, n.ID)
		b = append(b, ",\n      \"agent\": "...)
		b = appendJSONString(b, n.Agent)
		b = append(b, ",\n      \"depth\": "...)
		b = strconv.AppendInt(b, int64(n.Depth), 10)
		b = append(b, ",\n      \"blocks\": "...)
		b = strconv.AppendInt(b, int64(n.Blocks), 10)
		return append(b, "\n    }"...)
	})
	b = append(b, ",\n  \"counts\": "...)
	b = appendJSONMap(b, st.Counts, func(b []byte, n int) []byte { return strconv.AppendInt(b, int64(n), 10) })
	b = append(b, ",\n  \"problem_counts\": "...)
	b = appendJSONMap(b, st.ProblemCounts, func(b []byte, n int) []byte { return strconv.AppendInt(b, int64(n), 10) })
	b = append(b, ",\n  \"stale\": "...)
	b = appendJSONMap(b, st.Stale, appendJSONString)
	b = append(b, ",\n  \"orphans\": "...)
	b = appendJSONStrings(b, st.Orphans, "  ")
	b = append(b, ",\n  \"unreachable\": "...)
	b = appendJSONStrings(b, st.Unreachable, "  ")
	b = append(b, ",\n  \"dangling\": "...)
	b = appendJSONList(b, st.Dangling, "  ", func(b []byte, d store.StatusDangling) []byte {
		b = append(b, "{\n      \"from\": "...)
		b = appendJSONString(b, d.From)
		b = append(b, ",\n      \"to\": "...)
		b = appendJSONString(b, d.To)
		b = append(b, ",\n      \"kind\": "...)
		b = appendJSONString(b, d.Kind)
		return append(b, "\n    }"...)
	})
	b = append(b, ",\n  \"cycles\": "...)
	b = appendJSONList(b, st.Cycles, "  ", func(b []byte, c []string) []byte { return appendJSONStrings(b, c, "    ") })
	b = append(b, ",\n  \"unknown\": "...)
	b = appendJSONMap(b, st.Unknown, appendJSONString)
	b = append(b, ",\n  \"broken\": "...)
	b = strconv.AppendInt(b, int64(st.Broken), 10)
	return append(b, "\n}\n"...)
}

// appendJSONList appends a list whose key is at indent, each item written by item on a
// line of its own, one level deeper.
func appendJSONList[T any](b []byte, items []T, indent string, item func([]byte, T) []byte) []byte {
	if items == nil {
		return append(b, "null"...)
	}
	if len(items) == 0 {
		return append(b, "[]"...)
	}
	b = append(b, '[')
	for i, x := range items {
		if i > 0 {
			b = append(b, ',')
		}
		b = item(append(append(append(b, '\n'), indent...), "  "...), x)
	}
	return append(append(append(b, '\n'), indent...), ']')
}

// appendJSONStrings appends a list of strings whose key is at indent.
func appendJSONStrings(b []byte, items []string, indent string) []byte {
	return appendJSONList(b, items, indent, appendJSONString)
}

// appendJSONMap appends a map of the status's top level, its keys in order.
func appendJSONMap[V any](b []byte, m map[string]V, value func([]byte, V) []byte) []byte {
	if m == nil {
		return append(b, "null"...)
	}
	if len(m) == 0 {
		return append(b, "{}"...)
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	b = append(b, '{')
	for i, k := range keys {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, "\n    "...)
		b = appendJSONString(b, k)
		b = append(b, ": "...)
		b = value(b, m[k])
	}
	return append(b, "\n  }"...)
}

// appendJSONString appends s as writeJSON quotes it: as it is when it is printable
// ASCII with nothing to escape (IDs, agents, status words), else as encoding/json
// writes it (HTML left as is) and InertJSON then makes it.
func appendJSONString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' {
			var buf bytes.Buffer
			enc := json.NewEncoder(&buf)
			enc.SetEscapeHTML(false)
			if err := enc.Encode(s); err != nil {
				panic(err) // a string always encodes
			}
			return append(b, model.InertJSON(bytes.TrimSuffix(buf.Bytes(), []byte("\n")))...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}
