package live

import (
	"path"
	"strings"

	"referee/model"
)

// Derive builds everything a snapshot needs for display: its graph and its tree.
func Derive(snap *model.Snapshot) (*model.Graph, *Forest) {
	g := model.Derive(snap)
	return g, newForest(snap, g)
}

// DeriveFrom is Derive for snap, a reload of base's snapshot with the files paths name
// read again: when the changed objects keep their references (an agent's write usually
// changes a status, a proof, an issue or a response) the graph is updated for what they
// touch and the tree keeps base's shape, instead of deriving 10k objects again per
// write. Without a base it derives in full.
func DeriveFrom(base *Forest, snap *model.Snapshot, paths []string) (*model.Graph, *Forest) {
	if base.Partial() {
		base = base.whole(false) // a first frame's tree: its shape is not the whole's
	}
	switch {
	case base == nil:
		return Derive(snap)
	case snap == base.snap:
		return base.g, base
	}
	g, relinked := base.g.Update(base.snap, snap, ChangedIDs(paths))
	if relinked {
		return g, newForest(snap, g)
	}
	return g, base.with(snap, g)
}

// ChangedIDs are the objects a batch of changed files (contents-relative paths)
// touched.
func ChangedIDs(paths []string) []string {
	var ids []string
	for _, p := range paths {
		dir, file := path.Split(p)
		switch dir {
		case "problem/", "statement/", "experience/":
			if id, ok := strings.CutSuffix(file, ".json"); ok {
				ids = append(ids, id)
			}
		}
	}
	return ids
}
