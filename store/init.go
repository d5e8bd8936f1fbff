package store

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/gofrs/flock"

	"referee/model"
	"referee/model/pyjson"
	"referee/skill"
)

// NotEmptyError says init refused a folder that already holds a contents tree. Nothing
// was written.
type NotEmptyError struct {
	Dir  string
	What string // what is already there, e.g. "config.json" or "statement/s-001.json"
}

func (e *NotEmptyError) Error() string {
	return fmt.Sprintf("%s already has %s; init only sets up a new folder (pass another --contents, or --add to add a problem to it)", e.Dir, e.What)
}

// Init sets up a new contents folder exactly as the agents' own init does: config.json
// starts at p-000/s-000/e-000/l-000, then one change batch (l-001) creates one true
// assumption statement per hypothesis and then the problem p-001, whose hypothesis items
// are "(s-NNN) text". It refuses a folder that already has config.json, a log or objects.
func Init(dir string, objectives, hypotheses []string, opts Options) (*Result, error) {
	const skill = "init"
	if err := checkInitTexts(objectives, hypotheses); err != nil {
		return nil, err
	}
	if opts.Actor == "" {
		opts.Actor = "agent"
	}
	if info, err := os.Stat(dir); err == nil && !info.IsDir() {
		return nil, inputf("contents folder %s is not a directory", dir)
	} else if err == nil {
		// Refuse before creating anything in a folder that is not ours; checked again
		// under the lock below.
		if what, err := occupied(dir); err != nil {
			return nil, err
		} else if what != "" {
			return nil, &NotEmptyError{Dir: dir, What: what}
		}
	}
	if err := refuseUnsafe(dir); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Join(dir, HistoryDir), 0o755); err != nil {
		return nil, inputf("cannot create %s: %v", filepath.Join(dir, HistoryDir), unwrapPath(err))
	}
	lock := flock.New(filepath.Join(dir, filepath.FromSlash(LockFile)))
	if err := lock.Lock(); err != nil {
		return nil, inputf("cannot lock %s: %v", LockFile, unwrapPath(err))
	}
	// The tx starts from the zero config in memory; commit writes config.json first, as
	// for every change, so an interrupted init leaves at worst a folder init refuses.
	t := &tx{
		dir:  dir,
		lock: lock,
		cfg: pyjson.Obj(
			pyjson.M(model.KindProblem, pyjson.Str("p-000")),
			pyjson.M(model.KindStatement, pyjson.Str("s-000")),
			pyjson.M(model.KindExperience, pyjson.Str("e-000")),
			pyjson.M(model.KindChange, pyjson.Str("l-000")),
		),
		last:  map[string]string{"p": "p-000", "s": "s-000", "e": "e-000", "l": "l-000"},
		objs:  map[string]*txObject{},
		skill: skill,
	}
	defer t.end()
	if what, err := occupied(dir); err != nil {
		return nil, err
	} else if what != "" {
		return nil, &NotEmptyError{Dir: dir, What: what}
	}
	if err := t.setUpProblem(objectives, hypotheses); err != nil {
		return nil, err
	}
	if opts.Vocabulary == model.P013 {
		t.extra = append(t.extra, pyjson.M(vocabularyKey, pyjson.Str(model.P013.String())))
	}
	return t.commit(opts)
}

// AddProblem is init on a folder that is already set up: one change batch (logged with
// skill "init") that creates a true assumption statement per hypothesis and then a new
// open problem, with the next free IDs. Init itself refuses such a folder.
func AddProblem(dir string, objectives, hypotheses []string, opts Options) (*Result, error) {
	if err := checkInitTexts(objectives, hypotheses); err != nil {
		return nil, err
	}
	if opts.Actor == "" {
		opts.Actor = "agent"
	}
	// Like a skill, it is applied again on a fresh read when a lockless writer took one of
	// its IDs or changed the folder meanwhile (see retrying).
	return retrying(func() (*tx, error) {
		t, err := begin(dir, "init")
		if err != nil {
			return nil, err
		}
		if err := t.setUpProblem(objectives, hypotheses); err != nil {
			t.end()
			return nil, err
		}
		return t, nil
	}, opts)
}

func checkInitTexts(objectives, hypotheses []string) error {
	if len(objectives) == 0 {
		return inputf("init needs at least one --objective")
	}
	for _, list := range [][]string{objectives, hypotheses} {
		for _, s := range list {
			if strings.TrimSpace(s) == "" {
				return inputf("init: an objective or hypothesis is empty")
			}
			if !skill.ValidText(s) {
				return inputf("init: an objective or hypothesis is not valid UTF-8 text")
			}
		}
	}
	return nil
}

// setUpProblem creates the assumptions, then the problem that lists them as
// "(s-NNN) text" hypotheses: the agents' init batch. Each hypothesis is read as their
// prob_init.py reads it: "(s-XXX)" of a statement already on disk is that statement
// (no new assumption); any other is trimmed, an unknown ID in front dropped.
func (t *tx) setUpProblem(objectives, hypotheses []string) error {
	var hyps []string
	for _, h := range hypotheses {
		text, existing := model.SubgoalHypothesis(h, t.conclusionOnDisk)
		if existing {
			hyps = append(hyps, text)
			continue
		}
		id, err := t.newID(model.KindStatement)
		if err != nil {
			return err
		}
		t.create(id, model.NewStatement(id, "assumption", []string{text}, nil, "true"))
		hyps = append(hyps, "("+id+") "+text)
	}
	pid, err := t.newID(model.KindProblem)
	if err != nil {
		return err
	}
	open := model.StatusWord(model.PhaseProblemOpen, model.P013)
	t.create(pid, model.NewProblem(pid, hyps, objectives, open, "", ""))
	return nil
}

// occupied names the first thing that makes dir more than an empty new folder.
func occupied(dir string) (string, error) {
	for _, name := range []string{ConfigFile, LogFile} {
		if _, err := os.Lstat(filepath.Join(dir, filepath.FromSlash(name))); err == nil {
			return name, nil
		} else if !errors.Is(err, fs.ErrNotExist) {
			return "", inputf("%s: %v", name, unwrapPath(err))
		}
	}
	for _, sub := range objectDirs {
		entries, err := os.ReadDir(filepath.Join(dir, sub))
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				continue
			}
			return "", inputf("%s: %v", sub, unwrapPath(err))
		}
		for _, e := range entries {
			if strings.HasSuffix(e.Name(), ".json") {
				return sub + "/" + e.Name(), nil
			}
		}
	}
	entries, err := os.ReadDir(filepath.Join(dir, HistoryDir))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return "", inputf("%s: %v", HistoryDir, unwrapPath(err))
	}
	for _, e := range entries {
		if model.ValidID(e.Name(), model.KindChange) {
			return HistoryDir + "/" + e.Name(), nil
		}
	}
	return "", nil
}
