package store

import "referee/model"

// The journaled batch (tx) is the skills' Tx: what a skill's body reads and writes goes
// through these, and reaches the disk only when the batch commits.

// Modify implements Tx.
func (t *tx) Modify(id string) (*model.Value, error) { return t.modify(id) }

// Create implements Tx.
func (t *tx) Create(id string, doc model.Value) { t.create(id, doc) }

// NewID implements Tx.
func (t *tx) NewID(kind string) (string, error) { return t.newID(kind) }

// Vocab implements Tx.
func (t *tx) Vocab(status string) model.Vocab { return t.vocabFor(status) }

// Conclusion implements Tx.
func (t *tx) Conclusion(id string) (string, bool) { return t.conclusion(id) }

// Explain implements Tx.
func (t *tx) Explain(line string) { t.explain = append(t.explain, line) }

// Log implements Tx.
func (t *tx) Log(key string, v model.Value) { t.extra = append(t.extra, model.M(key, v)) }

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
