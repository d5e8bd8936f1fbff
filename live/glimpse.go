package live

import (
	"errors"
	"fmt"
	"slices"

	"referee/model"
	"referee/store"
)

// Glimpse is the top of a folder's tree, shown before the folder is read: a first frame
// that waits for the load waits for every file, where its rows name a few dozen. It is
// read from store.Glimpse in rounds: the rows walked so far (under the default folds,
// as firstForest walks them) name objects, or references of their objects, not read
// yet; those are read and the rows walked again, until every row's object and every
// reference of a row's object (but its citations, which make no row) is read or known
// missing. Then the rows are the whole
// tree's first rows, and each row's phase and next agent are Derive's: they read the
// object and its preliminaries (model.PhaseOf). What needs the whole folder is left
// out: no row is marked shared (its other parents may be in files not read), and the
// graph says nothing of what is fully proved or stale, nor counts anything.
type Glimpse struct {
	Rows []TreeRow
	Snap *model.Snapshot
	// Graph holds Roots, the Out of the objects read, and the rows' Phase and Next.
	Graph *model.Graph
}

// glimpseFiles is how many files beyond the problems a glimpse of n rows may read: a
// row whose object has thousands of references (a huge fan-out) would need them all
// for its phase, and the load's frame is then as near.
func glimpseFiles(n int) int { return 16*n + 1024 }

// NewGlimpse reads the first rows of dir's tree (at most rows of them). It fails when
// the folder cannot give a glimpse that the load would not correct: a file that does not
// read cleanly, an object folder that is a link, a tree no longer than the rows or whose
// own groups (unattached objects, broken files) come within them, or more files than a
// glimpse reads.
func NewGlimpse(dir string, rows int) (*Glimpse, error) {
	if rows <= 0 {
		return nil, errors.New("no rows asked for")
	}
	// What it reads is kept (the tree's rows): collecting meanwhile would only mark it.
	defer store.PauseGC()()
	gl, err := store.NewGlimpse(dir)
	if err != nil {
		return nil, err
	}
	snap := gl.Snapshot()
	g := &model.Graph{Roots: model.RootsOf(snap), Out: map[string][]model.Edge{}}
	for id := range snap.Problems {
		if out := model.LinksOf(snap, id); len(out) > 0 {
			g.Out[id] = out
		}
	}
	problems := gl.Files()
	for {
		f := newFirst(snap, g)
		out, more := f.walkRows(nil, rows, &firstLayout{kids: &kidsBuilder{snap: snap, g: g, sh: f.shape}, g: g, built: map[string]bool{}, unshared: true})
		var need []string
		for _, r := range out {
			switch r.Kind {
			case RowMissing:
				if !gl.Known(r.ID) {
					need = append(need, r.ID)
				}
			case RowProblem, RowStatement:
				for _, e := range g.Out[r.ID] {
					// A citation makes no row, and the phase reads none (stale marks do,
					// which a glimpse leaves out).
					if e.Kind != model.EdgeCites && !gl.Known(e.To) {
						need = append(need, e.To)
					}
				}
			}
		}
		if len(need) == 0 && !more {
			return nil, fmt.Errorf("the tree is no longer than %d rows, or its own groups come within them", rows)
		}
		if len(need) == 0 {
			g.Phase, g.Next = model.NewObjects[model.Phase](len(out)), model.NewObjects[string](0)
			for _, r := range out {
				if r.Kind == RowProblem || r.Kind == RowStatement {
					ph, next := model.PhaseOf(snap, r.ID)
					g.Phase.Set(r.ID, ph)
					if next != "" {
						g.Next.Set(r.ID, next)
					}
				}
			}
			return &Glimpse{Rows: out, Snap: snap, Graph: g}, nil
		}
		slices.Sort(need)
		need = slices.Compact(need)
		if gl.Files()-problems+len(need) > glimpseFiles(rows) {
			return nil, fmt.Errorf("its first %d rows need more than %d files", rows, glimpseFiles(rows))
		}
		if err := gl.Read(need); err != nil {
			return nil, err
		}
		for _, id := range need {
			if out := model.LinksOf(snap, id); len(out) > 0 {
				g.Out[id] = out
			}
		}
	}
}
