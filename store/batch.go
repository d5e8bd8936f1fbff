package store

// Writing one change batch so that neither a full disk nor a crash leaves a mix.
//
// FORMAT.md orders a change: config.json, the backups, the objects, one log line. Each
// file is replaced by renaming a complete temp file over it, so a reader sees a file's
// old or new bytes, never part of either. Across files, a batch works in three steps:
//
//  1. prepare: every new file is written to a temp file beside its place, and a copy of
//     config.json is kept. A full disk or a read-only folder fails here, and the temp
//     files are removed: nothing was changed.
//  2. the journal history/.pending-<l-id>.json is written: what the change is about to
//     write (content hashes before and after of each object, the config before and
//     after, the log line). The temp files and the journal are fsynced together, then
//     the journal is renamed into place and history/ fsynced. From here on a crash
//     can be repaired without guessing.
//  3. publish, in FORMAT.md's order: rename config, backups, objects into place, then
//     append the log line; then remove the journal. If a rename or the append fails
//     (the log line needs room too), the batch is undone in place: renames need no
//     room, the log is truncated back, the config copy is renamed back.
//
// A process killed anywhere leaves the journal, and `referee repair` either completes
// the change (every object written: add the log line) or undoes it from the backups.
//
// Power loss needs more than a kill: the kernel may write out renames in any order.
// So each step's files are made durable before the next step can become durable, in
// rounds: (1) the temp files' and the journal's bytes, (2) the journal's name in
// history/, (3) config.json's and the backups' names, (4) the objects' names,
// (5) the log line. A repair then always finds the journal before anything it
// describes, the backups before the objects they back up, and config.json and every
// object before the log line that says the change is done. Within a round the files
// are independent, so their fsyncs run at once and the filesystem commits them together
// (9 fsyncs in 5 rounds instead of 9 in a row: a skill call in process went from ~5.2
// to ~4.0 ms on the shared ext4 development machine). A batch of thousands of files (the
// undo of a rewind writes back every object the rewind removed) makes round 1 durable
// with one syncfs(2) instead of an fsync per file, and rechecks its objects on two
// goroutines (each).

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"

	"referee/model"
	"referee/model/pyjson"
)

// journalPrefix names a change's journal: history/.pending-<l-id>.json.
const journalPrefix = ".pending-"

func journalFile(change string) string { return HistoryDir + "/" + journalPrefix + change + ".json" }

// journalMark names the last change that wrote a journal (its ID and a newline). A
// writer looks for an interrupted change's journal by that name (pendingJournal),
// not by listing history/, which holds a folder per change: in a long run a listing
// cost a skill call more than the rest of its work. The mark gets its name before
// the journal does, and is durable first (round 1), so a journal that can be found
// is always the one the mark names, unless a referee without marks wrote it.
const journalMark = HistoryDir + "/.journal-mark"

// batch is one change's writes, worked out in full before anything is written.
type batch struct {
	dir          string
	change       string
	configBefore []byte // nil when there was no config.json (init)
	config       []byte
	// configFor gives config.json to write over the bytes on disk now (race.go): publish
	// calls it just before the rename, so a counter another writer moved is not set back.
	// The journal keeps config; repair then leaves a config that differs as it is.
	configFor func(disk []byte) []byte
	objects   []batchObject // created, then modified, then deleted
	line      []byte
}

// batchObject is one object the change creates, modifies or deletes.
type batchObject struct {
	id      string
	before  []byte // the file as read under the lock; nil for a created object
	after   []byte // the new file; nil for a deleted object
	created bool
	deleted bool
	// move says a deleted object's backup is its file itself, renamed into history/ when
	// the object is removed: nothing is copied, and the backup appears as the object goes.
	move bool
}

func (o batchObject) rel() string { return filepath.ToSlash(objectFile(o.id)) }

func (o batchObject) backupRel(change string) string {
	return HistoryDir + "/" + change + "/" + o.id + ".json"
}

