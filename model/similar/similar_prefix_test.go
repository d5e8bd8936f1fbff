package similar

import (
	"fmt"
	"math/rand"
	"reflect"
	"strings"
	"testing"

	"referee/model"
)

// The candidate filter must find exactly what comparing with every older claim finds.
func TestRetreadCandidatesMatchFullComparison(t *testing.T) {
	words := strings.Fields("every integer prime sum of cubes is even odd square the a n k divides product list finite infinitely many greater than")
	statuses := []string{"true", "false", "abandoned", "pending", "has_gap", "validating"}
	r := rand.New(rand.NewSource(7))
	s := &model.Snapshot{Statements: model.ObjectsOf(map[string]*model.Statement{})}
	var claims []string
	for i := 1; i <= 600; i++ {
		var claim string
		if i > 1 && r.Intn(3) == 0 { // a re-tread: an earlier claim, perhaps with a word changed
			f := strings.Fields(claims[r.Intn(len(claims))])
			if r.Intn(2) == 0 {
				f[r.Intn(len(f))] = words[r.Intn(len(words))]
			}
			claim = strings.Join(f, " ")
		} else {
			n := 4 + r.Intn(8)
			f := make([]string, n)
			for j := range f {
				f[j] = words[r.Intn(len(words))]
			}
			claim = strings.Join(f, " ")
		}
		claims = append(claims, claim)
		id := fmt.Sprintf("s-%03d", i)
		s.Statements.Set(id, &model.Statement{ID: id, Type: "normal", Status: statuses[r.Intn(len(statuses))], Conclusion: []string{claim}})
	}
	ix := NewIndex(s)
	var want []Retread
	for _, id := range ix.ids {
		var found []Retread
		for _, older := range ix.ids[:ix.docs[id].pos] {
			if ph, _, _ := model.StatusInfo(s.Statements.Get(older).Status); !ph.Decided() || ix.docs[older].empty || ix.docs[id].empty {
				continue
			}
			if sc := ix.RepeatScore(id, older); sc >= RetreadThreshold {
				found = append(found, Retread{ID: id, Of: older, OfStatus: s.Statements.Get(older).Status, Score: sc})
			}
		}
		sortRetreads(found)
		want = append(want, found...)
	}
	got := ix.Retreads()
	if len(want) < 50 {
		t.Fatalf("the test makes too few re-treads (%d) to mean anything", len(want))
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%d re-treads with the filter, %d comparing everything", len(got), len(want))
	}
}

func BenchmarkRetreads10k(b *testing.B) {
	r := rand.New(rand.NewSource(1))
	words := strings.Fields("every integer prime sum of cubes is even odd square the a n k divides product list finite infinitely many greater than lemma case step modulo residue bound")
	s := &model.Snapshot{Statements: model.ObjectsOf(map[string]*model.Statement{})}
	for i := 1; i <= 10000; i++ {
		f := make([]string, 6+r.Intn(10))
		for j := range f {
			f[j] = words[r.Intn(len(words))]
		}
		f = append(f, fmt.Sprint("case ", i)) // like gen's claims: each carries its own number
		id := fmt.Sprintf("s-%s%03d", string(rune('a'+i/1000)), i%1000+1)
		s.Statements.Set(id, &model.Statement{ID: id, Type: "normal", Status: []string{"true", "false", "pending"}[i%3], Conclusion: []string{strings.Join(f, " ")}})
	}
	b.ResetTimer()
	for range b.N {
		NewIndex(s).Retreads()
	}
}

// An index serves a later snapshot exactly when claims, statuses and types are the same.
func TestIndexServesWhileClaimsAndStatusesHold(t *testing.T) {
	st := func(id, status, claim string) *model.Statement {
		return &model.Statement{ID: id, Type: "normal", Status: status, Conclusion: []string{claim}}
	}
	a, b := st("s-001", "true", "every prime is odd"), st("s-002", "pending", "every prime greater than two is odd")
	snap := &model.Snapshot{Statements: model.ObjectsOf(map[string]*model.Statement{"s-001": a, "s-002": b})}
	ix := NewIndex(snap)
	proofOnly := *b
	proofOnly.Proof.Full, proofOnly.Issues = "Step 1: new proof.", []string{"[Issue #1] x"}
	cases := []struct {
		name  string
		next  *model.Statement
		serve bool
	}{
		{"the same statements", b, true},
		{"a new proof and an issue", &proofOnly, true},
		{"a new status", st("s-002", "false", "every prime greater than two is odd"), false},
		{"a new claim", st("s-002", "pending", "every prime is even"), false},
	}
	for _, c := range cases {
		next := &model.Snapshot{Statements: model.ObjectsOf(map[string]*model.Statement{"s-001": a, "s-002": c.next})}
		if got := ix.Serves(next); got != c.serve {
			t.Errorf("%s: Serves = %v", c.name, got)
		}
	}
	if ix.Serves(&model.Snapshot{Statements: model.ObjectsOf(map[string]*model.Statement{"s-001": a})}) {
		t.Error("serves a snapshot with a statement removed")
	}
}
