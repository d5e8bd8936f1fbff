package store

// `referee repair` and the part of `referee check` that explains what an interrupted
// change left behind. Both work from one plan, made from what is on disk: temp files,
// change journals (batch.go), backup folders without a log line, config counters ahead
// of everything that uses them, and log lines whose objects are missing. Each item is
// either repaired without guessing or refused with the reason and what to do by hand.

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/gofrs/flock"

	"referee/model"
	"referee/model/pyjson"
)

// RepairStep is one thing repair did (or, in a dry run, would do), or refused to do.
type RepairStep struct {
	Path   string `json:"path"`   // the file or folder concerned, relative to the folder
	Object string `json:"object"` // the change or object concerned, "" when none
	Msg    string `json:"msg"`    // what was found, then what was done or why not
}

func (s RepairStep) String() string {
	if s.Object == "" {
		return s.Path + ": " + s.Msg
	}
	return s.Path + ": " + s.Object + ": " + s.Msg
}

// RepairReport is what Repair did, or would do with DryRun.
type RepairReport struct {
	DryRun  bool         `json:"dry_run"`
	Done    []RepairStep `json:"done"`
	Refused []RepairStep `json:"refused"`
}

// Repair puts right what interrupted changes left in a contents folder, as far as that
// needs no guess: it removes temp files, completes a change whose objects were all
// written (adds its log line) or undoes it from its backups, removes backup folders of
// changes that wrote nothing, and sets config counters back to what is in use. It
// refuses the rest, saying why. It holds the writers' lock; run it while no agent
// writes to the folder (the agents' own tools do not take the lock). With dryRun it
// only says what it would do.
func Repair(dir string, dryRun bool) (*RepairReport, error) {
	if info, err := os.Stat(dir); err != nil || !info.IsDir() {
		return nil, inputf("contents folder %s does not exist (pass --contents)", dir)
	}
	if err := refuseUnsafe(dir); err != nil {
		return nil, err
	}
	_, errConfig := os.Lstat(filepath.Join(dir, ConfigFile))
	_, errHistory := os.Lstat(filepath.Join(dir, HistoryDir))
	if errConfig != nil && errHistory != nil {
		return nil, inputf("%s is not a contents folder (it has neither config.json nor history/)", dir)
	}
	if dryRun {
		defer readLock(dir)()
	} else {
		unlock, err := writeLock(dir)
		if err != nil {
			return nil, err
		}
		defer unlock()
	}
	plan := planRepair(dir)
	rep := &RepairReport{DryRun: dryRun, Done: []RepairStep{}, Refused: []RepairStep{}}
	for _, it := range plan.items {
		switch {
		case it.advice != "":
			rep.Refused = append(rep.Refused, RepairStep{it.path, it.object, it.situation + ": " + it.advice})
		case dryRun:
			rep.Done = append(rep.Done, RepairStep{it.path, it.object, it.situation + ": would " + it.base})
		default:
			if err := it.do(); err != nil {
				rep.Refused = append(rep.Refused, RepairStep{it.path, it.object, it.situation + ": could not " + it.base + ": " + unwrapPath(err).Error()})
				continue
			}
			rep.Done = append(rep.Done, RepairStep{it.path, it.object, it.situation + ": " + it.past})
		}
	}
	return rep, nil
}

// repairItem is one finding of the plan: a repair (base, past, do) or a refusal (advice).
type repairItem struct {
	path, object string
	situation    string       // what was found
	base, past   string       // the repair: "remove it", "removed it"
	do           func() error // carries out the repair
	advice       string       // for a refusal: why not, and what to do by hand
	warning      bool         // a refusal check reports as a warning, not an error
}

// finding is how check reports the item.
func (it repairItem) finding() Finding {
	// A journal left blocks every write until repair: an error, whatever repair can do.
	if strings.HasPrefix(it.path, HistoryDir+"/") && journalName.MatchString(strings.TrimPrefix(it.path, HistoryDir+"/")) {
		if it.advice != "" {
			return Finding{Severity: SeverityError, Path: it.path, Object: it.object, Msg: it.situation + ": " + it.advice}
		}
		return Finding{Severity: SeverityError, Path: it.path, Object: it.object, Msg: it.situation + "; every write is refused until referee repair is run (it would " + it.base + ")"}
	}
	if it.advice != "" {
		sev := SeverityError
		if it.warning {
			sev = SeverityWarning
		}
		return Finding{Severity: sev, Path: it.path, Object: it.object, Msg: it.situation + ": " + it.advice}
	}
	return Finding{Severity: SeverityWarning, Path: it.path, Object: it.object, Msg: it.situation + " (referee repair would " + it.base + ")"}
}

