package store

// Rewind, and the writer it shares with branch switches and their undo: one change batch
// that sets a set of objects to given bytes (or removes them) and the config counters
// to given IDs.
//
// The batch is an ordinary change for every reader: journaled (batch.go), a backup of
// every object it changes or removes, one log line. Objects it writes back that do not
// exist now are under "creation"; objects it changes are under "modification", and so
// are the ones it removes (also under "deleted"): the agents' rewind.py restores
// everything under "modification" from the backups, so it can rewind past a rewind.
// The line also keeps the counters as they were ("counters_before"), which is what lets
// Undo take the whole batch back, counters included.
//
// Object bytes are copied as they are, never re-encoded: a rewind then an undo leaves
// every object file byte for byte as it was.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/gofrs/flock"

	"referee/model"
	"referee/model/pyjson"
	"referee/skill"
	"referee/store/consequence"
)

// Skills of the batches written here, as the log line's "skill" names them.
const (
	SkillRewind       = "rewind"
	SkillBranchSave   = "branch save"
	SkillBranchSwitch = "branch switch"
)

// counterKinds are the object counters a rewind or a branch switch sets back; the change
// counter "l" only moves on (a change ID is never issued twice).
var counterKinds = []string{model.KindProblem, model.KindStatement, model.KindExperience}

// Restore is what a rewind, a branch switch or the undo of either did (or, with DryRun,
// would do).
type Restore struct {
	Change  string `json:"change"` // the change it was (would be) written as
	Skill   string `json:"skill"`
	Actor   string `json:"actor"`
	At      string `json:"at"`
	To      string `json:"to,omitempty"`      // a rewind: the change the folder goes back to
	Branch  string `json:"branch,omitempty"`  // a branch switch: the line the folder goes to
	From    string `json:"from,omitempty"`    // a branch switch: the line saved before
	Reverts string `json:"reverts,omitempty"` // an undo: the change it takes back
	// Created are objects written back that do not exist now, Modified objects set to
	// another version, Removed objects removed.
	Created  []string `json:"created"`
	Modified []string `json:"modified"`
	Removed  []string `json:"removed"`
	// Counters are config.json's p, s and e counters before and after.
	CountersBefore []string `json:"counters_before"`
	CountersAfter  []string `json:"counters_after"`
	DryRun         bool     `json:"dry_run,omitempty"`
	// Discarded are the log lines of the changes a rewind takes back (a dry run's). Read
	// back from the log's end, their Line numbers say their order, not where they are.
	Discarded []model.LogEntry `json:"-"`
	// Consequences is what the batch does to the run, when the caller worked it out
	// (store/consequence: the CLI's dry runs and the workbench's confirmation).
	Consequences *consequence.Report `json:"consequences,omitempty"`
	writes       []restoreObj        // a dry run's objects, for Writes
}

// Writes is what a dry run would write to each object (nil Doc: removed), for the
// consequences. An object whose backup does not parse is left out (the write refuses it).
func (r *Restore) Writes() []consequence.Write {
	out := make([]consequence.Write, 0, len(r.writes))
	for _, o := range r.writes {
		w := consequence.Write{ID: o.id}
		if o.after != nil {
			doc, err := pyjson.Parse(o.after)
			if err != nil {
				continue
			}
			w.Doc = &doc
		}
		out = append(out, w)
	}
	return out
}

// Summary says in one line what the batch does to which objects.
func (r *Restore) Summary() string {
	var parts []string
	for _, p := range []struct {
		verb string
		ids  []string
	}{{"removes", r.Removed}, {"restores", r.Created}, {"sets back", r.Modified}} {
		if len(p.ids) > 0 {
			parts = append(parts, fmt.Sprintf("%s %d (%s)", p.verb, len(p.ids), abbreviate(p.ids, 8)))
		}
	}
	if !slices.Equal(r.CountersBefore, r.CountersAfter) {
		parts = append(parts, fmt.Sprintf("counters %s → %s", strings.Join(r.CountersBefore, " "), strings.Join(r.CountersAfter, " ")))
	}
	if len(parts) == 0 {
		return "changes no object"
	}
	return strings.Join(parts, "; ")
}

