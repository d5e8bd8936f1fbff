package store

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"referee/model"
	"referee/model/pyjson"
	"referee/skill"
)

// History rebuilds a folder's past from its log and backups. A backup
// history/<l-id>/<obj>.json holds the object as it was before change l-id, which is the
// object as it was right after the previous change that touched it: so the object
// after change N is its backup in the first later change that modified (or deleted)
// it, or, when no later change did, the file as it is now.
//
// A History belongs to one snapshot (the folder now); it reads each backup once and is
// safe for concurrent use. Nothing it returns is ever written back.
type History struct {
	dir  string
	snap *model.Snapshot
	log  []model.LogEntry // the log lines that name a change, in file order
	// ix indexes log; Histories of successive snapshots share it while the log only
	// grows, each seeing its first len(log) changes.
	ix *logIndex

	cache *backupCache

	// entries are the log lines held: those read back (Back), then the snapshot's Log;
	// head is what they leave out of the log, back how many were read back, gen the read
	// of the log they continue (logMark.gen; 0 for none).
	entries []model.LogEntry
	head    model.LogHead
	back    int
	gen     uint64
	// failed holds the backups this History could not use (under cache.mu): not
	// shared, since a backup caught half-written is whole a moment later, but asked
	// once per listing, not once per earlier change.
	failed map[string]backup
}

// backupCache holds the backups read so far, by path relative to the folder. A backup
// never changes once its change is logged, so the cache is shared by the Histories of
// successive snapshots (With); a read that failed is not kept, since an agent's backup
// can be caught half-written and be whole a moment later.
type backupCache struct {
	mu      sync.Mutex
	backups map[string]backup
}

type backup struct {
	doc     pyjson.Value
	version string
	err     string // why it cannot be used ("" when it can)
}

// NewHistory indexes the log of snap, the folder dir as it is now.
//
// When the snapshot holds only the log's tail (store.LoadTail), so does the History:
// what it says of a change it holds is exact (the object after a change is read from
// later changes, all of which it holds), and the changes before are its Head, reached
// with Back.
func NewHistory(dir string, snap *model.Snapshot) *History {
	return newHistory(dir, snap, snap.Log, snap.LogHead, &backupCache{backups: map[string]backup{}})
}

// newHistory indexes entries, the log of snap but for head.
func newHistory(dir string, snap *model.Snapshot, entries []model.LogEntry, head model.LogHead, cache *backupCache) *History {
	return historyOn(newLogIndex(), dir, snap, entries, head, cache)
}

// historyOn is the History of snap on ix, extended first with the entries it has not
// consumed (ix has consumed a prefix of entries).
func historyOn(ix *logIndex, dir string, snap *model.Snapshot, entries []model.LogEntry, head model.LogHead, cache *backupCache) *History {
	h := &History{dir: dir, snap: snap, ix: ix, cache: cache, entries: entries, head: head, failed: map[string]backup{}}
	if m, _ := snap.LogMark.(*logMark); m != nil {
		h.gen = m.gen
	}
	h.log = ix.extend(entries)
	return h
}

// logIndex indexes the log lines that name a change, in file order: by change ID, and
// per object the changes that created, backed up or deleted it. It only grows: the
// Histories of successive snapshots share it while the log only grows (With extends it
// with the lines appended, instead of indexing 64k lines again per change), each seeing
// the changes it holds, a prefix. mu guards it: Histories are read in commands while a
// newer one extends it.
type logIndex struct {
	mu  sync.RWMutex
	log []model.LogEntry // the changes, in file order
	pos map[string]int   // change ID → index in log (the first line with that ID)
	// created gives the index of the first change that created an object; creations and
	// deletions list every change that created (deleted) it, since a rewind or a branch
	// switch can remove an object and a later change create it again; touched lists,
	// per object, the indexes of the changes that backed it up.
	created              map[string]int
	creations, deletions map[string][]int
	touched              map[string][]int
	// consumed is how many entries were indexed (those naming no change included), last
	// the last of them.
	consumed int
	last     model.LogEntry
}