// writeLock takes the writers' lock, as a change batch does, and returns its release.
func writeLock(dir string) (func(), error) {
	if err := os.MkdirAll(filepath.Join(dir, HistoryDir), 0o755); err != nil {
		return nil, inputf("cannot create %s: %v", HistoryDir, unwrapPath(err))
	}
	l := flock.New(filepath.Join(dir, filepath.FromSlash(LockFile)))
	if err := l.Lock(); err != nil {
		return nil, inputf("cannot lock %s: %v", LockFile, unwrapPath(err))
	}
	return func() { _ = l.Unlock() }, nil
}

// readLock waits (up to 2 s) for a change in progress to finish, so that a reader does
// not take its temp files and journal for leftovers. It creates nothing: without a lock
// file (a folder referee never wrote to, or may not write to) it does not wait.
func readLock(dir string) func() {
	path := filepath.Join(dir, filepath.FromSlash(LockFile))
	if info, err := os.Lstat(path); err != nil || !info.Mode().IsRegular() {
		return func() {}
	}
	l := flock.New(path, flock.SetFlag(os.O_RDONLY))
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	if ok, err := l.TryRLockContext(ctx, 10*time.Millisecond); !ok || err != nil {
		return func() {}
	}
	return func() { _ = l.Unlock() }
}

// interrupted reports what interrupted changes left behind (see planRepair).
func (c *checker) interrupted() {
	for _, it := range planRepair(c.dir).items {
		c.out = append(c.out, it.finding())
	}
}

// repairPlan gathers the facts once; the steps read them, and the later steps take the
// earlier ones' effects into account (a completed change's line, an undone change's
// objects), so a dry run says exactly what a repair does.
type repairPlan struct {
	dir   string
	items []repairItem

	// What the plan needs of the log's lines that parse, gathered as it streams them
	// (a 500 MB log held whole was gigabytes): their change IDs, how many, the line with
	// the highest ID, and each object's last creation or modification (missingObjects).
	logIDs     map[string]bool
	logLines   int
	logLast    model.LogEntry
	touches    objectTouches
	logBroken  bool            // the log cannot be read: leave counters and changes alone
	journals   map[string]bool // changes with a journal
	inJournal  map[string]bool // objects a journal names: their state is the journal's to explain
	added      []model.LogEntry
	removed    map[string]bool // paths the plan removes
	restoreCfg []byte          // config.json bytes an undo puts back
}

var journalName = regexp.MustCompile(`^\.pending-(l-[a-z]*[0-9]{3})\.json$`)

// isTempName tells a temp file of writeTemp (or writeAtomic): ".<name>.tmp-<random>".
func isTempName(name string) bool {
	return strings.HasPrefix(name, ".") && strings.Contains(name, ".tmp-")
}

