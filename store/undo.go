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
	t, err := prepareUndo(dir, changeID, &opts, true)
	if err != nil {
		return nil, err
	}
	defer t.end()
	return t.commit(opts)
}

// PlanUndo works an undo out exactly as Undo would — the same checks on the log, the
// backups and the objects as they are on disk — and returns what it would write,
// writing nothing (the workbench shows it before y).
func PlanUndo(dir, changeID string, opts Options) (*Planned, error) {
	t, err := prepareUndo(dir, changeID, &opts, false)
	if err != nil {
		return nil, err
	}
	return t.plan(opts)
}

// prepareUndo runs an undo up to the point of writing; on success the caller ends the tx.
func prepareUndo(dir, changeID string, opts *Options, lock bool) (t *tx, err error) {
	if err := model.CheckID(changeID, model.KindChange); err != nil {
		return nil, &InputError{Msg: "undo: " + err.Error()}
	}
	if opts.Actor == "" {
		opts.Actor = "agent"
	}
	t, err = open(dir, "undo", lock)
	if err != nil {
		return nil, err
	}
	opened := t // the returns below set t to nil on an error
	defer func() {
		if err != nil {
			opened.end()
		}
	}()
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
	return t, nil
}