func newLogIndex() *logIndex {
	return &logIndex{pos: map[string]int{}, created: map[string]int{},
		creations: map[string][]int{}, deletions: map[string][]int{}, touched: map[string][]int{}}
}

// continues says whether entries begin with what ix consumed, so that extend can go on
// from there.
func (ix *logIndex) continues(entries []model.LogEntry) bool {
	ix.mu.RLock()
	defer ix.mu.RUnlock()
	if ix.consumed > len(entries) {
		return false
	}
	if ix.consumed == 0 {
		return true
	}
	e := entries[ix.consumed-1]
	return e.Off == ix.last.Off && e.Line == ix.last.Line && e.ID == ix.last.ID
}

// extend indexes the entries past those consumed and returns the changes of entries.
func (ix *logIndex) extend(entries []model.LogEntry) []model.LogEntry {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	for _, e := range entries[ix.consumed:] {
		ix.consumed++
		ix.last = e
		if e.ID == "" || !model.ValidID(e.ID, model.KindChange) {
			continue
		}
		if _, dup := ix.pos[e.ID]; dup {
			continue // check reports it; the first line is the change
		}
		i := len(ix.log)
		ix.log = append(ix.log, e)
		ix.pos[e.ID] = i
		for _, id := range e.Creation {
			if _, ok := ix.created[id]; !ok {
				ix.created[id] = i
			}
			ix.creations[id] = append(ix.creations[id], i)
		}
		for _, id := range e.Modification {
			ix.touched[id] = append(ix.touched[id], i)
		}
		for _, id := range e.Deleted {
			if t := ix.touched[id]; len(t) == 0 || t[len(t)-1] != i { // also listed as modified
				ix.touched[id] = append(t, i)
			}
			ix.deletions[id] = append(ix.deletions[id], i)
		}
	}
	return ix.log[:len(ix.log):len(ix.log)]
}

// position is the index of a change among h's.
func (h *History) position(changeID string) (int, bool) {
	h.ix.mu.RLock()
	i, ok := h.ix.pos[changeID]
	h.ix.mu.RUnlock()
	return i, ok && i < len(h.log)
}

// createdAt is the first of h's changes that created id.
func (h *History) createdAt(id string) (int, bool) {
	h.ix.mu.RLock()
	i, ok := h.ix.created[id]
	h.ix.mu.RUnlock()
	return i, ok && i < len(h.log)
}

// changesOf is the part of one of the index's lists (creations, deletions, touched)
// within h's changes.
func (h *History) changesOf(list map[string][]int, id string) []int {
	h.ix.mu.RLock()
	l := list[id]
	h.ix.mu.RUnlock()
	n, _ := slices.BinarySearch(l, len(h.log))
	return l[:n:n]
}

// objects calls yield with every object h's changes created or backed up.
func (h *History) objects(yield func(id string)) {
	h.ix.mu.RLock()
	defer h.ix.mu.RUnlock()
	for id, l := range h.ix.creations {
		if l[0] < len(h.log) {
			yield(id)
		}
	}
	for id, l := range h.ix.touched {
		if l[0] < len(h.log) {
			yield(id)
		}
	}
}

// With is the History of a newer snapshot of the same folder, sharing the backups
// already read (the UI makes one per snapshot while the agents work). The lines h read
// back (Back) are kept while the log only grew since.
func (h *History) With(snap *model.Snapshot) *History {
	m, _ := snap.LogMark.(*logMark)
	hm, _ := h.snap.LogMark.(*logMark)
	if h.back > 0 && m != nil && hm != nil && m.gen == h.gen && h.gen != 0 &&
		h.head.Offset < snap.LogHead.Offset && snap.LogHead.Offset <= hm.off {
		// The lines held before the newer snapshot's first: those read back, and any
		// its window let go since.
		cut, _ := slices.BinarySearchFunc(h.entries, snap.LogHead.Offset, func(e model.LogEntry, off int64) int {
			return cmp.Compare(e.Off, off)
		})
		entries := append(h.entries[:cut:cut], snap.Log...)
		n := newHistory(h.dir, snap, entries, h.head, h.cache)
		n.back = cut
		return n
	}
	if m != nil && m.gen == h.gen && h.gen != 0 && h.back == 0 && snap.LogHead == h.head && h.ix.continues(snap.Log) {
		return historyOn(h.ix, h.dir, snap, snap.Log, snap.LogHead, h.cache) // the lines appended, indexed
	}
	return newHistory(h.dir, snap, snap.Log, snap.LogHead, h.cache)
}

