package model

import (
	"fmt"
	"reflect"
	"testing"
)

// FuzzDeriveMatchesReference: on any small snapshot the fuzzer makes up (cycles, self
// references, dangling and mistyped references, experiences, every status), Derive
// computes exactly what the reference derivations (graph_ref_test.go) do.
func FuzzDeriveMatchesReference(f *testing.F) {
	f.Add([]byte{3, 7, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20})
	f.Add([]byte{1, 2, 0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3})
	f.Add([]byte{2, 9, 200, 100, 50, 25, 12, 6, 3, 1, 0, 255, 128, 64, 32, 16, 8, 4, 2, 1})
	f.Fuzz(func(t *testing.T, data []byte) {
		s := snapshotFrom(data)
		got, want := Derive(s).Plain(), refDerive(s).Plain()
		if !reflect.DeepEqual(got, want) {
			g, w := reflect.ValueOf(got).Elem(), reflect.ValueOf(want).Elem()
			for i := range g.NumField() {
				if !reflect.DeepEqual(g.Field(i).Interface(), w.Field(i).Interface()) {
					t.Errorf("%s: got %v, want %v", g.Type().Field(i).Name, g.Field(i).Interface(), w.Field(i).Interface())
				}
			}
		}
	})
}

var fuzzStatuses = []string{"pending", "true", "false", "abandoned", "validating", "has_gap", "awaiting_verification",
	"awaiting_substatements", "needs_modification", "unresolved", "solved", "resolved", "weird"}

// snapshotFrom builds a snapshot from fuzz bytes: a few problems, statements and
// experiences whose references point anywhere, existing or not.
func snapshotFrom(data []byte) *Snapshot {
	next := func() int {
		if len(data) == 0 {
			return 0
		}
		b := data[0]
		data = data[1:]
		return int(b)
	}
	np, ns, ne := 1+next()%4, next()%12, next()%2
	ref := func() string {
		n := next()
		switch n % 7 {
		case 0:
			return fmt.Sprintf("p-%03d", 1+n/7%6)
		case 1:
			return fmt.Sprintf("e-%03d", 1+n/7%3)
		case 2:
			return fmt.Sprintf("(s-%03d) text", 1+n/7%14)
		case 3:
			return "not a reference"
		}
		return fmt.Sprintf("s-%03d", 1+n/7%14)
	}
	refs := func() []string {
		var out []string
		for range next() % 4 {
			out = append(out, ref())
		}
		return out
	}
	s := &Snapshot{Problems: map[string]*Problem{}, Statements: ObjectsOf(map[string]*Statement{}), Experiences: map[string]*Experience{}}
	for i := range np {
		id := fmt.Sprintf("p-%03d", i+1)
		s.Problems[id] = &Problem{ID: id, Status: fuzzStatuses[next()%len(fuzzStatuses)], Preliminaries: refs(),
			Progresses: refs(), Hypothesis: refs(), Solution: Proof{Ref: refs()}}
	}
	for i := range ns {
		id := fmt.Sprintf("s-%03d", i+1)
		st := &Statement{ID: id, Status: fuzzStatuses[next()%len(fuzzStatuses)], Preliminaries: refs(),
			Hypothesis: refs(), Proof: Proof{Ref: refs()}}
		for range next() % 3 {
			st.Issues = append(st.Issues, fmt.Sprintf("[Issue #%d] Sentence 1: 'x' | Type: gap | Explanation: e | Fix: f", len(st.Issues)+1))
		}
		if next()%2 == 0 {
			st.Proof.Full = "A proof."
		}
		s.Statements.Set(id, st)
	}
	for i := range ne {
		id := fmt.Sprintf("e-%03d", i+1)
		s.Experiences[id] = &Experience{ID: id}
	}
	return s
}

// The first Derive aliased the queue of its second walk with the list it appends to, so
// a node reached only through a premise or a citation could be dropped with what hangs
// under it: here (the fuzzer's find) s-010, a sub-statement of s-003, which a problem
// reaches through a premise, was reported unreachable.
func TestDepthReachesWhatOnlyPremisesReach(t *testing.T) {
	s := snapshotFrom([]byte("7\"000200017002007y\xd70000000000100000000000000020A"))
	g := Derive(s)
	if d, ok := g.Depth["s-010"]; !ok || d != 2 {
		t.Errorf("s-010 has depth %d (%v), want 2", d, ok)
	}
	for _, id := range g.Unreachable {
		if id == "s-010" {
			t.Errorf("s-010 is listed unreachable: %v", g.Unreachable)
		}
	}
}
