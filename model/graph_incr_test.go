package model

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
)

// editor makes random edits of the kinds agents make, each a new snapshot that shares
// every object it does not change (as store.Reload does), with the IDs it changed.
type editor struct {
	next  func() int
	fresh int // new statements made so far
}

// newEditor draws from rnd (when not nil), else from the bytes, and then zeros.
func newEditor(rnd *rand.Rand, data []byte) *editor {
	if rnd != nil {
		return &editor{next: func() int { return rnd.IntN(256) }}
	}
	return &editor{next: func() int {
		if len(data) == 0 {
			return 0
		}
		b := data[0]
		data = data[1:]
		return int(b)
	}}
}

// status is any status, "true" half the time (what makes marks move).
func (e *editor) status() string {
	if e.next()%2 == 0 {
		return "true"
	}
	return fuzzStatuses[e.next()%len(fuzzStatuses)]
}

func (e *editor) pick(ids []string) string {
	if len(ids) == 0 {
		return ""
	}
	return ids[(e.next()<<8|e.next())%len(ids)]
}

// anyStatement is an existing statement, now and then one that does not exist.
func (e *editor) anyStatement(sids []string) string {
	if e.next()%8 == 0 {
		return fmt.Sprintf("s-%03d", 1+e.next()%20)
	}
	return e.pick(sids)
}

// batch applies one to three edits to s and returns the new snapshot and the IDs the
// batch names as changed (now and then with an unchanged or unknown one).
func (e *editor) batch(s *Snapshot) (*Snapshot, []string) {
	n := &Snapshot{Problems: maps.Clone(s.Problems), Statements: s.Statements.Fork(), Experiences: maps.Clone(s.Experiences)}
	var changed []string
	for range 1 + e.next()%3 {
		changed = append(changed, e.edit(n)...)
	}
	switch e.next() % 10 {
	case 0:
		changed = append(changed, e.pick(slices.Sorted(n.Statements.Keys())))
	case 1:
		changed = append(changed, "s-999", "not an ID")
	}
	return n, changed
}

func (e *editor) statement(s *Snapshot, id string) *Statement {
	c := *s.Statements.Get(id)
	s.Statements.Set(id, &c)
	return &c
}

// edit changes one object of s in place (s is the batch's new snapshot).
func (e *editor) edit(s *Snapshot) []string {
	sids := slices.SortedFunc(s.Statements.Keys(), CompareIDs)
	pids := slices.SortedFunc(maps.Keys(s.Problems), CompareIDs)
	op := e.next() % 14
	if len(sids) == 0 && op != 5 && op != 12 {
		op = 1
	}
	switch op {
	case 0, 6, 9: // a statement's status (the common write)
		id := e.pick(sids)
		e.statement(s, id).Status = e.status()
		return []string{id}
	case 1: // a problem's status
		id := e.pick(pids)
		p := *s.Problems[id]
		p.Status = e.status()
		if e.next()%2 == 0 {
			p.Status = "solved" // what lets the problems and statements that need it go on
		}
		s.Problems[id] = &p
		return []string{id}
	case 2: // an issue or a response
		id := e.pick(sids)
		st := e.statement(s, id)
		if e.next()%2 == 0 {
			st.Issues = append(slices.Clip(st.Issues), fmt.Sprintf("[Issue #%d] x", len(st.Issues)+1))
		} else {
			st.Responses = append(slices.Clip(st.Responses), fmt.Sprintf("[Response #%d] r", len(st.Responses)+1))
		}
		return []string{id}
	case 3: // a proof written or withdrawn
		id := e.pick(sids)
		st := e.statement(s, id)
		if st.Proof.Full == "" {
			st.Proof.Full = "A proof."
		} else {
			st.Proof.Full = ""
		}
		return []string{id}
	case 4: // the same object written again
		id := e.pick(sids)
		e.statement(s, id)
		return []string{id}
	case 5: // a new sub-statement of a statement, or a new progress of a problem
		e.fresh++
		id := fmt.Sprintf("s-zz%03d", e.fresh)
		if e.next()%3 == 0 { // or one a dangling reference names
			id = fmt.Sprintf("s-%03d", 1+e.next()%20)
			if s.Statements.Get(id) != nil {
				return nil
			}
		}
		s.Statements.Set(id, &Statement{ID: id, Status: e.status()})
		if len(sids) > 0 && e.next()%4 != 0 {
			parent := e.pick(sids)
			st := e.statement(s, parent)
			st.Preliminaries = append(slices.Clip(st.Preliminaries), id)
			return []string{id, parent}
		}
		if len(pids) > 0 {
			parent := e.pick(pids)
			p := *s.Problems[parent]
			p.Progresses = append(slices.Clip(p.Progresses), "("+id+") new")
			s.Problems[parent] = &p
			return []string{id, parent}
		}
		return []string{id}
	case 7: // a statement deleted
		id := e.pick(sids)
		s.Statements.Delete(id)
		return []string{id}
	case 8: // a premise, a citation or a sub-statement reference (cycles, dangling)
		id := e.pick(sids)
		st := e.statement(s, id)
		to := e.anyStatement(sids)
		switch e.next() % 3 {
		case 0:
			st.Hypothesis = append(slices.Clip(st.Hypothesis), "("+to+") premise")
		case 1:
			st.Proof.Ref = append(slices.Clip(st.Proof.Ref), to)
		default:
			st.Preliminaries = append(slices.Clip(st.Preliminaries), to)
		}
		return []string{id}
	case 10: // an item that references nothing, added or the last preliminary dropped
		id := e.pick(sids)
		st := e.statement(s, id)
		if len(st.Preliminaries) > 0 && e.next()%2 == 0 {
			st.Preliminaries = st.Preliminaries[: len(st.Preliminaries)-1 : len(st.Preliminaries)-1]
		} else {
			st.Preliminaries = append(slices.Clip(st.Preliminaries), "a lemma in words")
		}
		return []string{id}
	case 11: // a premise's text reworded, the reference kept
		id := e.pick(sids)
		st := e.statement(s, id)
		st.Hypothesis = slices.Clone(st.Hypothesis)
		for i, it := range st.Hypothesis {
			if to, ok := RefID(it); ok {
				st.Hypothesis[i] = "(" + to + ") reworded"
				break
			}
		}
		return []string{id}
	case 12: // an experience appears or goes
		id := fmt.Sprintf("e-%03d", 1+e.next()%3)
		if s.Experiences[id] != nil {
			delete(s.Experiences, id)
		} else {
			s.Experiences[id] = &Experience{ID: id}
		}
		return []string{id}
	default: // a problem's preliminary
		id := e.pick(pids)
		p := *s.Problems[id]
		p.Preliminaries = append(slices.Clip(p.Preliminaries), e.anyStatement(sids))
		s.Problems[id] = &p
		return []string{id}
	}
}

