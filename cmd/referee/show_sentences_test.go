package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"referee/internal/testutil"
)

// displayProof is a proof as mathematicians write it: a display block with blank lines
// inside that continues the sentence before it.
const displayProof = "We use the relation\n\n$$\n\n|x \\pm y|^2=(x \\pm y) \\cdot(x \\pm y)\n\n$$\n\nIf $x = y$, then $|2x|^2 = 4|x|^2$. Done."

// demoWithProof copies the demo contents and gives s-015 a proof; it returns the root.
func demoWithProof(t *testing.T, proof string) string {
	t.Helper()
	root := t.TempDir()
	testutil.CopyTree(t, testutil.DemoDir(), filepath.Join(root, "contents"))
	path := filepath.Join(root, "contents", "statement", "s-015.json")
	var doc map[string]any
	if err := json.Unmarshal([]byte(readFile(t, path)), &doc); err != nil {
		t.Fatal(err)
	}
	doc["proof"].(map[string]any)["full"] = proof
	data, _ := json.MarshalIndent(doc, "", "    ")
	writeFile(t, path, string(data))
	return root
}

func TestShowSentences(t *testing.T) {
	root := demoWithProof(t, displayProof)
	referee(t, root, "", "show", "s-015", "--sentences").want(t, 0,
		"[1] We use the relation\n        |x ± y|²=(x ± y) ·(x ± y)\n[2] If x = y, then |2x|² = 4|x|².\n[3] Done.\n", "")
	referee(t, root, "", "show", "s-015", "--sentences", "--math", "raw").want(t, 0,
		"[1] We use the relation\n    $$\n    |x \\pm y|^2=(x \\pm y) \\cdot(x \\pm y)\n    $$\n[2] If $x = y$, then $|2x|^2 = 4|x|^2$.\n[3] Done.\n", "")

	o := referee(t, root, "", "show", "s-015", "--sentences", "--output", "json")
	if o.code != 0 {
		t.Fatalf("exit %d: %s", o.code, o.stderr)
	}
	var got struct {
		ID        string
		Sentences []struct {
			Number    int
			Text, Raw string
		}
	}
	if err := json.Unmarshal([]byte(o.stdout), &got); err != nil {
		t.Fatalf("%v:\n%s", err, o.stdout)
	}
	if got.ID != "s-015" || len(got.Sentences) != 3 || got.Sentences[1].Text != "If x = y, then |2x|² = 4|x|²." {
		t.Fatalf("show --sentences --output json:\n%s", o.stdout)
	}
	// The raw spans, in order, cover the proof: only white space between them.
	rest := displayProof
	for i, s := range got.Sentences {
		if s.Number != i+1 {
			t.Errorf("sentence %d numbered %d", i+1, s.Number)
		}
		trimmed := strings.TrimLeft(rest, " \t\r\n")
		if !strings.HasPrefix(trimmed, s.Raw) || s.Raw == "" {
			t.Fatalf("sentence %d raw %q is not the next span of %q", s.Number, s.Raw, trimmed)
		}
		rest = trimmed[len(s.Raw):]
	}
	if strings.TrimSpace(rest) != "" {
		t.Errorf("the raw spans leave %q", rest)
	}
	if !strings.Contains(o.stdout, `"raw": "We use the relation\n\n$$\n\n|x \\pm y|^2=(x \\pm y) \\cdot(x \\pm y)\n\n$$"`) {
		t.Errorf("the display block is not whole in sentence 1:\n%s", o.stdout)
	}
}

func TestShowSentencesBadUse(t *testing.T) {
	root := demoWithProof(t, displayProof)
	referee(t, root, "", "show", "s-015", "--sentences", "--math", "latex").want(t, 2, "", "referee: --math: \"latex\" is not raw or unicode\n")
	referee(t, root, "", "show", "s-015", "--math", "raw").want(t, 2, "", "referee: --math goes with --sentences (referee show ID --sentences --math raw)\n")
	referee(t, root, "", "show", "p-001", "--sentences").want(t, 2, "", "referee: show --sentences: p-001 is not a statement (only statements have a proof)\n")
	referee(t, root, "", "show", "s-015", "--sentences", "--output", "yaml").want(t, 2, "", "referee: --output: \"yaml\" is not text or json\n")
	o := referee(t, root, "", "show", "s-099", "--sentences")
	if o.code != 1 || !strings.Contains(o.stderr, "s-099 does not exist") {
		t.Errorf("missing statement: exit %d, %q", o.code, o.stderr)
	}
	if _, err := os.Stat(filepath.Join(root, "contents", "statement", "s-099.json")); err == nil {
		t.Error("a statement appeared")
	}
}
