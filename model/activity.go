package model

import (
	"slices"

	"referee/model/pyjson"
)

// What a change did to one object.
const (
	Created  = "created"
	Modified = "modified"
	Deleted  = "deleted"
)

// ObjectChange is what one change did to one object: its status before and after, the
// fields that changed and the status notes it added. Before and After are the object's
// versions (the zero Value when absent or unknown).
type ObjectChange struct {
	ID     string   `json:"id"`
	Action string   `json:"action"`           // Created, Modified or Deleted
	From   string   `json:"from"`             // status before; "" when created
	To     string   `json:"to"`               // status after; "" when deleted
	Fields []string `json:"fields,omitempty"` // modified: dotted paths of the fields that changed
	Notes  []string `json:"notes,omitempty"`  // progress notes the change added
	// Unknown says a version could not be read (a backup missing or broken): From or To
	// and the fields are then incomplete.
	Unknown string `json:"unknown,omitempty"`
	// Outside says the object was changed outside the log after this change (an agent's
	// in-place write, an edit by hand): the version the next change backed up, or the
	// file now, is not the one this change wrote (its log line records that version).
	// After and To then include that unlogged edit. It names where the edit was seen:
	// "before l-042" or "since" (the file now).
	Outside string `json:"outside,omitempty"`

	Before, After pyjson.Value `json:"-"`
	Diff          []FieldDiff  `json:"-"`
}

// OutsideText says that the object changed outside the log after the change, and where
// that shows ("" when it did not).
func (oc ObjectChange) OutsideText() string {
	switch oc.Outside {
	case "":
		return ""
	case "since":
		return "changed outside the log since (shown as it is now)"
	}
	return "changed outside the log " + oc.Outside + " (shown with that edit)"
}

// CompareVersions describes one object's change from its two versions.
func CompareVersions(id, action string, before, after pyjson.Value) ObjectChange {
	oc := ObjectChange{ID: id, Action: action, Before: before, After: after,
		From: statusOf(before), To: statusOf(after)}
	oc.Diff = DiffObject(before, after)
	for _, d := range oc.Diff {
		if action == Modified {
			oc.Fields = append(oc.Fields, d.Field)
		}
		if d.Field == "progresses" {
			oc.Notes = append(oc.Notes, d.Added...)
		}
	}
	return oc
}

func statusOf(v pyjson.Value) string {
	if s, ok := v.Get("status"); ok && s.Kind == pyjson.String {
		return s.Str
	}
	return ""
}

// added is what a change added to a list field of the object.
func (oc *ObjectChange) added(field string) []string {
	for _, d := range oc.Diff {
		if d.Field == field {
			return d.Added
		}
	}
	return nil
}

func (oc *ObjectChange) changed(field string) bool { return slices.Contains(oc.Fields, field) }

func (oc *ObjectChange) hasNote(tag string) bool {
	for _, n := range oc.Notes {
		if ParseProgress(n).Tag == tag {
			return true
		}
	}
	return false
}

// GuessSkill names the skill that most likely made a change, from what it did to the
// objects: the agents' own log lines do not say. g (the graph of the folder now, may be
// nil) tells what a statement created on its own was later linked under, since the
// agents' tools create and link in two changes. "" when nothing fits.
func GuessSkill(objs []ObjectChange, g *Graph) string {
	var createdProblem, createdStatements []string
	for _, oc := range objs {
		switch {
		case oc.Action == Deleted:
			return "undo"
		case oc.Action == Created && KindOf(oc.ID) == KindProblem:
			createdProblem = append(createdProblem, oc.ID)
		case oc.Action == Created && KindOf(oc.ID) == KindStatement:
			createdStatements = append(createdStatements, oc.ID)
		}
	}
	for i := range objs {
		oc := &objs[i]
		if oc.Action != Modified || KindOf(oc.ID) != KindStatement {
			continue
		}
		if s := statementSkill(oc); s != "" {
			return s
		}
	}
	for i := range objs {
		oc := &objs[i]
		if oc.Action != Modified || KindOf(oc.ID) != KindProblem {
			continue
		}
		switch {
		case slices.ContainsFunc(oc.added("preliminaries"), isRefTo(KindProblem)):
			return "prob-setup-subgoal"
		case ProblemPhase(oc.From) != PhaseProblemSolved && ProblemPhase(oc.To) == PhaseProblemSolved:
			return "prob-finish-up"
		case slices.ContainsFunc(oc.added("progresses"), isRefTo(KindStatement)):
			return "prob-wrapup-statement"
		}
	}
	if len(createdProblem) > 0 {
		return "init" // a problem nobody's subgoal: set up by a human
	}
	if len(createdStatements) > 0 && g != nil {
		return linkedBy(createdStatements[0], g)
	}
	return ""
}

func isRefTo(kind string) func(string) bool {
	return func(item string) bool {
		id, ok := RefID(item)
		return ok && KindOf(id) == kind
	}
}

// statementSkill guesses from one modified statement, most telling evidence first:
// the note or response the skill writes, then the status it sets.
func statementSkill(oc *ObjectChange) string {
	for _, r := range oc.added("validation.responses") {
		switch ParseResponse(r).Type {
		case "patch":
			return "fix-patch-proof"
		case "substatement":
			return "fix-create-substatement"
		case "false":
			return "state-mark-false"
		case "modification":
			return "state-propose-modification"
		}
	}
	to, _, _ := StatusInfo(oc.To)
	switch {
	case oc.hasNote("DISPROOF VERIFIED"): // a verified disproof makes it false, as mark-false would
		return "check-confirm-proof"
	case oc.hasNote("COUNTEREXAMPLE") || to == PhaseRefuted:
		return "state-mark-false"
	case oc.hasNote("MODIFICATION PROPOSED"):
		return "state-propose-modification"
	case oc.hasNote("ABANDONED") || to == PhaseAbandoned:
		return "abandon"
	case oc.hasNote("VERIFIED") || to == PhaseProved && oc.From != oc.To:
		return "check-confirm-proof"
	case oc.hasNote("DECOMPOSED") || len(oc.added("preliminaries")) > 0:
		return "state-setup-substatement"
	case len(oc.added("validation.issues")) > 0:
		return "check-reject-proof"
	case oc.hasNote("PROOF") || oc.changed("proof.full"):
		return "state-complete-proof"
	}
	return ""
}

// linkedBy guesses the skill that created a statement from what it hangs under now.
func linkedBy(id string, g *Graph) string {
	for _, e := range g.In[id] {
		switch e.Kind {
		case EdgeProgress:
			return "prob-wrapup-statement"
		case EdgeSub:
			return "state-setup-substatement"
		case EdgePremise:
			if KindOf(e.From) == KindProblem {
				return "prob-setup-subgoal"
			}
		}
	}
	return ""
}
