package model

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"referee/internal/testutil"
)

// CorpusProof is one proof of the real-world corpus in testdata/corpus (see SOURCE
// there): textbook exercises with their proofs in LaTeX, written by people.
type corpusProof struct {
	ID, Statement, Proof string
}

func loadCorpus(t testing.TB) []corpusProof {
	t.Helper()
	return loadCorpusFile(t, filepath.Join("testdata", "corpus", "proofnet.jsonl"))
}

// loadCompetition loads the competition corpus in testdata/competition (see SOURCE
// there): worked solutions of MATH-500, with boxed answers, tables and [asy] figures.
func loadCompetition(t testing.TB) []corpusProof {
	t.Helper()
	return loadCorpusFile(t, filepath.Join("testdata", "competition", "math500.jsonl"))
}

func loadCorpusFile(t testing.TB, name string) []corpusProof {
	t.Helper()
	f, err := os.Open(name)
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
	demo, _ := filepath.Glob(filepath.Join(testutil.DemoDir(), "statement/*.json"))
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

// On every competition solution: sentences tile it, no display block is split, no
// sentence is delimiters only, and each [asy] figure lies whole inside one sentence.
func TestCompetitionSentences(t *testing.T) {
	corpus := loadCompetition(t)
	if len(corpus) < 300 {
		t.Fatalf("competition corpus has %d solutions, want at least 300", len(corpus))
	}
	figures := 0
	for _, p := range corpus {
		sents := SplitSentences(p.Proof)
		checkTiling(t, p.Proof, sents)
		checkDisplay(t, p.Proof, sents)
		for from := 0; ; {
			k := strings.Index(p.Proof[from:], AsyOpen)
			if k < 0 {
				break
			}
			start := from + k
			e := strings.Index(p.Proof[start:], AsyClose)
			if e < 0 {
				break
			}
			end := start + e + len(AsyClose)
			figures++
			inside := false
			for _, s := range sents {
				if s.Start <= start && end <= s.End {
					inside = true
				}
			}
			if !inside {
				t.Errorf("%s: the figure at %d is cut into sentences", p.ID, start)
			}
			from = end
		}
	}
	t.Logf("%d solutions, %d [asy] figures kept whole", len(corpus), figures)
	if figures < 20 {
		t.Errorf("only %d figures in the competition corpus: is it loaded?", figures)
	}
}
