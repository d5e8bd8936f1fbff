package tui

import (
	"reflect"
	"testing"
)

// mathCorpus is a corpus of fixed texts, in order.
type mathCorpus struct{ ids, texts []string }

func (f mathCorpus) Has(id string) bool { return false }
func (f mathCorpus) Order() []string    { return f.ids }
func (f mathCorpus) Text(id string) string {
	for i, x := range f.ids {
		if x == id {
			return f.texts[i]
		}
	}
	return ""
}

// A search matches what the math reads as and the source both.
func TestSearchMatchesReadableMath(t *testing.T) {
	in := mathCorpus{
		ids:   []string{"a", "b", "c", "d"},
		texts: []string{`a $x \equiv 1 \pmod 4$`, "b x ≡ 1 written in Unicode", `c $f: \mathbb{R} \to \mathbb{R}$`, `d $x^2 \leq y$`},
	}
	for q, want := range map[string][]string{
		"≡":       {"a", "b"},
		`\equiv`:  {"a"},
		"ℝ":       {"c"},
		"x² ≤":    {"d"},
		"pmod":    {"a"},
		"nothing": nil,
	} {
		if got := findIn(in, q); !reflect.DeepEqual(got, want) {
			t.Errorf("findIn(%q) = %q, want %q", q, got, want)
		}
	}
}
