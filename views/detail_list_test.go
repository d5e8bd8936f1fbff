package views

import (
	"strings"
	"testing"

	"referee/model"

	"github.com/charmbracelet/x/ansi"
)

// A long list of sub-statements shows its first detailListMax, links and all, and says
// how many more there are.
func TestDetailListsArePaged(t *testing.T) {
	snap := &model.Snapshot{Statements: model.ObjectsOf(map[string]*model.Statement{})}
	top := &model.Statement{ID: "s-001", Status: "pending", Conclusion: []string{"c"}}
	last := "s-001"
	for range detailListMax + 50 {
		last, _ = model.NextID(last)
		top.Preliminaries = append(top.Preliminaries, last)
		snap.Statements.Set(last, &model.Statement{ID: last, Status: "pending", Conclusion: []string{"d"}})
	}
	snap.Statements.Set("s-001", top)
	doc := StatementDetail(stylesFor("plain"), snap, model.Derive(snap), "s-001", DetailState{Link: -1}, 80)
	if len(doc.Links) != detailListMax {
		t.Fatalf("%d links, want %d", len(doc.Links), detailListMax)
	}
	text := ansi.Strip(strings.Join(doc.Lines, "\n"))
	if want := "… and 50 more (the tree lists them all)"; !strings.Contains(text, want) {
		t.Fatalf("%q is not in the detail", want)
	}
}