func abbreviate(ids []string, n int) string {
	if len(ids) <= n {
		return strings.Join(ids, ", ")
	}
	return strings.Join(ids[:n], ", ") + fmt.Sprintf(", … %d more", len(ids)-n)
}

// restoreObj is one object a restore batch writes: before is the file now (nil: absent),
// after what it becomes (nil: removed).
type restoreObj struct {
	id            string
	before, after []byte
}

// BusyError says a change is being written (or was interrupted) so the command refused
// rather than wait or write over it. Nothing was written.
type BusyError struct{ Msg string }

func (e *BusyError) Error() string { return e.Msg }

// beginNow starts a batch like begin, but refuses instead of waiting when another writer
// holds the lock, and refuses while an interrupted change's journal is left.
func beginNow(dir, skill string) (*tx, error) {
	if info, err := os.Stat(dir); err != nil || !info.IsDir() {
		return nil, inputf("contents folder %s does not exist (pass --contents)", dir)
	}
	if err := refuseUnsafe(dir); err != nil {
		return nil, err
	}
	if err := refuseWithoutConfig(dir); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Join(dir, HistoryDir), 0o755); err != nil {
		return nil, inputf("cannot create %s: %v", filepath.Join(dir, HistoryDir), unwrapPath(err))
	}
	l := flock.New(filepath.Join(dir, filepath.FromSlash(LockFile)))
	ok, err := l.TryLock()
	if err != nil {
		return nil, inputf("cannot lock %s: %v", LockFile, unwrapPath(err))
	}
	if !ok {
		return nil, &BusyError{Msg: fmt.Sprintf("%s: a change is being written to %s (%s is held); nothing was changed: try again when it is done", skill, dir, LockFile)}
	}
	if err := interrupted(dir, skill); err != nil {
		_ = l.Unlock()
		return nil, err
	}
	t, err := open(dir, skill, false)
	if err != nil {
		_ = l.Unlock()
		return nil, err
	}
	t.lock = l
	return t, nil
}

// pendingJournal names a journal left by an interrupted change, or "". It looks by
// name: the change journalMark names, and, for a journal a referee without marks left,
// the change config.json says was the last and the one after it. A folder without a
// mark (none written yet, or a referee without marks wrote last) or with one that is
// not a change's ID has every name in history/ listed. A name that cannot be looked at
// counts as a journal: the writer refuses rather than guess.
func pendingJournal(dir string) string {
	if data, err := readNoFollowLimit(filepath.Join(dir, filepath.FromSlash(journalMark)), 64); err == nil {
		if id, ok := strings.CutSuffix(string(data), "\n"); ok && model.ValidID(id, model.KindChange) {
			candidates := []string{id}
			if data, err := readNoFollow(filepath.Join(dir, ConfigFile)); err == nil {
				if last := configCounters(data)[model.KindChange]; last != "" {
					candidates = append(candidates, last)
					if next, err := model.NextID(last); err == nil {
						candidates = append(candidates, next)
					}
				}
			}
			for _, c := range candidates {
				j := journalFile(c)
				if _, err := os.Lstat(filepath.Join(dir, filepath.FromSlash(j))); !errors.Is(err, fs.ErrNotExist) {
					return j
				}
			}
			return ""
		}
	}
	return listedJournal(dir)
}

// listedJournal names the first journal a listing of history/ finds, or "".
func listedJournal(dir string) string {
	entries, _ := os.ReadDir(filepath.Join(dir, HistoryDir))
	for _, e := range entries {
		if journalName.MatchString(e.Name()) {
			return HistoryDir + "/" + e.Name()
		}
	}
	return ""
}

