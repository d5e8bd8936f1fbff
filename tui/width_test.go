package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"referee/cells"
	"referee/internal/testutil"
	"referee/model/pyjson"
)

// troublesome are the texts whose width the views and a renderer counted differently
// (issue 17): emoji ZWJ sequences, variation selectors, skin tones, Devanagari
// conjuncts, Thai; CJK and combining marks for company.
var troublesome = []string{
	"family 👨‍👩‍👧‍👦 and 🏳️‍🌈 flags",
	"smile ☺️ heart ❤️ digit 1️⃣",
	"thumbs 👍🏽👋🏿 skin tones",
	"Devanagari क्षत्रिय श्री हिन्दी",
	"Thai ที่นี่ภาษาไทย น้ำ",
	"CJK 数学の証明 and é̃ combining",
}

// TestBordersStayPutWithTroublesomeText puts those texts in claims, proofs and issues,
// and checks, under both ways a renderer counts cells (per rune; per grapheme with
// mode 2027), that every border is drawn at the same column on every row: the column
// each border character lands on is counted the way the renderer counts.
func TestBordersStayPutWithTroublesomeText(t *testing.T) {
	defer cells.SetMethod(cells.Method())
	dir := testutil.Demo(t)
	for i, id := range []string{"s-014", "s-015", "s-016", "s-009", "s-011", "s-012"} {
		p := filepath.Join(dir, "statement", id+".json")
		doc, err := pyjson.Parse([]byte(readFile(t, p)))
		if err != nil {
			t.Fatal(err)
		}
		text := troublesome[i%len(troublesome)]
		doc.Set("conclusion", pyjson.Strs([]string{text + " " + strings.Join(troublesome, " ")}))
		if proof, ok := doc.Get("proof"); ok && id == "s-014" {
			proof.Set("full", pyjson.Str(strings.Join(troublesome, ". ")+". QED."))
		}
		if err := os.WriteFile(p, pyjson.EncodeIndent(doc), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, method := range []ansi.Method{ansi.WcWidth, ansi.GraphemeWidth} {
		cells.SetMethod(method)
		for _, sz := range [][2]int{{80, 24}, {120, 40}} {
			m := openTestModel(t, dir, sz[0], sz[1])
			for _, step := range [][]string{nil, {"n"}, {"n", "tab", "G"}} {
				keys(t, m, step...)
				tw, _, ph := m.paneSizes()
				lines := strings.Split(ansi.Strip(m.Render()), "\n")
				for y := 1; y < ph-1; y++ {
					want := []int{0, tw - 1, tw, sz[0] - 1}
					if got := borderColumns(lines[y]); !equalInts(got, want) {
						t.Errorf("method %d, %dx%d after %v, row %d: borders at %v, want %v:\n%s", method, sz[0], sz[1], step, y, got, want, lines[y])
					}
				}
				for y, l := range lines {
					if w := cells.Width(l); w != sz[0] {
						t.Errorf("method %d, %dx%d after %v: line %d is %d cells wide", method, sz[0], sz[1], step, y, w)
					}
				}
			}
		}
	}
}

// borderColumns are the columns (as the renderer counts) of the box borders "│" in a
// line.
func borderColumns(line string) []int {
	var out []int
	for i, r := range line {
		if r == '│' {
			out = append(out, cells.Width(line[:i]))
		}
	}
	return out
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
