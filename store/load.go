// Package store is the contents folder on disk: loading and watching it, the journaled
// change batch that runs a skill (skill.Tx) or an undo, rewind or branch switch, the
// history, and check and repair (FORMAT.md "A change").
package store

import (
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"

	"referee/model"
	"referee/model/pyjson"
)

// Folder names inside a contents folder.
const (
	ProblemDir    = "problem"
	StatementDir  = "statement"
	ExperienceDir = "experience"
	HistoryDir    = "history"
	ConfigFile    = "config.json"
	LogFile       = "history/log.jsonl"
)

var objectDirs = []string{ProblemDir, StatementDir, ExperienceDir}

// MaxObjectSize bounds one object file; a larger one is reported, not read.
const MaxObjectSize = 64 << 20

// Load reads a whole contents folder into a snapshot. Broken files do not fail the load:
// they are listed in Snapshot.Broken. It fails only when the folder itself is unusable.
func Load(dir string) (*model.Snapshot, error) { return LoadWithProgress(dir, nil) }

// Progress counts the object files a load has read, so that a caller on another
// goroutine can show how far it is. Total is set once the folders are listed.
type Progress struct{ Done, Total atomic.Int64 }

// LoadWithProgress is Load, counting into p (which may be nil) as it goes.
func LoadWithProgress(dir string, p *Progress) (*model.Snapshot, error) {
	return load(dir, p, readWholeLog, false, nil)
}

// LoadTail is LoadWithProgress holding only the log's tail, as the workbench does: its
// last lines are parsed (see logWindowLines), the lines before them counted
// (Snapshot.LogHead), and reloads of the snapshot keep it so. History.Back reads
// further back.
func LoadTail(dir string, p *Progress) (*model.Snapshot, error) {
	return load(dir, p, readLogTail, false, nil)
}

// LoadTailThen is LoadTail that reads config.json and the log's tail once the object
// files are read, while then runs on the caller's goroutine: the workbench derives its
// tree meanwhile, on the core the read of the objects had and the derivation leaves
// idle. then sees the snapshot's objects only: its Config, Log, LogMark and the broken
// entries of config.json, the log and history/ are set after it returns.
func LoadTailThen(dir string, p *Progress, then func(*model.Snapshot)) (*model.Snapshot, error) {
	return load(dir, p, readLogTail, false, then)
}

// How much of the log a load reads.
const (
	readNoLog    = iota // none (LoadNoLog)
	readWholeLog        // every line
	readLogTail         // the tail (LoadTail)
)

// LoadNoLog is Load without the change log (Snapshot.Log stays empty), for a caller that
// needs only the objects, as `referee status` does: a long run's log is megabytes of
// lines to parse.
func LoadNoLog(dir string) (*model.Snapshot, error) {
	return load(dir, nil, readNoLog, false, nil)
}

// LoadWhole is Load reading every statement whole, its document and proof text
// included (Load leaves long proof texts in their files: model.StatementLean), for a
// caller that needs them all, as `check` and `export` do: each file is read once, and a
// statement whose proof text is not valid JSON is a broken file, as any other fault.
func LoadWhole(dir string) (*model.Snapshot, error) {
	return load(dir, nil, readWholeLog, true, nil)
}

// LoadWholeNoLog is LoadWhole without the change log, and LoadWholeTail LoadWhole with
// only its tail (as LoadTail), for `export`, which shows no log line.
func LoadWholeNoLog(dir string) (*model.Snapshot, error) {
	return load(dir, nil, readNoLog, true, nil)
}

// LoadStatus is LoadNoLog reading statements skimmed (model.StatementSkim): without the
// texts the status of a folder does not show (notes, proof outlines, issues and
// responses, which it only counts), for `referee status`, which prints and exits. It
// keeps no versions (Snapshot.Versions is empty: no file's checksum is taken) and its
// statements no file to read again (their Document and a long proof's Text fail, see
// statusFile): status shows neither.
func LoadStatus(dir string) (*model.Snapshot, error) {
	snap, _, err := LoadStatusNumbered(dir, true)
	return snap, err
}

// LoadStatusNumbered is LoadStatus with Derive's numbering of the objects, made from the
// folders' listing while the files are read, for model.DeriveStatusNumbered; nil when
// a file was not read as listed (gone, broken, not an object's name) or an ID is not of
// the usual shape. Without claims it may drop the statements' conclusions (each ""),
// as status's JSON, which shows none, reads them.
func LoadStatusNumbered(dir string, claims bool) (*model.Snapshot, *model.Numbering, error) {
	into := &intoSnapshot{parse: parseSkim, noClaims: !claims}
	snap, err := loadInto(dir, nil, readNoLog, into, nil)
	return snap, into.numbering, err
}

// LoadWholeTail: see LoadWholeNoLog.
func LoadWholeTail(dir string) (*model.Snapshot, error) {
	return load(dir, nil, readLogTail, true, nil)
}

// How a load reads statements: lean (model.StatementLean), whole (LoadWhole) or skimmed
// (LoadStatus).
const (
	parseLean = iota
	parseWhole
	parseSkim
)

func load(dir string, p *Progress, withLog int, whole bool, then func(*model.Snapshot)) (*model.Snapshot, error) {
	parse := parseLean
	if whole {
		parse = parseWhole
	}
	return loadAs(dir, p, withLog, parse, then)
}

