package store

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"referee/model"
	"referee/model/pyjson"
	"referee/skill"
)

// Undo reverts one change batch as a change of its own: every object it modified is
// restored from the backup the change made, every object it created is removed (and
// backed up first, so the undo itself can be rewound). It refuses when a later change
// touched the same objects, or when an object no longer holds the version the change
// wrote (a later write not in the log, such as an agent's in place), because reverting
// would silently drop that later work.
//
// The removed objects are listed under the log line's "deleted" and also under
// "modification", with their backups: the agents' rewind reads only creation and
// modification, and restores a modified object from its backup, so a rewind across
// the undo brings them back.
func Undo(dir, changeID string, opts Options) (*Result, error) {
	if err := model.CheckID(changeID, model.KindChange); err != nil {
		return nil, &skill.InputError{Msg: "undo: " + err.Error()}
	}
	if opts.Actor == "" {
		opts.Actor = "agent"
	}
	res, err := retrying(func() (*tx, error) {
		t, err := begin(dir, "undo")
		if err != nil {
			return nil, err
		}
		if err := t.undo(changeID); err != nil {
			t.end()
			return nil, err
		}
		return t, nil
	}, opts)
	if errors.Is(err, errRestoreUndo) {
		return undoRestoreChange(dir, changeID, opts)
	}
	return res, err
}

// PlanUndo works an undo out exactly as Undo would, on the files as they are now, and
// returns what it would write, writing nothing: the workbench shows it, or the reason
// it is refused, before the reviewer says y.
func PlanUndo(dir, changeID string, opts Options) (*Planned, error) {
	if err := model.CheckID(changeID, model.KindChange); err != nil {
		return nil, &skill.InputError{Msg: "undo: " + err.Error()}
	}
	if opts.Actor == "" {
		opts.Actor = "agent"
	}
	t, err := open(dir, "undo", false)
	if err != nil {
		return nil, err
	}
	entries, err := logFrom(filepath.Join(dir, filepath.FromSlash(LogFile)), changeID)
	if err != nil {
		t.end()
		return nil, inputf("undo: cannot read %s: %v", LogFile, unwrapPath(err))
	}
	if err := t.undo(changeID); errors.Is(err, errRestoreUndo) {
		// A rewind or branch switch: every object it changed or removed goes back as it
		// was before it, counters included; worked out as the undo writes it.
		defer t.end()
		counters, branch, _ := restoreLine(entries[0])
		r, err := t.restoreUndo(entries[0], counters, branch, true, opts)
		if err != nil {
			return nil, err
		}
		p := &Planned{Result: Result{Change: r.Change, Skill: "undo", Actor: r.Actor, At: r.At, Created: r.Created,
			Modified: append(slices.Clone(r.Modified), r.Removed...), Deleted: r.Removed,
			Notes: []string{"takes back " + changeID + " (" + entries[0].Skill + "): every object it changed, removed or created goes back as it was before it, and the counters with them"}},
			Discarded: r.Discarded, restore: r}
		return p, nil
	} else if err != nil {
		t.end()
		return nil, err
	}
	p, err := t.plan(opts)
	if p != nil && len(entries) > 0 {
		p.Discarded = entries[:1]
	}
	return p, err
}

// errRestoreUndo says the change to undo is a rewind or a branch switch, which
// undoRestoreChange takes back as a restore batch of its own (rewind.go).
var errRestoreUndo = errors.New("undo of a restore batch")

// superseded refuses an undo of entries[0] when a later change touched its objects:
// reverting would silently drop that later work.
func superseded(entries []model.LogEntry) error {
	target := entries[0]
	touched := map[string]bool{}
	for _, id := range append(append([]string{}, target.Creation...), target.Modification...) {
		touched[id] = true
	}
	for _, later := range entries[1:] {
		for _, id := range append(append([]string{}, later.Creation...), later.Modification...) {
			if touched[id] {
				return &skill.PreconditionError{Object: target.ID, Status: "superseded", Skill: "undo",
					Need: fmt.Sprintf("no later change to its objects, and %s changed %s", later.ID, id)}
			}
		}
	}
	return nil
}

// undoRestoreChange takes back a rewind or a branch switch under the lock.
func undoRestoreChange(dir, changeID string, opts Options) (*Result, error) {
	t, err := begin(dir, "undo")
	if err != nil {
		return nil, err
	}
	defer t.end()
	entries, err := logFrom(filepath.Join(dir, filepath.FromSlash(LogFile)), changeID)
	if err != nil {
		return nil, inputf("undo: cannot read %s: %v", LogFile, unwrapPath(err))
	}
	if len(entries) == 0 {
		return nil, &skill.PreconditionError{Object: changeID, Status: "missing", Skill: "undo"}
	}
	if err := superseded(entries); err != nil {
		return nil, err
	}
	counters, branch, _ := restoreLine(entries[0])
	return t.undoRestore(entries[0], counters, branch, opts)
}

