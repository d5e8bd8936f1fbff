package model_test

import (
	"path/filepath"
	"reflect"
	"testing"

	"referee/gen"
	"referee/model"
	"referee/store"
)

// Derive must compute on generated folders exactly what the reference derivations do.
func TestDeriveMatchesReferenceOnGeneratedFolders(t *testing.T) {
	for _, vocab := range []model.Vocab{model.P013, model.P014} {
		dir := filepath.Join(t.TempDir(), "contents")
		if err := gen.Generate(dir, gen.Config{Statements: 3000, Problems: 30, Seed: 5, Vocabulary: vocab}); err != nil {
			t.Fatal(err)
		}
		snap, err := store.Load(dir)
		if err != nil {
			t.Fatal(err)
		}
		got, want := model.Derive(snap).Plain(), model.RefDerive(snap).Plain() // Plain: without Derive's index
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%s: Derive differs from the reference", vocab)
			diffGraphs(t, got, want)
		}
	}
}

// diffGraphs names the fields that differ.
func diffGraphs(t *testing.T, got, want *model.Graph) {
	t.Helper()
	g, w := reflect.ValueOf(got).Elem(), reflect.ValueOf(want).Elem()
	for i := range g.NumField() {
		if !g.Type().Field(i).IsExported() {
			continue
		}
		if !reflect.DeepEqual(g.Field(i).Interface(), w.Field(i).Interface()) {
			t.Errorf("  field %s differs", g.Type().Field(i).Name)
		}
	}
}
