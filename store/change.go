package store

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/gofrs/flock"

	"referee/model"
	"referee/model/pyjson"
	"referee/skill"
	"referee/store/consequence"
)

// LockFile serialises referee's writers on one folder.
const LockFile = "history/.referee.lock"

// Options say who makes a change and what they last saw.
type Options struct {
	Actor string
	// ExpectVersion is the version (model.Version) of the skill's target object the caller
	// last saw; the change is refused with a ConflictError when the file changed since.
	ExpectVersion string
	Now           func() time.Time
	// Vocabulary is the status vocabulary init sets a folder up for: P014 (the agents'
	// today) unless P013 is asked for, which init's log line then records.
	Vocabulary model.Vocab
}

// Result describes one applied change batch.
type Result struct {
	Change   string   `json:"change"`
	Skill    string   `json:"skill"`
	Actor    string   `json:"actor"`
	At       string   `json:"at"`
	Created  []string `json:"created"`
	Modified []string `json:"modified"`
	Deleted  []string `json:"deleted,omitempty"`
	Notes    []string `json:"notes,omitempty"`
}

// Objects says what the change did to which objects, e.g. "created s-008; modified p-001".
func (r *Result) Objects() string {
	var parts []string
	for _, p := range []struct {
		verb string
		ids  []string
	}{{"created", r.Created}, {"modified", r.Modified}, {"deleted", r.Deleted}} {
		if len(p.ids) > 0 {
			parts = append(parts, p.verb+" "+strings.Join(p.ids, ", "))
		}
	}
	return strings.Join(parts, "; ")
}

// ConflictError says the target changed since the caller read it, or (Why) that another
// writer kept changing an object while the change was being written. Nothing was written.
type ConflictError struct {
	Object, Expected, Actual string
	Why                      string // when set, what happened instead of the versions
}

func (e *ConflictError) Error() string {
	if e.Why != "" {
		return e.Object + ": " + e.Why
	}
	return fmt.Sprintf("%s changed since you read it (you saw version %s, it is now %s); read it again", e.Object, e.Expected, e.Actual)
}

func inputf(format string, args ...any) error {
	return &skill.InputError{Msg: fmt.Sprintf(format, args...)}
}

// LinkError is an InputError about the folder, not the request: a link, or anything but a
// plain file, where a change would read or write. The command was right; the folder
// refuses it (the CLI exits 1, refused). Nothing was written.
type LinkError struct{ skill.InputError }

func (e *LinkError) Unwrap() error { return &e.InputError }

func linkf(format string, args ...any) error {
	return &LinkError{skill.InputError{Msg: fmt.Sprintf(format, args...)}}
}

// NothingToDoError is a change that would change nothing (a rewind to the state the
// folder is already in): nothing was written, and nothing needed to be (the CLI exits 0).
type NothingToDoError struct{ skill.InputError }

func (e *NothingToDoError) Unwrap() error { return &e.InputError }

// tx is one change batch in the making. It holds the folder lock from begin to commit.
type tx struct {
	dir     string
	lock    *flock.Flock
	cfg     pyjson.Value
	cfgOrig []byte // config.json as read under the lock; nil when there is none (init)
	last    map[string]string
	objs    map[string]*txObject
	created []string
	changed []string // modified, in order of first modification
	deleted []string
	notes   []string
	explain []string // what the plan shows before y, beside notes (e.g. a confirmation's direction)
	vocab   model.Vocab
	skill   string
	extra   []pyjson.Member // more keys for the log line (e.g. which change an undo reverts)
}

type txObject struct {
	id    string
	orig  []byte // file bytes as read under the lock: what the backup holds
	doc   pyjson.Value
	isNew bool
}

func begin(dir, skill string) (*tx, error) { return open(dir, skill, true) }

