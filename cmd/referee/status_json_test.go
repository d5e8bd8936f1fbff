package main

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"referee/internal/testutil"
	"referee/model"
	"referee/store"
)

// checkStatusJSON: statusJSON prints what writeJSON prints, to the byte.
func checkStatusJSON(t *testing.T, st *store.Status) {
	t.Helper()
	var want bytes.Buffer
	if err := (&app{stdout: &want}).writeJSON(st); err != nil {
		t.Fatal(err)
	}
	if got := statusJSON(st); !bytes.Equal(got, want.Bytes()) {
		i := 0
		for i < len(got) && i < want.Len() && got[i] == want.Bytes()[i] {
			i++
		}
		t.Fatalf("statusJSON differs from writeJSON at byte %d:\n got %q\nwant %q", i, got[max(0, i-40):min(len(got), i+40)], want.Bytes()[max(0, i-40):min(want.Len(), i+40)])
	}
}

// TestStatusJSONAsWriteJSON: on the demo's status, on every shape of a status (nil and
// empty lists and maps, one item and more, nested cycles) and on hostile text in every
// string (quotes, backslashes, controls, DEL, C1 and bidi controls, invalid UTF-8, HTML).
func TestStatusJSONAsWriteJSON(t *testing.T) {
	snap, err := store.LoadStatus(testutil.DemoDir())
	if err != nil {
		t.Fatal(err)
	}
	demo := store.StatusOf(snap, model.DeriveStatus(snap))
	if len(demo.Next) == 0 {
		t.Fatal("the demo has nothing next")
	}
	checkStatusJSON(t, demo)
	checkStatusJSON(t, &store.Status{})
	checkStatusJSON(t, &store.Status{Next: []store.StatusNext{}, Counts: map[string]int{}, ProblemCounts: map[string]int{}, Stale: map[string]string{},
		Orphans: []string{}, Unreachable: []string{}, Dangling: []store.StatusDangling{}, Cycles: [][]string{}, Unknown: map[string]string{}})
	texts := []string{"", "s-001", "a \"quoted\" \\ word", "tab\there\nline\r\x00\x1f", "DEL\x7f", "C1 \u0085 \u009b", "bidi \u202e \u2066 \u200f",
		"bad \xff\xfe UTF-8", "<b>&amp;</b>", "line sep \u2028 \u2029", "é ≤ 😀", "\u00a0nbsp"}
	r := rand.New(rand.NewPCG(27, 4))
	text := func() string { return texts[r.IntN(len(texts))] }
	strs := func() []string {
		switch r.IntN(4) {
		case 0:
			return nil
		case 1:
			return []string{}
		}
		out := make([]string, 1+r.IntN(3))
		for i := range out {
			out[i] = text()
		}
		return out
	}
	for range 300 {
		st := &store.Status{Vocabulary: text(), Orphans: strs(), Unreachable: strs(), Broken: r.IntN(3) - 1}
		if r.IntN(4) > 0 {
			st.Next = []store.StatusNext{}
			for range r.IntN(4) {
				st.Next = append(st.Next, store.StatusNext{ID: text(), Agent: text(), Depth: r.IntN(7) - 1, Blocks: r.IntN(1 << 20)})
			}
		}
		if r.IntN(4) > 0 {
			st.Counts, st.ProblemCounts = map[string]int{}, map[string]int{}
			for range r.IntN(4) {
				st.Counts[text()], st.ProblemCounts[text()] = r.IntN(100), -r.IntN(3)
			}
		}
		if r.IntN(4) > 0 {
			st.Stale, st.Unknown = map[string]string{}, map[string]string{}
			for range r.IntN(4) {
				st.Stale[text()], st.Unknown[text()] = text(), text()
			}
		}
		if r.IntN(4) > 0 {
			st.Dangling = []store.StatusDangling{}
			for range r.IntN(3) {
				st.Dangling = append(st.Dangling, store.StatusDangling{From: text(), To: text(), Kind: text()})
			}
		}
		if r.IntN(4) > 0 {
			st.Cycles = [][]string{}
			for range r.IntN(3) {
				st.Cycles = append(st.Cycles, strs())
			}
		}
		checkStatusJSON(t, st)
	}
}