// versions is each created and modified object's version (model.Version) after the
// change, for its log line: undo checks the objects still hold them.
func (b *batch) versions() pyjson.Value {
	v := pyjson.Obj()
	for _, o := range b.objects {
		if !o.deleted {
			v.Set(o.id, pyjson.Str(model.Version(o.after)))
		}
	}
	return v
}

// contentHash identifies a file's bytes in the journal.
func contentHash(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// journal is what a change records before it publishes anything.
func (b *batch) journal() []byte {
	hash := func(data []byte, absent bool) pyjson.Value {
		if absent {
			return pyjson.Value{Kind: pyjson.Null}
		}
		return pyjson.Str(contentHash(data))
	}
	var objs []pyjson.Value
	for _, o := range b.objects {
		objs = append(objs, pyjson.Obj(
			pyjson.M("id", pyjson.Str(o.id)),
			pyjson.M("before", hash(o.before, o.created)),
			pyjson.M("after", hash(o.after, o.deleted)),
		))
	}
	before := pyjson.Value{Kind: pyjson.Null}
	if b.configBefore != nil {
		before = pyjson.Str(string(b.configBefore))
	}
	return pyjson.EncodeIndent(pyjson.Obj(
		pyjson.M("change", pyjson.Str(b.change)),
		pyjson.M("line", pyjson.Str(string(b.line))),
		pyjson.M("config_before", before),
		pyjson.M("config_after", pyjson.Str(string(b.config))),
		pyjson.M("objects", pyjson.Value{Kind: pyjson.Array, Arr: append([]pyjson.Value{}, objs...)}),
	))
}

// crashPoint runs after every file operation of a batch; tests stop the batch there to
// see what each crash point leaves behind.
var crashPoint = func() {}

// syncPoint runs before each round of fsyncs with the paths it makes durable; tests
// check the rounds' order against the crash points.
var syncPoint = func(paths []string) {}

// publishing tracks a batch on its way to disk, so that a failure can be undone.
type publishing struct {
	b           *batch
	mu          sync.Mutex        // guards temps and unsynced while prepare writes files at once
	madeDirs    []string          // folders prepare created (removed again if the batch is undone)
	temps       map[string]string // final relative path → its temp file
	cfgCopy     string            // temp file with config.json's old bytes
	unsynced    []tempFile        // temp files written but not yet fsynced (still open)
	journalTemp string            // the journal's temp file, until it is renamed into place
	markTemp    string            // journalMark's temp file, until it is renamed into place
	journal     bool              // the journal is on disk
	// What publish did so far.
	configDone    bool
	configWritten []byte   // config.json as publish wrote it
	configOnDisk  []byte   // config.json as publish found it, when not configBefore
	backups       []string // backups renamed into place
	objects       []int    // indexes of b.objects written or removed
	logTouched    bool
	logSize       int64
	logExisted    bool
	overwritten   []string // what undo left as another writer wrote it over the batch's version
}

func (b *batch) abs(rel string) string { return filepath.Join(b.dir, filepath.FromSlash(rel)) }

// write writes the batch; on error nothing was changed, unless the error says so.
func (b *batch) write() error {
	p := &publishing{b: b, temps: map[string]string{}}
	var race *raceError
	if err := p.prepare(); err != nil {
		p.discard()
		if errors.As(err, &race) {
			return race // nothing was changed: the caller makes the change again
		}
		return fmt.Errorf("%v; nothing was changed", err)
	}
	if err := p.publish(); err != nil {
		if uerr := p.undo(); uerr != nil {
			return fmt.Errorf("%v; undoing the half-written change failed too (%v): run referee repair", err, uerr)
		}
		if len(p.overwritten) > 0 {
			// Their version may hold part of this change: making it again could apply it twice.
			return fmt.Errorf("%v; the change was undone, except %s, which another writer wrote over meanwhile (their version stays; it may hold part of this change); nothing was logged",
				err, strings.Join(p.overwritten, ", "))
		}
		if errors.As(err, &race) {
			return race
		}
		return fmt.Errorf("%v; the change was undone, nothing was changed", err)
	}
	// The change is complete; a journal or copy left by a failure here is harmless
	// (check reports it, repair removes it).
	_ = os.Remove(b.abs(journalFile(b.change)))
	if p.cfgCopy != "" {
		_ = os.Remove(p.cfgCopy)
	}
	return nil
}

func (p *publishing) prepare() error {
	b := p.b
	hasBackups := false
	for _, o := range b.objects {
		if !o.created {
			hasBackups = true
		}
		if !o.deleted {
			if err := p.mkdir(filepath.ToSlash(filepath.Dir(objectFile(o.id)))); err != nil {
				return err
			}
		}
	}
	if hasBackups {
		// Never an existing folder: one that appeared since the change took its ID is
		// another writer's change under the same ID.
		rel := HistoryDir + "/" + b.change
		if err := os.Mkdir(b.abs(rel), 0o755); errors.Is(err, fs.ErrExist) {
			return clash(rel + "/")
		} else if err != nil {
			return fmt.Errorf("cannot create %s: %v", rel, unwrapPath(err))
		}
		p.madeDirs = append(p.madeDirs, b.abs(rel))
		crashPoint()
	}
	if err := p.temp(ConfigFile, b.config); err != nil {
		return err
	}
	type file struct {
		rel  string
		data []byte
	}
	var files []file
	for _, o := range b.objects {
		if !o.created && !o.move {
			files = append(files, file{o.backupRel(b.change), o.before})
		}
	}
	for _, o := range b.objects {
		if !o.deleted {
			files = append(files, file{o.rel(), o.after})
		}
	}
	if err := p.each(len(files), false, func(i int) error { return p.temp(files[i].rel, files[i].data) }, nil); err != nil {
		return err
	}
	if b.configBefore != nil {
		// Not fsynced: it only serves to undo a failure while this process runs.
		f, err := writeTemp(b.abs(ConfigFile), b.configBefore)
		if err == nil {
			err = f.Close()
		}
		if err != nil {
			if f != nil {
				os.Remove(f.Name())
			}
			return fmt.Errorf("cannot write %s: %v", ConfigFile, unwrapPath(err))
		}
		p.cfgCopy = f.Name()
		crashPoint()
	}
	// The journal goes under its name only once it and every temp file are on disk
	// (round 1): a journal that can be found describes files that can be read.
	mark, err := writeTemp(b.abs(journalMark), []byte(b.change+"\n"))
	if err != nil {
		return fmt.Errorf("cannot write %s: %v", journalMark, unwrapPath(err))
	}
	p.markTemp = mark.Name()
	p.unsynced = append(p.unsynced, tempFile{rel: journalMark, f: mark})
	j := journalFile(b.change)
	f, err := writeTemp(b.abs(j), b.journal())
	if err != nil {
		return fmt.Errorf("cannot write %s: %v", j, unwrapPath(err))
	}
	p.journalTemp = f.Name()
	p.unsynced = append(p.unsynced, tempFile{rel: j, f: f})
	if err := p.syncTemps(); err != nil {
		return err
	}
	// The mark first: a crash between the two renames leaves a mark naming a change
	// without a journal, which is as if the change never began.
	if err := os.Rename(p.markTemp, b.abs(journalMark)); err != nil {
		return fmt.Errorf("cannot write %s: %v", journalMark, unwrapPath(err))
	}
	p.markTemp = ""
	if err := os.Rename(p.journalTemp, b.abs(j)); err != nil {
		return fmt.Errorf("cannot write %s: %v", j, unwrapPath(err))
	}
	p.journalTemp, p.journal = "", true
	crashPoint()
	// Round 2: the journal's name (and the backup folder made above) in history/. Unlike
	// the later rounds' folder syncs, a failure here stops the change before it publishes.
	syncPoint([]string{b.abs(HistoryDir)})
	return syncDir(b.abs(HistoryDir))
}

// tempFile is a temp file written and still open, to be fsynced with the others.
type tempFile struct {
	rel string // the file it will become, relative to the folder (for messages)
	f   *os.File
}

// syncTemps fsyncs and closes every temp file written so far, all at once (round 1).
func (p *publishing) syncTemps() error {
	files := p.unsynced
	p.unsynced = nil
	paths := make([]string, len(files))
	for i, t := range files {
		paths[i] = t.f.Name()
	}
	syncPoint(paths)
	errs := make([]error, len(files))
	if len(files) > bulkSync && syncFS(p.b.dir) {
		// Thousands of files (a rewind's undo writes every object back): one syncfs(2)
		// makes them all durable at once, where an fsync each costs a journal commit each.
		for i, t := range files {
			errs[i] = t.f.Close()
		}
	} else {
		syncAll(len(files), func(i int) {
			errs[i] = files[i].f.Sync()
			if err := files[i].f.Close(); errs[i] == nil {
				errs[i] = err
			}
		})
	}
	for i, err := range errs {
		if err != nil {
			return fmt.Errorf("cannot write %s: %v", files[i].rel, unwrapPath(err))
		}
	}
	return nil
}

// bulkSync is how many temp files a batch fsyncs one by one; above it, syncfs(2).
const bulkSync = 64

// syncAll runs do(0) … do(n-1) at once and waits for them. Each fsync blocks its
// thread in the kernel; running them together lets the filesystem commit them in one
// journal transaction instead of one after another.
func syncAll(n int, do func(i int)) {
	var wg sync.WaitGroup
	for i := 1; i < n; i++ {
		wg.Go(func() { do(i) })
	}
	if n > 0 {
		do(0) // here: one thread fewer to start
	}
	wg.Wait()
}

// syncDirs fsyncs folders at once (see syncDir).
func syncDirs(dirs []string) {
	syncPoint(dirs)
	syncAll(len(dirs), func(i int) { _ = syncDir(dirs[i]) })
}

// mkdir creates a folder the batch needs, remembering it if it was not there.
func (p *publishing) mkdir(rel string) error {
	path := p.b.abs(rel)
	if _, err := os.Lstat(path); err == nil {
		return nil
	}
	if err := os.Mkdir(path, 0o755); err != nil {
		return fmt.Errorf("cannot create %s: %v", rel, unwrapPath(err))
	}
	p.madeDirs = append(p.madeDirs, path)
	crashPoint()
	return nil
}

// temp writes the new bytes of rel to a temp file beside it. The file stays open until
// syncTemps fsyncs it with the others.
func (p *publishing) temp(rel string, data []byte) error {
	f, err := writeTemp(p.b.abs(rel), data)
	if err != nil {
		return fmt.Errorf("cannot write %s: %v", rel, unwrapPath(err))
	}
	p.mu.Lock()
	p.temps[rel] = f.Name()
	p.unsynced = append(p.unsynced, tempFile{rel: rel, f: f})
	p.mu.Unlock()
	crashPoint()
	return nil
}

// writeTemp writes data to a new temp file beside path (".<name>.tmp-<random>", which
// the watcher ignores and repair removes when it is left over) and returns it open.
// On error the file is closed and removed, and the result is nil.
func writeTemp(path string, data []byte) (*os.File, error) {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return nil, err
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Chmod(0o644)
	}
	if err != nil {
		f.Close()
		os.Remove(f.Name())
		return nil, err
	}
	return f, nil
}