// Head is what the History leaves out of the log: the lines before the first it holds
// (the zero LogHead when it holds them all).
func (h *History) Head() model.LogHead { return h.head }

// Back is the History with up to n more lines of the log before its first (within
// logWindowBytes), read from the file backwards from Head().Offset: h itself when it
// holds the whole log. It fails when the log is no longer the file the snapshot read
// (rewritten, replaced or cut short); the snapshot's log must be read again then.
func (h *History) Back(n int) (*History, error) {
	if h.head.Offset == 0 || n <= 0 {
		return h, nil
	}
	m, _ := h.snap.LogMark.(*logMark)
	if m == nil || m.used == nil {
		return nil, inputf("%s: this snapshot did not read the log, so cannot read back in it", LogFile)
	}
	changed := inputf("%s has been rewritten since it was read: nothing older can be read until it is read again", LogFile)
	f, st, err := openLogFile(h.dir)
	if err != nil {
		return nil, inputf("cannot read %s: %v", LogFile, unwrapPath(err))
	}
	defer f.Close()
	if uint64(st.Dev) != m.dev || st.Ino != m.ino || st.Size < m.off || !sameTail(f, m) {
		return nil, changed
	}
	end := h.head.Offset
	from, buf := end, []byte(nil)
	// Back from the head's end until a line starts in what was read (or the file does).
	for from > 0 && (len(buf) == 0 || bytes.IndexByte(buf[:len(buf)-1], '\n') < 0) {
		step := min(from, logWindowBytes)
		more := make([]byte, step, int(step)+len(buf))
		if _, err := f.ReadAt(more, from-step); err != nil {
			return nil, err
		}
		buf, from = append(more, buf...), from-step
	}
	if len(buf) == 0 || buf[len(buf)-1] != '\n' {
		return nil, changed
	}
	start := 0
	if from > 0 {
		start = bytes.IndexByte(buf, '\n') + 1
	}
	at := len(buf)
	for k := 0; k < n && at > start; k++ {
		at = bytes.LastIndexByte(buf[start:at-1], '\n') + 1 + start
	}
	data := string(buf[at:])
	lines := strings.Count(data, "\n")
	older := parseLogLines(data, h.head.Lines-lines+1, from+int64(at))
	head := model.LogHead{Lines: h.head.Lines - lines, Changes: h.head.Changes - len(older), Offset: from + int64(at)}
	if head.Lines < 0 || head.Changes < 0 || head.Offset == 0 && (head.Lines != 0 || head.Changes != 0) {
		return nil, changed
	}
	entries := make([]model.LogEntry, 0, len(older)+len(h.entries))
	entries = append(append(entries, older...), h.entries...)
	b := newHistory(h.dir, h.snap, entries, head, h.cache)
	b.back = h.back + len(older)
	return b, nil
}

// Changes is the log as History reads it: every line naming a change, in file order.
func (h *History) Changes() []model.LogEntry { return h.log }

// Holds says whether the History holds a change: its line is among those read.
func (h *History) Holds(changeID string) bool {
	_, ok := h.position(changeID)
	return ok
}

// Index is the position of a change in Changes, or an error naming the log.
func (h *History) Index(changeID string) (int, error) {
	if err := model.CheckID(changeID, model.KindChange); err != nil {
		return 0, &skill.InputError{Msg: err.Error()}
	}
	i, ok := h.position(changeID)
	if !ok {
		return 0, &skill.InputError{Msg: fmt.Sprintf("%s is not in %s", changeID, LogFile)}
	}
	return i, nil
}

