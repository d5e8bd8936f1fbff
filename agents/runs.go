package agents

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"referee/model/pyjson"
	"referee/skill"
	"referee/store"
)

// Long-running agents keep a JSON state file (seeds/002: .claude/hol_agent_state.json)
// with their SDK session, message counts and token and cost counters. Referee only reads
// these files, to show each run and to tell a stalled one.

// RunsDir is where state files are looked for by default, relative to the folder that
// holds the contents folder.
const RunsDir = ".claude"

// maxStateFile bounds a state file; a bigger JSON file under .claude is not one.
const maxStateFile = 4 << 20

// stateKeys are the fields that make a JSON object a run's state file.
var stateKeys = []string{"session_id", "message_count", "session_message_count", "input_tokens",
	"output_tokens", "cache_creation_tokens", "cache_read_tokens", "total_cost_usd"}

// AgentRun is one agent run's state file.
type AgentRun struct {
	Path                string  `json:"path"` // as found: relative to the base folder, or as globbed
	SessionID           string  `json:"session_id"`
	MessageCount        int64   `json:"message_count"`
	SessionMessageCount int64   `json:"session_message_count"`
	HolSession          string  `json:"hol_session,omitempty"`
	InputTokens         int64   `json:"input_tokens"`
	OutputTokens        int64   `json:"output_tokens"`
	CacheCreationTokens int64   `json:"cache_creation_tokens"`
	CacheReadTokens     int64   `json:"cache_read_tokens"`
	TotalCostUSD        float64 `json:"total_cost_usd"`
	// Other holds the fields referee does not know, as written (JSON text by key).
	Other map[string]json.RawMessage `json:"other"`
	// Modified is the file's modification time: the run's last activity.
	Modified time.Time `json:"last_activity"`
	// Problems lists fields of the wrong type (read as zero); Err says why the file could
	// not be read at all (an agent writes it in place, so it can be caught half-written).
	Problems []string `json:"problems,omitempty"`
	Err      string   `json:"error,omitempty"`
}

// RunsOptions say where to look for state files.
type RunsOptions struct {
	// Base is the folder the paths are relative to; default: the folder that holds the
	// contents folder.
	Base string
	// Glob, when set, lists the state files (filepath.Match syntax, relative to Base or
	// absolute); every match is a state file. Unset: every JSON file under Base/.claude
	// (and two levels of subfolders) with one of the state fields is one.
	Glob string
}

// RunsBase is the default Base for a contents folder: the folder that holds it.
func RunsBase(contentsDir string) string {
	abs, err := filepath.Abs(contentsDir)
	if err != nil {
		return filepath.Dir(filepath.Clean(contentsDir))
	}
	return filepath.Dir(abs)
}

// FindRuns reads every state file, ordered by path. A missing .claude folder is no run.
func FindRuns(contentsDir string, opts RunsOptions) ([]AgentRun, error) {
	base := opts.Base
	if base == "" {
		base = RunsBase(contentsDir)
	}
	var paths []string
	explicit := opts.Glob != ""
	if explicit {
		pattern := opts.Glob
		if !filepath.IsAbs(pattern) {
			pattern = filepath.Join(base, pattern)
		}
		matches, err := filepath.Glob(pattern)
		if err != nil {
			return nil, &skill.InputError{Msg: fmt.Sprintf("--state-glob %q: %v", opts.Glob, err)}
		}
		paths = matches
	} else {
		root := filepath.Join(base, RunsDir)
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				if path == root && errors.Is(err, fs.ErrNotExist) {
					return fs.SkipAll
				}
				return nil // an unreadable subfolder is not ours to report
			}
			rel, _ := filepath.Rel(root, path)
			if d.IsDir() && rel != "." && strings.Count(rel, string(filepath.Separator)) >= 2 {
				return fs.SkipDir
			}
			if d.Type().IsRegular() && strings.HasSuffix(d.Name(), ".json") {
				paths = append(paths, path)
			}
			return nil
		})
		if err != nil {
			return nil, err
		}
	}
	runs := []AgentRun{}
	for _, p := range paths {
		r, isState := readRun(p)
		if !explicit && !isState {
			continue
		}
		if rel, err := filepath.Rel(base, p); err == nil && !strings.HasPrefix(rel, "..") {
			r.Path = filepath.ToSlash(rel)
		} else {
			r.Path = p
		}
		runs = append(runs, r)
	}
	slices.SortFunc(runs, func(a, b AgentRun) int { return strings.Compare(a.Path, b.Path) })
	return runs, nil
}

