package model

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// CorpusProof is one proof of the real-world corpus in testdata/corpus (see SOURCE
// there): textbook exercises with their proofs in LaTeX, written by people.
type corpusProof struct {
	ID, Statement, Proof string
}

func loadCorpus(t testing.TB) []corpusProof {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "corpus", "proofnet.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []corpusProof
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var p corpusProof
		if err := json.Unmarshal(sc.Bytes(), &p); err != nil {
			t.Fatalf("corpus line %d: %v", len(out)+1, err)
		}
		out = append(out, p)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// On every corpus proof (and the fixture's and demo's texts): sentences tile the proof,
// no display block is split across sentences, no sentence is delimiters or markers
// only, and every sentence is found again by its text.
func TestCorpusSentences(t *testing.T) {
	corpus := loadCorpus(t)
	if len(corpus) < 300 {
		t.Fatalf("corpus has %d proofs, want at least 300", len(corpus))
	}
	texts := []string{}
	for _, p := range corpus {
		texts = append(texts, p.Proof)
	}
	demo, _ := filepath.Glob("../contents/statement/*.json")
	for _, name := range demo {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		var doc struct{ Proof struct{ Full string } }
		if json.Unmarshal(data, &doc) == nil && doc.Proof.Full != "" {
			texts = append(texts, doc.Proof.Full)
		}
	}
	blocks, sentences := 0, 0
	for i, proof := range texts {
		sents := SplitSentences(proof)
		checkTiling(t, proof, sents)
		checkDisplay(t, proof, sents)
		for j, s := range sents {
			if k, rule := LocateSentence(sents, s.N, s.Text); k != j || rule != LocatedByText {
				t.Fatalf("proof %d sentence %d located as %d by %q", i, s.N, k, rule)
			}
		}
		blocks += len(DisplayBlocks(proof))
		sentences += len(sents)
	}
	t.Logf("%d proofs, %d sentences, %d display blocks kept whole", len(texts), sentences, blocks)
	if blocks < 100 {
		t.Errorf("only %d display blocks in the corpus: is it loaded?", blocks)
	}
}