// Version is one object as it was at some point.
type Version struct {
	Doc     pyjson.Value // the zero Value when the object did not exist
	Exists  bool
	Version string // model.Version of the file it came from
	// Source is the file it was read from: a backup "history/l-005/s-007.json", or the
	// object file when no later change touched it.
	Source string
	// Skipped lists the backups that could not be used on the way (missing or broken);
	// the next one, or the file now, stands in for them.
	Skipped []model.BrokenFile
	// Now says the version is the snapshot's own (no change since touched it); At uses
	// the snapshot's object as it is.
	Now bool
	// Changed says the version is the snapshot's own, but its file (a lean statement's,
	// read again for its document) has changed since the snapshot read it.
	Changed bool
}

// after is object id as it was right after the change at index i (i = -1: before the
// first change).
func (h *History) after(id string, i int) Version { return h.afterChange(id, i, true) }

// afterChange is after; unless read, an object unchanged since is not read again (Doc
// stays empty, Now is set): the snapshot's object is that version.
func (h *History) afterChange(id string, i int, read bool) Version {
	var v Version
	src, j := h.source(id, i, func(j int) bool {
		path := HistoryDir + "/" + h.log[j].ID + "/" + id + ".json"
		b := h.backup(path)
		if b.err != "" {
			v.Skipped = append(v.Skipped, model.BrokenFile{Path: path, ID: id, Reason: b.err})
			return false
		}
		return true
	})
	switch src {
	case sourceAbsent:
		return v
	case sourceUnknown:
		v.Skipped = append(v.Skipped, model.BrokenFile{Path: HistoryDir, ID: id,
			Reason: fmt.Sprintf("%d backups of it in a row cannot be used; later ones were not read", maxUnusable)})
		return v
	case sourceBackup:
		path := HistoryDir + "/" + h.log[j].ID + "/" + id + ".json"
		b := h.backup(path)
		v.Doc, v.Exists, v.Version, v.Source = b.doc, true, b.version, path
		return v
	}
	if !read {
		v.Exists, v.Now, v.Version, v.Source = h.snap.Exists(id), true, h.snap.Versions.Get(id), objectRelPath(id)
		return v
	}
	doc, ok, err := h.current(id)
	var changed *model.ChangedError
	switch {
	case errors.As(err, &changed): // a newer snapshot has it; see Change.Provisional
		v.Changed = true
		v.Skipped = append(v.Skipped, model.BrokenFile{Path: changed.Path, ID: id, Reason: "has changed since it was loaded"})
	case err != nil: // gone or unreadable since the snapshot read it
		path := objectRelPath(id)
		v.Skipped = append(v.Skipped, model.BrokenFile{Path: path, ID: id, Reason: strings.TrimPrefix(err.Error(), path+": ")})
	case ok:
		v.Doc, v.Exists, v.Version, v.Source = doc, true, h.snap.Versions.Get(id), objectRelPath(id)
	}
	return v
}

// current is the object in the snapshot (the folder now). A lean statement's document
// is read from its file again.
func (h *History) current(id string) (pyjson.Value, bool, error) {
	switch model.KindOf(id) {
	case model.KindProblem:
		if p := h.snap.Problems[id]; p != nil {
			return p.Doc, true, nil
		}
	case model.KindStatement:
		if s := h.snap.Statements.Get(id); s != nil {
			doc, err := s.Document()
			return doc, err == nil, err
		}
	case model.KindExperience:
		if e := h.snap.Experiences[id]; e != nil {
			return e.Doc, true, nil
		}
	}
	return pyjson.Value{}, false, nil
}

// Where an object's version right after a change is kept (History.source).
const (
	sourceNow     = iota // the object as it is now: no change since touched it
	sourceAbsent         // it did not exist then
	sourceBackup         // the backup made by a later change
	sourceUnknown        // maxUnusable later backups in a row cannot be used
)

// maxUnusable is how many unusable backups in a row History.source tries.
const maxUnusable = 16

// firstAfter is the position in list (ascending) of the first index after i.
func firstAfter(list []int, i int) int {
	k, _ := slices.BinarySearch(list, i+1)
	return k
}