// loadAs is load, reading statements as parse says (parseLean, parseWhole, parseSkim).
func loadAs(dir string, p *Progress, withLog, parse int, then func(*model.Snapshot)) (*model.Snapshot, error) {
	return loadInto(dir, p, withLog, &intoSnapshot{parse: parse}, then)
}

// loadInto is loadAs with what the workers take put into into (its parse set).
func loadInto(dir string, p *Progress, withLog int, into *intoSnapshot, then func(*model.Snapshot)) (*model.Snapshot, error) {
	defer pauseGC()()
	parse := into.parse
	if err := CheckFolder(dir); err != nil {
		return nil, err
	}
	metaRead := make(chan meta, 1) // the log is parsed while the objects are (with then: after)
	if then == nil {
		go func() { metaRead <- readMeta(dir, withLog) }()
	}
	snap := &model.Snapshot{}
	count := map[string]int{}
	listings, n := make([][]listed, len(objectDirs)), 0
	for i, sub := range objectDirs {
		if isLink(dir, sub) {
			snap.Broken = append(snap.Broken, model.BrokenFile{Path: sub, Reason: linkReason})
			continue
		}
		entries, err := listFolder(filepath.Join(dir, sub), sub, parse == parseSkim && sub == StatementDir)
		if err != nil {
			if !errors.Is(err, fs.ErrNotExist) {
				snap.Broken = append(snap.Broken, model.BrokenFile{Path: sub, Reason: unwrapPath(err).Error()})
			}
			continue
		}
		listings[i], n = entries, n+len(entries)
		count[sub] = len(entries)
	}
	paths := make([]string, 0, n)
	regular := make([]bool, 0, n) // what the folder listing says, so most files need no stat before open
	for _, entries := range listings {
		for _, e := range entries {
			paths = append(paths, e.path)
			regular = append(regular, e.regular)
		}
	}
	// Sized up front: growing maps of 10k entries one by one is most of apply's time.
	snap.Problems = make(map[string]*model.Problem, count[ProblemDir])
	snap.Experiences = make(map[string]*model.Experience, count[ExperienceDir])
	into.snap = snap
	var numbered chan *model.Numbering
	if parse == parseSkim {
		roomFor(len(paths))
		into.dense = newDenseReads(len(paths))
		// Derive's numbering, from the names, on this goroutine's core while the
		// workers read: after the last read status derives on one goroutine.
		numbered = make(chan *model.Numbering, 1)
		go func() { numbered <- numberListing(listings) }()
	} else {
		snap.Statements = model.ObjectsOf(make(map[string]*model.Statement, count[StatementDir]))
		snap.Versions = model.ObjectsOf(make(map[string]string, len(paths)))
	}
	if p != nil {
		p.Total.Store(int64(len(paths)))
	}
	leftover := readAll(dir, paths, regular, p, into)
	if d := into.dense; d != nil {
		// Every file read as listed: the numbering of the listing is the snapshot's.
		nb := <-numbered
		if len(leftover) == 0 && !slices.Contains(d.ids, "") {
			at := len(listings[0]) // the statements follow the problems
			into.numbering = nb.WithStatements(d.statements[at : at+len(listings[1])])
		}
		d.into(snap, &into.vocab) // before the leftovers, which may delete from them
	}
	// What the workers did not take (files gone or broken) in folder order, each folder
	// by name, though a status load reads its statements by ID.
	folderOf := func(path string) int { sub, _, _ := strings.Cut(path, "/"); return slices.Index(objectDirs, sub) }
	slices.SortFunc(leftover, func(a, b readResult) int {
		return cmp.Or(cmp.Compare(folderOf(a.path), folderOf(b.path)), strings.Compare(a.path, b.path))
	})
	for _, r := range leftover {
		if r.path != "" { // what the workers did not take: files gone or broken, in order
			apply(snap, r)
		}
	}
	snap.Vocab = into.vocab.Vocab()
	if then != nil {
		go func() { metaRead <- readMeta(dir, withLog) }()
		then(snap)
	}
	setMeta(snap, <-metaRead)
	return snap, nil
}

// listed is a folder entry: its name, its path (sub/name, sub the object folder), and
// whether the listing says it is a regular file.
type listed struct {
	name, path string
	regular    bool
}

// listFolder lists the folder at path, sub inside the contents folder (readFolder),
// sorting the names as strings: os.ReadDir's sort calls the DirEntry interface twice per
// comparison, a tenth of a second of a load at 100k statements before any file is read.
// Read in name order the files cost the kernel less than in the folder's own (hashed)
// order.
//
// byID (a status load's statements) sorts them by ID (model.IDOrderKey) instead, when
// every name is an ID's: the order in which Derive numbers them, so that the load's
// numbering (model.NumberIDs) finds them sorted and sorts nothing again, and the order
// in which the agents create them (s-z999, then s-aa001), as the names' order nearly is.
func listFolder(path, sub string, byID bool) ([]listed, error) {
	out, err := readFolder(path, sub)
	if err != nil {
		return nil, err
	}
	if !byID || !sortIDs(out) {
		sortNames(out)
	}
	return out, nil
}

// keyedAt is a listing's entry at, sorted by key.
type keyedAt struct {
	key uint64
	at  int32
}