func planRepair(dir string) *repairPlan {
	pl := &repairPlan{dir: dir, logIDs: map[string]bool{}, journals: map[string]bool{}, inJournal: map[string]bool{}, removed: map[string]bool{}}
	if isLink(dir, HistoryDir) {
		return pl // Load reports the link; nothing under it is read
	}
	pl.touches.last = map[string]objectTouch{}
	if f, st, err := openLogFile(dir); err == nil {
		err = eachLogEntry(f, st.Size, func(e model.LogEntry) {
			if e.Err == "" {
				pl.logIDs[strings.Clone(e.ID)] = true // not a slice of the line: nothing keeps the lines
				pl.logLines++
				if pl.logLast.ID == "" || model.CompareIDs(e.ID, pl.logLast.ID) > 0 {
					pl.logLast = e
				}
				pl.touches.take(e)
			}
		})
		f.Close()
		if err != nil {
			pl.logBroken = true
			pl.logIDs, pl.logLines, pl.logLast = map[string]bool{}, 0, model.LogEntry{}
			pl.touches = objectTouches{last: map[string]objectTouch{}}
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		pl.logBroken = true
	}
	pl.temps()
	pl.changeJournals()
	pl.backupFolders()
	pl.counters()
	pl.missingObjects()
	return pl
}

func (pl *repairPlan) abs(rel string) string { return filepath.Join(pl.dir, filepath.FromSlash(rel)) }

func (pl *repairPlan) add(it repairItem) { pl.items = append(pl.items, it) }

// entries lists a folder of the contents folder; nothing when it is a link or absent.
func (pl *repairPlan) entries(rel string) []fs.DirEntry {
	if rel != "." && isLink(pl.dir, rel) {
		return nil
	}
	es, _ := os.ReadDir(pl.abs(rel))
	return es
}

// backupDirs lists history/l-*/ (real folders only).
func (pl *repairPlan) backupDirs() []string {
	var out []string
	for _, e := range pl.entries(HistoryDir) {
		if e.IsDir() && model.ValidID(e.Name(), model.KindChange) {
			out = append(out, e.Name())
		}
	}
	slices.SortFunc(out, model.CompareIDs)
	return out
}

// temps: files a write left when it was interrupted between its temp file and the rename.
func (pl *repairPlan) temps() {
	folders := []string{".", ProblemDir, StatementDir, ExperienceDir, HistoryDir}
	for _, l := range pl.backupDirs() {
		if !pl.logIDs[l] { // a change in the log finished its backups: no temp file is left there
			folders = append(folders, HistoryDir+"/"+l)
		}
	}
	for _, f := range folders {
		for _, e := range pl.entries(f) {
			if e.IsDir() || !isTempName(e.Name()) {
				continue
			}
			rel := filepath.ToSlash(filepath.Join(f, e.Name()))
			pl.removed[rel] = true
			pl.add(repairItem{path: rel, situation: "a temp file left by an interrupted write",
				base: "remove it", past: "removed it", do: func() error { return os.Remove(pl.abs(rel)) }})
		}
	}
}

// journal is a parsed history/.pending-<l-id>.json.
type journal struct {
	change, line string
	configBefore *string // nil: there was no config.json
	configAfter  string
	objects      []journalObject
	entry        model.LogEntry // the line, parsed
	path         string
	skillDesc    string // "change l-008 (prob-wrapup-statement by agent-1)"
	// How the objects are now.
	written, notWritten, changedSince []journalObject
}

type journalObject struct {
	id            string
	before, after *string // content hashes; nil: absent (created / deleted)
}

func (o journalObject) rel() string { return filepath.ToSlash(objectFile(o.id)) }

func parseJournal(change string, data []byte) (*journal, error) {
	doc, err := pyjson.Parse(data)
	if err != nil {
		return nil, err
	}
	j := &journal{path: journalFile(change)}
	str := func(key string) (string, bool) {
		v, ok := doc.Get(key)
		if !ok || v.Kind != pyjson.String {
			return "", false
		}
		return v.Str, true
	}
	hash := func(v *pyjson.Value, ok bool) (*string, bool) {
		switch {
		case !ok:
			return nil, false
		case v.Kind == pyjson.Null:
			return nil, true
		case v.Kind == pyjson.String && len(v.Str) == 64:
			s := v.Str
			return &s, true
		}
		return nil, false
	}
	var ok bool
	if j.change, ok = str("change"); !ok || j.change != change {
		return nil, errors.New(`"change" does not name this change`)
	}
	if j.line, ok = str("line"); !ok {
		return nil, errors.New(`no "line"`)
	}
	if j.entry = model.ParseLogLine(0, j.line); j.entry.Err != "" || j.entry.ID != change {
		return nil, errors.New(`"line" is not this change's log line`)
	}
	if j.configAfter, ok = str("config_after"); !ok {
		return nil, errors.New(`no "config_after"`)
	}
	if v, ok := doc.Get("config_before"); ok && v.Kind == pyjson.String {
		s := v.Str
		j.configBefore = &s
	} else if !ok || v.Kind != pyjson.Null {
		return nil, errors.New(`no "config_before"`)
	}
	objs, ok := doc.Get("objects")
	// An empty list is a change that writes no object (branch save, its undo, a switch to
	// an identical line): its journal stands for the config and the log line alone.
	if !ok || objs.Kind != pyjson.Array {
		return nil, errors.New(`no "objects"`)
	}
	for i := range objs.Arr {
		o := &objs.Arr[i]
		idv, _ := o.Get("id")
		var jo journalObject
		if idv == nil || idv.Kind != pyjson.String || !model.ValidID(idv.Str, "") || objectFile(idv.Str) == "" {
			return nil, fmt.Errorf("object %d has no object ID", i+1)
		}
		jo.id = idv.Str
		b, okb := o.Get("before")
		a, oka := o.Get("after")
		if jo.before, okb = hash(b, okb); !okb {
			return nil, fmt.Errorf("%s: no \"before\" hash", jo.id)
		}
		if jo.after, oka = hash(a, oka); !oka {
			return nil, fmt.Errorf("%s: no \"after\" hash", jo.id)
		}
		j.objects = append(j.objects, jo)
	}
	j.skillDesc = "change " + change
	if j.entry.Skill != "" {
		j.skillDesc += " (" + j.entry.Skill
		if j.entry.By != "" {
			j.skillDesc += " by " + j.entry.By
		}
		j.skillDesc += ")"
	}
	return j, nil
}

// fileHash is the content hash of an object file; "" and false when it does not exist.
// A link or a folder in its place is reported as a hash no journal holds.
func (pl *repairPlan) fileHash(rel string) (string, bool) {
	data, err := readNoFollow(pl.abs(rel))
	if errors.Is(err, fs.ErrNotExist) {
		return "", false
	}
	if err != nil {
		return "(" + unwrapPath(err).Error() + ")", true
	}
	return contentHash(data), true
}

func ids(objs []journalObject) []string {
	var out []string
	for _, o := range objs {
		out = append(out, o.id)
	}
	return out
}

// changeJournals: each journal left by a change that did not finish.
func (pl *repairPlan) changeJournals() {
	var names []string
	for _, e := range pl.entries(HistoryDir) {
		if m := journalName.FindStringSubmatch(e.Name()); m != nil && !e.IsDir() {
			names = append(names, m[1])
		}
	}
	slices.SortFunc(names, model.CompareIDs)
	for _, change := range names {
		pl.journals[change] = true
		rel := journalFile(change)
		data, err := readNoFollow(pl.abs(rel))
		var j *journal
		if err == nil {
			j, err = parseJournal(change, data)
		}
		if err != nil {
			pl.add(repairItem{path: rel, object: change,
				situation: "a change journal referee cannot read (" + unwrapPath(err).Error() + ")",
				advice:    "referee repair will not guess what the change wrote; compare the objects it names with history/" + change + "/, then delete the journal"})
			continue
		}
		pl.journal(j)
	}
}

func (pl *repairPlan) journal(j *journal) {
	for _, o := range j.objects {
		pl.inJournal[o.id] = true
	}
	removeJournal := func() error { return os.Remove(pl.abs(j.path)) }
	if pl.logIDs[j.change] {
		pl.removed[j.path] = true
		pl.add(repairItem{path: j.path, object: j.change,
			situation: "the journal of " + j.skillDesc + ", which is complete (its line is in the log)",
			base:      "remove it", past: "removed it", do: removeJournal})
		return
	}
	if pl.logBroken {
		pl.add(repairItem{path: j.path, object: j.change, situation: j.skillDesc + " was interrupted before its log line",
			advice: "referee repair cannot read " + LogFile + " to tell what to do; fix the log first"})
		return
	}
	for _, o := range j.objects {
		h, exists := pl.fileHash(o.rel())
		isAfter := (o.after == nil && !exists) || (o.after != nil && exists && h == *o.after)
		isBefore := (o.before == nil && !exists) || (o.before != nil && exists && h == *o.before)
		switch {
		case isAfter:
			j.written = append(j.written, o)
		case isBefore:
			j.notWritten = append(j.notWritten, o)
		default:
			j.changedSince = append(j.changedSince, o)
		}
	}
	if len(j.changedSince) > 0 {
		o := j.changedSince[0]
		advice := "referee repair will not guess which version to keep; "
		if o.before != nil {
			advice += "compare " + o.rel() + " with " + HistoryDir + "/" + j.change + "/" + o.id + ".json, "
		} else {
			advice += "look at " + o.rel() + ", "
		}
		advice += "keep the right one, then delete " + j.path
		pl.add(repairItem{path: j.path, object: j.change,
			situation: j.skillDesc + " was interrupted before its log line, and " + o.id + " has changed since (it is neither the version before the change nor the one it wrote)",
			advice:    advice})
		return
	}
	var later string
	for id := range pl.logIDs {
		if model.CompareIDs(id, j.change) > 0 && (later == "" || model.CompareIDs(id, later) < 0) {
			later = id
		}
	}
	// A change of no object has only config.json to show how far it got: it is complete
	// when config.json is the one it wrote (config goes first, the log line last).
	configDone := true
	if len(j.objects) == 0 {
		cur, err := readNoFollow(pl.abs(ConfigFile))
		configDone = err == nil && string(cur) == j.configAfter
	}
	frag, logSize := pl.logFragment(j.line)
	if len(j.notWritten) == 0 && later == "" && configDone {
		pl.added = append(pl.added, j.entry)
		pl.removed[j.path] = true
		line := j.line
		wrote := "every object (" + strings.Join(ids(j.written), ", ") + ")"
		if len(j.objects) == 0 {
			wrote = "config.json (it changes no object)"
		}
		situation := j.skillDesc + " was interrupted after writing " + wrote + " but before its log line"
		base, past := "add the line to "+LogFile, "added the line to "+LogFile
		if frag != "" {
			situation = j.skillDesc + " was interrupted after writing " + wrote + " and the start of its log line"
			base, past = "write the whole line to "+LogFile+" in place of its start", "wrote the whole line to "+LogFile+" in place of its start"
		}
		pl.add(repairItem{path: j.path, object: j.change, situation: situation, base: base, past: past,
			do: func() error {
				if err := pl.cutFragment(frag, logSize); err != nil {
					return err
				}
				if err := appendLine(pl.abs(LogFile), []byte(line)); err != nil {
					return err
				}
				return removeJournal()
			}})
		return
	}
	pl.undoJournal(j, later, frag, logSize)
}

// logFragment is the end of the log after its last newline when it is the start of
// line, with the log's size: what a kill during the write of a change's line leaves (the
// kernel copies a write a page at a time and stops between two at a fatal signal). ""
// when the log ends with a newline, or with anything but the start of line (an agent's
// write under way is not repair's to cut).
func (pl *repairPlan) logFragment(line string) (frag string, size int64) {
	f, st, err := openLogFile(pl.dir)
	if err != nil {
		return "", 0
	}
	defer f.Close()
	n := min(st.Size, int64(len(line)))
	buf := make([]byte, n)
	if _, err := f.ReadAt(buf, st.Size-n); err != nil {
		return "", 0
	}
	i := bytes.LastIndexByte(buf, '\n')
	if i < 0 && n < st.Size {
		return "", 0 // longer than the line: not its start
	}
	frag = string(buf[i+1:])
	if frag == "" || !strings.HasPrefix(line, frag) {
		return "", 0
	}
	return frag, st.Size
}

// cutFragment takes frag off the log's end, if the log still is the size it was planned
// at and still ends with frag; anything else is refused, not guessed at.
func (pl *repairPlan) cutFragment(frag string, size int64) error {
	if frag == "" {
		return nil
	}
	f, err := os.OpenFile(pl.abs(LogFile), os.O_RDWR|syscall.O_NOFOLLOW, 0)
	if err != nil {
		return err
	}
	defer f.Close()
	end := make([]byte, len(frag))
	st, err := f.Stat()
	if err != nil {
		return err
	}
	if st.Size() != size {
		return fmt.Errorf("%s changed since repair looked at it (%d bytes, then %d); run referee repair again", LogFile, st.Size(), size)
	}
	if _, err := f.ReadAt(end, size-int64(len(frag))); err != nil || string(end) != frag {
		return fmt.Errorf("%s changed since repair looked at it; run referee repair again", LogFile)
	}
	if err := f.Truncate(size - int64(len(frag))); err != nil {
		return err
	}
	return f.Sync()
}

// undoJournal plans putting back every object a change wrote, from its backups.
func (pl *repairPlan) undoJournal(j *journal, later, frag string, logSize int64) {
	situation := j.skillDesc + " was interrupted before its log line"
	if frag != "" {
		situation = j.skillDesc + " was interrupted while writing its log line"
	}
	if later != "" {
		situation += " (and " + later + " came after it, so it cannot be completed in order)"
	}
	if len(j.written) == 0 {
		situation += ", having written none of its objects"
	} else {
		situation += ", having written " + strings.Join(ids(j.written), ", ")
		if len(j.notWritten) > 0 {
			situation += " but not " + strings.Join(ids(j.notWritten), ", ")
		}
	}
	var does, did []string
	var steps []func() error
	for _, o := range j.written {
		if o.before == nil { // created: remove it
			rel := o.rel()
			pl.removed[rel] = true
			does, did = append(does, "remove "+rel), append(did, "removed "+rel)
			steps = append(steps, func() error { return os.Remove(pl.abs(rel)) })
			continue
		}
		backup := HistoryDir + "/" + j.change + "/" + o.id + ".json"
		if h, ok := pl.fileHash(backup); !ok || h != *o.before {
			pl.add(repairItem{path: j.path, object: j.change, situation: situation,
				advice: "its backup " + backup + " is missing or changed, so referee repair cannot restore " + o.id + "; restore it by hand, then delete " + j.path})
			return
		}
		rel := o.rel()
		pl.removed[backup] = true
		does, did = append(does, "restore "+o.id+" from "+backup), append(did, "restored "+o.id+" from "+backup)
		steps = append(steps, func() error { return os.Rename(pl.abs(backup), pl.abs(rel)) })
	}
	for _, o := range j.objects {
		backup := HistoryDir + "/" + j.change + "/" + o.id + ".json"
		if o.before != nil && !pl.removed[backup] {
			pl.removed[backup] = true
			steps = append(steps, func() error {
				if err := os.Remove(pl.abs(backup)); err != nil && !errors.Is(err, fs.ErrNotExist) {
					return err
				}
				return nil
			})
		}
	}
	if cur, err := readNoFollow(pl.abs(ConfigFile)); err == nil && string(cur) == j.configAfter {
		does, did = append(does, "set config.json back"), append(did, "set config.json back")
		before := j.configBefore
		if before != nil {
			pl.restoreCfg = []byte(*before)
		}
		steps = append(steps, func() error {
			if before == nil {
				return os.Remove(pl.abs(ConfigFile))
			}
			return writeAtomic(pl.abs(ConfigFile), []byte(*before))
		})
	}
	backupDir := HistoryDir + "/" + j.change
	if _, err := os.Lstat(pl.abs(backupDir)); err == nil {
		pl.removed[backupDir] = true
		does, did = append(does, "remove "+backupDir+"/"), append(did, "removed "+backupDir+"/")
		steps = append(steps, func() error {
			// Only when empty: whatever else is in it is not this change's.
			if err := os.Remove(pl.abs(backupDir)); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return fmt.Errorf("%s is not empty", backupDir)
			}
			return nil
		})
	}
	if frag != "" {
		does, did = append(does, "cut the start of its line from "+LogFile), append(did, "cut the start of its line from "+LogFile)
		steps = append(steps, func() error { return pl.cutFragment(frag, logSize) })
	}
	pl.removed[j.path] = true
	does, did = append(does, "delete the journal"), append(did, "deleted the journal")
	steps = append(steps, func() error { return os.Remove(pl.abs(j.path)) })
	pl.add(repairItem{path: j.path, object: j.change, situation: situation,
		base: "undo it: " + strings.Join(does, ", "), past: "undid it: " + strings.Join(did, ", "),
		do: func() error {
			for _, step := range steps {
				if err := step(); err != nil {
					return err
				}
			}
			return nil
		}})
}