// Busy says (as a BusyError) when a change is being written to dir or was interrupted;
// nil when a writer could start now. The CLI's undo asks before it waits for the lock.
func Busy(dir, skill string) error {
	path := filepath.Join(dir, filepath.FromSlash(LockFile))
	if info, err := os.Lstat(path); err == nil && info.Mode().IsRegular() {
		l := flock.New(path)
		if ok, err := l.TryLock(); err == nil {
			if !ok {
				return &BusyError{Msg: fmt.Sprintf("%s: a change is being written to %s (%s is held); nothing was changed: try again when it is done", skill, dir, LockFile)}
			}
			_ = l.Unlock()
		}
	}
	return interrupted(dir, skill)
}

// interrupted refuses (as a BusyError) while an interrupted change's journal is left:
// a write over it could re-create what the change removed, or change what repair must
// compare, and repair would then have to guess. Every writer asks under the lock.
func interrupted(dir, skill string) error {
	if j := pendingJournal(dir); j != "" {
		return &BusyError{Msg: fmt.Sprintf("%s: a change was interrupted (%s is left); nothing was changed: run `referee repair` first", skill, j)}
	}
	return nil
}

// Rewind sets the folder to its state right after change changeID (l-000 is refused:
// refuseBeforeFirst): every object as it was, objects created later removed, the p, s and e
// counters as they were. It is one
// change batch of its own, which Undo takes back. With dryRun it writes nothing and
// says what it would do. It refuses while another change is being written.
func Rewind(dir, changeID string, dryRun bool, opts Options) (*Restore, error) {
	if err := model.CheckID(changeID, model.KindChange); err != nil && changeID != beforeFirst {
		return nil, &skill.InputError{Msg: "rewind: " + err.Error()}
	}
	if changeID == beforeFirst {
		return nil, &skill.InputError{Msg: refuseBeforeFirst}
	}
	t, err := beginNow(dir, SkillRewind)
	if err != nil {
		return nil, err
	}
	defer t.end()
	objs, counters, discarded, err := t.planRewind(changeID)
	if err != nil {
		return nil, err
	}
	if len(objs) == 0 && slices.Equal(counters, t.counters()) {
		return nil, &NothingToDoError{skill.InputError{Msg: fmt.Sprintf("rewind: the folder is as it was right after %s; nothing to do", changeID)}}
	}
	r := &Restore{Skill: SkillRewind, To: changeID, Discarded: discarded}
	return r, t.writeRestore(r, objs, counters, []pyjson.Member{pyjson.M("rewind_to", pyjson.Str(changeID))}, dryRun, opts)
}

// beforeFirst names the folder before its first change, as the agents' rewind.py does:
// a rewind to it removes every object a change created and sets the counters to -000.
const beforeFirst = "l-000"

// refuseBeforeFirst is why a rewind to l-000 is refused: referee's rewind is a change of
// its own, so config.json's l moves on, and the agents' current.py reads a folder with no
// open work and l past l-000 as "Puzzle Solved": their orchestrator would stop instead of
// calling agent-initialize.
const refuseBeforeFirst = "rewind: l-000 is refused: a rewind is a change of its own, so config.json's l moves on, and the agents' " +
	"current.py would read the emptied folder as \"Puzzle Solved\" (not \"Not Initialized\"), so their orchestrator would stop " +
	"instead of calling agent-initialize; nothing was changed. Rewind to the first change instead (referee log lists it), " +
	"or start a new folder with referee init"

// PlanRewind is Rewind with dryRun, for the workbench: what a rewind to changeID would
// remove and restore. It does not wait for a writer either.
func PlanRewind(dir, changeID string) (*Restore, error) {
	return Rewind(dir, changeID, true, Options{})
}