// sortIDs sorts a listing of "<ID>.json" names by model.IDOrderKey of the IDs, and
// says so; it leaves it as it is, and says not, when a name is not of that shape.
func sortIDs(out []listed) bool {
	keys := make([]keyedAt, len(out))
	for i, e := range out {
		id, ok := strings.CutSuffix(e.name, ".json")
		k, keyable := model.IDOrderKey(id)
		if !ok || !keyable {
			return false
		}
		keys[i] = keyedAt{k, int32(i)}
	}
	sortByKeys(out, keys) // a key is one ID's: no two entries share one
	return true
}

// sortNames sorts a listing by name, as strings.Compare orders them. A large one is
// sorted by radix on each name's first eight bytes (comparing the strings was most of
// a listing's time at a million files), then each run of names that share those by
// comparing.
func sortNames(out []listed) {
	byName := func(a, b listed) int { return strings.Compare(a.name, b.name) }
	if len(out) < 1024 {
		slices.SortFunc(out, byName)
		return
	}
	keys := make([]keyedAt, len(out)) // the first eight bytes, big-endian, zeros after a shorter name
	for i, e := range out {
		var b [8]byte
		copy(b[:], e.name)
		keys[i] = keyedAt{binary.BigEndian.Uint64(b[:]), int32(i)}
	}
	src := sortByKeys(out, keys)
	for i := 0; i < len(src); {
		j := i + 1
		for j < len(src) && src[j].key == src[i].key {
			j++
		}
		if j-i > 1 {
			slices.SortFunc(out[i:j], byName)
		}
		i = j
	}
}

// sortByKeys sorts a listing by its entries' keys (keys[i] is out[i]'s, at i), by
// radix, stably, and returns the keys sorted (their at no longer meaningful).
func sortByKeys(out []listed, keys []keyedAt) []keyedAt {
	var or, and uint64 = 0, ^uint64(0)
	for _, k := range keys {
		or, and = or|k.key, and&k.key
	}
	differ := or ^ and // the bits that are not the same in every key
	src, dst := keys, make([]keyedAt, len(keys))
	var count [256]int
	for shift := uint(0); shift < 64; shift += 8 { // a stable counting sort per byte, lowest first
		if (differ>>shift)&0xff == 0 {
			continue
		}
		clear(count[:])
		for _, k := range src {
			count[(k.key>>shift)&0xff]++
		}
		at := 0
		for b, c := range count {
			count[b], at = at, at+c
		}
		for _, k := range src {
			b := (k.key >> shift) & 0xff
			dst[count[b]] = k
			count[b]++
		}
		src, dst = dst, src
	}
	// The entries moved into their places along the permutation's cycles, in place: a
	// sorted copy was as large again as the listing, pages first touched (status runs
	// without the collector, so every byte it allocates is a fresh page).
	for i := range src {
		if src[i].at < 0 {
			continue
		}
		e, j := out[i], i
		for {
			k := int(src[j].at)
			src[j].at = -1
			if k == i {
				out[j] = e
				break
			}
			out[j], j = out[k], k
		}
	}
	return src
}

// intoSnapshot lets a load's workers put what they read straight into the new snapshot
// (its maps under a lock), so that the load does not end with ten thousand map inserts
// one by one; they count the statuses' vocabulary on the way. Broken files are left to
// apply, in order, for a broken list in folder order.
type intoSnapshot struct {
	mu    sync.Mutex
	snap  *model.Snapshot
	vocab model.VocabCount
	parse int // how statements are read: parseLean, parseWhole, parseSkim
	// dense, when set (a status load), takes the statements, each at its path's place,
	// without the lock: the snapshot's Statements are then a list under one index of IDs
	// (denseReads.into), not a map of every statement. Inserting a million IDs into maps
	// by string was seconds of `referee status` at a million statements.
	dense *denseReads
	// numbering is Derive's numbering of a status load's objects (LoadStatusNumbered).
	numbering *model.Numbering
	noClaims  bool // a status load drops the conclusions (model.Skimmer.NoClaims)
}

// numberListing is model.NumberIDs of the object folders' listings (problems,
// statements, experiences, as objectDirs); nil when a name is not an object's.
func numberListing(listings [][]listed) *model.Numbering {
	ids := make([][]string, len(listings))
	for k, entries := range listings {
		ids[k] = make([]string, len(entries))
		for i, e := range entries {
			id, ok := strings.CutSuffix(e.name, ".json")
			if !ok {
				return nil
			}
			ids[k][i] = id
		}
	}
	return model.NumberIDs(ids[0], ids[1], ids[2])
}

// take puts a good read, of paths[i], into the snapshot and says so.
func (in *intoSnapshot) take(i int, r *readResult) bool {
	if r.gone || r.err != "" {
		return false
	}
	if d := in.dense; d != nil {
		d.ids[i] = r.id // a status load keeps no versions
		if r.statement != nil {
			d.statements[i] = r.statement
			switch _, v, _ := model.StatusInfo(r.statement.Status); v {
			case model.P013:
				d.p013.Add(1)
			case model.P014:
				d.p014.Add(1)
			}
			return true
		}
	}
	in.mu.Lock()
	defer in.mu.Unlock()
	if in.dense != nil { // a problem or an experience: its version is in dense
		putTyped(in.snap, r)
	} else {
		put(in.snap, *r)
	}
	switch {
	case r.problem != nil:
		in.vocab.Add(r.problem.Status)
	case r.statement != nil:
		in.vocab.Add(r.statement.Status)
	}
	return true
}

