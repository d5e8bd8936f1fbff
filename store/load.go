// Package store reads and writes a contents folder: loading snapshots, watching for
// changes, and applying skills as change batches (FORMAT.md "A change").
package store

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"

	"referee/model"
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
func Load(dir string) (*model.Snapshot, error) {
	info, err := os.Stat(dir)
	if err != nil {
		return nil, fmt.Errorf("contents folder %s: %w", dir, unwrapPath(err))
	}
	if !info.IsDir() {
		return nil, fmt.Errorf("contents folder %s: not a directory", dir)
	}
	snap := &model.Snapshot{
		Problems:    map[string]*model.Problem{},
		Statements:  map[string]*model.Statement{},
		Experiences: map[string]*model.Experience{},
		Versions:    map[string]string{},
	}
	var paths []string
	for _, sub := range objectDirs {
		entries, err := os.ReadDir(filepath.Join(dir, sub))
		if err != nil {
			if !errors.Is(err, fs.ErrNotExist) {
				snap.Broken = append(snap.Broken, model.BrokenFile{Path: sub, Reason: unwrapPath(err).Error()})
			}
			continue
		}
		for _, e := range entries {
			paths = append(paths, sub+"/"+e.Name())
		}
	}
	results := readAll(dir, paths)
	for _, r := range results {
		apply(snap, r)
	}
	loadMeta(dir, snap)
	snap.Vocab = model.DetectVocab(snap.Statuses)
	return snap, nil
}

// readResult is one object file read and parsed (or why not).
type readResult struct {
	path    string
	id      string
	kind    string
	doc     model.Value
	version string
	err     string
	gone    bool
}

// readAll reads files in parallel; parsing dominates, and files are independent.
func readAll(dir string, paths []string) []readResult {
	out := make([]readResult, len(paths))
	workers := min(runtime.GOMAXPROCS(0)*2, max(1, len(paths)))
	var wg sync.WaitGroup
	next := make(chan int)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				out[i] = readObject(dir, paths[i])
			}
		}()
	}
	for i := range paths {
		next <- i
	}
	close(next)
	wg.Wait()
	return out
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

func readObject(dir, rel string) readResult {
	r := readResult{path: rel}
	kind, id, ok := objectPath(rel)
	if !ok {
		if strings.HasSuffix(rel, ".json") {
			r.err = "not an object file name"
		} else {
			r.gone = true // editor swap files, temp files: not ours to judge
		}
		return r
	}
	r.kind, r.id = kind, id
	if !model.ValidID(id, kind) {
		r.err = fmt.Sprintf("file name %q is not a %s ID", id, model.KindName(kind))
		r.id = ""
		return r
	}
	full := filepath.Join(dir, filepath.FromSlash(rel))
	info, err := os.Lstat(full)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			r.gone = true
			return r
		}
		r.err = unwrapPath(err).Error()
		return r
	}
	switch {
	case info.Mode()&fs.ModeSymlink != 0:
		r.err = "is a symbolic link (links are not followed)"
		return r
	case info.IsDir():
		r.err = "is a directory, expected a JSON file"
		return r
	case !info.Mode().IsRegular():
		r.err = "is not a regular file"
		return r
	case info.Size() > MaxObjectSize:
		r.err = fmt.Sprintf("is %d bytes, more than the %d an object file may have", info.Size(), MaxObjectSize)
		return r
	}
	data, err := os.ReadFile(full)
	if err != nil {
		r.err = unwrapPath(err).Error()
		return r
	}
	doc, err := model.Parse(data)
	if err != nil {
		r.err = "not valid JSON: " + err.Error()
		return r
	}
	r.doc = doc
	r.version = model.Version(data)
	return r
}

// apply puts one read result into a snapshot: a good read replaces the object; a bad one
// is listed as broken and keeps the last good version the snapshot had.
func apply(snap *model.Snapshot, r readResult) {
	snap.Broken = slices.DeleteFunc(snap.Broken, func(b model.BrokenFile) bool { return b.Path == r.path })
	if r.gone {
		if r.id != "" {
			delete(snap.Problems, r.id)
			delete(snap.Statements, r.id)
			delete(snap.Experiences, r.id)
			delete(snap.Versions, r.id)
		}
		return
	}
	if r.err != "" {
		snap.Broken = append(snap.Broken, model.BrokenFile{Path: r.path, ID: r.id, Reason: r.err})
		return
	}
	snap.Versions[r.id] = r.version
	switch r.kind {
	case model.KindProblem:
		snap.Problems[r.id] = model.ProblemFrom(r.doc)
	case model.KindStatement:
		snap.Statements[r.id] = model.StatementFrom(r.doc)
	case model.KindExperience:
		snap.Experiences[r.id] = model.ExperienceFrom(r.doc)
	}
}

// loadMeta reads config.json and the log.
func loadMeta(dir string, snap *model.Snapshot) {
	snap.Config = nil
	snap.Broken = slices.DeleteFunc(snap.Broken, func(b model.BrokenFile) bool {
		return b.Path == ConfigFile || b.Path == LogFile
	})
	if data, err := os.ReadFile(filepath.Join(dir, ConfigFile)); err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			snap.Broken = append(snap.Broken, model.BrokenFile{Path: ConfigFile, Reason: unwrapPath(err).Error()})
		}
	} else if doc, err := model.Parse(data); err != nil {
		snap.Broken = append(snap.Broken, model.BrokenFile{Path: ConfigFile, Reason: "not valid JSON: " + err.Error()})
	} else if cfg, err := model.ConfigFrom(doc); err != nil {
		snap.Broken = append(snap.Broken, model.BrokenFile{Path: ConfigFile, Reason: err.Error()})
	} else {
		snap.Config = cfg
	}
	snap.Log = nil
	data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(LogFile)))
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			snap.Broken = append(snap.Broken, model.BrokenFile{Path: LogFile, Reason: unwrapPath(err).Error()})
		}
		return
	}
	snap.Log = ParseLog(string(data))
}

// ParseLog reads every line of log.jsonl; blank lines are skipped, bad lines kept with Err.
func ParseLog(data string) []model.LogEntry {
	var out []model.LogEntry
	for i, line := range strings.Split(data, "\n") {
		if strings.TrimSpace(line) == "" {
			continue
		}
		out = append(out, model.ParseLogLine(i+1, line))
	}
	return out
}

// Reload returns a new snapshot with the given files (paths relative to the folder, with
// forward slashes) read again. Everything else is shared with prev, which is not changed.
func Reload(dir string, prev *model.Snapshot, paths []string) *model.Snapshot {
	snap := &model.Snapshot{
		Problems:    maps.Clone(prev.Problems),
		Statements:  maps.Clone(prev.Statements),
		Experiences: maps.Clone(prev.Experiences),
		Versions:    maps.Clone(prev.Versions),
		Broken:      slices.Clone(prev.Broken),
		Config:      prev.Config,
		Log:         prev.Log,
	}
	meta := false
	var objects []string
	for _, p := range paths {
		if p == ConfigFile || p == LogFile {
			meta = true
			continue
		}
		// Backups under history/ are not objects of the snapshot; only object folders are read.
		if _, _, ok := objectPath(p); ok {
			objects = append(objects, p)
		}
	}
	for _, r := range readAll(dir, objects) {
		apply(snap, r)
	}
	if meta {
		loadMeta(dir, snap)
	}
	snap.Vocab = model.DetectVocab(snap.Statuses)
	return snap
}

// unwrapPath drops the absolute path Go's errors carry; callers name the file themselves.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