// readLog reads and parses the log under the lock.
func (t *tx) readLog() ([]model.LogEntry, error) {
	data, err := readLogNoFollow(filepath.Join(t.dir, filepath.FromSlash(LogFile)))
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil
		}
		return nil, inputf("%s: cannot read %s: %v", t.skill, LogFile, unwrapPath(err))
	}
	return ParseLog(string(data)), nil
}

// readLogTail reads the log's tail under the lock (as LoadTail does): its last lines
// parsed, those before only counted (head).
func (t *tx) readLogTail() ([]model.LogEntry, model.LogHead, error) {
	entries, mark, err := readLog(t.dir, nil, true)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, model.LogHead{}, nil
		}
		return nil, model.LogHead{}, inputf("%s: cannot read %s: %v", t.skill, LogFile, unwrapPath(err))
	}
	var head model.LogHead
	if mark != nil {
		head = mark.head
	}
	return entries, head, nil
}

// planRewind works out the objects and counters of a rewind to changeID, from the log
// and the backups as History reads them, and the log lines of the changes it discards.
func (t *tx) planRewind(changeID string) ([]restoreObj, []string, []model.LogEntry, error) {
	objs, counters, entries, line, err := t.planRewindObjects(changeID)
	if err != nil {
		return nil, nil, nil, err
	}
	var discarded []model.LogEntry
	for _, e := range entries {
		if e.Line > line && e.ID != "" {
			discarded = append(discarded, e)
		}
	}
	return objs, counters, discarded, nil
}

func (t *tx) planRewindObjects(changeID string) (_ []restoreObj, _ []string, entries []model.LogEntry, line int, _ error) {
	// What a rewind undoes is in the lines after its target: a rewind of a recent change
	// reads the log back from its end to the target (readRecent), else the log's tail
	// (its lines before counted, not parsed), the whole log only when the target is older
	// than the tail. A line after the target that does not parse is named by its number,
	// so then the tail is read.
	var head model.LogHead
	var err error
	if r, ok := readRecent(t.dir, false, func(line []byte) bool { return changeLine(line, changeID) }); ok &&
		!slices.ContainsFunc(r.entries[1:], func(e model.LogEntry) bool { return e.Err != "" }) {
		entries, head = r.entries, r.head
	} else {
		entries, head, err = t.readLogTail()
		if err == nil && head.Lines > 0 && (changeID == beforeFirst || !slices.ContainsFunc(entries, func(e model.LogEntry) bool { return e.ID == changeID })) {
			head = model.LogHead{}
			entries, err = t.readLog()
		}
		if err != nil {
			return nil, nil, nil, 0, err
		}
	}
	h := NewHistory(t.dir, &model.Snapshot{Log: entries, LogHead: head})
	i := -1
	counters := []string{"p-000", "s-000", "e-000"}
	if changeID != beforeFirst {
		if i, err = h.Index(changeID); err != nil {
			return nil, nil, nil, 0, inputf("rewind: %v", err)
		}
		target := h.log[i]
		line = target.Line
		if counters, err = countersOf(target.Current); err != nil {
			return nil, nil, nil, 0, inputf("rewind: the log line of %s: %v", changeID, err)
		}
	}
	for _, e := range entries {
		if e.Line > line && e.Err != "" {
			return nil, nil, nil, 0, inputf("rewind: line %d of %s does not parse (%s): what the changes after %s did is unknown", e.Line, LogFile, e.Err, changeID)
		}
	}
	ids := map[string]bool{}
	h.objects(func(id string) { ids[id] = true })
	sorted := make([]string, 0, len(ids))
	for id := range ids {
		if model.ValidID(id, "") && objectFile(id) != "" {
			sorted = append(sorted, id)
		}
	}
	slices.SortFunc(sorted, model.CompareIDs)
	// The files are read by a few goroutines at once: a rewind deep into a big run
	// reads thousands, and the reads wait on the disk more than on the CPU.
	type item struct {
		id, backup string // backup: "" when the object did not exist then
		obj        restoreObj
		skip       bool
		err        error
	}
	var items []item
	for _, id := range sorted {
		kind, j := h.source(id, i, func(int) bool { return true })
		if kind == sourceNow {
			continue
		}
		it := item{id: id}
		if kind == sourceBackup {
			it.backup = HistoryDir + "/" + h.log[j].ID + "/" + id + ".json"
		}
		items = append(items, it)
	}
	fetch := func(it *item) {
		var want, now []byte
		var err error
		if it.backup != "" {
			want, err = readBackup(t.abs(it.backup))
			if err == nil {
				_, err = pyjson.Parse(want)
			}
			if err != nil {
				it.err = inputf("rewind: %s, which holds %s as it was after %s, is unusable: %v", it.backup, it.id, changeID, unwrapPath(err))
				return
			}
			now, err = t.fileNow(it.id)
		} else {
			now, err = t.fileToRemove(it.id)
		}
		if err != nil {
			it.err = err
			return
		}
		it.skip = (now == nil && want == nil) || (now != nil && want != nil && bytes.Equal(now, want))
		it.obj = restoreObj{id: it.id, before: now, after: want}
	}
	const readers = 4
	var wg sync.WaitGroup
	for r := range readers {
		wg.Go(func() {
			for k := r; k < len(items); k += readers {
				fetch(&items[k])
			}
		})
	}
	wg.Wait()
	var objs []restoreObj
	for _, it := range items {
		if it.err != nil {
			return nil, nil, nil, 0, it.err
		}
		if !it.skip {
			objs = append(objs, it.obj)
		}
	}
	return objs, counters, entries, line, nil
}