// denseReads are the good reads of a load, each at its path's place (intoSnapshot.dense).
type denseReads struct {
	ids        []string
	statements []*model.Statement
	p013, p014 atomic.Int64 // the statements' vocabulary, counted as taken
}

func newDenseReads(n int) *denseReads {
	return &denseReads{ids: make([]string, n), statements: make([]*model.Statement, n)}
}

// into makes the snapshot's Statements of the reads, over one index of their IDs, in the
// paths' order, and its Versions empty (LoadStatus keeps none), and adds the statements'
// vocabulary to vocab.
func (d *denseReads) into(snap *model.Snapshot, vocab *model.VocabCount) {
	n, statements := 0, 0
	for i, id := range d.ids { // in place: the good reads to the front
		if id == "" {
			continue
		}
		d.ids[n], d.statements[n] = id, d.statements[i]
		if d.statements[n] != nil {
			statements++
		}
		n++
	}
	ids, sts := d.ids[:n], d.statements[:n]
	has := make([]bool, n)
	for i, st := range sts {
		has[i] = st != nil
	}
	ix := model.NewUniqueIDIndex(ids) // a file name is one ID, of its folder's kind: no ID is there twice
	snap.Versions = model.ObjectsOf(map[string]string{})
	snap.Statements = model.ObjectsAt(ix, sts, has, statements)
	vocab.P013 += int(d.p013.Load())
	vocab.P014 += int(d.p014.Load())
}

// statusBytesPerObject is a little over what `referee status` keeps live per object
// file (the skimmed statement, the snapshot's maps and the derived graph): room enough
// that the collector seldom runs, and no more, since the limit is also status's peak
// (4 KiB held 2.7 GB at a million statements; this, 2.1 GiB for 10% more CPU).
const statusBytesPerObject = 2304

// roomFor raises the process's memory limit, when one is set below it, to what status
// needs for n object files. Status runs without the collector, near a limit (see
// cmd/referee): nearly all it allocates stays live to the end, so a limit below that
// makes the collector run again and again for nothing (at a million statements it
// doubled status's CPU).
func roomFor(n int) {
	if os.Getenv("GOMEMLIMIT") != "" {
		return // set by hand: obeyed
	}
	need := int64(n) * statusBytesPerObject
	if limit := debug.SetMemoryLimit(-1); limit < need {
		debug.SetMemoryLimit(need)
	}
}

// gcPaused counts the loads running: the collector is off while any runs. A load
// allocates what the snapshot keeps; collecting during it only marks the growing heap
// again and again (a tenth of a load's CPU). A GOMEMLIMIT still bounds it.
var gcPaused struct {
	sync.Mutex
	loads   int
	percent int // the setting to restore when the last load ends
}

// PauseGC turns the collector off until the returned function is called, as a load
// does; `referee status` keeps it off to the end (see cmd/referee), and the benchmarks
// of what status does pause it over the load and the derive alike.
func PauseGC() (resume func()) { return pauseGC() }

// pauseGC turns the collector off until the returned function is called.
func pauseGC() (resume func()) {
	gcPaused.Lock()
	if gcPaused.loads == 0 {
		gcPaused.percent = debug.SetGCPercent(-1)
	}
	gcPaused.loads++
	gcPaused.Unlock()
	return func() {
		gcPaused.Lock()
		if gcPaused.loads--; gcPaused.loads == 0 {
			debug.SetGCPercent(gcPaused.percent)
		}
		gcPaused.Unlock()
	}
}

// readResult is one object file read, parsed and typed (or why not).
type readResult struct {
	path       string
	id         string
	kind       string
	problem    *model.Problem
	statement  *model.Statement
	experience *model.Experience
	version    string
	err        string
	gone       bool
}

