package store

import (
	"maps"

	"referee/model"
)

// reloadMaps is the problems and experiences maps a reload of paths builds on: prev's
// own, shared, when no path can change them (no file of that kind, no ID they hold), a
// copy otherwise. Under an agents' run most changes are statements, and a copy of the
// problems map per change was a fifth of what the live room allocated at 100k
// statements (each allocation brings the next collection nearer, and a key pressed
// during one waits).
func reloadMaps(prev *model.Snapshot, paths []string) (problems map[string]*model.Problem, experiences map[string]*model.Experience) {
	problems, experiences = prev.Problems, prev.Experiences
	var ownProblems, ownExperiences bool
	for _, p := range paths {
		kind, id, ok := objectPath(p)
		if !ok {
			continue
		}
		if _, in := prev.Problems[id]; in || kind == model.KindProblem {
			ownProblems = true
		}
		if _, in := prev.Experiences[id]; in || kind == model.KindExperience {
			ownExperiences = true
		}
	}
	if ownProblems || problems == nil {
		problems = maps.Clone(prev.Problems)
		if problems == nil {
			problems = map[string]*model.Problem{}
		}
	}
	if ownExperiences || experiences == nil {
		experiences = maps.Clone(prev.Experiences)
		if experiences == nil {
			experiences = map[string]*model.Experience{}
		}
	}
	return problems, experiences
}

// deleteOwned deletes id from m when it is there: a map a reload shares with the
// snapshot before it (reloadMaps) is never written, and a delete of an absent key is a
// write to the runtime (readers on other goroutines would see a concurrent write).
func deleteOwned[V any](m map[string]V, id string) {
	//lint:ignore S1033 the guard is the point: delete marks the map written even for an absent key
	if _, ok := m[id]; ok {
		delete(m, id)
	}
}