// undo works out the reverting of changeID into the batch.
func (t *tx) undo(changeID string) error {
	entries, err := logFrom(filepath.Join(t.dir, filepath.FromSlash(LogFile)), changeID)
	if err != nil {
		return inputf("undo: cannot read %s: %v", LogFile, unwrapPath(err))
	}
	if len(entries) == 0 {
		return &skill.PreconditionError{Object: changeID, Status: "missing", Skill: "undo"}
	}
	target := entries[0]
	if err := superseded(entries); err != nil {
		return err
	}
	if _, _, ok := restoreLine(target); ok {
		return errRestoreUndo // a rewind or branch switch: undoRestoreChange takes it back
	}
	if err := t.unchangedSince(target); err != nil {
		return err
	}
	for _, id := range target.Modification {
		if !model.ValidID(id, "") || objectFile(id) == "" {
			return inputf("undo: %s names %q, which is not an object ID", changeID, id)
		}
		path := filepath.Join(t.dir, HistoryDir, changeID, id+".json")
		err := backupFolderOK(path)
		var backup []byte
		if err == nil {
			backup, err = readStable(path)
		}
		if err != nil {
			return inputf("undo: the backup of %s in %s/%s is unusable: %v", id, HistoryDir, changeID, err)
		}
		doc, _ := pyjson.Parse(backup)
		if slices.Contains(target.Deleted, id) {
			// An object an undo removed: undoing that undo brings it back.
			o, err := t.object(id)
			if err != nil {
				return err
			}
			if o != nil {
				return &ConflictError{Object: id, Why: fmt.Sprintf("%s removed it, and it exists again (written after %s, not in the log); undoing %s would write over it, so nothing was written", changeID, changeID, changeID)}
			}
			t.create(id, doc)
			continue
		}
		d, err := t.modify(id)
		if err != nil {
			return err
		}
		*d = doc
	}
	for _, id := range target.Creation {
		o, err := t.object(id)
		if err != nil {
			return err
		}
		if o != nil {
			t.deleted = append(t.deleted, id)
		}
	}
	t.extra = append(t.extra, pyjson.M("reverts", pyjson.Str(changeID)))
	return nil
}

// unchangedSince refuses when an object no longer holds the version target wrote: a
// later write that is not in the log (an agent's write in place, by hand) would be
// dropped without a word. The versions are in referee's log lines; for a line without
// them (written by the agents, or by an older referee) the check cannot be made, and a
// note says so.
func (t *tx) unchangedSince(target model.LogEntry) error {
	doc := target.Document()
	versions, _ := doc.Get("versions")
	var unchecked []string
	for _, id := range append(append([]string{}, target.Creation...), target.Modification...) {
		if slices.Contains(target.Deleted, id) || !model.ValidID(id, "") || objectFile(id) == "" {
			continue
		}
		var want string
		if versions != nil && versions.Kind == pyjson.Object {
			if v, ok := versions.Get(id); ok && v.Kind == pyjson.String {
				want = v.Str
			}
		}
		if want == "" {
			unchecked = append(unchecked, id)
			continue
		}
		o, err := t.object(id)
		if err != nil {
			return err
		}
		if o == nil {
			continue // gone: nothing of a later write to drop (a restore says it is missing)
		}
		if got := model.Version(o.orig); got != want {
			return &ConflictError{Object: id, Expected: want, Actual: got,
				Why: fmt.Sprintf("changed after %s (%s wrote version %s, it now holds %s, and no change in the log since made it); undoing %s would drop that write, so nothing was written",
					target.ID, target.ID, want, got, target.ID)}
		}
	}
	if len(unchecked) > 0 {
		t.notes = append(t.notes, fmt.Sprintf("%s's log line records no versions (the agents' lines and older referee lines do not), so whether %s changed since cannot be checked",
			target.ID, strings.Join(unchecked, ", ")))
	}
	return nil
}

// logFrom is the log from the last line of changeID to the end (none when no line has
// it). It reads the log backwards from its end, so undoing a recent change costs the
// lines after it, not the whole log: the workbench plans an undo on a key press.
func logFrom(path, changeID string) ([]model.LogEntry, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, err
	}
	key := []byte(`"` + changeID + `"`)
	var newestFirst []string
	done := false
	err = eachLineBack(f, info.Size(), func(line []byte) bool {
		if len(bytes.TrimSpace(line)) == 0 {
			return false
		}
		newestFirst = append(newestFirst, string(line))
		done = bytes.Contains(line, key) && model.ParseLogLine(0, string(line)).ID == changeID
		return done
	})
	if err != nil {
		return nil, err
	}
	if !done {
		return nil, nil
	}
	out := make([]model.LogEntry, 0, len(newestFirst))
	for i := len(newestFirst) - 1; i >= 0; i-- {
		out = append(out, model.ParseLogLine(0, newestFirst[i]))
	}
	return out, nil
}