// readAll reads files in parallel; parsing dominates, and files are independent. Workers
// take the next file from a counter (a channel hand-off per file was measured to cost
// more in scheduling than it saved), and read relative to the object folders, opened
// once: a lookup then walks one name, not the whole path, which is what made lstat and
// open slow when the workers walked the same parent folders at once.
//
// regular, when not nil, says which paths the folder listing gave as regular files
// (d_type): those are opened at once, without the stat that otherwise comes first.
//
// into, when not nil, takes what it can of each result as it is read (see intoSnapshot);
// then only the results it did not take are returned, in the order of paths.
func readAll(dir string, paths []string, regular []bool, p *Progress, into *intoSnapshot) []readResult {
	linked := map[string]bool{} // object folders that are links, asked once, not per file
	folders := map[string]folder{}
	for _, sub := range objectDirs {
		linked[sub] = isLink(dir, sub)
		if linked[sub] {
			continue
		}
		fd, err := unix.Open(filepath.Join(dir, sub), unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
		folders[sub] = folder{fd: fd, err: err}
		if err == nil {
			defer unix.Close(fd)
		}
	}
	// With into, only what it did not take is kept (files gone or broken: few), not a
	// result for every file, which a large folder held to the end of its load.
	var out []readResult
	if into == nil {
		out = make([]readResult, len(paths))
	}
	type leftover struct {
		i int
		r readResult
	}
	var (
		mu   sync.Mutex
		left []leftover
		next atomic.Int64
		wg   sync.WaitGroup
	)
	parse, noClaims := parseLean, false
	if into != nil {
		parse, noClaims = into.parse, into.noClaims
	}
	for range min(runtime.GOMAXPROCS(0)*2, max(1, len(paths))) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// Each worker reads every file into one buffer (nothing keeps the bytes), taken
			// from readBufs: a live run reloads a few files many times a second, and a new
			// buffer for each reload was a large part of what the workbench allocated under writes.
			bp := readBufs.Get().(*[]byte)
			buf := *bp
			defer func() {
				if cap(buf) <= maxPooledReadBuf {
					*bp = buf[:0]
					readBufs.Put(bp)
				}
			}()
			w := &readWorker{}
			if parse != parseWhole {
				// the worker's slabs for what its statements keep
				w.skim = &model.Skimmer{Status: parse == parseSkim, NoClaims: noClaims}
			}
			for i := int(next.Add(1)) - 1; i < len(paths); i = int(next.Add(1)) - 1 {
				var r readResult
				r, buf = readObject(dir, paths[i], regular != nil && regular[i], parse, linked, folders, buf, w)
				switch {
				case into == nil:
					out[i] = r
				case !into.take(i, &r):
					mu.Lock()
					left = append(left, leftover{i, r})
					mu.Unlock()
				}
				if p != nil {
					p.Done.Add(1)
				}
			}
		}()
	}
	wg.Wait()
	if into != nil {
		slices.SortFunc(left, func(a, b leftover) int { return a.i - b.i }) // in folder order
		for _, l := range left {
			out = append(out, l.r)
		}
	}
	return out
}

// readBufs holds the read workers' buffers between loads; one grown past
// maxPooledReadBuf (a file that large) is dropped rather than held.
var readBufs = sync.Pool{New: func() any { return new([]byte) }}

const maxPooledReadBuf = 1 << 20

// CheckFolder says why dir cannot be a contents folder (missing, not a directory), as a
// load would, without reading it.
func CheckFolder(dir string) error {
	info, err := os.Stat(dir)
	if err != nil {
		return fmt.Errorf("contents folder %s: %w", dir, unwrapPath(err))
	}
	if !info.IsDir() {
		return fmt.Errorf("contents folder %s: not a directory", dir)
	}
	return nil
}

// folder is an object folder opened for reading its files, or why it could not be.
type folder struct {
	fd  int
	err error
}

// objectPath tells the kind and ID a relative path names, if it names an object file.
func objectPath(rel string) (kind, id string, ok bool) {
	sub, name, found := strings.Cut(rel, "/")
	if !found || strings.Contains(name, "/") || !strings.HasSuffix(name, ".json") {
		return "", "", false
	}
	id = strings.TrimSuffix(name, ".json")
	switch sub {
	case ProblemDir:
		kind = model.KindProblem
	case StatementDir:
		kind = model.KindStatement
	case ExperienceDir:
		kind = model.KindExperience
	default:
		return "", "", false
	}
	return kind, id, true
}

// readObject reads, parses and types one object file, reading into buf (which it returns,
// grown as needed, for the next file); a statement is read lean, or skimmed (parseSkim),
// by skim. listedRegular skips the stat before the open: the open cannot follow a link
// nor block on a FIFO, and readSame's fstat still refuses anything but a regular file,
// so the stat only served to name a link or a folder.
func readObject(dir, rel string, listedRegular bool, parse int, linked map[string]bool, folders map[string]folder, buf []byte, w *readWorker) (readResult, []byte) {
	r := readResult{path: rel}
	kind, id, ok := objectPath(rel)
	if !ok {
		if strings.HasSuffix(rel, ".json") {
			r.err = "not an object file name"
		} else {
			r.gone = true // editor swap files, temp files: not ours to judge
		}
		return r, buf
	}
	r.kind, r.id = kind, id
	if !model.ValidID(id, kind) {
		r.err = fmt.Sprintf("file name %q is not a %s ID", id, model.KindName(kind))
		r.id = ""
		return r, buf
	}
	sub, name, _ := strings.Cut(rel, "/")
	if linked[sub] {
		r.gone = true // Load lists the linked folder itself as broken
		return r, buf
	}
	f := folders[sub]
	var st unix.Stat_t
	err := f.err
	if err == nil && listedRegular {
		st.Mode = unix.S_IFREG // the listing's word; Dev and Ino 0: readSame checks the type itself
	} else if err == nil {
		err = unix.Fstatat(f.fd, name, &st, unix.AT_SYMLINK_NOFOLLOW)
	}
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			r.gone = true
			return r, buf
		}
		r.err = unwrapPath(err).Error()
		return r, buf
	}
	switch st.Mode & unix.S_IFMT {
	case unix.S_IFLNK:
		r.err = "is a symbolic link (links are not followed)"
		return r, buf
	case unix.S_IFDIR:
		r.err = "is a directory, expected a JSON file"
		return r, buf
	case unix.S_IFREG:
	default:
		r.err = "is not a regular file"
		return r, buf
	}
	if st.Size > MaxObjectSize {
		r.err = fmt.Sprintf("is %d bytes, more than the %d an object file may have", st.Size, MaxObjectSize)
		return r, buf
	}
	fd, err := w.openat(f.fd, name, unix.O_RDONLY|unix.O_NONBLOCK|unix.O_NOFOLLOW|unix.O_CLOEXEC)
	var data []byte
	if err == nil {
		data, err = readSame(fd, uint64(st.Dev), st.Ino, buf[:0], MaxObjectSize) // a link swapped in since the stat is refused too
		if cap(data) > cap(buf) {
			buf = data
		}
	}
	if err != nil {
		if errors.Is(err, unix.ELOOP) {
			err = errLink
		}
		r.err = unwrapPath(err).Error()
		return r, buf
	}
	if parse != parseSkim { // status reads no version: the checksum of every byte read was a tenth of its own CPU
		r.version = model.Version(data)
	}
	if kind == model.KindStatement && parse != parseWhole { // read lean: see model.StatementLean
		file := statusFile
		if parse != parseSkim {
			file = w.file(dir, rel, r.version)
		}
		read := w.skim.Lean
		if parse == parseSkim {
			read = w.skim.Statement
		}
		if r.statement, err = read(data, file); err != nil {
			r.err = "not valid JSON: " + err.Error()
		}
		return r, buf
	}
	doc, err := pyjson.Parse(data)
	if err != nil {
		r.err = "not valid JSON: " + err.Error()
		return r, buf
	}
	switch kind { // typed here, on the worker, not one by one in apply
	case model.KindProblem:
		r.problem = model.ProblemFrom(doc)
	case model.KindStatement:
		r.statement = model.StatementFrom(doc)
	case model.KindExperience:
		r.experience = model.ExperienceFrom(doc)
	}
	return r, buf
}

