package skill

import (
	"referee/model"
	"referee/model/pyjson"
)

// Tx is one change in the making, as a skill's body sees it. The store implements it with
// its journaled batch: reads come from disk under the folder lock (or from what this
// change already wrote), and nothing reaches the disk until the whole body has run.
type Tx interface {
	// Objects reads a statement or problem as this change has it so far.
	Objects
	// Modify returns an object's document for editing and records it as modified.
	Modify(id string) (*pyjson.Value, error)
	// Create adds a new object under an ID from NewID.
	Create(id string, doc pyjson.Value)
	// NewID issues the next ID of a kind (the counters in config.json).
	NewID(kind string) (string, error)
	// Vocab is the status vocabulary for a write to an object with this status: the
	// object's own where its status tells, else the folder's.
	Vocab(status string) model.Vocab
	// Conclusion is statement id's conclusion as the agents' scripts read it
	// (load_statement_conclusion), as this change has it so far.
	Conclusion(id string) (string, bool)
	// Explain adds a line to what the plan shows before the reviewer says y.
	Explain(line string)
	// Log adds a key to the change's log line.
	Log(key string, v pyjson.Value)
}

// change is what a skill's body works with: its Tx and the helpers the bodies share.
type change struct {
	Tx
	skill string
	made  map[string]bool // created by this change: not on disk yet
}

func (t *change) create(id string, doc pyjson.Value) {
	if t.made == nil {
		t.made = map[string]bool{}
	}
	t.made[id] = true
	t.Create(id, doc)
}

// modifyStatement is a statement as read before this change (for numbering its issues
// and responses) and its tree, recorded as modified.
func (t *change) modifyStatement(id string) (*model.Statement, *pyjson.Value, error) {
	st, err := t.Statement(id)
	if err != nil {
		return nil, nil, err
	}
	doc, err := t.Modify(id)
	return st, doc, err
}

// setPhase writes the status word for a meaning in the object's vocabulary.
func (t *change) setPhase(doc *pyjson.Value, p model.Phase) {
	doc.Set("status", pyjson.Str(model.StatusWord(p, t.Vocab(statusOf(doc)))))
}

// newStatement creates a pending normal statement and returns its ID. Its premises are
// normalised as the agents' state.py does when it creates a statement.
func (t *change) newStatement(claim, premises []string) (string, error) {
	premises = model.NormalizePremises(premises, t.Conclusion)
	for i, p := range premises {
		if m := model.BadRefPrefix(p); m != "" { // what check would report
			return "", inputf("%s: premise %d starts like a reference, but %q is not an ID (write \"(s-007) text\" or the text alone); nothing was changed", t.skill, i+1, m)
		}
	}
	id, err := t.NewID(model.KindStatement)
	if err != nil {
		return "", err
	}
	t.create(id, model.NewStatement(id, "normal", claim, premises, "pending"))
	return id, nil
}

// conclusionOnDisk is Conclusion as prob.py sees it: it writes a problem's new statements
// only after reading every hypothesis, so a hypothesis naming one of them (a guessed
// "(s-NEW)") finds no file; it is dropped and its text becomes one more new statement.
// state.py runs once per sub-statement, so state-setup-substatement sees earlier ones.
func (t *change) conclusionOnDisk(id string) (string, bool) {
	if t.made[id] {
		return "", false
	}
	return t.Conclusion(id)
}