// backupFolders: history/l-*/ of a change with neither a log line nor a journal.
func (pl *repairPlan) backupFolders() {
	if pl.logBroken {
		return
	}
	for _, change := range pl.backupDirs() {
		if pl.logIDs[change] || pl.journals[change] {
			continue
		}
		rel := HistoryDir + "/" + change + "/"
		var same []string
		refused := false
		for _, e := range pl.entries(HistoryDir + "/" + change) {
			name := e.Name()
			if isTempName(name) && !e.IsDir() {
				continue // removed by the temps step
			}
			id := strings.TrimSuffix(name, ".json")
			if e.IsDir() || !strings.HasSuffix(name, ".json") || !model.ValidID(id, "") || objectFile(id) == "" {
				pl.add(repairItem{path: rel, object: change, situation: "change " + change + " left backups but no log line, and " + name + " is not a backup",
					advice: "referee repair removes only folders it understands; look at it, then delete " + rel})
				refused = true
				break
			}
			backup, err1 := readNoFollow(pl.abs(rel + name))
			current, err2 := readNoFollow(pl.abs(objectFile(id)))
			if err1 != nil || err2 != nil || !bytes.Equal(backup, current) {
				obj := filepath.ToSlash(objectFile(id))
				pl.add(repairItem{path: rel, object: change,
					situation: "change " + change + " left backups but no log line, and " + obj + " differs from its backup " + rel + name,
					advice:    "referee repair will not guess whether " + change + " wrote it; compare the two, keep the right one, then delete " + rel})
				refused = true
				break
			}
			same = append(same, id)
		}
		if refused {
			continue
		}
		situation := "change " + change + " left an empty backup folder and no log line"
		if len(same) == 1 {
			situation = "change " + change + " left a backup but no log line, and did not write its object (" + same[0] + " still equals its backup)"
		} else if len(same) > 1 {
			situation = "change " + change + " left backups but no log line, and wrote none of their objects (" + strings.Join(same, ", ") + " still equal their backups)"
		}
		pl.removed[strings.TrimSuffix(rel, "/")] = true
		dir := pl.abs(rel)
		pl.add(repairItem{path: rel, object: change, situation: situation,
			base: "remove the folder", past: "removed the folder", do: func() error { return os.RemoveAll(dir) }})
	}
}