// readWorker is what one of readAll's workers reuses from file to file: the Skimmer
// with its slabs, a slab of the statements' files, and the buffer of the name it opens.
// A load makes a file and its rereader for every statement; an allocation each was two
// hundred thousand small objects at 100k statements, under status's paused collector
// every one a fresh page's share.
type readWorker struct {
	skim  *model.Skimmer
	files []statementFile
	name  []byte
}

// statementFile is a statement's file, with the contents folder it is read again from.
type statementFile struct {
	model.File
	dir string
}

// reread reads the file again (see rereader).
func (f *statementFile) reread() ([]byte, error) { return rereader(f.dir, f.Path)() }

// file is a statement's file, rel in dir at version, read again by rereader's rules.
func (w *readWorker) file(dir, rel, version string) *model.File {
	if len(w.files) == cap(w.files) { // slabs start small and double, as the Skimmer's: a reload reads a file or two
		w.files = make([]statementFile, 0, min(max(2*cap(w.files), 4), fileChunk))
	}
	w.files = append(w.files, statementFile{File: model.File{Path: rel, Version: version}, dir: dir})
	f := &w.files[len(w.files)-1]
	f.Read = f.reread
	return &f.File
}

// statusFile is the file of every statement a status load (LoadStatus) reads: status
// shows no statement's document or proof text, so it keeps no file of its own for each
// (under status's paused collector every one was a fresh page's share) and no version to
// check one against; reading one back fails rather than answering unchecked.
var statusFile = model.UnkeptFile

// fileChunk is how many files a worker's slab holds: a slab is held as long as any
// statement read into it is.
const fileChunk = 256

// openat is unix.Openat with the name made a C string in the worker's buffer, not in
// an allocation of its own.
func (w *readWorker) openat(dirfd int, name string, flags int) (int, error) {
	if strings.IndexByte(name, 0) >= 0 {
		return -1, unix.EINVAL // as unix.Openat refuses it
	}
	w.name = append(append(w.name[:0], name...), 0)
	fd, _, errno := unix.Syscall6(unix.SYS_OPENAT, uintptr(dirfd), uintptr(unsafe.Pointer(&w.name[0])), uintptr(flags), 0, 0, 0)
	if errno != 0 {
		return -1, errno
	}
	return int(fd), nil
}

// rereader reads an object file again, for what a lean statement left in it; like a
// load, it follows no link and reads nothing but a regular file.
func rereader(dir, rel string) func() ([]byte, error) {
	return func() ([]byte, error) {
		data, err := readRegular(filepath.Join(dir, filepath.FromSlash(rel)))
		if err != nil {
			return nil, unwrapPath(err)
		}
		return data, nil
	}
}

// readRegular is readNoFollow with readSame's single read: the log of a large run is
// megabytes, and io.ReadAll would grow its buffer a dozen times.
func readRegular(path string) ([]byte, error) {
	info, err := os.Lstat(path)
	if err != nil {
		return nil, err
	}
	if err := regular(info); err != nil {
		return nil, err
	}
	seen, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return readNoFollow(path)
	}
	fd, err := unix.Open(path, unix.O_RDONLY|unix.O_NONBLOCK|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if errors.Is(err, unix.ELOOP) {
		return nil, errLink
	} else if err != nil {
		return nil, err
	}
	// A buffer of the size seen: readSame's own starts at 64 KB, for a load's reads in a
	// row, and one read alone (a statement's proof, at each MCP show) would make that
	// garbage every time.
	buf := make([]byte, 0, min(max(info.Size(), 0), MaxObjectSize)+1)
	return readSame(fd, uint64(seen.Dev), seen.Ino, buf, MaxObjectSize) // config.json and objects alike
}