// open starts a batch; without lock it only reads (for a Plan), so it never waits on a
// writer and never creates anything.
func open(dir, skill string, lock bool) (*tx, error) {
	if info, err := os.Stat(dir); err != nil || !info.IsDir() {
		return nil, inputf("contents folder %s does not exist (run referee init, or pass --contents)", dir)
	}
	if err := refuseUnsafe(dir); err != nil {
		return nil, err
	}
	t := &tx{dir: dir, objs: map[string]*txObject{}, skill: skill}
	if err := refuseWithoutConfig(dir); err != nil {
		return nil, err
	}
	if lock {
		if err := os.MkdirAll(filepath.Join(dir, HistoryDir), 0o755); err != nil {
			return nil, inputf("cannot create %s: %v", filepath.Join(dir, HistoryDir), unwrapPath(err))
		}
		t.lock = flock.New(filepath.Join(dir, filepath.FromSlash(LockFile)))
		if err := t.lock.Lock(); err != nil {
			return nil, inputf("cannot lock %s: %v", LockFile, unwrapPath(err))
		}
		if err := interrupted(dir, skill); err != nil {
			t.end()
			return nil, err
		}
	}
	data, err := readStable(filepath.Join(dir, ConfigFile))
	if err != nil {
		t.end()
		if errors.Is(err, fs.ErrNotExist) {
			return nil, inputf("%s has no config.json: not a contents folder (run referee init)", dir)
		}
		return nil, inputf("config.json: %v", err)
	}
	doc, _ := pyjson.Parse(data)
	cfg, err := model.ConfigFrom(doc)
	if err != nil {
		t.end()
		return nil, inputf("config.json: %v", err)
	}
	t.cfg, t.last, t.cfgOrig = doc, cfg.Last, data
	return t, nil
}

// refuseWithoutConfig refuses a folder without config.json before a writer makes the
// lock's folder in it: a change asked of the wrong folder leaves nothing there.
func refuseWithoutConfig(dir string) error {
	if _, err := os.Lstat(filepath.Join(dir, ConfigFile)); errors.Is(err, fs.ErrNotExist) {
		return inputf("%s has no config.json: not a contents folder (run referee init)", dir)
	}
	return nil
}

func (t *tx) end() {
	if t.lock != nil {
		_ = t.lock.Unlock()
		t.lock = nil
	}
}

// readStable reads and parses a file, retrying for a moment while it does not parse:
// the agents write in place, so a reader can catch a file empty or half-written. A read
// is kept only when a second read gives the same bytes: a read that overlaps a rewrite
// can join the old file's start to the new one's end and still parse. Links are refused.
func readStable(path string) ([]byte, error) {
	var lastErr error
	for attempt := 0; attempt < 25; attempt++ {
		data, err := readNoFollow(path)
		if err != nil {
			return nil, unwrapPath(err)
		}
		if _, err := pyjson.Parse(data); err != nil {
			lastErr = err
		} else if again, err := readNoFollow(path); err == nil && bytes.Equal(again, data) {
			return data, nil
		} else {
			lastErr = errors.New("it changed while being read")
		}
		time.Sleep(20 * time.Millisecond)
	}
	return nil, fmt.Errorf("not valid JSON after 0.5 s of retries: %v", lastErr)
}

func objectFile(id string) string {
	switch model.KindOf(id) {
	case model.KindProblem:
		return filepath.Join(ProblemDir, id+".json")
	case model.KindStatement:
		return filepath.Join(StatementDir, id+".json")
	case model.KindExperience:
		return filepath.Join(ExperienceDir, id+".json")
	}
	return ""
}

// object returns the object as it is on disk now (or as this batch already changed it).
func (t *tx) object(id string) (*txObject, error) {
	if o, ok := t.objs[id]; ok {
		return o, nil
	}
	if !model.ValidID(id, "") || objectFile(id) == "" {
		return nil, inputf("%q is not a problem, statement or experience ID", id)
	}
	path := filepath.Join(t.dir, objectFile(id))
	if info, err := os.Lstat(path); err == nil && !info.Mode().IsRegular() {
		return nil, linkf("%s is not a regular file (links and folders are not followed)", objectFile(id))
	}
	data, err := readStable(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil
		}
		return nil, inputf("%s: %v", filepath.ToSlash(objectFile(id)), err)
	}
	doc, _ := pyjson.Parse(data)
	o := &txObject{id: id, orig: data, doc: doc}
	t.objs[id] = o
	return o, nil
}

// Statement implements Objects from disk.
func (t *tx) Statement(id string) (*model.Statement, error) {
	o, err := t.object(id)
	if err != nil || o == nil {
		return nil, err
	}
	return model.StatementFrom(o.doc), nil
}

// Problem implements Objects from disk.
func (t *tx) Problem(id string) (*model.Problem, error) {
	o, err := t.object(id)
	if err != nil || o == nil {
		return nil, err
	}
	return model.ProblemFrom(o.doc), nil
}