func (t *tx) abs(rel string) string { return filepath.Join(t.dir, filepath.FromSlash(rel)) }

// fileNow is object id's file as it is now, nil when there is none. A link or anything
// but a plain file is refused. It reads the way a change reads what it modifies
// (readStable: never a half-written version).
func (t *tx) fileNow(id string) ([]byte, error) { return t.objectBytes(id, readStable) }

// fileToRemove is fileNow for an object the batch removes: its bytes only go to the
// journal's hash (the file itself becomes the backup), so they are read once, unparsed.
func (t *tx) fileToRemove(id string) ([]byte, error) { return t.objectBytes(id, readNoFollow) }

func (t *tx) objectBytes(id string, read func(string) ([]byte, error)) ([]byte, error) {
	rel := objectRelPath(id)
	info, err := os.Lstat(t.abs(rel))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err == nil && !info.Mode().IsRegular() {
		return nil, linkf("%s: %s is not a regular file (links and folders are not followed)", t.skill, rel)
	}
	data, err := read(t.abs(rel))
	if err != nil {
		return nil, inputf("%s: %s: %v", t.skill, rel, unwrapPath(err))
	}
	return data, nil
}

// counters is config.json's p, s and e counters as this batch read them.
func (t *tx) counters() []string {
	out := make([]string, len(counterKinds))
	for i, k := range counterKinds {
		out[i] = k + "-000"
		if v, ok := t.last[k]; ok {
			out[i] = v
		}
	}
	return out
}

// countersOf checks a log line's "current" (or a saved branch's counters): p, s, e.
func countersOf(list []string) ([]string, error) {
	if len(list) != len(counterKinds) {
		return nil, fmt.Errorf("expected \"current\" to list the last p, s and e IDs, found %q", list)
	}
	for i, k := range counterKinds {
		if !model.ValidID(list[i], k) && list[i] != k+"-000" {
			return nil, fmt.Errorf("%q in \"current\" is not a %s ID", list[i], model.KindName(k))
		}
	}
	return slices.Clone(list), nil
}

