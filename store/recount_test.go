package store

import (
	"os"
	"path/filepath"
	"testing"

	"referee/model"
	"referee/model/pyjson"
)

// A reload updates the vocabulary count from the files it read again: the same count
// as counting every status, as statuses come, change and go.
func TestReloadRecountsTheVocabulary(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, StatementDir), 0o755)
	write := func(id, status string) string {
		rel := StatementDir + "/" + id + ".json"
		doc := pyjson.EncodeIndent(model.NewStatement(id, "normal", []string{"c"}, nil, status))
		if err := os.WriteFile(filepath.Join(dir, rel), doc, 0o644); err != nil {
			t.Fatal(err)
		}
		return rel
	}
	write("s-001", "has_gap")
	write("s-002", "pending")
	snap, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	steps := [][2]string{{"s-003", "validating"}, {"s-004", "validating"}, {"s-001", "validating"}, {"s-002", "awaiting_verification"}, {"s-003", "pending"}}
	for i, step := range steps {
		rel := write(step[0], step[1])
		paths := []string{rel}
		if i == len(steps)-1 {
			os.Remove(filepath.Join(dir, StatementDir, "s-004.json"))
			paths = append(paths, StatementDir+"/s-004.json")
		}
		snap = Reload(dir, snap, paths)
		var want model.VocabCount
		for st := range snap.Statuses {
			want.Add(st)
		}
		if i == 2 && want.Vocab() != model.P014 {
			t.Fatalf("step %d: the test meant the vocabulary to turn P014 here, counting gives %v", i, want.Vocab())
		}
		if snap.VocabCount != want || snap.Vocab != want.Vocab() {
			t.Fatalf("step %d (%v): count %+v (%v), counting all gives %+v (%v)", i, step, snap.VocabCount, snap.Vocab, want, want.Vocab())
		}
	}
}
