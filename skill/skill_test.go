package skill

import (
	"referee/model/pyjson"
	"strings"
	"testing"
)

// Accepting under a parent statement puts the new statement in the old one's place among
// its preliminaries, keeping an item's text.
func TestReplacePreliminaryKeepsThePlace(t *testing.T) {
	doc := pyjson.Obj(pyjson.M("preliminaries", pyjson.Strs([]string{"s-001", "(s-002) a lemma", "s-003"})))
	replacePreliminary(&doc, "s-002", "s-009")
	replacePreliminary(&doc, "s-003", "s-010")
	replacePreliminary(&doc, "s-404", "s-011")
	got, _ := doc.Get("preliminaries")
	list, _ := got.StringList()
	if strings.Join(list, "|") != "s-001|(s-009) a lemma|s-010|s-011" {
		t.Fatalf("preliminaries %q", list)
	}
}