// discard removes what prepare made.
func (p *publishing) discard() {
	for _, t := range p.unsynced {
		t.f.Close()
	}
	p.unsynced = nil
	if p.journalTemp != "" {
		os.Remove(p.journalTemp)
	}
	if p.markTemp != "" {
		os.Remove(p.markTemp)
	}
	for _, tmp := range p.temps {
		os.Remove(tmp)
	}
	if p.cfgCopy != "" {
		os.Remove(p.cfgCopy)
	}
	if p.journal {
		os.Remove(p.b.abs(journalFile(p.b.change)))
	}
	for i := len(p.madeDirs) - 1; i >= 0; i-- {
		if p.madeDirs[i] == p.b.abs(HistoryDir+"/"+p.b.change) && p.changeIDTaken() {
			continue // another writer counts this change ID as its own: the folder may be its
		}
		os.Remove(p.madeDirs[i]) // only if empty: never a folder someone else filled
	}
}

// changeIDTaken tells whether config.json's change counter has reached the batch's
// change ID although the batch is being given up: an agent that took the same ID
// makes the folder only if it is not there, then writes its backups into it.
func (p *publishing) changeIDTaken() bool {
	data, err := readNoFollow(p.b.abs(ConfigFile))
	if err != nil {
		return false
	}
	l := configCounters(data)[model.KindChange]
	return l != "" && model.CompareIDs(l, p.b.change) >= 0
}

