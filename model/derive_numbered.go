package model

import "slices"

// Numbering is Derive's numbering of a folder's objects (problems, then statements, then
// experiences, each in the order of CompareIDs) and the index of their IDs, made from
// the folder's listing while its files are read (NumberIDs), then given the statements
// read (WithStatements): DeriveStatusNumbered then neither sorts nor indexes the IDs
// after the last read, where `referee status` runs on one goroutine and the other core
// idles. A Numbering serves one derive.
type Numbering struct {
	ids    []string // problems, statements, experiences, each kind in ID order
	np, ns int
	perm   []int32      // statement k in ID order is statement perm[k] as listed
	sts    []*Statement // in ID order, once given
	ix     *IDIndex
}

// NumberIDs numbers the IDs of a folder's listing (pids, sids and eids: the problems',
// statements' and experiences' file names without ".json", each kind in any order). It
// is nil, and status derives as before, unless every problem's and statement's ID is
// valid of its kind and keyable, and no ID is there twice.
func NumberIDs(pids, sids, eids []string) *Numbering {
	if !validOfKind(pids, 'p') || !validOfKind(sids, 's') {
		return nil
	}
	type keyedAt struct {
		key uint64
		at  int32
	}
	keyed := make([]keyedAt, len(sids))
	for i, id := range sids {
		k, ok := idKey(id)
		if !ok {
			return nil
		}
		keyed[i] = keyedAt{k, int32(i)}
	}
	if !ascending(keyed, func(k keyedAt) uint64 { return k.key }) { // a status load lists them sorted (IDOrderKey)
		keyed = radixSortBy(keyed, func(k keyedAt) uint64 { return k.key })
	}
	ps, es := sortIDs(slices.Values(pids), len(pids)), sortIDs(slices.Values(eids), len(eids))
	nb := &Numbering{np: len(ps), ns: len(sids), perm: make([]int32, len(sids))}
	nb.ids = make([]string, 0, len(ps)+len(sids)+len(es))
	nb.ids = append(nb.ids, ps...)
	for k, kd := range keyed {
		nb.ids, nb.perm[k] = append(nb.ids, sids[kd.at]), kd.at
	}
	nb.ids = append(nb.ids, es...)
	if nb.ix = NewIDIndex(nb.ids); nb.ix.dups {
		return nil
	}
	return nb
}

// IDOrderKey is a number of id whose order among valid IDs of one kind is Derive's
// (CompareIDs), one to one among IDs that have one: ok is false for an ID longer than
// eight bytes or without its dash second. A folder's listing sorted by it is in the
// order NumberIDs numbers it.
func IDOrderKey(id string) (key uint64, ok bool) {
	if !keyable(id) {
		return 0, false
	}
	return idKey(id)
}

// ascending says whether the keys of list rise strictly from one to the next.
func ascending[T any](list []T, key func(T) uint64) bool {
	for i := 1; i < len(list); i++ {
		if key(list[i]) <= key(list[i-1]) {
			return false
		}
	}
	return true
}

// WithStatements gives nb the statements read, in the order of the sids NumberIDs was
// given (the statement of each ID); nil (no numbering) if one is missing.
func (nb *Numbering) WithStatements(listed []*Statement) *Numbering {
	if nb == nil || len(listed) != nb.ns {
		return nil
	}
	nb.sts = make([]*Statement, nb.ns)
	for k, at := range nb.perm {
		if nb.sts[k] = listed[at]; nb.sts[k] == nil {
			return nil
		}
	}
	return nb
}

// DeriveStatusNumbered is DeriveStatus(s) numbering the objects as nb does, when nb was
// made (NumberIDs, WithStatements) from the load that made s and holds as many objects
// of each kind; else it is DeriveStatus(s).
func DeriveStatusNumbered(s *Snapshot, nb *Numbering) *Graph {
	if nb == nil || nb.sts == nil || len(s.Problems) != nb.np || s.Statements.Len() != nb.ns ||
		len(s.Experiences) != len(nb.ids)-nb.np-nb.ns {
		nb = nil
	}
	return deriveNumbered(s, true, nb)
}

// index is nb's numbering as Derive's index, taken once.
func (nb *Numbering) index() *index {
	x := &index{ids: nb.ids, ix: nb.ix, np: nb.np, ns: nb.ns, st: nb.sts, ranked: true}
	x.out = make([][]int32, len(x.ids))
	x.kinds = make([][]EdgeKind, len(x.ids)) // and no edges: DeriveStatus keeps none
	nb.sts = nil
	return x
}
