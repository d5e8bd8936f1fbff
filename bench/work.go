// Package bench measures referee against its peers: the work referee does (load and
// derive a folder, reload a changed file, apply a skill), timed beside the same work
// done by the agents' own Python tools and by a raw read of the same bytes, on folders
// from package gen. `referee-bench` prints the table; bench_test.go holds the same work
// as Go benchmarks (go test -bench) for profiling.
//
// It is a room of its own, apart from gen (which only writes folders) and store (which
// must not carry timing and Python plumbing): it imports gen, store and model, and the
// UI's rows will import tui and views, which nothing below cmd may do.
package bench

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"referee/gen"
	"referee/model"
	"referee/model/pyjson"
	"referee/skill"
	"referee/store"
)

// ProblemsFor is the number of problems in a generated folder of n statements.
func ProblemsFor(n int) int { return max(1, n/100) }

// Folder returns a generated folder of n statements for seed. Folders are cached under
// os.TempDir() as referee-bench-<n>-<seed>, and generated again when the generator's
// output changes (a fingerprint of a small folder is kept beside each).
func Folder(n int, seed uint64) (string, error) {
	fp, err := fingerprint()
	if err != nil {
		return "", err
	}
	cache := filepath.Join(os.TempDir(), fmt.Sprintf("referee-bench-%d-%d", n, seed))
	dir := filepath.Join(cache, "contents")
	if mark, err := os.ReadFile(filepath.Join(cache, "fingerprint")); err == nil && string(mark) == fp {
		return dir, nil
	}
	if err := os.RemoveAll(cache); err != nil {
		return "", err
	}
	// Generate beside the cache and rename it in place, so that a half-written folder
	// (an interrupted run) is never taken for a cached one.
	tmp, err := os.MkdirTemp(os.TempDir(), fmt.Sprintf("referee-bench-%d-%d-tmp-", n, seed))
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(tmp)
	cfg := gen.Config{Statements: n, Problems: ProblemsFor(n), Seed: seed}
	if err := gen.Generate(filepath.Join(tmp, "contents"), cfg); err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(tmp, "fingerprint"), []byte(fp), 0o644); err != nil {
		return "", err
	}
	if err := os.Rename(tmp, cache); err != nil {
		if mark, err2 := os.ReadFile(filepath.Join(cache, "fingerprint")); err2 == nil && string(mark) == fp {
			return dir, nil // another process made it meanwhile
		}
		return "", err
	}
	return dir, nil
}

var (
	fingerprintOnce sync.Once
	fingerprintVal  string
	fingerprintErr  error
)

// fingerprint hashes a small generated folder: it changes when the generator does.
func fingerprint() (string, error) {
	fingerprintOnce.Do(func() {
		tmp, err := os.MkdirTemp("", "referee-bench-fingerprint-")
		if err != nil {
			fingerprintErr = err
			return
		}
		defer os.RemoveAll(tmp)
		if err := gen.Generate(tmp, gen.Config{Statements: 60, Problems: 3, Seed: 1}); err != nil {
			fingerprintErr = err
			return
		}
		h := sha256.New()
		var paths []string
		filepath.WalkDir(tmp, func(path string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				paths = append(paths, path)
			}
			return err
		})
		sort.Strings(paths)
		for _, p := range paths {
			data, err := os.ReadFile(p)
			if err != nil {
				fingerprintErr = err
				return
			}
			rel, _ := filepath.Rel(tmp, p)
			fmt.Fprintf(h, "%s %d\n", filepath.ToSlash(rel), len(data))
			h.Write(data)
		}
		fingerprintVal = hex.EncodeToString(h.Sum(nil)[:8])
	})
	return fingerprintVal, fingerprintErr
}

// LoadDerive is what `referee status --output json` does before it prints: load the
// folder's objects and config (status reads no log), statements skimmed
// (store.LoadStatus), and derive the graph, with the collector off, as status runs.
func LoadDerive(dir string) (*model.Snapshot, *model.Graph, error) {
	defer store.PauseGC()()
	snap, err := store.LoadStatus(dir)
	if err != nil {
		return nil, nil, err
	}
	if len(snap.Broken) > 0 {
		return nil, nil, fmt.Errorf("%s: %d broken files, e.g. %s: %s", dir, len(snap.Broken), snap.Broken[0].Path, snap.Broken[0].Reason)
	}
	return snap, model.Derive(snap), nil
}

