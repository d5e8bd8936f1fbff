package model_test

import (
	"path/filepath"
	"testing"

	"referee/gen"
	"referee/model"
	"referee/store"
)

// On generated folders (realistic trees in both vocabularies), random agents' edits
// keep Graph.Update equal to Derive, edit after edit.
func TestGraphUpdateOnGeneratedFolders(t *testing.T) {
	for i, vocab := range []model.Vocab{model.P013, model.P014} {
		dir := filepath.Join(t.TempDir(), "contents")
		if err := gen.Generate(dir, gen.Config{Statements: 1000, Problems: 12, Seed: 11, Vocabulary: vocab}); err != nil {
			t.Fatal(err)
		}
		snap, err := store.Load(dir)
		if err != nil {
			t.Fatal(err)
		}
		if kept := model.CheckUpdates(t, snap, uint64(i), 120); kept < 20 {
			t.Errorf("%s: only %d of 120 batches kept the links", vocab, kept)
		}
	}
}
