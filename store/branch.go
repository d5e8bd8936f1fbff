package store

// Branches: alternative lines of a run, kept without git.
//
// A branch is the folder's objects and p, s, e counters as they were when it was last
// saved. Files are stored by content: history/branches/objects/ab/cdef… holds the bytes
// whose SHA-256 is abcdef…, once, whichever branches hold them; a branch is a small
// manifest history/branches/<name>.json mapping each object ID to its hash. Saving a
// line that differs from another in three statements stores three files and a manifest.
//
// The folder is always on one line: the "branch" of the last log line that names one
// ("main" before any). `branch save` records a new line as a change of its own (an empty
// one: the log says where the line began); `branch switch` saves the line the folder is
// on, then writes the other line's objects and counters as one restore batch
// (rewind.go), which the agents read as an ordinary change and Undo takes back.
//
// history/branches/ is not an l-* folder: referee's loader, watcher, check and repair,
// and the agents' rewind.py (which removes only l-* folders, except for its reset to
// l-000, which empties history/) leave it alone.

import (
	"bytes"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"referee/model"
	"referee/model/pyjson"
)

// BranchDir holds the saved branches.
const BranchDir = HistoryDir + "/branches"

// DefaultBranch is the line a folder is on before any branch was saved or switched to.
const DefaultBranch = "main"

// Log keys of the lines that save or switch a branch.
const (
	keyBranch       = "branch"
	keyBranchBefore = "branch_before"
)