// linksKeptAll reports whether every object the batch changed kept its references.
func linksKeptAll(prev, s *Snapshot, changed []string) bool {
	for _, id := range changed {
		if (prev.Problems[id] == nil) != (s.Problems[id] == nil) || (prev.Statements.Get(id) == nil) != (s.Statements.Get(id) == nil) ||
			(prev.Experiences[id] == nil) != (s.Experiences[id] == nil) {
			return false
		}
		if a, b := prev.Statements.Get(id), s.Statements.Get(id); a != nil && !(slices.Equal(a.Preliminaries, b.Preliminaries) &&
			slices.Equal(a.Hypothesis, b.Hypothesis) && slices.Equal(a.Proof.Ref, b.Proof.Ref)) {
			return false
		}
		if a, b := prev.Problems[id], s.Problems[id]; a != nil && !(slices.Equal(a.Preliminaries, b.Preliminaries) &&
			slices.Equal(a.Progresses, b.Progresses) && slices.Equal(a.Hypothesis, b.Hypothesis) && slices.Equal(a.Solution.Ref, b.Solution.Ref)) {
			return false
		}
	}
	return true
}

// checkUpdates applies steps batches of edits and checks after each that Update gives
// exactly Derive's graph, says whether the links changed, and leaves its receiver as it
// was. It returns how many batches kept the links.
func checkUpdates(t testing.TB, s *Snapshot, e *editor, steps int) (kept int) {
	t.Helper()
	g := Derive(s)
	for step := range steps {
		n, changed := e.batch(s)
		got, relinked := g.Update(s, n, changed)
		want := Derive(n)
		if !reflect.DeepEqual(got.Plain(), want.Plain()) {
			t.Fatalf("step %d (changed %v): Update differs from Derive:\n%s", step, changed, graphDiff(got, want))
		}
		if keep := linksKeptAll(s, n, changed); relinked == keep {
			t.Fatalf("step %d (changed %v): relinked %v, but the links were kept: %v", step, changed, relinked, keep)
		} else if keep {
			kept++
		}
		if was := Derive(s); !reflect.DeepEqual(g.Plain(), was.Plain()) {
			t.Fatalf("step %d (changed %v): Update changed the graph it started from:\n%s", step, changed, graphDiff(g, was))
		}
		s, g = n, got
	}
	return kept
}

