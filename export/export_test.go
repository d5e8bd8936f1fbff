package export

import (
	"bytes"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"referee/internal/testutil"
	"referee/model"
	"referee/store"
)

var demoDir = testutil.DemoDir()

var fixtureDir = testutil.Path("fixtures/mra-knights/contents")

var update = flag.Bool("update", false, "rewrite the golden files under testdata/")

func load(t *testing.T, dir string) *model.Snapshot {
	t.Helper()
	testutil.Need(t, dir)
	snap, err := store.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	return snap
}

func render(t *testing.T, format string, snap *model.Snapshot, opts Options) string {
	t.Helper()
	var buf bytes.Buffer
	if err := Write(&buf, format, snap, opts); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

// The fixture in each format, byte for byte.
func TestGoldenFixture(t *testing.T) {
	snap := load(t, fixtureDir)
	for _, format := range Formats {
		got := render(t, format, snap, Options{Source: "mra-knights"})
		path := filepath.Join("testdata", "fixture."+format)
		if *update {
			if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if got != string(want) {
			t.Errorf("%s differs from %s (go test ./export -update rewrites it)", format, path)
		}
	}
	if err := Write(&bytes.Buffer{}, "pdf", snap, Options{}); err == nil || err.Error() != `format "pdf" is not one of md, html, dot` {
		t.Errorf("pdf: %v", err)
	}
}

// Every object of the demo appears in every format with its ID and status word; the
// tree nests sub-statements under their parents; open issues and verified disproofs show.
func TestDemoEveryNode(t *testing.T) {
	snap := load(t, demoDir)
	md := render(t, "md", snap, Options{Source: "contents"})
	html := render(t, "html", snap, Options{Source: "contents"})
	dot := render(t, "dot", snap, Options{Source: "contents"})
	for id, st := range snap.Statements.All() {
		if !strings.Contains(md, "- ["+id+"](#"+id+") `"+st.Status+"`: ") || !strings.Contains(md, "\n### "+id+"\n") {
			t.Errorf("md lacks %s %s", id, st.Status)
		}
		if !strings.Contains(html, `<a class="id" href="#`+id+`">`+id+`</a><span class="badge" style="background: `) || !strings.Contains(html, `<section class="object" id="`+id+`">`) {
			t.Errorf("html lacks %s", id)
		}
		if !strings.Contains(dot, `"`+id+`" [shape=box, style="filled,rounded", penwidth=1, fillcolor=`) || !strings.Contains(dot, `label="`+id+`\n`+st.Status+`\n`) {
			t.Errorf("dot lacks %s", id)
		}
	}
	for id, p := range snap.Problems {
		if !strings.Contains(md, "- ["+id+"](#"+id+") `"+p.Status+"`: ") || !strings.Contains(dot, `label="`+id+`\n`+p.Status+`\n`) {
			t.Errorf("%s missing", id)
		}
	}
	for _, want := range []string{
		"  - [s-011](#s-011) `validating`: ",
		"    - [s-012](#s-012) `validating`: ",
		"      - [s-014](#s-014) `validating`: ",
		"\n## Unattached\n\n- [s-017](#s-017) `pending`: ",
		"Open issues:\n\n- #1, sentence 5 (hidden_assumption): 'Hence $\\sum_{k=1}^n k^3 = m^2$ is a perfect square.' — ",
		"Disproof verified: 3 steps checked. $7$ is a prime",
		"Abandoned: given s-009 this claim is equivalent to s-011 itself",
		"3 problems (2 solved), 17 statements (2 needs proof, 2 awaiting check, 1 has gap, 2 awaiting subs, 8 proved, 1 refuted, 1 abandoned).",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("md lacks %q", want)
		}
	}
	if !strings.Contains(dot, `"p-003" -> "s-009" [style=bold, color="#2e7d32", label="solution"];`) ||
		!strings.Contains(dot, `"s-015" -> "s-011" [style=dotted, label="cites"];`) ||
		!strings.Contains(dot, `fillcolor="#f6b0b0", label="s-004\nfalse\nFor every prime p with p ≡ 3 (mod\n4), the number 4p - 1 is also prime."`) {
		t.Error("dot edges or colours")
	}
	// Right after l-004 of the demo: two problems, six statements.
	h := store.NewHistory(demoDir, snap)
	past, err := h.At("l-004")
	if err != nil {
		t.Fatal(err)
	}
	md4 := render(t, "md", past, Options{Source: "contents", At: "l-004"})
	if !strings.HasPrefix(md4, "# Proof tree of contents as of l-004\n\n2 problems (0 solved), 6 statements (1 awaiting check, 5 proved).\n") ||
		strings.Contains(md4, "s-007") {
		t.Errorf("l-004:\n%s", md4[:200])
	}
}

// The page is self-contained and inert: no script, no external asset, every agent text
// escaped; control characters never reach any format.
func TestHostileText(t *testing.T) {
	s := &model.Snapshot{
		Problems: map[string]*model.Problem{"p-001": {ID: "p-001", Status: "unresolved", Objectives: []string{`Show <b>bold</b> & "quoted"`},
			Progresses: []string{"(s-001) x"}}},
		Statements: model.ObjectsOf(map[string]*model.Statement{"s-001": {ID: "s-001", Status: "pending",
			Conclusion: []string{"<script>alert(1)</script> $a < b$ \x1b[31mred\\l \"q\""},
			Proof:      model.Proof{Full: "Step 1: <img src=x onerror=alert(1)>\n</div><!-- QED."},
			Issues:     []string{"[Issue #1] Sentence 1: '<i>x</i>' | Type: gap | Explanation: e | Fix: f"}}}),
	}
	html := render(t, "html", s, Options{Source: "<x>"})
	for _, bad := range []string{"<script", "<img", "<b>", "<i>", "<!--", "</div><", "\x1b", "http:", "https:", "<link", "url(", "@import"} {
		if strings.Contains(html, bad) {
			t.Errorf("html contains %q", bad)
		}
	}
	for _, want := range []string{"&lt;script&gt;alert(1)&lt;/script&gt; $a &lt; b$", "Step 1: &lt;img src=x onerror=alert(1)&gt;\n&lt;/div&gt;&lt;!-- QED.", "Proof tree of &lt;x&gt;"} {
		if !strings.Contains(html, want) {
			t.Errorf("html lacks %q", want)
		}
	}
	md := render(t, "md", s, Options{})
	if strings.Contains(md, "<script") || strings.Contains(md, "<img") || strings.Contains(md, "\x1b") || !strings.Contains(md, "&lt;script>alert(1)&lt;/script> $a < b$") {
		t.Errorf("md:\n%s", md)
	}
	dot := render(t, "dot", s, Options{})
	if strings.Contains(dot, "\x1b") || !strings.Contains(dot, `a < b\n␛[31mred⁅\\l⁆ \"q\"`) {
		t.Errorf("dot:\n%s", dot)
	}
}

// Graphviz reads the graphs, when it is installed (the test does not need it).
func TestDotParses(t *testing.T) {
	if _, err := exec.LookPath("dot"); err != nil {
		t.Skip("graphviz is not installed")
	}
	for _, dir := range []string{demoDir, fixtureDir} {
		cmd := exec.Command("dot", "-Tsvg")
		cmd.Stdin = strings.NewReader(render(t, "dot", load(t, dir), Options{Source: dir}))
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if out, err := cmd.Output(); err != nil || !bytes.Contains(out, []byte("<svg")) || stderr.Len() > 0 {
			t.Errorf("%s: dot says %v %s", dir, err, stderr.String())
		}
	}
}

// The demo's proofs have math: markdown keeps the source; the HTML page shows it
// readable, with the source in a title (on hover), escaped.
func TestExportMath(t *testing.T) {
	snap := load(t, demoDir)
	md := render(t, "md", snap, Options{})
	page := render(t, "html", snap, Options{})
	if !strings.Contains(md, `$p \equiv 3 \pmod{4}$`) {
		t.Errorf("markdown lost the source of s-004's math")
	}
	want := `<span class="math" title="$p \equiv 3 \pmod{4}$">p ≡ 3 (mod 4)</span>`
	if !strings.Contains(page, want) {
		t.Errorf("html: %q missing", want)
	}
	if strings.Contains(page, `Take $p = 7$`) {
		t.Errorf("html shows the proof's source")
	}
}
