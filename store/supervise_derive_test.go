package store

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"referee/internal/testutil"
	"referee/model"
	"referee/model/pyjson"
	"referee/model/similar"
)

func loadDerived(t *testing.T, dir string) (*model.Snapshot, *model.Graph) {
	t.Helper()
	snap, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	return snap, model.Derive(snap)
}

// What each open item of the demo holds up, and the orders built on it.
func TestBlocksDemo(t *testing.T) {
	testutil.Need(t, fixtureDir)
	snap, g := loadDerived(t, demoDir)
	want := map[string]model.Blocking{
		// s-014 fills s-012's gap; s-012 is s-011's induction step; s-015's proof cites s-011.
		"s-014": {ID: "s-014", Above: []string{"p-002", "s-011", "s-012", "s-015"}, Statements: 3, Roots: 1, Score: 13},
		"s-015": {ID: "s-015", Above: []string{"p-002"}, Roots: 1, Score: 10},
		"s-016": {ID: "s-016", Above: []string{"p-002"}, Roots: 1, Score: 10},
		// s-007 is only a premise (of the solved p-003 and the true s-009): nothing waits for it.
		"s-007": {ID: "s-007", Above: []string{}},
		"p-002": {ID: "p-002", Above: []string{}},
		"s-017": {ID: "s-017", Above: []string{}},
	}
	all := model.Blocks(snap, g)
	for id, w := range want {
		if got := all[id]; !reflect.DeepEqual(got, w) {
			t.Errorf("%s\n got %+v\nwant %+v", id, got, w)
		}
	}
	var next []string
	for _, a := range model.NextByBlocking(snap, g) {
		next = append(next, a.Agent+" "+a.ID)
	}
	if want := []string{"agent-check s-014", "agent-fix s-015", "agent-check s-016", "agent-prove s-007", "agent-solve p-002", "agent-prove s-017"}; !reflect.DeepEqual(next, want) {
		t.Errorf("next %q", next)
	}
	if got := model.ReviewOrder(snap, g); !reflect.DeepEqual(got, []string{"s-014", "s-015", "s-016"}) {
		t.Errorf("review order %v", got)
	}
	fsnap, fg := loadDerived(t, fixtureDir)
	if len(model.Blocks(fsnap, fg)) != 0 || len(model.ReviewOrder(fsnap, fg)) != 0 || len(model.NextByBlocking(fsnap, fg)) != 0 {
		t.Error("the solved fixture has open work")
	}
}

func TestGraveyardDemo(t *testing.T) {
	testutil.Need(t, fixtureDir)
	snap, g := loadDerived(t, demoDir)
	want := []model.Grave{
		{ID: "s-004", Status: "false", Claim: `For every prime $p$ with $p \equiv 3 \pmod{4}$, the number $4p - 1$ is also prime.`,
			// refuted by a verified disproof: the checker's summary says how
			Disproof: `3 steps checked. $7$ is a prime $\equiv 3 \pmod{4}$ and $4 \cdot 7 - 1 = 27 = 3^3$ is composite, so the claim fails at $p = 7$.`,
			Blocked:  []string{}, Stale: []string{}},
		{ID: "s-013", Status: "abandoned", Claim: `For every integer $n \ge 1$, $\sum_{k=1}^n k^3 = \left(\sum_{k=1}^n k\right)^2$.`,
			Reason:  "given s-009 this claim is equivalent to s-011 itself, so any proof of it is already a proof of s-011 — the induction route through s-012 is enough.",
			Blocked: []string{"p-002", "s-011", "s-015"}, Stale: []string{}},
	}
	if got := model.Graveyard(snap, g); !reflect.DeepEqual(got, want) {
		t.Errorf("graveyard\n got %+v\nwant %+v", got, want)
	}
	fsnap, fg := loadDerived(t, fixtureDir)
	if got := model.Graveyard(fsnap, fg); len(got) != 0 {
		t.Errorf("fixture graveyard %+v", got)
	}
}