// graphDiff lists the fields that differ.
func graphDiff(got, want *Graph) string {
	var out string
	g, w := reflect.ValueOf(got.Plain()).Elem(), reflect.ValueOf(want.Plain()).Elem()
	for i := range g.NumField() {
		if !reflect.DeepEqual(g.Field(i).Interface(), w.Field(i).Interface()) {
			out += fmt.Sprintf("  %s: got %v\n  want %v\n", g.Type().Field(i).Name, g.Field(i).Interface(), w.Field(i).Interface())
		}
	}
	return out
}

// FuzzGraphUpdate: from any small snapshot (cycles, dangling references, every status),
// any sequence of edits gives, edit after edit, the graph Derive gives.
func FuzzGraphUpdate(f *testing.F) {
	f.Add([]byte{8, 3, 7, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 0, 6, 9, 1, 2, 3})
	f.Add([]byte{12, 2, 9, 200, 100, 50, 25, 12, 6, 3, 1, 0, 255, 128, 8, 8, 0, 0, 5, 5, 7, 7})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) == 0 {
			return
		}
		k := min(len(data), 1+int(data[0])%48)
		checkUpdates(t, snapshotFrom(data[1:k]), newEditor(nil, data[k:]), 12)
	})
}

// Random walks of edits over the fuzzer's small snapshots, and over a larger tree
// without cycles, where most writes keep the links and take the incremental way.
func TestGraphUpdateMatchesDerive(t *testing.T) {
	kept := 0
	for seed := range uint64(300) {
		rnd := rand.New(rand.NewPCG(seed, 7))
		data := make([]byte, 40)
		for i := range data {
			data[i] = byte(rnd.IntN(256))
		}
		kept += checkUpdates(t, snapshotFrom(data), newEditor(rnd, nil), 30)
	}
	if kept < 3000 {
		t.Errorf("only %d of 9000 batches kept the links: the incremental way is hardly tested", kept)
	}
	for seed := range uint64(5) {
		rnd := rand.New(rand.NewPCG(seed, 8))
		checkUpdates(t, treeSnapshot(rnd, 400), newEditor(rnd, nil), 200)
	}
}

// treeSnapshot is a tree of n statements under a few problems, every status, no cycles.
func treeSnapshot(rnd *rand.Rand, n int) *Snapshot {
	s := &Snapshot{Problems: map[string]*Problem{}, Statements: ObjectsOf(map[string]*Statement{}), Experiences: map[string]*Experience{}}
	var pids, sids []string
	for i := range 1 + n/100 {
		id := fmt.Sprintf("p-%03d", i+1)
		p := &Problem{ID: id, Status: fuzzStatuses[rnd.IntN(len(fuzzStatuses))]}
		if i > 0 && rnd.IntN(3) == 0 {
			parent := s.Problems[pids[rnd.IntN(len(pids))]]
			parent.Preliminaries = append(parent.Preliminaries, id)
		}
		s.Problems[id] = p
		pids = append(pids, id)
	}
	statuses := []string{"true", "true", "true", "pending", "validating", "false", "abandoned", "has_gap", "awaiting_substatements"}
	for i := range n {
		id := fmt.Sprintf("s-%s%03d", string(rune('a'+i/999)), i%999+1)
		st := &Statement{ID: id, Status: statuses[rnd.IntN(len(statuses))]}
		if rnd.IntN(2) == 0 {
			st.Proof.Full = "A proof."
		}
		for range rnd.IntN(3) {
			st.Issues = append(st.Issues, "[Issue] x")
		}
		if len(sids) > 0 && rnd.IntN(6) != 0 {
			parent := s.Statements.Get(sids[rnd.IntN(len(sids))])
			parent.Preliminaries = append(parent.Preliminaries, id)
		} else {
			p := s.Problems[pids[rnd.IntN(len(pids))]]
			p.Progresses = append(p.Progresses, "("+id+") wrap-up")
		}
		if len(sids) > 0 && rnd.IntN(4) == 0 { // premises and citations point at older statements
			st.Hypothesis = append(st.Hypothesis, "("+sids[rnd.IntN(len(sids))]+") premise")
		}
		if rnd.IntN(10) == 0 { // a statement that waits for a problem
			st.Preliminaries = append(st.Preliminaries, pids[rnd.IntN(len(pids))])
		}
		if len(sids) > 0 && rnd.IntN(4) == 0 {
			st.Proof.Ref = append(st.Proof.Ref, sids[rnd.IntN(len(sids))])
		}
		s.Statements.Set(id, st)
		sids = append(sids, id)
	}
	for _, id := range pids { // some problems need statements
		p := s.Problems[id]
		if rnd.IntN(2) == 0 {
			p.Status = "unresolved"
		}
		for range rnd.IntN(3) {
			p.Preliminaries = append(p.Preliminaries, sids[rnd.IntN(len(sids))])
		}
	}
	return s
}

