package store

import (
	"fmt"
	"os"
	"path/filepath"

	"referee/model"
)

// Undo reverts one change batch as a change of its own: every object it modified is
// restored from the backup the change made, every object it created is removed (and
// backed up first, so the undo itself can be rewound). It refuses when a later change
// touched the same objects, because reverting would silently drop that later work.
func Undo(dir, changeID string, opts Options) (*Result, error) {
	if err := model.CheckID(changeID, model.KindChange); err != nil {
		return nil, &InputError{Msg: "undo: " + err.Error()}
	}
	if opts.Actor == "" {
		opts.Actor = "agent"
	}
	t, err := begin(dir, "undo")
	if err != nil {
		return nil, err
	}
	defer t.end()
	data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(LogFile)))
	if err != nil {
		return nil, inputf("undo: cannot read %s: %v", LogFile, unwrapPath(err))
	}
	entries := ParseLog(string(data))
	at := -1
	for i, e := range entries {
		if e.ID == changeID {
			at = i
		}
	}
	if at < 0 {
		return nil, &PreconditionError{Object: changeID, Status: "missing", Skill: "undo"}
	}
	target := entries[at]
	touched := map[string]bool{}
	for _, id := range append(append([]string{}, target.Creation...), target.Modification...) {
		touched[id] = true
	}
	for _, later := range entries[at+1:] {
		for _, id := range append(append([]string{}, later.Creation...), later.Modification...) {
			if touched[id] {
				return nil, &PreconditionError{Object: changeID, Status: "superseded", Skill: "undo",
					Need: fmt.Sprintf("no later change to its objects, and %s changed %s", later.ID, id)}
			}
		}
	}
	if counters, branch, ok := restoreLine(target); ok { // a rewind or branch switch (rewind.go)
		return t.undoRestore(target, counters, branch, opts)
	}
	for _, id := range target.Modification {
		if !model.ValidID(id, "") || objectFile(id) == "" {
			return nil, inputf("undo: %s names %q, which is not an object ID", changeID, id)
		}
		backup, err := readStable(filepath.Join(dir, HistoryDir, changeID, id+".json"))
		if err != nil {
			return nil, inputf("undo: the backup of %s in %s/%s is unusable: %v", id, HistoryDir, changeID, err)
		}
		doc, err := t.modify(id)
		if err != nil {
			return nil, err
		}
		*doc, _ = model.Parse(backup)
	}
	for _, id := range target.Creation {
		o, err := t.object(id)
		if err != nil {
			return nil, err
		}
		if o != nil {
			t.deleted = append(t.deleted, id)
		}
	}
	t.extra = append(t.extra, model.M("reverts", model.Str(changeID)))
	return t.commit(opts)
}