// readSame reads the open file fd, and closes it, if it is still the regular file that
// stat saw (device dev, inode ino): a link or FIFO swapped in since is refused, and
// O_NONBLOCK kept the open from blocking on one. It reads in one read of the size
// (io.ReadAll grows its buffer and reads again and again; a load reads thousands of
// files), into buf when it is large enough. Ino 0 means no stat came before (the folder
// listing said regular file): only the type is checked. A file larger than limit is
// refused unread.
func readSame(fd int, dev, ino uint64, buf []byte, limit int64) ([]byte, error) {
	defer unix.Close(fd)
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return nil, err
	}
	if ino != 0 && (uint64(st.Dev) != dev || st.Ino != ino) {
		return nil, errLink
	}
	if st.Mode&unix.S_IFMT != unix.S_IFREG {
		return nil, errors.New("is not a regular file")
	}
	if st.Size > limit {
		return nil, fmt.Errorf("is %d bytes, more than the %d an object file may have", st.Size, limit)
	}
	// One byte more than the size: a short read then ends the file, with no second read.
	if int64(cap(buf)) < st.Size+1 {
		buf = make([]byte, st.Size+1, max(st.Size+1, 64<<10))
	}
	buf = buf[:st.Size+1]
	n := 0
	for {
		m, err := unix.Read(fd, buf[n:])
		if errors.Is(err, unix.EINTR) {
			continue
		} else if err != nil {
			return nil, err
		}
		n += m
		switch {
		case m == 0 || n == int(st.Size) && n < len(buf):
			return buf[:n], nil
		case n == len(buf): // it grew since fstat
			if n > MaxObjectSize {
				return nil, fmt.Errorf("grew to more than the %d bytes an object file may have", MaxObjectSize)
			}
			buf = append(buf, make([]byte, len(buf))...)
			buf = buf[:cap(buf)]
		}
	}
}

// apply puts one read result into a snapshot: a good read replaces the object; a bad one
// is listed as broken and keeps the last good version the snapshot had.
func apply(snap *model.Snapshot, r readResult) {
	snap.Broken = slices.DeleteFunc(snap.Broken, func(b model.BrokenFile) bool { return b.Path == r.path })
	if r.gone {
		if r.id != "" {
			deleteOwned(snap.Problems, r.id)
			snap.Statements.Delete(r.id)
			deleteOwned(snap.Experiences, r.id)
			snap.Versions.Delete(r.id)
		}
		return
	}
	if r.err != "" {
		snap.Broken = append(snap.Broken, model.BrokenFile{Path: r.path, ID: r.id, Reason: r.err})
		return
	}
	put(snap, r)
}

// put puts a good read into the snapshot.
func put(snap *model.Snapshot, r readResult) {
	snap.Versions.Set(r.id, r.version)
	switch r.kind {
	case model.KindProblem:
		snap.Problems[r.id] = r.problem
	case model.KindStatement:
		snap.Statements.Set(r.id, r.statement)
	case model.KindExperience:
		snap.Experiences[r.id] = r.experience
	}
}

// putTyped puts a good read of a problem or an experience into the snapshot's map of
// its kind, and not its version.
func putTyped(snap *model.Snapshot, r *readResult) {
	switch {
	case r.problem != nil:
		snap.Problems[r.id] = r.problem
	case r.experience != nil:
		snap.Experiences[r.id] = r.experience
	}
}

// meta is config.json and the log as read, and the files among them that are broken.
type meta struct {
	config  *model.Config
	log     []model.LogEntry
	logMark *logMark
	broken  []model.BrokenFile
}

func setMeta(snap *model.Snapshot, m meta) {
	snap.Broken = slices.DeleteFunc(snap.Broken, func(b model.BrokenFile) bool {
		return b.Path == ConfigFile || b.Path == LogFile || b.Path == HistoryDir
	})
	snap.Broken = append(snap.Broken, m.broken...)
	snap.Config, snap.Log, snap.LogHead = m.config, m.log, model.LogHead{}
	if m.logMark != nil {
		snap.LogMark, snap.LogHead = m.logMark, m.logMark.head
	} else {
		snap.LogMark = nil
	}
}

// readMeta reads config.json and (withLog: readWholeLog, readLogTail) the log; it touches no
// snapshot, so a load runs it beside the object files.
func readMeta(dir string, withLog int) meta {
	var m meta
	if data, err := readRegular(filepath.Join(dir, ConfigFile)); err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			m.broken = append(m.broken, model.BrokenFile{Path: ConfigFile, Reason: unwrapPath(err).Error()})
		}
	} else if doc, err := pyjson.Parse(data); err != nil {
		m.broken = append(m.broken, model.BrokenFile{Path: ConfigFile, Reason: "not valid JSON: " + err.Error()})
	} else if cfg, err := model.ConfigFrom(doc); err != nil {
		m.broken = append(m.broken, model.BrokenFile{Path: ConfigFile, Reason: err.Error()})
	} else {
		m.config = cfg
	}
	if isLink(dir, HistoryDir) {
		m.broken = append(m.broken, model.BrokenFile{Path: HistoryDir, Reason: linkReason})
		m.logMark = windowMark(withLog == readLogTail)
		return m
	}
	if withLog == readNoLog {
		return m
	}
	m.log, m.logMark, m.broken = readLogInto(dir, nil, withLog == readLogTail, m.broken)
	return m
}

