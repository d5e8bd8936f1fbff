package similar

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"referee/model"
)

// benchClaims is a folder's worth of claims in the agents' style, from templates.
func benchClaims(n int) *model.Snapshot {
	r := rand.New(rand.NewPCG(1, 2))
	forms := []string{`$\sum_{k=1}^{n} k^{%d} = %d$`, `$p \equiv %d \pmod{%d}$`, `$x_{%d} \to %d$`, `$|G| = p^{%d} + %d$`, `$\frac{n(n+%d)}{%d}$ is an integer`}
	templates := []string{"For every integer $n \\ge %d$, %s.", "If %s, then %s.", "There is no solution with %s and %s.", "The map defined by %s satisfies %s."}
	form := func() string { f := forms[r.IntN(len(forms))]; return fmt.Sprintf(f, r.IntN(12), r.IntN(12)) }
	s := &model.Snapshot{Statements: model.ObjectsOf(map[string]*model.Statement{})}
	statuses := []string{"true", "false", "abandoned", "pending", "validating"}
	for i := 1; i <= n; i++ {
		id := fmt.Sprintf("s-%03d", i)
		var claim string
		switch t := templates[r.IntN(len(templates))]; t {
		case templates[0]:
			claim = fmt.Sprintf(t, r.IntN(5), form())
		default:
			claim = fmt.Sprintf(t, form(), form())
		}
		s.Statements.Set(id, &model.Statement{ID: id, Status: statuses[r.IntN(len(statuses))], Conclusion: []string{claim}})
	}
	return s
}

// Goal: index and re-treads of a 999-statement folder well under a second (check runs it).
func BenchmarkRetreads(b *testing.B) {
	s := benchClaims(999)
	for b.Loop() {
		NewIndex(s).Retreads()
	}
}

// Goal: the detail pane's top 5 for one statement in a few milliseconds, index built.
func BenchmarkSimilarTop5(b *testing.B) {
	ix := NewIndex(benchClaims(999))
	for b.Loop() {
		ix.Similar("s-500", 5)
	}
}