// A status write shares the links and copies only the maps it changes; a new
// sub-statement relinks.
func TestGraphUpdateSharesWhatItKeeps(t *testing.T) {
	s := &Snapshot{
		Problems: map[string]*Problem{"p-001": {ID: "p-001", Status: "unresolved", Progresses: []string{"(s-001) main"}}},
		Statements: ObjectsOf(map[string]*Statement{
			"s-001": st("s-001", "true", []string{"s-002"}, nil, 0, 0),
			"s-002": st("s-002", "pending", nil, nil, 0, 0),
		}),
	}
	g := Derive(s)
	n := &Snapshot{Problems: s.Problems, Statements: s.Statements.Fork()}
	n.Statements.Set("s-002", st("s-002", "true", nil, nil, 0, 0))
	got, relinked := g.Update(s, n, []string{"s-002"})
	same := func(a, b any) bool { return reflect.ValueOf(a).UnsafePointer() == reflect.ValueOf(b).UnsafePointer() }
	if relinked || !same(got.Out, g.Out) || !same(got.In, g.In) || !same(got.Depth, g.Depth) || !same(got.ProblemCounts, g.ProblemCounts) {
		t.Errorf("a status write relinked (%v) or copied the links", relinked)
	}
	if g.Actionable.Len() != 2 || got.Actionable.Len() != 1 || !same(got.Actionable.base, g.Actionable.base) {
		t.Errorf("the actions %v (before %v) were copied, not carried over the list before", got.Actionable.Slice(), g.Actionable.Slice())
	}
	if !got.FullyProved.Get("s-001") || g.FullyProved.Get("s-001") {
		t.Errorf("s-001 fully proved: before %v, after %v", g.FullyProved.Get("s-001"), got.FullyProved.Get("s-001"))
	}
	if want := map[string]int{"true": 2}; !reflect.DeepEqual(got.Counts, want) || reflect.DeepEqual(g.Counts, want) {
		t.Errorf("counts %v (before %v)", got.Counts, g.Counts)
	}
	if again, _ := got.Update(n, n, []string{"s-002"}); again != got {
		t.Errorf("an update that changes no object made a new graph")
	}
	same2 := &Snapshot{Problems: s.Problems, Statements: n.Statements.Fork()}
	same2.Statements.Set("s-002", st("s-002", "true", nil, nil, 1, 1)) // an issue and its response
	if again, _ := got.Update(n, same2, []string{"s-002"}); again != got {
		t.Errorf("a write that moves nothing derived made a new graph")
	}

	m := &Snapshot{Problems: s.Problems, Statements: n.Statements.Fork()}
	m.Statements.Set("s-003", st("s-003", "pending", nil, nil, 0, 0))
	m.Statements.Set("s-002", st("s-002", "true", []string{"s-003"}, nil, 0, 0))
	if got2, relinked := got.Update(n, m, []string{"s-003", "s-002"}); !relinked || !reflect.DeepEqual(got2.Plain(), Derive(m).Plain()) {
		t.Errorf("a new sub-statement: relinked %v", relinked)
	}
}

// Where a cycle is within reach, the stale marks depend on the order of Derive's walk:
// here s-001 and s-002 rest on each other, and Derive, which starts at s-001, marks
// s-001 (it rests on s-003, now false) but not s-002. Update must mark the same.
func TestGraphUpdateStaleNearACycle(t *testing.T) {
	s := &Snapshot{Statements: ObjectsOf(map[string]*Statement{
		"s-001": st("s-001", "true", []string{"s-002", "s-003"}, nil, 0, 0),
		"s-002": st("s-002", "true", []string{"s-001"}, nil, 0, 0),
		"s-003": st("s-003", "true", nil, nil, 0, 0),
	})}
	g := Derive(s)
	for range 20 { // Update's own walk goes in map order
		n := &Snapshot{Statements: s.Statements.Fork()}
		n.Statements.Set("s-003", st("s-003", "false", nil, nil, 0, 0))
		got, _ := g.Update(s, n, []string{"s-003"})
		if want := map[string]string{"s-001": "rests on s-003, which is false"}; !reflect.DeepEqual(got.Stale.Map(), want) {
			t.Fatalf("stale %v, want %v", got.Stale, want)
		}
	}
}