// readLogInto reads the log on from prev's (readLog), listing it as broken on failure.
func readLogInto(dir string, prev *model.Snapshot, window bool, broken []model.BrokenFile) ([]model.LogEntry, *logMark, []model.BrokenFile) {
	log, mark, err := readLog(dir, prev, window)
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			broken = append(broken, model.BrokenFile{Path: LogFile, Reason: unwrapPath(err).Error()})
		}
		return nil, windowMark(window || windowed(prev)), broken
	}
	return log, mark, broken
}

// windowed says whether a snapshot holds only the log's tail (LoadTail).
func windowed(snap *model.Snapshot) bool {
	if snap == nil {
		return false
	}
	m, _ := snap.LogMark.(*logMark)
	return m != nil && m.window
}

// ParseLog reads every line of log.jsonl; blank lines are skipped, bad lines kept with Err
// (a line longer than MaxLogLine among them, unparsed). The entries' strings are slices
// of data.
func ParseLog(data string) []model.LogEntry { return parseLogLines(data, 1, 0) }

// Reload returns a new snapshot with the given files (paths relative to the folder, with
// forward slashes) read again. Everything else is shared with prev, which is not changed.
func Reload(dir string, prev *model.Snapshot, paths []string) *model.Snapshot {
	problems, experiences := reloadMaps(prev, paths)
	snap := &model.Snapshot{
		Problems:    problems,
		Statements:  prev.Statements.Fork(),
		Experiences: experiences,
		Versions:    prev.Versions.Fork(),
		Broken:      slices.Clone(prev.Broken),
		Config:      prev.Config,
		Log:         prev.Log,
		LogHead:     prev.LogHead,
		LogMark:     prev.LogMark,
	}
	config, log := false, false
	var objects []string
	for _, p := range paths {
		if p == ConfigFile || p == LogFile {
			config, log = config || p == ConfigFile, log || p == LogFile
			continue
		}
		if InSnapshot(p) {
			objects = append(objects, p)
		}
	}
	for _, r := range readAll(dir, objects, nil, nil, nil) {
		apply(snap, r)
	}
	if config || log {
		reloadMeta(dir, prev, snap, config, log)
	}
	snap.VocabCount, snap.VocabCounted = recount(prev, snap, objects), true
	snap.Vocab = snap.VocabCount.Vocab()
	return snap
}

// recount is the vocabulary count of snap, made from prev's by the objects read again
// (a reload at 100k statements spent most of its time counting every status), or
// counted whole when prev has none.
func recount(prev, snap *model.Snapshot, objects []string) model.VocabCount {
	if !prev.VocabCounted {
		var c model.VocabCount
		for st := range snap.Statuses {
			c.Add(st)
		}
		return c
	}
	c := prev.VocabCount
	take := func(status string) {
		var one model.VocabCount
		one.Add(status)
		c.P013, c.P014 = c.P013-one.P013, c.P014-one.P014
	}
	seen := map[string]bool{}
	for _, rel := range objects {
		kind, id, _ := objectPath(rel)
		if seen[id] {
			continue
		}
		seen[id] = true
		switch kind {
		case model.KindProblem:
			if p := prev.Problems[id]; p != nil {
				take(p.Status)
			}
			if p := snap.Problems[id]; p != nil {
				c.Add(p.Status)
			}
		case model.KindStatement:
			if st := prev.Statements.Get(id); st != nil {
				take(st.Status)
			}
			if st := snap.Statements.Get(id); st != nil {
				c.Add(st.Status)
			}
		}
	}
	return c
}

// reloadMeta reads config.json again (config) and the log on from prev's (log) into snap.
func reloadMeta(dir string, prev, snap *model.Snapshot, config, log bool) {
	m := readMeta(dir, readNoLog)
	drop := func(path string) {
		snap.Broken = slices.DeleteFunc(snap.Broken, func(b model.BrokenFile) bool { return b.Path == path })
	}
	drop(HistoryDir)
	if config {
		drop(ConfigFile)
		snap.Config = m.config
	}
	linked := slices.ContainsFunc(m.broken, func(b model.BrokenFile) bool { return b.Path == HistoryDir })
	for _, b := range m.broken {
		if b.Path != ConfigFile || config {
			snap.Broken = append(snap.Broken, b)
		}
	}
	switch {
	case linked:
		drop(LogFile)
		snap.Log, snap.LogHead, snap.LogMark = nil, model.LogHead{}, nil
		if windowed(prev) {
			snap.LogMark = windowMark(true)
		}
	case log:
		drop(LogFile)
		var broken []model.BrokenFile
		var mark *logMark
		snap.Log, mark, broken = readLogInto(dir, prev, false, nil)
		snap.LogMark, snap.LogHead = nil, model.LogHead{}
		if mark != nil {
			snap.LogMark, snap.LogHead = mark, mark.head
		}
		snap.Broken = append(snap.Broken, broken...)
	}
}

// unwrapPath drops the absolute path Go's errors carry; callers name the file themselves.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// InSnapshot reports whether a file (relative, slash-separated) is one a snapshot is made
// of: an object file, config.json or the log. Backups under history/l-*/, temp files and
// the lock are not, so a change to them alone changes no snapshot.
func InSnapshot(rel string) bool {
	if rel == ConfigFile || rel == LogFile {
		return true
	}
	_, _, ok := objectPath(rel)
	return ok
}
