package store

import (
	"referee/model"
	"referee/model/pyjson"
	"referee/skill"
)

// Run applies a skill as one change batch: lock, read the objects as they are on disk,
// check the preconditions, write. On any error nothing is written. When a lockless
// writer got in the way (race.go), the skill is applied again to the folder as it is.
func Run(dir string, s *skill.Skill, a skill.Args, opts Options) (*Result, error) {
	return retrying(func() (*tx, error) { return prepare(dir, s, a, &opts, true) }, opts)
}

// Plan works a skill call out exactly as Run would — same validation, preconditions and
// effects on the objects as they are on disk — and returns what it would write, writing
// nothing. The UI shows it before the reviewer says y.
func Plan(dir string, s *skill.Skill, a skill.Args, opts Options) (*Planned, error) {
	t, err := prepare(dir, s, a, &opts, false)
	if err != nil {
		return nil, err
	}
	return t.plan(opts)
}

// prepare runs a skill up to the point of writing. With lock, the tx holds the folder
// lock until the caller ends it.
func prepare(dir string, s *skill.Skill, a skill.Args, opts *Options, lock bool) (*tx, error) {
	if err := s.Validate(a); err != nil {
		return nil, err
	}
	if opts.Actor == "" {
		opts.Actor = "agent"
	}
	t, err := open(dir, s.Name, lock)
	if err != nil {
		return nil, err
	}
	if err := t.run(s, a, opts.ExpectVersion); err != nil {
		t.end()
		return nil, err
	}
	return t, nil
}

func (t *tx) run(s *skill.Skill, a skill.Args, expect string) error {
	if expect != "" && s.Target != "" {
		id := a.Str(s.Target)
		o, err := t.object(id)
		if err != nil {
			return err
		}
		if o == nil {
			return &skill.PreconditionError{Object: id, Status: "missing", Skill: s.Name}
		}
		if v := model.Version(o.orig); v != expect {
			return &ConflictError{Object: id, Expected: expect, Actual: v}
		}
	}
	return s.Apply(t, a)
}

// The journaled batch is the skills' Tx: what a skill's body reads and writes goes
// through these methods, and reaches the disk only when the batch commits.
var _ skill.Tx = (*tx)(nil)

// Modify implements skill.Tx.
func (t *tx) Modify(id string) (*pyjson.Value, error) { return t.modify(id) }

// Create implements skill.Tx.
func (t *tx) Create(id string, doc pyjson.Value) { t.create(id, doc) }

// NewID implements skill.Tx.
func (t *tx) NewID(kind string) (string, error) { return t.newID(kind) }

// Vocab implements skill.Tx.
func (t *tx) Vocab(status string) model.Vocab { return t.vocabFor(status) }

// Conclusion implements skill.Tx.
func (t *tx) Conclusion(id string) (string, bool) { return t.conclusion(id) }

// Explain implements skill.Tx.
func (t *tx) Explain(line string) { t.explain = append(t.explain, line) }

// Log implements skill.Tx.
func (t *tx) Log(key string, v pyjson.Value) { t.extra = append(t.extra, pyjson.M(key, v)) }

// conclusion is the agents' load_statement_conclusion: the conclusion of
// statement/<id>.json as it is now (or as this batch made it), for premise normalisation.
// Their scripts look only in statement/, so an e- ID is never found there.
func (t *tx) conclusion(id string) (string, bool) {
	if model.KindOf(id) != model.KindStatement || !model.ValidID(id, model.KindStatement) {
		return "", false
	}
	o, err := t.object(id)
	if err != nil || o == nil {
		return "", false
	}
	return model.ConclusionText(o.doc)
}

// conclusionOnDisk is conclusion as prob.py sees it (see change.conclusionOnDisk): init's
// hypotheses are read the same way.
func (t *tx) conclusionOnDisk(id string) (string, bool) {
	if o, ok := t.objs[id]; ok && o.isNew {
		return "", false
	}
	return t.conclusion(id)
}