// ReadFloor reads the bytes LoadDerive reads (every object file and config.json; status
// reads no log) the fastest plain way, with the loader's parallelism, and parses nothing: the physical
// floor of a load. Like the loader it opens each object folder once and reads its files
// relative to it, each in one read of its size, workers taking files from a counter;
// unlike it, it checks nothing.
func ReadFloor(dir string) (int64, error) {
	type file struct {
		dirfd int
		name  string
	}
	var files []file
	for _, sub := range []string{store.ProblemDir, store.StatementDir, store.ExperienceDir, "."} {
		fd, err := unix.Open(filepath.Join(dir, sub), unix.O_RDONLY|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
		if errors.Is(err, unix.ENOENT) {
			continue
		} else if err != nil {
			return 0, err
		}
		defer unix.Close(fd)
		if sub == "." {
			files = append(files, file{fd, store.ConfigFile})
			continue
		}
		entries, err := os.ReadDir(filepath.Join(dir, sub))
		if err != nil {
			return 0, err
		}
		for _, e := range entries {
			files = append(files, file{fd, e.Name()})
		}
	}
	var (
		total atomic.Int64
		next  atomic.Int64
		first atomic.Value
		wg    sync.WaitGroup
	)
	for range min(runtime.GOMAXPROCS(0)*2, len(files)) { // as store.readAll
		wg.Add(1)
		go func() {
			defer wg.Done()
			var buf []byte
			for i := int(next.Add(1)) - 1; i < len(files); i = int(next.Add(1)) - 1 {
				n, err := readWhole(files[i].dirfd, files[i].name, &buf)
				if err != nil {
					first.CompareAndSwap(nil, err)
				}
				total.Add(int64(n))
			}
		}()
	}
	wg.Wait()
	if err, ok := first.Load().(error); ok {
		return total.Load(), err
	}
	return total.Load(), nil
}

// readWhole reads a file relative to a folder: open, fstat, one read of the size, close.
func readWhole(dirfd int, name string, buf *[]byte) (int, error) {
	fd, err := unix.Openat(dirfd, name, unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		return 0, err
	}
	defer unix.Close(fd)
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		return 0, err
	}
	if int64(cap(*buf)) < st.Size+1 {
		*buf = make([]byte, st.Size+1)
	}
	n, err := unix.Read(fd, (*buf)[:st.Size+1])
	return n, err
}