// source says where object id as it was right after change i (-1: before the first) is
// kept: the backup of the first later change that backed it up (one that usable accepts;
// the next stands in for one it refuses), or nowhere when a later change created it
// first (or it was deleted by then), or the file now when no later change touched it.
//
// The lists are in change order, so each is searched, not walked: the activity asks
// this of every change, and an object changed by each of 64k changes made that 2
// billion steps. After maxUnusable backups in a row that usable refuses, the version is
// unknown (sourceUnknown) rather than looked for further: a run whose backups are gone
// would make every change read every later one's.
func (h *History) source(id string, i int, usable func(j int) bool) (kind, j int) {
	next := -1 // the first creation after i
	creations := h.changesOf(h.ix.creations, id)
	if k := firstAfter(creations, i); k < len(creations) {
		next = creations[k]
	}
	touched := h.changesOf(h.ix.touched, id)
	refused := 0
	for _, j := range touched[firstAfter(touched, i):] {
		if next >= 0 && next <= j {
			return sourceAbsent, next
		}
		if usable(j) {
			return sourceBackup, j
		}
		if refused++; refused == maxUnusable {
			return sourceUnknown, j
		}
	}
	if next >= 0 {
		return sourceAbsent, next
	}
	lastCreated, lastDeleted := -1, -1
	if k := firstAfter(creations, i); k > 0 {
		lastCreated = creations[k-1]
	}
	if deletions := h.changesOf(h.ix.deletions, id); firstAfter(deletions, i) > 0 {
		lastDeleted = deletions[firstAfter(deletions, i)-1]
	}
	if lastDeleted > lastCreated {
		return sourceAbsent, lastDeleted
	}
	return sourceNow, -1
}

// before is object id as change i found it: the backup it made (modified, deleted), or
// absent (created). Without a usable backup it is unknown: absent, with Skipped saying why.
func (h *History) before(id string, i int) Version {
	if c, ok := h.createdAt(id); ok && c > i || slices.Contains(h.log[i].Creation, id) {
		return Version{}
	}
	path := HistoryDir + "/" + h.log[i].ID + "/" + id + ".json"
	b := h.backup(path)
	if b.err != "" {
		return Version{Skipped: []model.BrokenFile{{Path: path, ID: id, Reason: b.err}}}
	}
	return Version{Doc: b.doc, Exists: true, Version: b.version, Source: path}
}

// reasonBackupFolderLink is why a backup in a folder that is a link is not read.
const reasonBackupFolderLink = "the backup's folder is a link or not a folder (links are not followed)"

func (h *History) backup(path string) backup {
	h.cache.mu.Lock()
	defer h.cache.mu.Unlock()
	if b, ok := h.cache.backups[path]; ok {
		return b
	}
	if b, ok := h.failed[path]; ok {
		return b
	}
	var b backup
	full := filepath.Join(h.dir, filepath.FromSlash(path))
	info, err := os.Lstat(full)
	var data []byte
	if err == nil {
		switch {
		case backupFolderOK(full) != nil:
			b.err = reasonBackupFolderLink
		case !info.Mode().IsRegular():
			b.err = "the backup is not a regular file (links are not followed)"
		case info.Size() > MaxObjectSize:
			b.err = fmt.Sprintf("the backup is %d bytes, more than an object file may have", info.Size())
		default:
			data, err = readFileBounded(full, MaxObjectSize) // it may grow after the stat
		}
	}
	switch {
	case b.err != "":
	case err != nil && os.IsNotExist(err):
		b.err = "the backup is missing"
	case err != nil:
		b.err = unwrapPath(err).Error()
	default:
		if doc, perr := pyjson.Parse(data); perr != nil {
			b.err = "the backup is not valid JSON: " + perr.Error()
		} else {
			b.doc, b.version = doc, model.Version(data)
		}
	}
	if b.err == "" {
		h.cache.backups[path] = b
	} else {
		h.failed[path] = b
	}
	return b
}