// The re-tread threshold, justified on real claims: every pair of distinct claims in the
// demo and the fixture scores under it, the closest related-but-different pairs by a
// margin; rewordings of their claims score over it.
func TestRetreadThreshold(t *testing.T) {
	testutil.Need(t, fixtureDir)
	closest := map[string]string{
		// Σk = n(n+1)/2 against Σk³ = (n(n+1)/2)²: the same symbols, another claim.
		demoDir: "s-009 s-011 0.638",
		// "Olivia says: Alice and I have the same role" against "Ivy says: …".
		fixtureDir: "s-002 s-004 0.557",
	}
	for dir, want := range closest {
		snap, _ := loadDerived(t, dir)
		ix := similar.NewIndex(snap)
		ids := slices.SortedFunc(snap.Statements.Keys(), model.CompareIDs)
		best, bestScore := "", -1.0
		for i, a := range ids {
			for _, b := range ids[i+1:] {
				if s := ix.RepeatScore(a, b); s > bestScore {
					best, bestScore = fmt.Sprintf("%s %s %.3f", a, b, s), s
				}
			}
		}
		if best != want || bestScore > similar.RetreadThreshold-0.1 {
			t.Errorf("%s: closest distinct pair %s, want %s (threshold %v)", dir, best, want, similar.RetreadThreshold)
		}
		if r := ix.Retreads(); len(r) != 0 {
			t.Errorf("%s: re-treads %+v", dir, r)
		}
	}
}

// Rewordings the agents make of settled claims, as new statements in a copy of a folder:
// each is caught, named against the right older statement, and check warns about it.
func TestRetreadsCaught(t *testing.T) {
	for _, c := range []struct {
		dir, id, claim, of, status string
	}{
		{demoDir, "s-018", `For each prime $p \equiv 3 \pmod 4$, $4p-1$ is prime as well.`, "s-004", "false"},
		{demoDir, "s-018", `For all integers $n\geq 1$: $\sum_{k=1}^{n} k = \frac{n (n+1)}{2}$.`, "s-009", "true"},
		{demoDir, "s-018", `For every integer $n \geq 1$, $\sum_{k=1}^n k^3 = \left(\sum_{k=1}^n k\right)^{2}$`, "s-013", "abandoned"},
		{fixtureDir, "s-008", "The unique solution of the puzzle: Olivia is a Knave, Alice is the Spy, and Ivy is a Knave", "s-007", "true"},
	} {
		dir := testutil.Copy(t, c.dir)
		doc := model.NewStatement(c.id, "normal", []string{c.claim}, nil, "pending")
		if err := os.WriteFile(filepath.Join(dir, "statement", c.id+".json"), pyjson.EncodeIndent(doc), 0o644); err != nil {
			t.Fatal(err)
		}
		snap, _ := loadDerived(t, dir)
		got := similar.Retreads(snap)
		if len(got) != 1 || got[0].ID != c.id || got[0].Of != c.of || got[0].OfStatus != c.status || got[0].Score < similar.RetreadThreshold {
			t.Errorf("%q: re-treads %+v, want one of %s", c.claim, got, c.of)
			continue
		}
		t.Logf("%s repeats %s: %.3f", c.id, c.of, got[0].Score)
		findings, err := Check(dir)
		if err != nil {
			t.Fatal(err)
		}
		what := map[string]string{"true": "already holds (true)", "false": "already failed (false)", "abandoned": "was abandoned"}[c.status]
		wantMsg := fmt.Sprintf("re-tread: its claim repeats %s, which %s (similarity %.2f)", c.of, what, got[0].Score)
		found := false
		for _, f := range findings {
			if f.Object == c.id && strings.HasPrefix(f.Msg, "re-tread") {
				found = f.Severity == SeverityWarning && f.Path == "statement/"+c.id+".json" && f.Msg == wantMsg
			}
		}
		if !found {
			t.Errorf("%s: check does not warn %q: %v", c.id, wantMsg, findings)
		}
	}
}

func TestStallDemo(t *testing.T) {
	testutil.Need(t, fixtureDir)
	_, g := loadDerived(t, demoDir)
	last := time.Date(2026, 11, 20, 11, 34, 0, 0, time.UTC) // l-038
	st := model.CheckStall(g, last, LogFile, last.Add(time.Hour), 0)
	// s-016's proposal answers its issue: in the agents' vocabulary it goes back to the checker.
	if !st.Stalled || len(st.Waiting) != 6 ||
		st.Reason != "stalled: nothing changed for 1h0m0s (history/log.jsonl), at least 15m0s, while 6 item(s) are actionable: agent-check s-014, agent-prove s-007, agent-fix s-015, and 3 more" {
		t.Errorf("%+v", st)
	}
	_, fg := loadDerived(t, fixtureDir)
	if st := model.CheckStall(fg, last, LogFile, last.Add(time.Hour), 0); st.Stalled {
		t.Errorf("the solved fixture stalls: %+v", st)
	}
}