// readRun reads one state file; isState says whether it looks like one (an object with
// a state field, or a file named like one that cannot be read now).
func readRun(path string) (r AgentRun, isState bool) {
	r.Other = map[string]json.RawMessage{}
	info, err := os.Lstat(path)
	if err != nil {
		r.Err = runErr(err).Error()
		return r, false
	}
	r.Modified = info.ModTime()
	if !info.Mode().IsRegular() {
		r.Err = "not a regular file"
		return r, false
	}
	if info.Size() > maxStateFile {
		r.Err = fmt.Sprintf("%d bytes, more than a state file has", info.Size())
		return r, false
	}
	namedState := strings.Contains(strings.ToLower(filepath.Base(path)), "state")
	data, err := readStateFile(path)
	if err != nil {
		r.Err = runErr(err).Error()
		return r, namedState
	}
	doc, err := pyjson.Parse(data)
	if err != nil {
		r.Err = "not valid JSON (perhaps caught half-written): " + err.Error()
		return r, namedState
	}
	if doc.Kind != pyjson.Object {
		r.Err = "expected a JSON object, found a " + doc.Kind.String()
		return r, false
	}
	strs := map[string]*string{"session_id": &r.SessionID, "hol_session": &r.HolSession}
	ints := map[string]*int64{"message_count": &r.MessageCount, "session_message_count": &r.SessionMessageCount,
		"input_tokens": &r.InputTokens, "output_tokens": &r.OutputTokens,
		"cache_creation_tokens": &r.CacheCreationTokens, "cache_read_tokens": &r.CacheReadTokens}
	for _, m := range doc.Obj {
		if slices.Contains(stateKeys, m.Key) {
			isState = true
		}
		v := m.Value
		if p, ok := strs[m.Key]; ok {
			*p = r.str(m.Key, v)
		} else if p, ok := ints[m.Key]; ok {
			*p = r.int(m.Key, v)
		} else if m.Key == "total_cost_usd" {
			if f, err := strconv.ParseFloat(v.Str, 64); v.Kind == pyjson.Number && err == nil {
				r.TotalCostUSD = f
			} else if v.Kind != pyjson.Null {
				r.Problems = append(r.Problems, fmt.Sprintf("total_cost_usd: expected a number, found a %s", v.Kind))
			}
		} else {
			r.Other[m.Key] = json.RawMessage(pyjson.EncodeLine(v))
		}
	}
	return r, isState
}

func (r *AgentRun) str(key string, v pyjson.Value) string {
	switch v.Kind {
	case pyjson.String:
		return v.Str
	case pyjson.Null:
		return "" // the agent clears its session at a handoff
	}
	r.Problems = append(r.Problems, fmt.Sprintf("%s: expected a string, found a %s", key, v.Kind))
	return ""
}

func (r *AgentRun) int(key string, v pyjson.Value) int64 {
	if v.Kind == pyjson.Number {
		if n, err := strconv.ParseInt(v.Str, 10, 64); err == nil {
			return n
		}
		if f, err := strconv.ParseFloat(v.Str, 64); err == nil {
			return int64(f)
		}
	}
	if v.Kind != pyjson.Null {
		r.Problems = append(r.Problems, fmt.Sprintf("%s: expected a whole number, found %s", key, pyjson.EncodeLine(v)))
	}
	return 0
}

// Handoff says whether a run started a new SDK session between two readings of its
// state file: the session changed, or its message count went down (seeds/002: at a
// handoff the session is cleared and the count restarts).
func Handoff(before, after AgentRun) bool {
	return before.SessionID != after.SessionID || after.SessionMessageCount < before.SessionMessageCount
}

// LastActivity is when the folder or a run last changed, and what that was: the newest
// modification time of the change log, config.json and the state files.
func LastActivity(contentsDir string, runs []AgentRun) (time.Time, string) {
	var last time.Time
	var what string
	for _, rel := range []string{store.LogFile, store.ConfigFile} {
		if info, err := os.Stat(filepath.Join(contentsDir, filepath.FromSlash(rel))); err == nil && info.ModTime().After(last) {
			last, what = info.ModTime(), rel
		}
	}
	for _, r := range runs {
		if r.Modified.After(last) {
			last, what = r.Modified, r.Path
		}
	}
	return last, what
}

// readStateFile reads a state file, refusing one that grew past maxStateFile meanwhile.
func readStateFile(path string) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return store.ReadBounded(f, maxStateFile, path)
}

// runErr is err without the path, which the run shows already.
func runErr(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