func (p *publishing) rename(rel string) error {
	if err := os.Rename(p.temps[rel], p.b.abs(rel)); err != nil {
		return fmt.Errorf("cannot write %s: %v", rel, unwrapPath(err))
	}
	delete(p.temps, rel)
	crashPoint()
	return nil
}

// renameNew puts a new file (a created object, a backup) in place, never over a file
// another writer put there since the change was worked out.
func (p *publishing) renameNew(rel string) error {
	if err := renameNoReplace(p.temps[rel], p.b.abs(rel)); errors.Is(err, fs.ErrExist) {
		return clash(rel)
	} else if err != nil {
		return fmt.Errorf("cannot write %s: %v", rel, unwrapPath(err))
	}
	delete(p.temps, rel)
	crashPoint()
	return nil
}

// recheck tells whether object o is still as the change found it: a created object's
// place still free, a modified or deleted object still the bytes the skill read. Other
// writers write in place without a lock; a stale rewrite would drop what they wrote.
func (p *publishing) recheck(o batchObject) error {
	path := p.b.abs(o.rel())
	observe("read", o.rel(), nil)
	if o.created {
		if _, err := os.Lstat(path); err == nil {
			return clash(o.rel())
		}
		return nil
	}
	data, err := readNoFollow(path)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("cannot read %s: %v", o.rel(), unwrapPath(err))
	}
	if err != nil || !bytes.Equal(data, o.before) {
		what := "was changed by another writer after referee read it"
		if err != nil {
			what = "was removed by another writer after referee read it"
		}
		return &raceError{object: o.id, stale: true, msg: o.rel() + " " + what}
	}
	return nil
}