// doc returns the tree of an object for modification and records the modification.
func (t *tx) modify(id string) (*pyjson.Value, error) {
	o, err := t.object(id)
	if err != nil {
		return nil, err
	}
	if o == nil {
		return nil, inputf("%s does not exist", id)
	}
	if !o.isNew && !contains(t.changed, id) {
		t.changed = append(t.changed, id)
	}
	return &o.doc, nil
}

// newID issues the next ID of a kind. An ID whose file already exists is never written
// over (the agents' scripts would overwrite it): it is skipped, and a note in the
// output and the change's log line says which ID was taken instead.
func (t *tx) newID(kind string) (string, error) {
	last, ok := t.last[kind]
	if !ok {
		last = kind + "-000"
	}
	counter := last
	var skipped []string
	for {
		id, err := model.NextID(last)
		if err != nil {
			return "", inputf("config.json: %v", err)
		}
		var taken bool
		if kind == model.KindChange {
			_, err = os.Lstat(filepath.Join(t.dir, HistoryDir, id))
			taken = err == nil
		} else {
			_, err = os.Lstat(filepath.Join(t.dir, objectFile(id)))
			taken = err == nil
		}
		last = id
		if !taken {
			t.last[kind] = id
			if len(skipped) > 0 {
				t.notes = append(t.notes, fmt.Sprintf("config.json says %s was the last, but %s already exists on disk: took %s instead of writing over it (the agents' scripts would overwrite it)",
					counter, strings.Join(skipped, ", "), id))
			}
			return id, nil
		}
		skipped = append(skipped, id)
	}
}

// create adds a new object to the batch.
func (t *tx) create(id string, doc pyjson.Value) {
	t.objs[id] = &txObject{id: id, doc: doc, isNew: true}
	t.created = append(t.created, id)
}

// vocabFor is the status vocabulary for a write to an object with the given status:
// the object's own where its status tells, else the folder's (see folderVocab).
func (t *tx) vocabFor(status string) model.Vocab {
	if _, v, _ := model.StatusInfo(status); v != model.VocabUnknown {
		return v
	}
	if t.vocab == model.VocabUnknown {
		t.vocab = folderVocab(t.dir)
	}
	return t.vocab
}

// folderVocab reads the log backward from its end in steps of vocabStep, at most
// vocabScan bytes and the objects of at most vocabChanges changes, stopping after the
// first batch of vocabBatch changes whose statuses tell: a long run's log is hundreds of
// megabytes, and a run whose recent changes touched only shared words (pending, true,
// false, unresolved) must still be found.
const (
	vocabStep    = 256 << 10
	vocabScan    = 2 << 20
	vocabChanges = 250
	vocabBatch   = 50 // changes counted together before their statuses decide
)

