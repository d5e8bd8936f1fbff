package tui

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/mattn/go-runewidth"

	"referee/mathtext"
)

// corpusContents writes the real-world proof corpus (model/testdata/corpus) as a
// contents folder: one statement per proof, awaiting verification. It returns the
// folder and the statement IDs.
func corpusContents(t *testing.T) (string, []string) {
	t.Helper()
	f, err := os.Open("../model/testdata/corpus/proofnet.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	dir := filepath.Join(t.TempDir(), "contents")
	for _, sub := range []string{"problem", "statement", "history"} {
		if err := os.MkdirAll(filepath.Join(dir, sub), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	var ids []string
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var p struct{ ID, Statement, Proof string }
		if err := json.Unmarshal(sc.Bytes(), &p); err != nil {
			t.Fatal(err)
		}
		id := fmt.Sprintf("s-%03d", len(ids)+1)
		doc := map[string]any{
			"id": id, "type": "normal", "conclusion": []string{p.Statement}, "hypothesis": []string{},
			"preliminaries": []string{}, "status": "awaiting_verification", "reliability": 0.0,
			"stats": map[string]any{"count_usage": 0}, "progresses": []string{},
			"proof":      map[string]any{"cot": []string{}, "full": p.Proof, "ref": []string{}},
			"validation": map[string]any{"issues": []string{}, "responses": []string{}},
		}
		data, _ := json.MarshalIndent(doc, "", "    ")
		if err := os.WriteFile(filepath.Join(dir, "statement", id+".json"), data, 0o644); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, id)
	}
	cfg := fmt.Sprintf(`{"p": "p-000", "s": %q, "e": "e-000", "l": "l-000"}`, ids[len(ids)-1])
	if err := os.WriteFile(filepath.Join(dir, "config.json"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir, ids
}

// TestCorpusProofsKeepTheBorders: every corpus proof, shown readable in the detail pane
// at 80 and 120 columns (and raw at 80) and scrolled from top to bottom, draws every screen line at
// exactly the terminal's width as a terminal counts cells (per code point, wcwidth
// style), ending on the pane's border: no border shifts.
func TestCorpusProofsKeepTheBorders(t *testing.T) {
	if testing.Short() {
		t.Skip("renders 369 proofs twice")
	}
	dir, ids := corpusContents(t)
	cells := runewidth.NewCondition()
	cells.EastAsianWidth = false
	for _, c := range []struct {
		w, h int
		math mathtext.Mode
	}{{80, 24, mathtext.Unicode}, {120, 40, mathtext.Unicode}, {80, 24, mathtext.Raw}} {
		sz := [2]int{c.w, c.h}
		m := openTestModel(t, dir, sz[0], sz[1])
		m.look.math = c.math
		for _, id := range ids {
			m.reader().follow(id)
			send(t, m, nil)
			if r, _ := m.tree.Selected(); r.ID != id {
				t.Fatalf("%dx%d: %s not selected (on %s)", sz[0], sz[1], id, r.ID)
			}
			for off := 0; ; off += max(m.detail.height-1, 1) {
				m.detail.offset = off
				m.detail.clamp()
				scr := ansi.Strip(m.Render())
				if off == 0 && !strings.Contains(scr, id+" · statement") {
					t.Fatalf("%dx%d: %s not in the detail pane:\n%s", sz[0], sz[1], id, scr)
				}
				for y, l := range strings.Split(scr, "\n") {
					if w := cells.StringWidth(l); w != sz[0] && strings.TrimSpace(l) != "" && y < sz[1]-2 {
						t.Fatalf("%s %dx%d %s, offset %d, line %d is %d cells:\n%s", c.math, sz[0], sz[1], id, off, y, w, scr)
					}
				}
				if off+m.detail.height >= len(m.detail.doc.Lines) {
					break
				}
			}
		}
	}
}
