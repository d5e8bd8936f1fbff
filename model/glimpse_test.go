package model_test

import (
	"path/filepath"
	"slices"
	"testing"

	"referee/gen"
	"referee/internal/testutil"
	"referee/model"
	"referee/store"
)

// What a glimpse says of one object (RootsOf, LinksOf, PhaseOf) is what Derive says of
// it, on the demo, generated runs in both vocabularies and the agents' own runs.
func TestGlimpseOfAnObjectAsDerive(t *testing.T) {
	dirs := map[string]string{"demo": testutil.Demo(t)}
	for _, vocab := range []model.Vocab{model.P013, model.P014} {
		dir := filepath.Join(t.TempDir(), "contents")
		if err := gen.Generate(dir, gen.Config{Statements: 800, Problems: 9, Seed: 5, Vocabulary: vocab}); err != nil {
			t.Fatal(err)
		}
		dirs["generated "+string(vocab)] = dir
	}
	// The agents' runs when ../shared is there (a fresh clone has none: the rest stands).
	more, _ := filepath.Glob(filepath.Join(testutil.Path("fixtures"), "*", "contents"))
	for _, d := range more {
		dirs[filepath.Base(filepath.Dir(d))] = d
	}
	next, phases := 0, map[model.Phase]bool{} // over all the folders: a finished run has one phase
	for name, dir := range dirs {
		snap, err := store.Load(dir)
		if err != nil {
			t.Fatal(err)
		}
		g := model.Derive(snap)
		if got := model.RootsOf(snap); !slices.Equal(got, g.Roots) {
			t.Errorf("%s: roots %v, Derive's %v", name, got, g.Roots)
		}
		check := func(id string) {
			if got := model.LinksOf(snap, id); !slices.Equal(got, g.Out[id]) {
				t.Errorf("%s: %s links %+v, Derive's %+v", name, id, got, g.Out[id])
			}
			ph, agent := model.PhaseOf(snap, id)
			if ph != g.Phase.Get(id) || agent != g.Next.Get(id) {
				t.Errorf("%s: %s phase %v next %q, Derive's %v %q", name, id, ph, agent, g.Phase.Get(id), g.Next.Get(id))
			}
			phases[ph] = true
			if agent != "" {
				next++
			}
		}
		for id := range snap.Problems {
			check(id)
		}
		for id := range snap.Statements.Keys() {
			check(id)
		}
	}
	if len(phases) < 5 || next < 50 {
		t.Errorf("the folders show %d phases and %d next agents: too few to tell", len(phases), next)
	}
}
