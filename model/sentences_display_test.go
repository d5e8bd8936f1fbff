package model

import (
	"reflect"
	"strings"
	"testing"
)

// Display blocks are one unit and belong to the sentence they continue (issue 13).
func TestSplitSentencesDisplay(t *testing.T) {
	tests := []struct {
		name  string
		proof string
		want  []string
	}{
		{"blank lines inside $$ continue the sentence before",
			"We use the relation\n\n$$\n\n|x \\pm y|^2=(x \\pm y) \\cdot(x \\pm y)\n\n$$\n\nIf x holds, done.",
			[]string{"We use the relation\n\n$$\n\n|x \\pm y|^2=(x \\pm y) \\cdot(x \\pm y)\n\n$$", "If x holds, done."}},
		{"aligned inside $$ is one block",
			"Hence\n$$\n\\begin{aligned}\na &= b \\\\\n\nc &= d\n\\end{aligned}\n$$\nThus a = d.",
			[]string{"Hence\n$$\n\\begin{aligned}\na &= b \\\\\n\nc &= d\n\\end{aligned}\n$$", "Thus a = d."}},
		{"text after a block that goes on",
			"Then\n\n\\[ x = 1 \\]\n\nso that y. Next.",
			[]string{"Then\n\n\\[ x = 1 \\]\n\nso that y.", "Next."}},
		{"comma after a block",
			"Then $$x. Y$$\n\n, which is it. Done.",
			[]string{"Then $$x. Y$$\n\n, which is it.", "Done."}},
		{"a block standing alone",
			"First.\n\n\\begin{align*}\nx &= 1. \\\\\n\ny &= 2.\n\\end{align*}\n\nLast.",
			[]string{"First.", "\\begin{align*}\nx &= 1. \\\\\n\ny &= 2.\n\\end{align*}", "Last."}},
		{"block after an ended sentence in a paragraph",
			"It is so. \\begin{equation} a. B \\end{equation} where a is 1.",
			[]string{"It is so.", "\\begin{equation} a. B \\end{equation} where a is 1."}},
		{"a sentence starts after a block when the text does",
			"We have $$a = b$$ Hence c.", []string{"We have $$a = b$$", "Hence c."}},
		{"consecutive blocks: the first not ended",
			"So\n$$a = b$$\n\n$$c = d.$$\n\n$$e$$", []string{"So\n$$a = b$$\n\n$$c = d.$$", "$$e$$"}},
		{"unclosed $$ is literal", "It costs $$5. Then stop.", []string{"It costs $$5.", "Then stop."}},
		{"escaped dollars open nothing", "A \\$$ b. C d.", []string{"A \\$$ b.", "C d."}},
		{"nested environments", "Let\n\\begin{cases}\n\\begin{cases} a \\end{cases}\n\nb\n\\end{cases}\nhold.",
			[]string{"Let\n\\begin{cases}\n\\begin{cases} a \\end{cases}\n\nb\n\\end{cases}\nhold."}},
		{"proof environment markers join", "\\begin{proof}\n\nIf x, then y.\n\nSo z.\n\n\\end{proof}",
			[]string{"\\begin{proof}\n\nIf x, then y.", "So z.\n\n\\end{proof}"}},
		{"empty block joins", "A.\n\n$$ $$\n\nB.", []string{"A.\n\n$$ $$", "B."}},
		{"only markers", "$$\n\n$$", []string{"$$\n\n$$"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sents := SplitSentences(tt.proof)
			checkTiling(t, tt.proof, sents)
			checkDisplay(t, tt.proof, sents)
			var got []string
			for _, s := range sents {
				got = append(got, s.Text)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("SplitSentences(%q)\n got %q\nwant %q", tt.proof, got, tt.want)
			}
		})
	}
}

// checkDisplay checks the display properties: no sentence starts strictly inside a
// display block, and no sentence is delimiters and markers only (unless it is the
// whole proof).
func checkDisplay(t testing.TB, proof string, sents []Sentence) {
	t.Helper()
	blocks := DisplayBlocks(proof)
	for _, s := range sents {
		if k := blockAt(blocks, s.Start); k >= 0 && blocks[k].Start < s.Start {
			t.Fatalf("sentence %d starts at %d inside display block [%d:%d] %q", s.N, s.Start, blocks[k].Start, blocks[k].End, proof[blocks[k].Start:blocks[k].End])
		}
		if len(sents) > 1 && IsMarkerOnly(s.Text) {
			t.Fatalf("sentence %d is markers only: %q", s.N, s.Text)
		}
	}
}

func TestDisplayBlocks(t *testing.T) {
	s := "a $x$ $$y$$ \\[z\\] \\begin{align}w\\end{align} \\begin{proof} \\( q \\) $$"
	got := DisplayBlocks(s)
	want := []DisplayBlock{{6, 11}, {12, 17}, {18, 43}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("DisplayBlocks = %v, want %v", got, want)
	}
}

func TestEndsSentence(t *testing.T) {
	for in, want := range map[string]bool{
		"we have": false, "done.": true, "x = 1.$$": true, "$n$.": true, "a.\\end{align*}": true,
		"a. \\\\\n\\end{aligned}\n$$": true, "(so.)": true, "x \\]": false, "": false,
	} {
		if got := endsSentence(in, 0, len(in)); got != want {
			t.Errorf("endsSentence(%q) = %v", in, got)
		}
	}
}

// Hostile splitting: 1 MB of empty display blocks separated by blank lines, one long
// sentence (joining paragraphs looked back over every marker before the bound).
func BenchmarkSplitSentencesDisplayMarkers(b *testing.B) {
	s := strings.Repeat("$$\n\n", (1<<20)/4)
	b.SetBytes(int64(len(s)))
	for b.Loop() {
		_ = SplitSentences(s)
	}
}