// Object is object id as it was right after change changeID ("" for now).
func (h *History) Object(id, changeID string) (Version, error) {
	if err := model.CheckID(id, ""); err != nil || objectFile(id) == "" {
		return Version{}, &skill.InputError{Msg: fmt.Sprintf("%q is not a problem, statement or experience ID", id)}
	}
	if changeID == "" {
		doc, ok, err := h.current(id)
		if err != nil {
			return Version{}, err
		}
		return Version{Doc: doc, Exists: ok, Version: h.snap.Versions.Get(id), Source: objectRelPath(id)}, nil
	}
	i, err := h.Index(changeID)
	if err != nil {
		return Version{}, err
	}
	return h.after(id, i), nil
}

// At is the folder as it was right after change changeID: objects created later are
// absent, objects changed later are restored from the first later backup. Its Log ends
// with that change, its Config holds the counters the change left, and Broken lists the
// backups that could not be used (with the version shown instead). It is a view: no file
// is written.
func (h *History) At(changeID string) (*model.Snapshot, error) {
	i, err := h.Index(changeID)
	if err != nil {
		return nil, err
	}
	snap := &model.Snapshot{
		Problems:    map[string]*model.Problem{},
		Statements:  model.ObjectsOf(map[string]*model.Statement{}),
		Experiences: map[string]*model.Experience{},
		Versions:    model.ObjectsOf(map[string]string{}),
	}
	ids := map[string]bool{}
	h.objects(func(id string) { ids[id] = true })
	for id := range h.snap.Problems {
		ids[id] = true
	}
	for id := range h.snap.Statements.All() {
		ids[id] = true
	}
	for id := range h.snap.Experiences {
		ids[id] = true
	}
	for id := range ids {
		if objectFile(id) == "" || !model.ValidID(id, "") {
			continue
		}
		v := h.afterChange(id, i, false)
		for _, b := range v.Skipped {
			// Not a backup lost, which a later version stands in for: a folder that points
			// elsewhere is refused, as rewind refuses it.
			if b.Reason == reasonBackupFolderLink {
				return nil, inputf("%s/: %s; referee reads no backup through it", path.Dir(b.Path), reasonBackupFolderLink)
			}
		}
		snap.Broken = append(snap.Broken, v.Skipped...)
		if !v.Exists {
			continue
		}
		snap.Versions.Set(id, v.Version)
		if v.Now { // shared, lean statements and all: a snapshot is never changed
			switch model.KindOf(id) {
			case model.KindProblem:
				snap.Problems[id] = h.snap.Problems[id]
			case model.KindStatement:
				snap.Statements.Set(id, h.snap.Statements.Get(id))
			case model.KindExperience:
				snap.Experiences[id] = h.snap.Experiences[id]
			}
			continue
		}
		switch model.KindOf(id) {
		case model.KindProblem:
			snap.Problems[id] = model.ProblemFrom(v.Doc)
		case model.KindStatement:
			snap.Statements.Set(id, model.StatementFrom(v.Doc))
		case model.KindExperience:
			snap.Experiences[id] = model.ExperienceFrom(v.Doc)
		}
	}
	slices.SortFunc(snap.Broken, func(a, b model.BrokenFile) int { return comparePaths(a.Path, b.Path) })
	// The log up to and including the change, as the file held it then (as much of it
	// as the History holds).
	snap.LogHead = h.head
	for _, e := range h.entries {
		snap.Log = append(snap.Log, e)
		if e.ID == changeID {
			break
		}
	}
	snap.Config = configAfter(h.log[i])
	snap.Vocab = model.DetectVocab(snap.Statuses)
	return snap, nil
}

// configAfter is config.json as a change left it: its "current" IDs and itself.
func configAfter(e model.LogEntry) *model.Config {
	doc := pyjson.Obj()
	for _, id := range e.Current {
		if k := model.KindOf(id); k != "" && model.ValidID(id, k) {
			doc.Set(k, pyjson.Str(id))
		}
	}
	doc.Set(model.KindChange, pyjson.Str(e.ID))
	cfg, err := model.ConfigFrom(doc)
	if err != nil {
		return nil
	}
	return cfg
}

// At is the folder dir as it was right after change changeID (see History.At).
func At(dir, changeID string) (*model.Snapshot, error) {
	snap, err := Load(dir)
	if err != nil {
		return nil, &skill.InputError{Msg: err.Error()}
	}
	return NewHistory(dir, snap).At(changeID)
}
