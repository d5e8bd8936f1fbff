package store

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"

	"referee/model"
)

// A glimpse is the top of a folder's tree read before the folder is: a first frame that
// waits for every file waits for ten thousand of them, where the rows it shows name a
// few dozen. Glimpse reads the problems (the tree's roots are among them: only a problem
// names a problem as its subgoal), then the objects its caller asks for by ID, a few at
// a time, as a load reads them. It is a preview the load's own frame replaces, so it
// guesses nothing: the first file it cannot read cleanly ends it.

// maxGlimpseProblems bounds the problems a glimpse reads (all of them, for the roots):
// past it the glimpse would cost a noticeable part of the load it runs before.
const maxGlimpseProblems = 20_000

// Glimpse is a snapshot read object by object: its problems, and the objects Read was
// asked for. Its objects are read as a load reads them (lean); it has no config, log
// or versions, and no broken files (Read refuses instead).
type Glimpse struct {
	dir   string
	snap  *model.Snapshot
	tried map[string]bool // IDs read or found missing
}

// NewGlimpse reads a folder's problems. It fails where the glimpse could differ from
// the load without a broken file to show it (an object folder that is a link, which a
// load lists as broken), when a problem file does not read cleanly, and when the folder
// holds too many problems for a glimpse to be quick.
func NewGlimpse(dir string) (*Glimpse, error) {
	if err := CheckFolder(dir); err != nil {
		return nil, err
	}
	for _, sub := range objectDirs {
		if isLink(dir, sub) {
			return nil, fmt.Errorf("%s: %s", sub, linkReason)
		}
	}
	g := &Glimpse{dir: dir, tried: map[string]bool{}, snap: &model.Snapshot{
		Problems:    map[string]*model.Problem{},
		Statements:  model.NewObjects[*model.Statement](0),
		Experiences: map[string]*model.Experience{},
		Versions:    model.NewObjects[string](0),
	}}
	entries, err := listFolder(filepath.Join(dir, ProblemDir), ProblemDir, false)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%s: %w", ProblemDir, unwrapPath(err))
	}
	if len(entries) > maxGlimpseProblems {
		return nil, fmt.Errorf("%s: %d entries, more than a glimpse reads", ProblemDir, len(entries))
	}
	paths := make([]string, len(entries))
	for i, e := range entries {
		paths[i] = e.path
	}
	if err := g.read(paths); err != nil {
		return nil, err
	}
	return g, nil
}

// Snapshot is what the glimpse has read. Read adds to it in place: take it once done.
func (g *Glimpse) Snapshot() *model.Snapshot { return g.snap }

// Known says whether the object's file was read or found missing: every problem is,
// and what Read was asked for.
func (g *Glimpse) Known(id string) bool {
	return model.KindOf(id) == model.KindProblem || g.tried[id]
}

// Read reads the objects of these IDs that are not Known yet. An ID of no object kind
// names no file: it is missing, as the load finds it.
func (g *Glimpse) Read(ids []string) error {
	var paths []string
	for _, id := range ids {
		if g.Known(id) {
			continue
		}
		g.tried[id] = true
		if rel := objectRelPath(id); rel != "" && model.ValidID(id, model.KindOf(id)) {
			paths = append(paths, rel)
		}
	}
	return g.read(paths)
}

// Files is how many object files the glimpse has asked for.
func (g *Glimpse) Files() int { return len(g.snap.Problems) + len(g.tried) }

func (g *Glimpse) read(paths []string) error {
	if len(paths) == 0 {
		return nil
	}
	for _, r := range readAll(g.dir, paths, nil, nil, nil) {
		switch {
		case r.gone:
			// missing (or not an object file at all, which a load passes over too)
		case r.err != "":
			return fmt.Errorf("%s: %s", r.path, r.err)
		default:
			put(g.snap, r)
		}
	}
	return nil
}