// counters: config.json counters ahead of every log line and file that uses an ID.
func (pl *repairPlan) counters() {
	if pl.logBroken || (pl.logLines == 0 && len(pl.added) == 0) || isLink(pl.dir, ConfigFile) {
		return // without a log, nothing tells which IDs were used
	}
	cfgBytes := pl.restoreCfg
	if cfgBytes == nil {
		var err error
		if cfgBytes, err = readNoFollow(pl.abs(ConfigFile)); err != nil {
			return
		}
	}
	doc, err := pyjson.Parse(cfgBytes)
	if err != nil {
		return
	}
	cfg, err := model.ConfigFrom(doc)
	if err != nil {
		return
	}
	// What the log uses: the last change, and its "current" (the last p, s, e IDs).
	last := pl.logLast
	for _, e := range pl.added {
		if last.ID == "" || model.CompareIDs(e.ID, last.ID) > 0 {
			last = e
		}
	}
	inUse := map[string]string{model.KindChange: last.ID}
	kinds := []string{model.KindProblem, model.KindStatement, model.KindExperience}
	if len(last.Current) == 3 {
		for i, k := range kinds {
			inUse[k] = last.Current[i]
		}
	}
	higher := func(kind, id string) {
		if model.ValidID(id, kind) && (inUse[kind] == "" || model.CompareIDs(id, inUse[kind]) > 0) {
			inUse[kind] = id
		}
	}
	for _, change := range pl.backupDirs() {
		if !pl.removed[HistoryDir+"/"+change] {
			higher(model.KindChange, change)
		}
	}
	for change := range pl.journals {
		if !pl.removed[journalFile(change)] {
			higher(model.KindChange, change)
		}
	}
	for _, sub := range objectDirs {
		for _, e := range pl.entries(sub) {
			if rel := sub + "/" + e.Name(); !pl.removed[rel] {
				higher(model.KindOf(strings.TrimSuffix(e.Name(), ".json")), strings.TrimSuffix(e.Name(), ".json"))
			}
		}
	}
	var ahead, back []string
	set := map[string]string{}
	for _, k := range append(kinds, model.KindChange) {
		counter, use := cfg.Last[k], inUse[k]
		if counter == "" || use == "" || model.CompareIDs(counter, use) <= 0 {
			continue
		}
		// use may be a counter value like s-000 (nothing issued yet): still a valid setting.
		ahead = append(ahead, fmt.Sprintf("the %q counter is %s", k, counter))
		back = append(back, use)
		set[k] = use
	}
	if len(set) == 0 {
		return
	}
	it, them := "it", "an ID"
	if len(set) > 1 {
		it, them = "them", "IDs"
	}
	situation := strings.Join(ahead, " and ") + ", ahead of the log and of every file: " + them +
		" issued to a change that was interrupted before its log line"
	pl.add(repairItem{path: ConfigFile, situation: situation,
		base: "set " + it + " back to " + strings.Join(back, " and "), past: "set " + it + " back to " + strings.Join(back, " and "),
		do: func() error {
			data, err := readNoFollow(pl.abs(ConfigFile))
			if err != nil {
				return err
			}
			doc, err := pyjson.Parse(data)
			if err != nil {
				return err
			}
			for k, v := range set {
				doc.Set(k, pyjson.Str(v))
			}
			return writeAtomic(pl.abs(ConfigFile), pyjson.EncodeIndent(doc))
		}})
}

