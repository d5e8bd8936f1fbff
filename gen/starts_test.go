package gen

import (
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"referee/model"
)

// The sentence starts gen keeps with each proof (instead of splitting it again at every
// rejection) are the sentences model.SplitSentences finds, on every proof gen writes:
// each first version and each patched one.
func TestSentenceStartsAreTheSplittersOnEveryProof(t *testing.T) {
	var mu sync.Mutex
	proofs, patched := 0, 0
	checkSentences = func(id, proof string, starts []int) {
		want := model.SplitSentences(proof)
		st := &statement{proof: proof, starts: starts}
		mu.Lock()
		defer mu.Unlock()
		proofs++
		if len(starts) != len(want) {
			t.Errorf("%s: %d sentence starts kept, the splitter finds %d sentences in %q", id, len(starts), len(want), proof)
			return
		}
		for k, w := range want {
			got := st.sentence(k)
			w.Paragraph, w.Step = 0, 0
			if got != w {
				t.Errorf("%s: sentence %d kept as %+v, the splitter has %+v", id, k+1, got, w)
				return
			}
		}
		if strings.Contains(proof, " This holds because ") {
			patched++
		}
	}
	defer func() { checkSentences = nil }()
	for _, v := range []model.Vocab{model.P013, model.P014} {
		if err := Generate(filepath.Join(t.TempDir(), "contents"), Config{Statements: 3000, Problems: 30, Seed: 11, Vocabulary: v}); err != nil {
			t.Fatal(err)
		}
	}
	if proofs < 1000 || patched < 100 {
		t.Fatalf("checked %d proofs, %d of them patched; expected more of both", proofs, patched)
	}
}