// freshConfig makes config.json's new bytes from the file as it is now, just before the
// rename, so that no counter another writer moved meanwhile is set back.
func (p *publishing) freshConfig() error {
	b := p.b
	if b.configFor == nil {
		return nil
	}
	observe("read", ConfigFile, nil)
	disk, err := readStable(b.abs(ConfigFile))
	if err != nil {
		return nil // nothing readable to keep: the batch's own counters stand
	}
	if !bytes.Equal(disk, b.configBefore) {
		p.configOnDisk = disk
		// A new ID of this change that config.json now counts as issued: another
		// writer took it meanwhile and may be about to create it.
		before, now := configCounters(b.configBefore), configCounters(disk)
		for _, o := range b.objects {
			kind := model.KindOf(o.id)
			if o.created && model.CompareIDs(o.id, before[kind]) > 0 && now[kind] != "" && model.CompareIDs(o.id, now[kind]) <= 0 {
				return &raceError{object: o.id, msg: fmt.Sprintf("another writer took %s (config.json now says %s)", o.id, now[kind])}
			}
		}
	}
	cfg := b.configFor(disk)
	if bytes.Equal(cfg, b.config) {
		return nil
	}
	f, err := writeTemp(b.abs(ConfigFile), cfg)
	if err == nil {
		err = f.Sync()
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			os.Remove(f.Name())
		}
	}
	if err != nil {
		return fmt.Errorf("cannot write %s: %v", ConfigFile, unwrapPath(err))
	}
	os.Remove(p.temps[ConfigFile])
	p.temps[ConfigFile] = f.Name()
	b.config = cfg
	return nil
}

