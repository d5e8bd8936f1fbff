package export

import (
	"strings"
	"testing"

	"referee/gen"
)

// A deep chain exports in bytes linear in its length: indentation stops at
// mdMaxIndent and the items below say their depth.
func TestMarkdownChainIsLinear(t *testing.T) {
	dir := t.TempDir()
	n := 2000
	if err := gen.WriteShape(dir, gen.ShapeChain, n); err != nil {
		t.Fatal(err)
	}
	md := render(t, "md", load(t, dir), Options{})
	if len(md) > 400*n {
		t.Fatalf("%d bytes for a chain of %d", len(md), n)
	}
	if !strings.Contains(md, "\n"+strings.Repeat("  ", mdMaxIndent)+"- (depth 2000) [") {
		t.Fatal("the deepest item does not say its depth at the deepest indentation")
	}
}
