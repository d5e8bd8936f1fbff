package live

// RowKind is what a tree row shows.
type RowKind uint8

const (
	RowProblem   RowKind = iota
	RowStatement         // a statement
	RowGroup             // a folded group: premises, unattached, broken files
	RowCycle             // a reference back to an ancestor: the cycle is cut here
	RowMissing           // a reference to an object that does not exist
	RowBroken            // a file that does not parse and has no last good version
)

// TreeRow is one visible row of the tree.
type TreeRow struct {
	Kind    RowKind
	Path    string // the node: IDs from the root, joined by "/"
	ID      string // object ID (for groups: the group key, e.g. "#premises")
	Label   string // groups: "premises (6)"; broken files: the path
	Depth   int
	HasKids bool
	Open    bool
	Shared  bool   // the object appears under several parents
	Edge    string // how the parent references it ("cites", "solution", …) when notable
}