// folderVocab is the vocabulary a folder shows (FORMAT.md "Statuses"): the statuses of
// the objects the latest changes touched, now and in their backups, newest first, until
// they tell; if none tells, what init recorded in the log's first line ("vocabulary":
// "P013" when asked for); else P014, the agents' vocabulary today.
func folderVocab(dir string) model.Vocab {
	path := filepath.Join(dir, filepath.FromSlash(LogFile))
	f, err := openNoFollow(path)
	if err != nil {
		return model.P014
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil || !info.Mode().IsRegular() {
		return model.P014
	}
	size := info.Size()
	var count model.VocabCount
	seen := map[string]bool{} // objects whose current file was read
	status := func(p string) {
		if b, err := readNoFollow(p); err == nil {
			if v, err := pyjson.Parse(b); err == nil {
				if st, ok := v.Get("status"); ok && st.Kind == pyjson.String {
					count.Add(st.Str)
				}
			}
		}
	}
	examined := 0
	for end := size; end > 0 && size-end < vocabScan && examined < vocabChanges; {
		from := max(0, end-vocabStep)
		buf := make([]byte, end-from)
		n, _ := f.ReadAt(buf, from)
		chunk := string(buf[:n])
		end = from
		if from > 0 { // the first line read may be cut: leave it to the next step
			i := strings.IndexByte(chunk, '\n')
			if i < 0 {
				continue // inside one line longer than a step
			}
			chunk, end = chunk[i+1:], from+int64(i)+1
		}
		entries := ParseLog(chunk)
		for i := len(entries) - 1; i >= 0 && examined < vocabChanges; i-- {
			e := entries[i]
			examined++
			if !model.ValidID(e.ID, model.KindChange) {
				continue
			}
			for i, id := range append(append([]string{}, e.Modification...), e.Creation...) {
				if !model.ValidID(id, "") || objectFile(id) == "" {
					continue
				}
				if !seen[id] {
					seen[id] = true
					status(filepath.Join(dir, objectFile(id)))
				}
				if i < len(e.Modification) { // only a modified object has a backup
					status(filepath.Join(dir, HistoryDir, e.ID, id+".json"))
				}
			}
			if examined%vocabBatch == 0 && count.Vocab() != model.VocabUnknown {
				return count.Vocab()
			}
		}
		if v := count.Vocab(); v != model.VocabUnknown {
			return v
		}
	}
	first := make([]byte, 4096)
	n, _ := f.ReadAt(first, 0)
	line, _, _ := strings.Cut(string(first[:n]), "\n")
	if doc, err := pyjson.Parse([]byte(line)); err == nil {
		if v, ok := doc.Get(vocabularyKey); ok && v.Kind == pyjson.String && v.Str == model.P013.String() {
			return model.P013
		}
	}
	return model.P014
}

// vocabularyKey is the key of init's log line that records a folder set up for the
// seed-era vocabulary, which its first objects (pending, true, unresolved) cannot show.
const vocabularyKey = "vocabulary"

// commit writes the batch exactly as FORMAT.md "A change" orders it: config, backups,
// objects, then one log line. Each file is written to a temp file, fsynced and renamed.
func (t *tx) commit(opts Options) (*Result, error) {
	defer t.end()
	if len(t.created) == 0 && len(t.changed) == 0 && len(t.deleted) == 0 {
		return nil, inputf("%s changed nothing", t.skill)
	}
	if err := t.catchUp(); err != nil { // other writers: race.go
		return nil, err
	}
	lid, err := t.newID(model.KindChange)
	if err != nil {
		return nil, err
	}
	now := time.Now
	if opts.Now != nil {
		now = opts.Now
	}
	res := &Result{Change: lid, Skill: t.skill, Actor: opts.Actor, At: now().UTC().Format(time.RFC3339),
		Created: nonNil(t.created), Modified: nonNil(t.changed), Deleted: t.deleted, Notes: t.notes}

	// config.json with every issued ID, the backups of every modified (or deleted) object
	// as it was before, the objects, then one log line: batch.write keeps that order.
	b := &batch{dir: t.dir, change: lid, configBefore: t.cfgOrig}
	if t.cfgOrig != nil {
		b.configFor = t.configFor
	}
	b.config = t.configFor(nil)
	for _, id := range t.created {
		b.objects = append(b.objects, batchObject{id: id, after: pyjson.EncodeIndent(t.objs[id].doc), created: true})
	}
	for _, id := range t.changed {
		b.objects = append(b.objects, batchObject{id: id, before: t.objs[id].orig, after: pyjson.EncodeIndent(t.objs[id].doc)})
	}
	for _, id := range t.deleted {
		b.objects = append(b.objects, batchObject{id: id, before: t.objs[id].orig, deleted: true})
	}
	for _, o := range b.objects {
		if err := checkObjectSize(t.skill, o.id, t.objs[o.id].doc, o.after); err != nil {
			return nil, err
		}
	}
	line := pyjson.Obj(
		pyjson.M(lid, pyjson.Obj(pyjson.M("creation", pyjson.Strs(t.created)), pyjson.M("modification", pyjson.Strs(append(slices.Clone(t.changed), t.deleted...))))), // deleted too: the agents' rewind restores them
		pyjson.M("current", pyjson.Strs(t.current())),
		pyjson.M("at", pyjson.Str(res.At)),
		pyjson.M("by", pyjson.Str(opts.Actor)),
		pyjson.M("skill", pyjson.Str(t.skill)),
	)
	if len(t.deleted) > 0 {
		line.Set("deleted", pyjson.Strs(t.deleted))
	}
	if len(t.notes) > 0 {
		line.Set("notes", pyjson.Strs(t.notes))
	}
	for _, m := range t.extra {
		line.Set(m.Key, m.Value)
	}
	line.Set("versions", b.versions()) // what undo checks the objects against
	b.line = pyjson.EncodeLine(line)
	if err := b.write(); err != nil {
		return nil, err
	}
	return res, nil
}

// Planned is a change batch worked out but not written.
type Planned struct {
	Result
	Objects []PlannedObject // created first, then modified, in the order the skill made them
	// Discarded is the log line of the change an undo takes back.
	Discarded []model.LogEntry
	restore   *Restore // the undo of a rewind or branch switch, worked out as a restore batch
}

// Writes is what the change would write to each object (nil Doc: removed), for the
// consequences (store/consequence).
func (p *Planned) Writes() []consequence.Write {
	if p.restore != nil {
		return p.restore.Writes()
	}
	out := make([]consequence.Write, 0, len(p.Objects)+len(p.Deleted))
	for i := range p.Objects {
		out = append(out, consequence.Write{ID: p.Objects[i].ID, Doc: &p.Objects[i].After})
	}
	for _, id := range p.Deleted {
		out = append(out, consequence.Write{ID: id})
	}
	return out
}

// PlannedObject is one object as it is and as the change would write it (Before is the
// zero Value for a new object).
type PlannedObject struct {
	ID            string
	New           bool
	Before, After pyjson.Value
}

func (t *tx) plan(opts Options) (*Planned, error) {
	defer t.end()
	lid, err := t.newID(model.KindChange)
	if err != nil {
		return nil, err
	}
	now := time.Now
	if opts.Now != nil {
		now = opts.Now
	}
	p := &Planned{Result: Result{Change: lid, Skill: t.skill, Actor: opts.Actor, At: now().UTC().Format(time.RFC3339),
		Created: nonNil(t.created), Modified: nonNil(t.changed), Deleted: t.deleted, Notes: append(slices.Clip(t.explain), t.notes...)}}
	for _, id := range t.created {
		p.Objects = append(p.Objects, PlannedObject{ID: id, New: true, After: t.objs[id].doc})
	}
	for _, id := range t.changed {
		before, _ := pyjson.Parse(t.objs[id].orig)
		p.Objects = append(p.Objects, PlannedObject{ID: id, Before: before, After: t.objs[id].doc})
	}
	return p, nil
}

// current is the last p, s and e IDs after the change, as the log's "current" lists them.
func (t *tx) current() []string {
	var out []string
	for _, kind := range []string{model.KindProblem, model.KindStatement, model.KindExperience} {
		if v, ok := t.last[kind]; ok {
			out = append(out, v)
		} else {
			out = append(out, kind+"-000")
		}
	}
	return out
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// WriteFileAtomic writes a file whole or not at all (a temporary file renamed over it)
// with the permissions given: the installer writes into the agents' repository with it.
func WriteFileAtomic(path string, data []byte, perm fs.FileMode) error {
	if err := writeAtomic(path, data); err != nil {
		return err
	}
	if perm != 0 && perm != 0o644 {
		if err := os.Chmod(path, perm); err != nil {
			return fmt.Errorf("cannot write %s: %v", path, unwrapPath(err))
		}
	}
	return nil
}

// writeAtomic replaces path with data so that a reader (or a crash) sees the old or the
// new file, never a mix: temp file in the same folder, fsync, rename, fsync the folder.
func writeAtomic(path string, data []byte) error {
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return fmt.Errorf("cannot write %s: %v", path, unwrapPath(err))
	}
	tmp := f.Name()
	fail := func(err error) error {
		f.Close()
		os.Remove(tmp)
		return fmt.Errorf("cannot write %s: %v", path, unwrapPath(err))
	}
	if _, err := f.Write(data); err != nil {
		return fail(err)
	}
	if err := f.Chmod(0o644); err != nil {
		return fail(err)
	}
	if err := f.Sync(); err != nil {
		return fail(err)
	}
	if err := f.Close(); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("cannot write %s: %v", path, unwrapPath(err))
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("cannot write %s: %v", path, unwrapPath(err))
	}
	return syncDir(dir)
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return nil // some systems cannot open folders; the rename is still atomic
	}
	defer d.Close()
	_ = d.Sync()
	return nil
}

// appendLine appends one line to the log, starting a new line if the file lacks one.
func appendLine(path string, line []byte) error {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return fmt.Errorf("cannot append to %s: %v", path, unwrapPath(err))
	}
	defer f.Close()
	buf := make([]byte, 0, len(line)+2)
	if info, err := f.Stat(); err == nil && info.Size() > 0 {
		last := make([]byte, 1)
		if _, err := f.ReadAt(last, info.Size()-1); err == nil && last[0] != '\n' {
			buf = append(buf, '\n')
		}
	}
	buf = append(append(buf, line...), '\n')
	if _, err := f.Write(buf); err != nil {
		return fmt.Errorf("cannot append to %s: %v", path, unwrapPath(err))
	}
	if err := f.Sync(); err != nil {
		return fmt.Errorf("cannot append to %s: %v", path, unwrapPath(err))
	}
	return nil
}