func (p *publishing) publish() error {
	b := p.b
	// Before anything is published, and again before each object (below): another
	// writer's new file or newer version sends the change back (race.go).
	if err := p.each(len(b.objects), true, func(i int) error { return p.recheck(b.objects[i]) }, nil); err != nil {
		return err
	}
	if err := p.freshConfig(); err != nil {
		return err
	}
	if err := p.rename(ConfigFile); err != nil {
		return err
	}
	p.configDone, p.configWritten = true, b.config
	observe("wrote", ConfigFile, b.config)
	for _, o := range b.objects {
		if o.created || o.move {
			continue
		}
		if err := p.renameNew(o.backupRel(b.change)); err != nil {
			return err
		}
		p.backups = append(p.backups, o.backupRel(b.change))
	}
	// Round 3: config.json's and the backups' names, before any object can be replaced.
	round := []string{b.dir}
	if len(p.backups) > 0 {
		round = append(round, b.abs(HistoryDir+"/"+b.change))
	}
	syncDirs(round)
	if err := p.publishObjects(); err != nil {
		return err
	}
	dirs := map[string]bool{}
	for _, i := range p.objects {
		o := b.objects[i]
		if o.move {
			dirs[b.abs(HistoryDir+"/"+b.change)] = true
		}
		dirs[filepath.Dir(b.abs(o.rel()))] = true
	}
	// Round 4: the objects' names, before the log line says the change is done.
	round = round[:0]
	for d := range dirs {
		round = append(round, d)
	}
	syncDirs(round)
	logPath := b.abs(LogFile)
	if info, err := os.Lstat(logPath); err == nil {
		p.logExisted, p.logSize = true, info.Size()
	}
	p.logTouched = true
	if err := appendLine(logPath, b.line); err != nil {
		return errors.New(strings.Replace(err.Error(), logPath, LogFile, 1))
	}
	crashPoint()
	return nil
}

// undo reverts what publish did, newest first. Renames need no room on disk, so this
// works on a full disk: a modified or deleted object gets its backup renamed back.
func (p *publishing) undo() error {
	b := p.b
	var fails []string
	fail := func(what string, err error) {
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			fails = append(fails, what+": "+unwrapPath(err).Error())
		}
	}
	if p.logTouched {
		if p.logExisted {
			fail("cannot truncate "+LogFile, os.Truncate(b.abs(LogFile), p.logSize))
		} else {
			fail("cannot remove "+LogFile, os.Remove(b.abs(LogFile)))
		}
	}
	restored := map[string]bool{}
	for k := len(p.objects) - 1; k >= 0; k-- {
		o := b.objects[p.objects[k]]
		if !o.deleted {
			// Another writer may have written over it in place since: that write is
			// theirs, and stays.
			if data, err := readNoFollow(b.abs(o.rel())); err != nil || !bytes.Equal(data, o.after) {
				p.overwritten = append(p.overwritten, o.rel())
				continue
			}
		}
		if o.created {
			fail("cannot remove "+o.rel(), os.Remove(b.abs(o.rel())))
			continue
		}
		if o.deleted {
			fail("cannot restore "+o.rel(), renameNoReplace(b.abs(o.backupRel(b.change)), b.abs(o.rel())))
		} else {
			fail("cannot restore "+o.rel(), os.Rename(b.abs(o.backupRel(b.change)), b.abs(o.rel())))
		}
		restored[o.backupRel(b.change)] = true
	}
	for _, rel := range p.backups {
		if !restored[rel] {
			fail("cannot remove "+rel, os.Remove(b.abs(rel)))
		}
	}
	if p.configDone {
		// Put back what publish replaced, only while config.json is still what it wrote:
		// a later write is another writer's, and its counters must not move back.
		cur, err := readNoFollow(b.abs(ConfigFile))
		switch {
		case err != nil || !bytes.Equal(cur, p.configWritten):
		case p.configOnDisk != nil:
			fail("cannot restore "+ConfigFile, writeAtomic(b.abs(ConfigFile), p.configOnDisk))
		case p.cfgCopy != "":
			fail("cannot restore "+ConfigFile, os.Rename(p.cfgCopy, b.abs(ConfigFile)))
			p.cfgCopy = ""
		default:
			fail("cannot remove "+ConfigFile, os.Remove(b.abs(ConfigFile)))
		}
	}
	if len(fails) > 0 {
		// Keep the journal: repair finishes the undo from it.
		p.journal = false
		for _, tmp := range p.temps {
			os.Remove(tmp)
		}
		return errors.New(strings.Join(fails, "; "))
	}
	p.discard()
	return nil
}

