package gen_test

import (
	"testing"

	"referee/gen"
	"referee/model"
	"referee/store"
)

// Generated proofs split cleanly: no sentence is delimiters or markers only, and no
// display block is split across sentences (issue 13's goals, on generated trees).
func TestGeneratedProofsSplitCleanly(t *testing.T) {
	dir := generate(t, gen.Config{Statements: 400, Problems: 4, Seed: 5})
	snap, err := store.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	proofs := 0
	for id, st := range snap.Statements.All() {
		proof, err := st.Proof.Text()
		if err != nil || proof == "" {
			continue
		}
		proofs++
		sents := model.SplitSentences(proof)
		blocks := model.DisplayBlocks(proof)
		for _, s := range sents {
			if len(sents) > 1 && model.IsMarkerOnly(s.Text) {
				t.Errorf("%s sentence %d is markers only: %q", id, s.N, s.Text)
			}
			for _, b := range blocks {
				if b.Start < s.Start && s.Start < b.End {
					t.Errorf("%s sentence %d starts inside display block %q", id, s.N, proof[b.Start:b.End])
				}
			}
		}
	}
	if proofs < 50 {
		t.Fatalf("only %d proofs generated", proofs)
	}
}
