package store

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"referee/internal/testutil"
	"referee/model"
	"referee/model/pyjson"
	"referee/skill"
)

var (
	replayContents = testutil.DemoDir()
	replayCalls    = filepath.Join(testutil.Root(), "tools/demo/calls.jsonl")
)

// replayCall is one line of tools/demo/calls.jsonl, written by tools/demo/mkdemo.py.
type replayCall struct {
	Change   string                     `json:"change"`
	Skill    string                     `json:"skill"`
	Actor    string                     `json:"actor"`
	At       string                     `json:"at"`
	Args     map[string]json.RawMessage `json:"args"`
	Verbatim bool                       `json:"verbatim"`
}

func readReplayCalls(t *testing.T, path string) []replayCall {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var calls []replayCall
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	for n := 1; sc.Scan(); n++ {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		dec := json.NewDecoder(strings.NewReader(sc.Text()))
		dec.DisallowUnknownFields()
		var c replayCall
		if err := dec.Decode(&c); err != nil {
			t.Fatalf("%s:%d: %v", path, n, err)
		}
		calls = append(calls, c)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return calls
}

// replayArgs turns a call's JSON parameters into Args of the types the skill's registry
// entry declares. A name the skill does not have is passed through as it is, so that
// Validate reports it.
func replayArgs(s *skill.Skill, raw map[string]json.RawMessage) (skill.Args, error) {
	a := skill.Args{}
	for name, msg := range raw {
		p, ok := s.Param(name)
		if !ok {
			var v any
			_ = json.Unmarshal(msg, &v)
			a[name] = v
			continue
		}
		var err error
		switch p.Kind {
		case skill.ParamString, skill.ParamID:
			var v string
			err = json.Unmarshal(msg, &v)
			a[name] = v
		case skill.ParamStrings, skill.ParamIDs:
			var v []string
			err = json.Unmarshal(msg, &v)
			a[name] = v
		case skill.ParamInt:
			var v int
			err = json.Unmarshal(msg, &v)
			a[name] = v
		case skill.ParamSubStatements:
			var v []skill.SubStatement
			dec := json.NewDecoder(bytes.NewReader(msg))
			dec.DisallowUnknownFields()
			err = dec.Decode(&v)
			a[name] = v
		default:
			err = fmt.Errorf("unknown parameter kind %d", p.Kind)
		}
		if err != nil {
			return nil, fmt.Errorf("%s: parameter %s: %v", s.Name, name, err)
		}
	}
	return a, nil
}

func replayInitArgs(raw map[string]json.RawMessage) (objectives, hypotheses []string, err error) {
	for name, msg := range raw {
		switch name {
		case "objectives":
			err = json.Unmarshal(msg, &objectives)
		case "hypotheses":
			err = json.Unmarshal(msg, &hypotheses)
		default:
			err = fmt.Errorf("init has no parameter %q", name)
		}
		if err != nil {
			return nil, nil, err
		}
	}
	return objectives, hypotheses, nil
}

// replayVerbatim applies one logged batch of the demo to dst by copying its files from
// the demo folder: the backups it made, the objects it created or modified as they were
// right after it (the backup of the next change that modified them, else the final
// file), config.json as it was after it, and its log line.
func replayVerbatim(t *testing.T, src, dst, lid string) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(src, filepath.FromSlash(LogFile)))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(data), "\n")
	entries := ParseLog(string(data))
	at := slices.IndexFunc(entries, func(e model.LogEntry) bool { return e.ID == lid })
	if at < 0 {
		t.Fatalf("%s: not in %s", lid, LogFile)
	}
	e := entries[at]
	if len(e.Current) != 3 {
		t.Fatalf("%s: log line has no usable current: %s", lid, e.Raw)
	}
	copyFile := func(from, to string) {
		t.Helper()
		b, err := os.ReadFile(filepath.Join(src, from))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dst, to)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dst, to), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// config.json after this batch: the IDs its log line says were current.
	cfg := pyjson.Obj(
		pyjson.M(model.KindProblem, pyjson.Str("p-000")),
		pyjson.M(model.KindStatement, pyjson.Str("s-000")),
		pyjson.M(model.KindExperience, pyjson.Str("e-000")),
		pyjson.M(model.KindChange, pyjson.Str("l-000")),
	)
	if b, err := os.ReadFile(filepath.Join(dst, ConfigFile)); err == nil {
		if cfg, err = pyjson.Parse(b); err != nil {
			t.Fatal(err)
		}
	}
	for i, kind := range []string{model.KindProblem, model.KindStatement, model.KindExperience} {
		cfg.Set(kind, pyjson.Str(e.Current[i]))
	}
	cfg.Set(model.KindChange, pyjson.Str(lid))
	if err := os.WriteFile(filepath.Join(dst, ConfigFile), pyjson.EncodeIndent(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, id := range e.Modification {
		backup := filepath.Join(HistoryDir, lid, id+".json")
		copyFile(backup, backup)
	}
	for _, id := range append(append([]string{}, e.Creation...), e.Modification...) {
		from := objectFile(id)
		for _, later := range entries[at+1:] {
			if slices.Contains(later.Modification, id) {
				from = filepath.Join(HistoryDir, later.ID, id+".json")
				break
			}
		}
		copyFile(from, objectFile(id))
	}
	// The log line itself (line numbers are 1-based).
	f, err := os.OpenFile(filepath.Join(dst, filepath.FromSlash(LogFile)), os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	line := lines[e.Line-1]
	if !strings.HasSuffix(line, "\n") {
		line += "\n"
	}
	if _, err := f.WriteString(line); err != nil {
		t.Fatal(err)
	}
}

// replayTree returns every file of a folder with its bytes (the lock file and the
// journal mark aside).
func replayTree(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		// The lock, the journal mark, and the marker that tells the workbench this is
		// the bundled demo (tui.DemoMarker), are not the agents' writing.
		if d.IsDir() || filepath.Base(path) == filepath.Base(LockFile) || filepath.Base(path) == filepath.Base(journalMark) || filepath.Base(path) == ".referee-demo" {
			return nil
		}
		rel, _ := filepath.Rel(dir, path)
		data, err := os.ReadFile(path)
		out[filepath.ToSlash(rel)] = string(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// replayDifference describes where two byte strings part: offset, line, and the region
// around it in both.
func replayDifference(want, got string) string {
	i := 0
	for i < len(want) && i < len(got) && want[i] == got[i] {
		i++
	}
	line := strings.Count(want[:i], "\n") + 1
	lo := max(0, i-80)
	region := func(s string) string {
		if i >= len(s) {
			return fmt.Sprintf("%q<EOF>", s[min(lo, len(s)):])
		}
		return fmt.Sprintf("%q", s[lo:min(len(s), i+160)])
	}
	return fmt.Sprintf("first difference at byte %d (line %d; sizes %d in contents/, %d replayed)\n  contents/: …%s\n  replayed:  …%s",
		i, line, len(want), len(got), region(want), region(got))
}

// TestReplayDemo rebuilds the bundled demo folder from tools/demo/calls.jsonl through
// Init and the Go skills, and requires every file to come out byte for byte as
// mkdemo.py (the Python emulation of the agents' skills) wrote it.
func TestReplayDemo(t *testing.T) {
	calls := readReplayCalls(t, replayCalls)
	dir := replay(t, replayContents, calls, model.P014)
	compareReplay(t, len(calls), replayTree(t, replayContents), replayTree(t, dir))
}

// replay applies calls to a new folder through Init, AddProblem and Run, the folder set
// up for vocabulary; a verbatim batch, or one a skill refuses, is copied from src.
func replay(t *testing.T, src string, calls []replayCall, vocabulary model.Vocab) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "contents")
	for i, c := range calls {
		if want := fmt.Sprintf("l-%03d", i+1); c.Change != want {
			t.Fatalf("calls.jsonl line %d is %s, expected %s (one line per batch, in order)", i+1, c.Change, want)
		}
		if c.Verbatim {
			replayVerbatim(t, src, dir, c.Change)
			continue
		}
		at, err := time.Parse(time.RFC3339, c.At)
		if err != nil {
			t.Fatalf("%s: at: %v", c.Change, err)
		}
		opts := Options{Actor: c.Actor, Now: func() time.Time { return at }, Vocabulary: vocabulary}
		var res *Result
		if c.Skill == "init" {
			objectives, hypotheses, err := replayInitArgs(c.Args)
			if err != nil {
				t.Fatalf("%s: init: %v", c.Change, err)
			}
			setUp := Init // the first init sets the folder up; later ones add a top-level problem
			if c.Change != "l-001" {
				setUp = AddProblem
			}
			res, err = setUp(dir, objectives, hypotheses, opts)
			if err != nil {
				t.Errorf("%s: store.Init refused the batch: %v\n  (copying %s from %s to go on with the replay)", c.Change, err, c.Change, src)
				replayVerbatim(t, src, dir, c.Change)
				continue
			}
		} else {
			s, ok := skill.Lookup(c.Skill)
			if !ok {
				t.Fatalf("%s: no skill %q in the registry", c.Change, c.Skill)
			}
			a, err := replayArgs(s, c.Args)
			if err != nil {
				t.Fatalf("%s: %v", c.Change, err)
			}
			res, err = Run(dir, s, a, opts)
			if err != nil {
				t.Errorf("%s: %s refused: %v\n  (copying %s from %s to go on with the replay)", c.Change, c.Skill, err, c.Change, src)
				replayVerbatim(t, src, dir, c.Change)
				continue
			}
		}
		if res.Change != c.Change {
			t.Fatalf("%s: the replay wrote %s", c.Change, res.Change)
		}
	}
	return dir
}

// compareReplay requires the replayed files (got) to be the wanted ones, byte for byte.
func compareReplay(t *testing.T, calls int, want, got map[string]string) {
	t.Helper()
	var names []string
	for name := range want {
		names = append(names, name)
	}
	for name := range got {
		if _, ok := want[name]; !ok {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	same := 0
	for _, name := range names {
		w, inWant := want[name]
		g, inGot := got[name]
		switch {
		case !inGot:
			t.Errorf("%s: in contents/, not written by the replay", name)
		case !inWant:
			t.Errorf("%s: written by the replay, not in contents/", name)
		case w != g:
			t.Errorf("%s differs: %s", name, replayDifference(w, g))
		default:
			same++
		}
	}
	t.Logf("%d calls replayed; %d of %d files byte-identical", calls, same, len(names))
}