// missingObjects: log lines whose objects are not on disk as the log says. Nothing can
// recreate them, so these are refusals.
func (pl *repairPlan) missingObjects() {
	if pl.logBroken {
		return
	}
	for _, e := range pl.added { // after the log's lines, as if appended
		pl.touches.take(e)
	}
	last, order := pl.touches.last, pl.touches.order
	for _, id := range order {
		tc, ok := last[id]
		if !ok || pl.inJournal[id] {
			continue
		}
		rel := filepath.ToSlash(objectFile(id))
		info, err := os.Lstat(pl.abs(rel))
		verb := "modified"
		if tc.created {
			verb = "created"
		}
		situation := fmt.Sprintf("%s %s %s but %s", tc.change, verb, id, rel)
		backupRel := HistoryDir + "/" + tc.change + "/" + id + ".json"
		switch {
		case errors.Is(err, fs.ErrNotExist) && !pl.removed[rel]:
			advice := "referee repair cannot recreate it"
			if !tc.created {
				advice += " (" + backupRel + " holds it as it was before " + tc.change + ")"
			}
			pl.add(repairItem{path: LogFile, object: tc.change, situation: situation + " does not exist (and no later change deleted it)",
				advice: advice, warning: true})
		case err == nil && !tc.created && pl.sameFile(rel, info, backupRel):
			pl.add(repairItem{path: LogFile, object: tc.change,
				situation: situation + " is still byte for byte its backup from before " + tc.change,
				advice:    "the change's write may be missing; referee repair cannot recreate it", warning: true})
		}
	}
}

