package model_test

import (
	"path/filepath"
	"testing"

	"referee/gen"
	"referee/model"
	"referee/store"
)

// On a generated folder (a realistic tree, with graves and a review queue), random
// agents' edits keep the graveyard and the review queue kept from version to version
// equal to full passes.
func TestGravesOnGeneratedFolder(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "contents")
	if err := gen.Generate(dir, gen.Config{Statements: 1000, Problems: 12, Seed: 23}); err != nil {
		t.Fatal(err)
	}
	snap, err := store.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if n := len(model.Graveyard(snap, model.Derive(snap))); n < 5 {
		t.Fatalf("the generated folder has %d graves: too few to test", n)
	}
	if kg, kq := model.CheckExtrasUpdates(t, snap, 3, 120); kg < 20 || kq < 5 {
		t.Errorf("the kept ways were hardly taken: graves kept in %d updates, the queue in %d", kg, kq)
	}
}