var branchName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$`)

func checkBranchName(name string) error {
	if !branchName.MatchString(name) || name == "objects" || strings.HasSuffix(name, ".json") {
		return inputf("branch: %q is not a branch name (letters, digits, '.', '_' and '-', up to 64, not \"objects\")", name)
	}
	return nil
}

// manifest is one saved branch.
type manifest struct {
	Name     string
	Saved    string            // when (RFC 3339)
	Change   string            // the last change of the log when it was saved
	Counters []string          // p, s, e
	Objects  map[string]string // object ID → SHA-256 of its file
	// Stats are each file's size and modification time when it was saved ("size:ns"):
	// the next save of the line does not read again a file they still describe.
	Stats map[string]string
}

func (m *manifest) encode() []byte {
	ids := make([]string, 0, len(m.Objects))
	for id := range m.Objects {
		ids = append(ids, id)
	}
	slices.SortFunc(ids, model.CompareIDs)
	objs := make([]pyjson.Member, len(ids))
	stats := make([]pyjson.Member, 0, len(ids))
	for i, id := range ids {
		objs[i] = pyjson.M(id, pyjson.Str(m.Objects[id]))
		if st, ok := m.Stats[id]; ok {
			stats = append(stats, pyjson.M(id, pyjson.Str(st)))
		}
	}
	return pyjson.EncodeIndent(pyjson.Obj(
		pyjson.M("branch", pyjson.Str(m.Name)),
		pyjson.M("saved", pyjson.Str(m.Saved)),
		pyjson.M("change", pyjson.Str(m.Change)),
		pyjson.M("counters", pyjson.Strs(m.Counters)),
		pyjson.M("objects", pyjson.Obj(objs...)),
		pyjson.M("stats", pyjson.Obj(stats...)),
	))
}

func manifestRel(name string) string { return BranchDir + "/" + name + ".json" }

func objectStoreRel(hash string) string { return BranchDir + "/objects/" + hash[:2] + "/" + hash[2:] }

// readManifest reads a saved branch; nil, nil when there is none by that name.
func readManifest(dir, name string) (*manifest, error) {
	rel := manifestRel(name)
	data, err := readNoFollow(filepath.Join(dir, filepath.FromSlash(rel)))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, inputf("branch: %s: %v", rel, unwrapPath(err))
	}
	doc, err := pyjson.Parse(data)
	if err != nil {
		return nil, inputf("branch: %s is not valid JSON: %v", rel, err)
	}
	m := &manifest{Objects: map[string]string{}, Stats: map[string]string{}}
	get := func(key string) string {
		v, _ := doc.Get(key)
		return v.Str
	}
	m.Name, m.Saved, m.Change = get("branch"), get("saved"), get("change")
	v, _ := doc.Get("counters")
	list, _ := v.StringList()
	if m.Counters, err = countersOf(list); err != nil {
		return nil, inputf("branch: %s: %v", rel, err)
	}
	objs, _ := doc.Get("objects")
	for _, mem := range objs.Obj {
		if !model.ValidID(mem.Key, "") || objectFile(mem.Key) == "" || mem.Value.Kind != pyjson.String || !validHash(mem.Value.Str) {
			return nil, inputf("branch: %s: %q → %q is not an object ID and a SHA-256", rel, mem.Key, mem.Value.Str)
		}
		m.Objects[mem.Key] = mem.Value.Str
	}
	stats, _ := doc.Get("stats")
	for _, mem := range stats.Obj {
		if mem.Value.Kind == pyjson.String {
			m.Stats[mem.Key] = mem.Value.Str
		}
	}
	return m, nil
}

func validHash(h string) bool {
	_, err := hex.DecodeString(h)
	return err == nil && len(h) == 64
}

// currentBranch is the line the folder is on: the "branch" of the last log line that
// names one, else DefaultBranch.
func (t *tx) currentBranch() (string, error) {
	branch, _, err := t.logEnd()
	return branch, err
}

// logEnd reads what a branch command needs of the log, backwards from its end: the
// branch of the last line that names one (DefaultBranch when none does) and the last
// change. Only the lines after those are parsed (a line without "branch" in it is not),
// so a save or a list on a log of millions of lines costs its last lines, not the log.
func (t *tx) logEnd() (branch, last string, err error) {
	branch, last, err = readLogEnd(t.dir, true)
	if err != nil {
		return "", "", inputf("%s: cannot read %s: %v", t.skill, LogFile, unwrapPath(err))
	}
	return branch, last, nil
}

// readLogEnd is logEnd's reading (the branch only withBranch; DefaultBranch when
// there is no log).
func readLogEnd(dir string, withBranch bool) (branch, last string, err error) {
	f, err := openNoFollow(filepath.Join(dir, filepath.FromSlash(LogFile)))
	if errors.Is(err, fs.ErrNotExist) {
		return DefaultBranch, "", nil
	}
	if err != nil {
		return "", "", err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return "", "", err
	}
	// The last change: the last line that is not blank.
	err = eachLineBack(f, info.Size(), func(line []byte) bool {
		if len(bytes.TrimSpace(line)) == 0 {
			return false
		}
		if len(line) <= MaxLogLine { // a longer one is a bad line: no change
			last = model.ParseLogLine(0, string(line)).ID
		}
		return last != ""
	})
	if err == nil && withBranch { // the branch: only the lines holding "branch" are parsed
		err = eachLineHoldingBack(f, info.Size(), []byte(`"`+keyBranch+`"`), func(line []byte) bool {
			if len(line) <= MaxLogLine {
				branch, _ = namedBranch(model.ParseLogLine(0, string(line)))
			}
			return branch != ""
		})
	}
	if err != nil {
		return "", "", err
	}
	if branch == "" {
		branch = DefaultBranch
	}
	return branch, last, nil
}

// branchOf is the branch of the last of entries that names one, else DefaultBranch.
func branchOf(entries []model.LogEntry) string {
	for i := len(entries) - 1; i >= 0; i-- {
		if name, ok := namedBranch(entries[i]); ok {
			return name
		}
	}
	return DefaultBranch
}

// namedBranch is the branch a log line names, if it names a valid one.
func namedBranch(e model.LogEntry) (string, bool) {
	if !strings.Contains(e.Raw, `"`+keyBranch+`"`) {
		return "", false
	}
	doc := e.Document()
	if v, ok := doc.Get(keyBranch); ok && v.Kind == pyjson.String && branchName.MatchString(v.Str) {
		return v.Str, true
	}
	return "", false
}

func lastChange(entries []model.LogEntry) string {
	for i := len(entries) - 1; i >= 0; i-- {
		if entries[i].ID != "" {
			return entries[i].ID
		}
	}
	return ""
}

// folderFile is one object file of the folder now.
type folderFile struct {
	hash string
	data []byte // nil when the hash comes from the last save (the file is unchanged since)
	stat string // its size and modification time (manifest.Stats)
}

// racyWindow: a file written this close before a save may be written again with the
// same size and time (file times are coarse), so its recorded stat is not trusted.
const racyWindow = 2 * time.Second

// folderObjects hashes every object file of the folder now. A file whose size and time
// are what the last save of the line (prev, may be nil) recorded, and which was written
// well before that save, is not read again: its hash is the saved one.
func (t *tx) folderObjects(prev *manifest) (map[string]folderFile, error) {
	var saved time.Time
	if prev != nil {
		saved, _ = time.Parse(time.RFC3339Nano, prev.Saved)
	}
	out := map[string]folderFile{}
	for _, sub := range []string{ProblemDir, StatementDir, ExperienceDir} {
		entries, err := os.ReadDir(t.abs(sub))
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, inputf("%s: %s: %v", t.skill, sub, unwrapPath(err))
		}
		for _, e := range entries {
			id, ok := strings.CutSuffix(e.Name(), ".json")
			if !ok || !model.ValidID(id, "") || objectRelPath(id) != sub+"/"+e.Name() {
				continue // not an object file: the agents and referee ignore it
			}
			var st string
			if info, err := e.Info(); err == nil && info.Mode().IsRegular() {
				st = fmt.Sprintf("%d:%d", info.Size(), info.ModTime().UnixNano())
				if prev != nil && prev.Stats[id] == st && prev.Objects[id] != "" && info.ModTime().Before(saved.Add(-racyWindow)) {
					out[id] = folderFile{hash: prev.Objects[id], stat: st}
					continue
				}
			}
			data, err := t.fileNow(id)
			if err != nil {
				return nil, err
			}
			if data != nil {
				out[id] = folderFile{hash: contentHash(data), data: data, stat: st}
			}
		}
	}
	return out, nil
}

// saveLine stores the folder's objects and counters as branch name (objects first, each
// once, then the manifest, so that a manifest never names a missing object).
func (t *tx) saveLine(name string, files map[string]folderFile, lastChange string, now time.Time) (*manifest, error) {
	t.removeBranchTemps()
	m := &manifest{Name: name, Saved: now.UTC().Format(time.RFC3339Nano), Change: lastChange,
		Counters: t.counters(), Objects: map[string]string{}, Stats: map[string]string{}}
	type pending struct {
		rel string
		f   *os.File
	}
	var temps []pending
	cleanup := func() {
		for _, p := range temps {
			p.f.Close()
			os.Remove(p.f.Name())
		}
	}
	dirs := map[string]bool{}
	for id, f := range files {
		h, data := f.hash, f.data
		m.Objects[id] = h
		if f.stat != "" {
			m.Stats[id] = f.stat
		}
		if data == nil {
			continue // unchanged since the last save, which stored it
		}
		rel := objectStoreRel(h)
		if _, err := os.Lstat(t.abs(rel)); err == nil || slices.ContainsFunc(temps, func(p pending) bool { return p.rel == rel }) {
			continue
		}
		if err := t.storeFolder(rel); err != nil {
			cleanup()
			return nil, err
		}
		f, err := writeTemp(t.abs(rel), data)
		if err != nil {
			cleanup()
			return nil, inputf("branch: cannot write %s: %v", rel, unwrapPath(err))
		}
		temps = append(temps, pending{rel, f})
		dirs[filepath.Dir(t.abs(rel))] = true
		crashPoint()
	}
	// Many new files (a line's first save): one syncfs instead of one fsync each.
	bulk := len(temps) > 64
	errs := make([]error, len(temps))
	if !bulk {
		syncAll(len(temps), func(i int) { errs[i] = temps[i].f.Sync() })
	}
	for i, p := range temps {
		if err := p.f.Close(); errs[i] == nil {
			errs[i] = err
		}
	}
	if bulk && !syncFS(t.abs(BranchDir)) {
		for i, p := range temps {
			if f, err := os.Open(p.f.Name()); err == nil {
				errs[i] = f.Sync()
				f.Close()
			}
		}
	}
	for i, err := range errs {
		if err != nil {
			for _, p := range temps {
				os.Remove(p.f.Name())
			}
			return nil, inputf("branch: cannot write %s: %v", temps[i].rel, unwrapPath(err))
		}
	}
	for _, p := range temps {
		if err := os.Rename(p.f.Name(), t.abs(p.rel)); err != nil {
			return nil, inputf("branch: cannot write %s: %v", p.rel, unwrapPath(err))
		}
		crashPoint()
	}
	round := make([]string, 0, len(dirs))
	for d := range dirs {
		round = append(round, d)
	}
	syncDirs(round)
	if err := writeAtomic(t.abs(manifestRel(name)), m.encode()); err != nil {
		return nil, inputf("branch: %v", err)
	}
	crashPoint()
	return m, nil
}

// removeBranchTemps removes the temp files a save killed half-way left in the store
// (repair looks only at history/l-*). It runs under the lock, so none is being written.
func (t *tx) removeBranchTemps() {
	dirs := []string{BranchDir}
	subs, _ := os.ReadDir(t.abs(BranchDir + "/objects"))
	for _, e := range subs {
		if e.IsDir() {
			dirs = append(dirs, BranchDir+"/objects/"+e.Name())
		}
	}
	for _, d := range dirs {
		entries, _ := os.ReadDir(t.abs(d))
		for _, e := range entries {
			if !e.IsDir() && isTempName(e.Name()) {
				_ = os.Remove(t.abs(d + "/" + e.Name()))
			}
		}
	}
}

// branchStart checks the folder and takes the lock for a branch command that writes; it
// returns the line the folder is on and the last change (tx.logEnd).
func branchStart(dir, skill string) (t *tx, branch, last string, err error) {
	t, err = beginNow(dir, skill)
	if err != nil {
		return nil, "", "", err
	}
	if err := refuseBranchLinks(dir); err != nil {
		t.end()
		return nil, "", "", err
	}
	if branch, last, err = t.logEnd(); err != nil {
		t.end()
		return nil, "", "", err
	}
	return t, branch, last, nil
}

// refuseBranchLinks refuses a history/branches (or its objects folder) that is a link:
// nothing is written through one.
func refuseBranchLinks(dir string) error {
	for _, rel := range []string{BranchDir, BranchDir + "/objects"} {
		info, err := os.Lstat(filepath.Join(dir, filepath.FromSlash(rel)))
		if err != nil {
			continue
		}
		if info.Mode()&fs.ModeSymlink != 0 || !info.IsDir() {
			return inputf("branch: %s is not a folder (links are not followed)", rel)
		}
	}
	if err := os.MkdirAll(filepath.Join(dir, filepath.FromSlash(BranchDir+"/objects")), 0o755); err != nil {
		return inputf("branch: cannot create %s: %v", BranchDir, unwrapPath(err))
	}
	return nil
}

// BranchSave saves the folder as branch name and puts the folder on that line (one log
// line, changing no object, records where the line began); the line it was on is saved
// at this point too. Saving the line the folder is on again updates it; a name another
// line has is refused.
func BranchSave(dir, name string, opts Options) (*Restore, error) {
	if err := checkBranchName(name); err != nil {
		return nil, err
	}
	t, cur, last, err := branchStart(dir, SkillBranchSave)
	if err != nil {
		return nil, err
	}
	defer t.end()
	if m, err := readManifest(dir, name); err != nil {
		return nil, err
	} else if m != nil && name != cur {
		return nil, inputf("branch save: there is a branch %q already (the folder is on %q); branch switch %s goes to it", name, cur, name)
	}
	prev, err := readManifest(dir, cur)
	if err != nil {
		return nil, err
	}
	objs, err := t.folderObjects(prev)
	if err != nil {
		return nil, err
	}
	now := time.Now
	if opts.Now != nil {
		now = opts.Now
	}
	// A new line forks here: the line the folder was on is saved at this point too, so
	// that switching back to it finds it as it was.
	names := []string{name}
	if name != cur {
		names = append(names, cur)
	}
	for _, n := range names {
		if _, err := t.saveLine(n, objs, last, now()); err != nil {
			return nil, err
		}
	}
	r := &Restore{Skill: SkillBranchSave, Branch: name, From: cur}
	extra := []pyjson.Member{pyjson.M(keyBranch, pyjson.Str(name)), pyjson.M(keyBranchBefore, pyjson.Str(cur))}
	return r, t.writeRestore(r, nil, t.counters(), extra, false, opts)
}

// BranchSwitch saves the line the folder is on, then sets the folder to branch name's
// objects and counters as one change batch. With dryRun it writes nothing (not even the
// save) and says what the switch would do.
func BranchSwitch(dir, name string, dryRun bool, opts Options) (*Restore, error) {
	if err := checkBranchName(name); err != nil {
		return nil, err
	}
	t, cur, last, err := branchStart(dir, SkillBranchSwitch)
	if err != nil {
		return nil, err
	}
	defer t.end()
	if cur == name {
		return nil, inputf("branch switch: the folder is on %q already", name)
	}
	target, err := readManifest(dir, name)
	if err != nil {
		return nil, err
	}
	if target == nil {
		return nil, inputf("branch switch: there is no branch %q (branch list shows the saved ones)", name)
	}
	prev, err := readManifest(dir, cur)
	if err != nil {
		return nil, err
	}
	objs, err := t.folderObjects(prev)
	if err != nil {
		return nil, err
	}
	now := time.Now
	if opts.Now != nil {
		now = opts.Now
	}
	if !dryRun {
		if _, err := t.saveLine(cur, objs, last, now()); err != nil {
			return nil, err
		}
	}
	var plan []restoreObj
	ids := make([]string, 0, len(objs)+len(target.Objects))
	for id := range objs {
		ids = append(ids, id)
	}
	for id := range target.Objects {
		if _, ok := objs[id]; !ok {
			ids = append(ids, id)
		}
	}
	slices.SortFunc(ids, model.CompareIDs)
	for _, id := range ids {
		f, exists := objs[id]
		h, ok := target.Objects[id]
		if exists && f.hash == h {
			continue
		}
		now := f.data
		if exists && now == nil { // not read by the save: unchanged since the last one
			if now, err = t.fileNow(id); err != nil {
				return nil, err
			}
		}
		if !ok {
			plan = append(plan, restoreObj{id: id, before: now})
			continue
		}
		want, err := t.storedObject(h)
		if err != nil {
			return nil, inputf("branch switch: %s of branch %q: %v", id, name, err)
		}
		plan = append(plan, restoreObj{id: id, before: now, after: want})
	}
	r := &Restore{Skill: SkillBranchSwitch, Branch: name, From: cur}
	extra := []pyjson.Member{pyjson.M(keyBranch, pyjson.Str(name)), pyjson.M(keyBranchBefore, pyjson.Str(cur))}
	return r, t.writeRestore(r, plan, target.Counters, extra, dryRun, opts)
}

// storeFolder makes sure the folder of a stored file (objects/ab/) is a real folder,
// creating it if needed: a link planted there is refused, never written or read through.
func (t *tx) storeFolder(rel string) error {
	dir := path.Dir(rel)
	info, err := os.Lstat(t.abs(dir))
	if errors.Is(err, fs.ErrNotExist) {
		if err := os.Mkdir(t.abs(dir), 0o755); err != nil {
			return inputf("branch: cannot create %s: %v", dir, unwrapPath(err))
		}
		return nil
	}
	if err != nil {
		return inputf("branch: %s: %v", dir, unwrapPath(err))
	}
	if !info.IsDir() {
		return inputf("branch: %s is not a folder (links are not followed)", dir)
	}
	return nil
}

// storedObject reads a file of the object store and checks it is what its name says.
func (t *tx) storedObject(hash string) ([]byte, error) {
	rel := objectStoreRel(hash)
	if info, err := os.Lstat(t.abs(path.Dir(rel))); err == nil && !info.IsDir() {
		return nil, fmt.Errorf("%s is not a folder (links are not followed)", path.Dir(rel))
	}
	data, err := readNoFollow(t.abs(rel))
	if err != nil {
		return nil, fmt.Errorf("%s: %v", rel, unwrapPath(err))
	}
	if contentHash(data) != hash {
		return nil, fmt.Errorf("%s does not hold the bytes its name says (the store is damaged)", rel)
	}
	return data, nil
}

// Branch is one line as branch list shows it.
type Branch struct {
	Name     string   `json:"name"`
	Current  bool     `json:"current"`
	Saved    string   `json:"saved,omitempty"`  // "" for the current line never saved
	Change   string   `json:"change,omitempty"` // the last change when it was saved
	Objects  int      `json:"objects"`
	Counters []string `json:"counters"`
}

// BranchList lists the saved lines, and the one the folder is on (saved or not), by name.
// It reads only; Bytes is the disk the object store takes.
func BranchList(dir string) (branches []Branch, storeBytes int64, err error) {
	t, err := open(dir, "branch list", false)
	if err != nil {
		return nil, 0, err
	}
	defer t.end()
	if err := refuseBranchLinksRead(dir); err != nil {
		return nil, 0, err
	}
	cur, err := t.currentBranch()
	if err != nil {
		return nil, 0, err
	}
	entries, _ := os.ReadDir(t.abs(BranchDir))
	seen := false
	for _, e := range entries {
		name, ok := strings.CutSuffix(e.Name(), ".json")
		if !ok || e.IsDir() || !branchName.MatchString(name) {
			continue
		}
		m, err := readManifest(dir, name)
		if err != nil || m == nil {
			return nil, 0, err
		}
		seen = seen || name == cur
		branches = append(branches, Branch{Name: name, Current: name == cur, Saved: m.Saved, Change: m.Change, Objects: len(m.Objects), Counters: m.Counters})
	}
	if !seen {
		branches = append(branches, Branch{Name: cur, Current: true, Counters: t.counters()})
	}
	slices.SortFunc(branches, func(a, b Branch) int { return strings.Compare(a.Name, b.Name) })
	_ = filepath.WalkDir(t.abs(BranchDir), func(_ string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			if info, err := d.Info(); err == nil {
				storeBytes += info.Size()
			}
		}
		return nil
	})
	return branches, storeBytes, nil
}

func refuseBranchLinksRead(dir string) error {
	info, err := os.Lstat(filepath.Join(dir, filepath.FromSlash(BranchDir)))
	if err == nil && (info.Mode()&fs.ModeSymlink != 0 || !info.IsDir()) {
		return inputf("branch: %s is not a folder (links are not followed)", BranchDir)
	}
	return nil
}

// BranchDifference is one object that differs between two lines.
type BranchDifference struct {
	ID string `json:"id"`
	// A and B are the object's status in each line ("" when it has none), or "absent".
	A string `json:"a"`
	B string `json:"b"`
}

// BranchDiff compares two lines object by object (the line the folder is on as it is
// now, not as last saved). It reads only.
func BranchDiff(dir, a, b string) ([]BranchDifference, error) {
	for _, n := range []string{a, b} {
		if err := checkBranchName(n); err != nil {
			return nil, err
		}
	}
	t, err := open(dir, "branch diff", false)
	if err != nil {
		return nil, err
	}
	defer t.end()
	if err := refuseBranchLinksRead(dir); err != nil {
		return nil, err
	}
	cur, err := t.currentBranch()
	if err != nil {
		return nil, err
	}
	load := func(name string) (map[string]string, func(id string) []byte, error) {
		if name == cur {
			prev, err := readManifest(dir, cur)
			if err != nil {
				return nil, nil, err
			}
			live, err := t.folderObjects(prev)
			if err != nil {
				return nil, nil, err
			}
			hashes := map[string]string{}
			for id, f := range live {
				hashes[id] = f.hash
			}
			return hashes, func(id string) []byte {
				if data := live[id].data; data != nil {
					return data
				}
				data, _ := t.fileNow(id)
				return data
			}, nil
		}
		m, err := readManifest(dir, name)
		if err != nil {
			return nil, nil, err
		}
		if m == nil {
			return nil, nil, inputf("branch diff: there is no branch %q (branch list shows the saved ones)", name)
		}
		return m.Objects, func(id string) []byte {
			data, _ := t.storedObject(m.Objects[id])
			return data
		}, nil
	}
	ha, ra, err := load(a)
	if err != nil {
		return nil, err
	}
	hb, rb, err := load(b)
	if err != nil {
		return nil, err
	}
	ids := map[string]bool{}
	for id := range ha {
		ids[id] = true
	}
	for id := range hb {
		ids[id] = true
	}
	status := func(hashes map[string]string, read func(string) []byte, id string) string {
		if _, ok := hashes[id]; !ok {
			return "absent"
		}
		doc, err := pyjson.Parse(read(id))
		if err != nil {
			return "(unreadable)"
		}
		st, _ := doc.Get("status")
		return st.Str
	}
	var out []BranchDifference
	for id := range ids {
		if ha[id] == hb[id] {
			continue
		}
		out = append(out, BranchDifference{ID: id, A: status(ha, ra, id), B: status(hb, rb, id)})
	}
	slices.SortFunc(out, func(x, y BranchDifference) int { return model.CompareIDs(x.ID, y.ID) })
	return out, nil
}