// publishObjects puts each object in place (or removes it), rechecking it first, one
// after another (see parallelFiles), and
// records in p.objects what it did.
func (p *publishing) publishObjects() error {
	var mu sync.Mutex
	err := p.each(len(p.b.objects), false, p.publishObject, func(i int) {
		mu.Lock()
		p.objects = append(p.objects, i)
		mu.Unlock()
	})
	// The temp files renamed into place are no longer temp files (p.temps is only read
	// while the goroutines run).
	for _, i := range p.objects {
		if o := p.b.objects[i]; !o.deleted {
			delete(p.temps, o.rel())
		}
	}
	return err
}

// publishObject puts object i in place: its temp file renamed over it (or beside no
// file, for a created object), or, for a removed one, its file moved to its backup or
// removed. It leaves p's bookkeeping to its caller.
func (p *publishing) publishObject(i int) error {
	b := p.b
	o := b.objects[i]
	if !o.created {
		if err := p.recheck(o); err != nil {
			return err
		}
	}
	switch {
	case o.move:
		// A removed object's file becomes its backup: renamed, never over a file
		// another writer put there.
		if err := renameNoReplace(b.abs(o.rel()), b.abs(o.backupRel(b.change))); err != nil {
			return fmt.Errorf("cannot move %s to %s: %v", o.rel(), o.backupRel(b.change), unwrapPath(err))
		}
	case o.deleted:
		if err := os.Remove(b.abs(o.rel())); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("cannot remove %s: %v", o.rel(), unwrapPath(err))
		}
	case o.created:
		if err := renameNoReplace(p.temps[o.rel()], b.abs(o.rel())); errors.Is(err, fs.ErrExist) {
			return clash(o.rel())
		} else if err != nil {
			return fmt.Errorf("cannot write %s: %v", o.rel(), unwrapPath(err))
		}
	default:
		if err := os.Rename(p.temps[o.rel()], b.abs(o.rel())); err != nil {
			return fmt.Errorf("cannot write %s: %v", o.rel(), unwrapPath(err))
		}
	}
	crashPoint()
	if !o.deleted {
		observe("wrote", o.rel(), o.after)
	}
	return nil
}

// parallelFiles is how many objects a batch rechecks one after another; above it (a
// rewind or its undo, thousands of objects), two goroutines share the reads, which are
// independent. Creating and renaming files stay on one goroutine: in one folder they
// contend for the folder's lock, and measured on two busy cores two goroutines spent
// seconds of system time spinning on it (undo of a 10k rewind: 3.7-5.2 s instead of 2.2).
// A race observer (race.go) always sees one file at a time.
const parallelFiles = 256

// each runs do(0) … do(n-1), stopping at the first error, and done(i) after each do(i)
// that succeeded. With parallel, big batches run on two goroutines (parallelFiles); on an error the
// other stops at its next file, and done has been called for exactly what was done.
func (p *publishing) each(n int, parallel bool, do func(i int) error, done func(i int)) error {
	if !parallel || n <= parallelFiles || raceHook != nil {
		// Here, not on a goroutine: a test's crash point stops the batch's own goroutine.
		for i := range n {
			if err := do(i); err != nil {
				return err
			}
			if done != nil {
				done(i)
			}
		}
		return nil
	}
	const workers = 2
	var failed atomic.Bool
	errs := make([]error, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for i := w; i < n && !failed.Load(); i += workers {
				if err := do(i); err != nil {
					errs[w] = err
					failed.Store(true)
					return
				}
				if done != nil {
					done(i)
				}
			}
		})
	}
	wg.Wait()
	return errors.Join(errs...) // at most one in practice: the first
}