// writeRestore fills r and, unless dryRun, writes objs and counters as one change batch
// whose log line carries extra.
func (t *tx) writeRestore(r *Restore, objs []restoreObj, counters []string, extra []pyjson.Member, dryRun bool, opts Options) error {
	if opts.Actor == "" {
		opts.Actor = "agent"
	}
	now := time.Now
	if opts.Now != nil {
		now = opts.Now
	}
	before := t.counters()
	lid, err := t.newID(model.KindChange)
	if err != nil {
		return err
	}
	r.Change, r.Actor, r.At, r.DryRun = lid, opts.Actor, now().UTC().Format(time.RFC3339), dryRun
	r.CountersBefore, r.CountersAfter = before, counters
	r.Created, r.Modified, r.Removed = []string{}, []string{}, []string{}
	b := &batch{dir: t.dir, change: lid, configBefore: t.cfgOrig}
	var modified, removed []batchObject
	for _, o := range objs {
		switch {
		case o.before == nil:
			r.Created = append(r.Created, o.id)
			b.objects = append(b.objects, batchObject{id: o.id, after: o.after, created: true})
		case o.after == nil:
			r.Removed = append(r.Removed, o.id)
			removed = append(removed, batchObject{id: o.id, before: o.before, deleted: true, move: true})
		default:
			r.Modified = append(r.Modified, o.id)
			modified = append(modified, batchObject{id: o.id, before: o.before, after: o.after})
		}
	}
	if dryRun {
		r.writes = objs
		return nil
	}
	b.objects = append(append(b.objects, modified...), removed...)
	cfg := t.cfg
	cfg.Obj = slices.Clone(cfg.Obj)
	for i, k := range counterKinds {
		cfg.Set(k, pyjson.Str(counters[i]))
	}
	cfg.Set(model.KindChange, pyjson.Str(lid))
	b.config = pyjson.EncodeIndent(cfg)
	line := pyjson.Obj(
		pyjson.M(lid, pyjson.Obj(pyjson.M("creation", pyjson.Strs(r.Created)),
			pyjson.M("modification", pyjson.Strs(append(slices.Clone(r.Modified), r.Removed...))))),
		pyjson.M("current", pyjson.Strs(counters)),
		pyjson.M("at", pyjson.Str(r.At)),
		pyjson.M("by", pyjson.Str(opts.Actor)),
		pyjson.M("skill", pyjson.Str(r.Skill)),
	)
	if len(r.Removed) > 0 {
		line.Set("deleted", pyjson.Strs(r.Removed))
	}
	for _, m := range extra {
		line.Set(m.Key, m.Value)
	}
	line.Set(keyCountersBefore, pyjson.Strs(before))
	b.line = pyjson.EncodeLine(line)
	return b.write()
}

// keyCountersBefore is the log key of a restore batch that keeps the counters it set back.
const keyCountersBefore = "counters_before"

// restoreLine reads the keys a restore batch (rewind, branch switch or save, or the undo
// of one) adds to its log line; ok is false for any other line.
func restoreLine(e model.LogEntry) (counters []string, branchBefore string, ok bool) {
	if !strings.Contains(e.Raw, keyCountersBefore) {
		return nil, "", false
	}
	doc := e.Document()
	v, found := doc.Get(keyCountersBefore)
	if !found {
		return nil, "", false
	}
	list, _ := v.StringList()
	counters, err := countersOf(list)
	if err != nil {
		return nil, "", false
	}
	if b, found := doc.Get(keyBranchBefore); found && b.Kind == pyjson.String {
		branchBefore = b.Str
	}
	return counters, branchBefore, true
}

// undoRestore takes back a restore batch (Undo calls it under the lock, once it checked
// that no later change touched the batch's objects): every object it changed or removed
// is written back from its backup, byte for byte; every object it wrote back is removed;
// the counters go back to what it found. The undo is a restore batch too, so it can be
// taken back in turn.
func (t *tx) undoRestore(target model.LogEntry, counters []string, branchBefore string, opts Options) (*Result, error) {
	r, err := t.restoreUndo(target, counters, branchBefore, false, opts)
	if err != nil {
		return nil, err
	}
	res := &Result{Change: r.Change, Skill: r.Skill, Actor: r.Actor, At: r.At, Created: r.Created,
		Modified: append(slices.Clone(r.Modified), r.Removed...), Deleted: r.Removed}
	if len(res.Deleted) == 0 {
		res.Deleted = nil
	}
	return res, nil
}