// workCopy makes a private copy of a cached folder for work that changes it: the
// object files are hard links (cheap, and safe because referee and the agents replace
// an object file or write it anew, never edit it in place), except those named in
// copies, which are real copies because someone writes them in place. config.json and
// the log are always copied. Backups are left out: nothing here reads them.
func workCopy(src string, copies ...string) (string, func(), error) {
	dst, err := os.MkdirTemp("", "referee-bench-work-")
	if err != nil {
		return "", nil, err
	}
	cleanup := func() { os.RemoveAll(dst) }
	copies = append(copies, store.ConfigFile, store.LogFile)
	fail := func(err error) (string, func(), error) {
		cleanup()
		return "", nil, err
	}
	if err := os.MkdirAll(filepath.Join(dst, store.HistoryDir), 0o755); err != nil {
		return fail(err)
	}
	for _, sub := range []string{store.ProblemDir, store.StatementDir, store.ExperienceDir} {
		entries, err := os.ReadDir(filepath.Join(src, sub))
		if errors.Is(err, fs.ErrNotExist) {
			continue
		} else if err != nil {
			return fail(err)
		}
		if err := os.Mkdir(filepath.Join(dst, sub), 0o755); err != nil {
			return fail(err)
		}
		for _, e := range entries {
			rel := sub + "/" + e.Name()
			if contains(copies, rel) {
				continue
			}
			if err := os.Link(filepath.Join(src, rel), filepath.Join(dst, rel)); err != nil {
				if err := copyFile(filepath.Join(src, rel), filepath.Join(dst, rel)); err != nil {
					return fail(err)
				}
			}
		}
	}
	for _, rel := range copies {
		if err := copyFile(filepath.Join(src, filepath.FromSlash(rel)), filepath.Join(dst, filepath.FromSlash(rel))); err != nil {
			return fail(err)
		}
	}
	return dst, cleanup, nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.Create(dst)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// skillCase is one statement whose proof a checker rejects and a fixer patches, again
// and again: the loop agents run most, and one that can repeat without end.
type skillCase struct {
	id        string
	path      string // relative to the folder
	sentence  model.Sentence
	proof     string
	issues    int // issues before the first call
	responses int
}

// findSkillCase picks the first statement (in ID order) with a submitted proof and every
// issue answered.
func findSkillCase(snap *model.Snapshot) (*skillCase, error) {
	cs, err := findSkillCases(snap, 1)
	if err != nil {
		return nil, err
	}
	return cs[0], nil
}

// findSkillCases picks the first n such statements (at least one, else an error).
func findSkillCases(snap *model.Snapshot, n int) ([]*skillCase, error) {
	ids := make([]string, 0, snap.Statements.Len())
	for id := range snap.Statements.All() {
		ids = append(ids, id)
	}
	sort.Slice(ids, func(i, j int) bool { return model.CompareIDs(ids[i], ids[j]) < 0 })
	var out []*skillCase
	for _, id := range ids {
		st := snap.Statements.Get(id)
		if st.Status != "awaiting_verification" || st.Proof.Empty() || len(model.Unanswered(st.Issues, st.Responses)) > 0 {
			continue
		}
		proof, err := st.Proof.Text()
		if err != nil {
			return nil, err
		}
		sents := model.SplitSentences(proof)
		out = append(out, &skillCase{id: id, path: store.StatementDir + "/" + id + ".json", sentence: sents[0], proof: proof,
			issues: len(st.Issues), responses: len(st.Responses)})
		if len(out) == n {
			break
		}
	}
	if len(out) == 0 {
		return nil, errors.New("no statement awaiting verification with every issue answered (a P013 folder has some)")
	}
	return out, nil
}

// call is the k-th call of the loop (from 0): a reject, then a patch of that issue.
// The parameters are the skill's, under their snake_case names.
func (c *skillCase) call(k int) (string, map[string]string) {
	if k%2 == 0 {
		return "check-reject-proof", map[string]string{
			"statement_id": c.id, "sentence_number": "1", "sentence_text": c.sentence.Text, "error_type": "gap",
			"explanation": "the first step is asserted without a reason", "suggested_fix": "justify the first step",
		}
	}
	return "fix-patch-proof", map[string]string{
		"statement_id": c.id, "issue_number": fmt.Sprint(c.issues + k/2 + 1), "updated_proof": c.proof,
		"change_description": "justified the first step",
	}
}

// flags turns parameters into command-line flags, in a fixed order.
func flags(params map[string]string) []string {
	names := make([]string, 0, len(params))
	for name := range params {
		names = append(names, name)
	}
	sort.Strings(names)
	var out []string
	for _, name := range names {
		out = append(out, "--"+strings.ReplaceAll(name, "_", "-"), params[name])
	}
	return out
}

// storeArgs turns parameters into skill.Args, as the CLI does.
func storeArgs(sk *skill.Skill, params map[string]string) (skill.Args, error) {
	a := skill.Args{}
	for name, v := range params {
		p, ok := sk.Param(name)
		if !ok {
			return nil, fmt.Errorf("%s has no parameter %s", sk.Name, name)
		}
		if p.Kind == skill.ParamInt {
			var n int
			if _, err := fmt.Sscan(v, &n); err != nil {
				return nil, err
			}
			a[name] = n
			continue
		}
		a[name] = v
	}
	return a, nil
}

// ReloadCase is a folder in which one statement file keeps changing, as when an agent
// writes: Change rewrites the file (the agent's work, not timed), Reload reads it again
// and updates the graph (referee's work, as the workbench does it for each batch of
// the watcher: store.Reload of the changed file, then model.Graph.Update from the
// previous graph, not a Derive of every object).
type ReloadCase struct {
	Dir     string
	Path    string // the changing file, relative to Dir
	id      string // the statement it holds
	snap    *model.Snapshot
	g       *model.Graph // snap's graph
	bytes   [2][]byte
	turn    int
	cleanup func()
}

// NewReloadCase copies the cached folder, loads it once and derives its graph.
func NewReloadCase(cached string) (*ReloadCase, error) {
	c, dir, cleanup, err := copyForCase(cached)
	if err != nil {
		return nil, err
	}
	r := &ReloadCase{Dir: dir, Path: c.path, id: c.id, cleanup: cleanup}
	if r.snap, err = store.Load(dir); err != nil {
		cleanup()
		return nil, err
	}
	r.g = model.Derive(r.snap)
	if r.bytes[0], err = os.ReadFile(filepath.Join(dir, c.path)); err != nil {
		cleanup()
		return nil, err
	}
	doc, _ := pyjson.Parse(r.bytes[0])
	note, _ := doc.Get("progresses")
	note.Arr = append(note.Arr, pyjson.Str("PROOF: resubmitted unchanged"))
	r.bytes[1] = pyjson.EncodeIndent(doc)
	return r, nil
}

// Change writes the other version of the file, replacing it as referee does.
func (r *ReloadCase) Change() error {
	r.turn ^= 1
	path := filepath.Join(r.Dir, filepath.FromSlash(r.Path))
	if err := os.WriteFile(path+".tmp", r.bytes[r.turn], 0o644); err != nil {
		return err
	}
	return os.Rename(path+".tmp", path)
}

// Reload is the work after a change: read the file again, update the graph from the
// last one for the statement it holds. relinked says the update derived in full (the
// statement's references changed): a progress note never does that.
func (r *ReloadCase) Reload() (g *model.Graph, relinked bool, err error) {
	next := store.Reload(r.Dir, r.snap, []string{r.Path})
	if len(next.Broken) > 0 {
		return nil, false, fmt.Errorf("%s: %s", next.Broken[0].Path, next.Broken[0].Reason)
	}
	g, relinked = r.g.Update(r.snap, next, []string{r.id})
	r.snap, r.g = next, g
	return g, relinked, nil
}

// ReadFile is the floor of a reload: the bytes of the changed file, read.
func (r *ReloadCase) ReadFile() error {
	_, err := os.ReadFile(filepath.Join(r.Dir, filepath.FromSlash(r.Path)))
	return err
}

func (r *ReloadCase) Close() { r.cleanup() }

// SkillLoop applies the reject-then-patch loop to a private copy of a cached folder.
type SkillLoop struct {
	Dir     string
	c       *skillCase
	k       int
	cleanup func()
}

// NewSkillLoop copies the cached folder and picks the statement the loop works on.
func NewSkillLoop(cached string) (*SkillLoop, error) {
	c, dir, cleanup, err := copyForCase(cached)
	if err != nil {
		return nil, err
	}
	return &SkillLoop{Dir: dir, c: c, cleanup: cleanup}, nil
}

// copyForCase picks the statement to work on in a cached folder and makes the work copy
// in which it may change.
func copyForCase(cached string) (*skillCase, string, func(), error) {
	snap, err := store.Load(cached)
	if err != nil {
		return nil, "", nil, err
	}
	c, err := findSkillCase(snap)
	if err != nil {
		return nil, "", nil, err
	}
	dir, cleanup, err := workCopy(cached, c.path)
	return c, dir, cleanup, err
}

// Next returns the next call of the loop: the skill's name and its parameters.
func (l *SkillLoop) Next() (string, map[string]string) {
	name, params := l.c.call(l.k)
	l.k++
	return name, params
}

// InProcess makes the next call through store.Run.
func (l *SkillLoop) InProcess() error {
	name, params := l.Next()
	sk, _ := skill.Lookup(name)
	args, err := storeArgs(sk, params)
	if err != nil {
		return err
	}
	_, err = store.Run(l.Dir, sk, args, store.Options{Actor: "bench"})
	return err
}

// Command is the next call as a command line of the referee binary.
func (l *SkillLoop) Command(binary string) *exec.Cmd {
	name, params := l.Next()
	cmd := exec.Command(binary, append([]string{"skill", name, "--contents", l.Dir, "--actor", "bench"}, flags(params)...)...)
	return cmd
}

func (l *SkillLoop) Close() { l.cleanup() }

// HeapAfterLoad is the live heap a loaded and derived folder holds, in bytes: measured
// after a collection, before and after the load.
func HeapAfterLoad(dir string) (uint64, error) {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	snap, g, err := LoadDerive(dir)
	if err != nil {
		return 0, err
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	runtime.KeepAlive(snap)
	runtime.KeepAlive(g)
	if after.HeapAlloc < before.HeapAlloc {
		return 0, nil
	}
	return after.HeapAlloc - before.HeapAlloc, nil
}

// cpuTime is the CPU time the process has used, user and system.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
