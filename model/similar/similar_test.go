package similar

import (
	"reflect"
	"testing"

	"referee/model"
)

func TestNormalizeClaim(t *testing.T) {
	for in, want := range map[string]string{
		`For every prime $p$ with $p \equiv 3 \pmod{4}$, the number $4p - 1$ is also prime.`: `every prime p p \equiv 3 \pmod 4 number 4 p - 1 prime`,
		`For each prime $p\equiv 3 \pmod 4$, $4p-1$ is prime as well.`:                       `every prime p \equiv 3 \pmod 4 4 p - 1 prime`,
		`Every integer n ≥ 2 is a product of Primes.`:                                        `every integer n \ge 2 product prime`,
		`$\left(\frac{n(n+1)}{2}\right)^2$ iff $n \geq 1$`:                                   `( \frac n ( n + 1 ) 2 ) ^ 2 if and only if n \ge 1`,
		`Olivia says: Alice and I have the same role`:                                        `olivia say alice and i same role`,
		``: ``,
	} {
		if got := NormalizeClaim(in); got != want {
			t.Errorf("NormalizeClaim(%q)\n got %q\nwant %q", in, got, want)
		}
	}
}

func claims(pairs ...string) *model.Snapshot {
	s := &model.Snapshot{Statements: model.ObjectsOf(map[string]*model.Statement{})}
	for i := 0; i+2 < len(pairs)+1; i += 3 {
		s.Statements.Set(pairs[i], &model.Statement{ID: pairs[i], Status: pairs[i+1], Conclusion: []string{pairs[i+2]}})
	}
	return s
}

func TestSimilarAndRetreads(t *testing.T) {
	s := claims(
		"s-001", "false", `For every prime $p$ with $p \equiv 3 \pmod{4}$, the number $4p - 1$ is also prime.`,
		"s-002", "true", `Olivia says: Alice and I have the same role`,
		"s-003", "pending", `For each prime $p\equiv 3 \pmod 4$, $4p-1$ is prime as well.`, // re-tread of s-001
		"s-004", "pending", `For every prime $p$ with $p \equiv 1 \pmod{4}$, the number $4p + 1$ is also prime.`, // other numbers
		"s-005", "pending", `Ivy says: Alice and I have the same role`, // another name
		"s-006", "abandoned", `The sum of the first $n$ odd numbers is $n^2$.`,
		"s-007", "true", `the sum of the first $n$ odd numbers is $n^{2}$`, // repeats an abandoned one; itself true
		"s-008", "pending", ``,
	)
	ix := NewIndex(s)
	want := []Retread{
		{ID: "s-003", Of: "s-001", OfStatus: "false", Score: ix.RepeatScore("s-003", "s-001")},
		{ID: "s-007", Of: "s-006", OfStatus: "abandoned", Score: 1},
	}
	if got := ix.Retreads(); !reflect.DeepEqual(got, want) {
		t.Errorf("retreads\n got %+v\nwant %+v", got, want)
	}
	if sc := ix.RepeatScore("s-003", "s-001"); sc < RetreadThreshold || sc >= 1 {
		t.Errorf("rewording scores %v", sc)
	}
	for _, pair := range [][2]string{{"s-004", "s-001"}, {"s-005", "s-002"}} {
		// Related (Score) but not the same claim (RepeatScore).
		if sc, rel := ix.RepeatScore(pair[0], pair[1]), ix.Score(pair[0], pair[1]); sc >= RetreadThreshold || rel < 0.75 {
			t.Errorf("%s vs %s: repeat score %v, related %v", pair[0], pair[1], sc, rel)
		}
	}
	if ix.RepeatScore("s-001", "s-003") != ix.RepeatScore("s-003", "s-001") || ix.Score("s-008", "s-001") != 0 ||
		ix.Score("s-001", "s-099") != 0 || ix.RepeatScore("s-008", "s-001") != 0 {
		t.Error("Score is not symmetric, or scores an empty or missing claim")
	}
	top := Similar(s, "s-001", 2)
	if len(top) != 2 || top[0].ID != "s-003" || top[1].ID != "s-004" || top[0].Score < top[1].Score {
		t.Errorf("top 2 of s-001: %+v", top)
	}
	if cap(top) != len(top) { // the k kept hold no more: workbenches keep them
		t.Errorf("top 2 of s-001 holds room for %d", cap(top))
	}
	if got := ix.RetreadsOf("s-003"); len(got) != 1 || got[0].Of != "s-001" || ix.RetreadsOf("s-001") != nil || ix.RetreadsOf("s-099") != nil {
		t.Errorf("RetreadsOf: %+v", got)
	}
	// Alike words, another claim: a converse, swapped roles, another exponent.
	s2 := claims(
		"s-001", "false", `If $x_{6} \to 0$, then $x_{9} \to 0$.`,
		"s-002", "true", `The map defined by $m + 10 \equiv 0 \pmod{q}$ satisfies $p \mid n - 1$.`,
		"s-003", "true", `Whenever $x$ is odd, we have $x^2 \equiv 1 \pmod 8$.`,
		"s-004", "pending", `If $x_{9} \to 0$, then $x_{6} \to 0$.`,
		"s-005", "pending", `The map defined by $p \mid n - 1$ satisfies $m + 10 \equiv 0 \pmod{q}$.`,
		"s-006", "pending", `Whenever $x$ is odd, we have $x^4 \equiv 1 \pmod 8$.`,
	)
	ix2 := NewIndex(s2)
	for _, pair := range [][2]string{{"s-004", "s-001"}, {"s-005", "s-002"}, {"s-006", "s-003"}} {
		if sc := ix2.RepeatScore(pair[0], pair[1]); sc > 0.7 {
			t.Errorf("%s vs %s: repeat score %v", pair[0], pair[1], sc)
		}
	}
	if r := ix2.Retreads(); r != nil {
		t.Errorf("re-treads %+v", r)
	}
	// The same premise set up twice is given, not a claim proposed again.
	s3 := claims("s-001", "true", "Alice says: I am a spy", "s-002", "true", "Alice says: I am a spy")
	s3.Statements.Get("s-001").Type, s3.Statements.Get("s-002").Type = "assumption", "assumption"
	if r := Retreads(s3); r != nil {
		t.Errorf("assumptions: %+v", r)
	}
	s3.Statements.Get("s-002").Type = "normal"
	if r := Retreads(s3); len(r) != 1 || r[0].Score != 1 {
		t.Errorf("a claim repeating an assumption: %+v", r)
	}
	if len(Similar(s, "s-008", 5)) != 0 || len(Retreads(claims())) != 0 {
		t.Error("an empty claim is like something")
	}
}