// objectTouches is, per object, the last change of the log that created or modified it
// (none once a later one deleted it), in the order the objects were first touched.
type objectTouches struct {
	last  map[string]objectTouch
	order []string
}

type objectTouch struct {
	change  string
	created bool
}

// take notes what one log line did.
func (t *objectTouches) take(e model.LogEntry) {
	note := func(id string, created bool) {
		if !model.ValidID(id, "") || objectFile(id) == "" {
			return // check reports the bad ID with the log
		}
		id = strings.Clone(id) // not a slice of the line (a map keeps the key of its last write)
		if _, seen := t.last[id]; !seen {
			t.order = append(t.order, id)
		}
		t.last[id] = objectTouch{strings.Clone(e.ID), created}
	}
	for _, id := range e.Creation {
		note(id, true)
	}
	for _, id := range e.Modification {
		note(id, false)
	}
	for _, id := range e.Deleted {
		delete(t.last, id)
	}
}

// sameFile tells whether rel (whose Lstat is info) has the bytes of other; it reads the
// two only when their sizes agree, which is rare, so check stays quick on large folders.
func (pl *repairPlan) sameFile(rel string, info fs.FileInfo, other string) bool {
	o, err := os.Lstat(pl.abs(other))
	if err != nil || o.Size() != info.Size() || !info.Mode().IsRegular() {
		return false
	}
	a, err1 := readNoFollow(pl.abs(rel))
	b, err2 := readNoFollow(pl.abs(other))
	return err1 == nil && err2 == nil && bytes.Equal(a, b)
}