// restoreUndo writes (or with dryRun, works out) the undo of a restore batch.
func (t *tx) restoreUndo(target model.LogEntry, counters []string, branchBefore string, dryRun bool, opts Options) (*Restore, error) {
	for _, id := range slices.Concat(target.Modification, target.Creation) {
		if !model.ValidID(id, "") || objectFile(id) == "" {
			return nil, inputf("undo: %s names %q, which is not an object ID", target.ID, id)
		}
	}
	// Like planRewind, the files are read by a few goroutines at once: the undo of a deep
	// rewind reads a backup of every object it removed. A backup is a finished change's
	// file, so it is read once (readStable's second read guards files agents write in
	// place).
	type item struct {
		obj  restoreObj
		keep bool
		err  error
	}
	items := make([]item, len(target.Modification)+len(target.Creation))
	fetch := func(k int) {
		it := &items[k]
		if k < len(target.Modification) {
			id := target.Modification[k]
			rel := HistoryDir + "/" + target.ID + "/" + id + ".json"
			want, err := readBackup(t.abs(rel))
			if err == nil && !json.Valid(want) {
				// Checked, not parsed: the undo writes back the bytes the batch took
				// away, whatever they hold; only a damaged backup stops it.
				err = errors.New("not valid JSON")
			}
			if err != nil {
				it.err = inputf("undo: the backup of %s in %s/%s is unusable: %v", id, HistoryDir, target.ID, unwrapPath(err))
				return
			}
			now, err := t.fileNow(id)
			it.obj, it.err = restoreObj{id: id, before: now, after: want}, err
			it.keep = now == nil || !bytes.Equal(now, want)
			return
		}
		id := target.Creation[k-len(target.Modification)]
		now, err := t.fileToRemove(id)
		it.obj, it.err, it.keep = restoreObj{id: id, before: now}, err, now != nil
	}
	const readers = 4
	var wg sync.WaitGroup
	for r := range readers {
		wg.Go(func() {
			for k := r; k < len(items); k += readers {
				fetch(k)
			}
		})
	}
	wg.Wait()
	var objs []restoreObj
	for _, it := range items {
		if it.err != nil {
			return nil, it.err
		}
		if it.keep {
			objs = append(objs, it.obj)
		}
	}
	extra := []pyjson.Member{pyjson.M("reverts", pyjson.Str(target.ID))}
	if branchBefore != "" {
		cur, err := t.currentBranch()
		if err != nil {
			return nil, err
		}
		extra = append(extra, pyjson.M(keyBranch, pyjson.Str(branchBefore)), pyjson.M(keyBranchBefore, pyjson.Str(cur)))
	} else if len(objs) == 0 && slices.Equal(counters, t.counters()) {
		return nil, inputf("undo: the folder is as it was before %s; nothing to do", target.ID)
	}
	r := &Restore{Skill: "undo", Reverts: target.ID, Discarded: []model.LogEntry{target}}
	if err := t.writeRestore(r, objs, counters, extra, dryRun, opts); err != nil {
		return nil, err
	}
	return r, nil
}

// LastChange is the last change of the folder's log ("" when it has none).
func LastChange(dir string) (string, error) {
	if err := refuseUnsafe(dir); err != nil {
		return "", err
	}
	// Backwards from the end: the last lines, not the log, are read.
	_, last, err := readLogEnd(dir, false)
	if err != nil {
		return "", inputf("cannot read %s: %v", LogFile, unwrapPath(err))
	}
	return last, nil
}
