package tui

import (
	"referee/live"
	"referee/model"
	"referee/skill"
	"referee/tui/dialog"
)

func needProof(m *Model) string {
	if st := m.reader().selectedStatement(); st == nil || st.Proof.Blank() {
		return "no proof here: select a statement with a proof"
	}
	return ""
}

func needStatement(m *Model) string {
	if m.reader().selectedStatement() == nil {
		return "select a statement first"
	}
	return ""
}

func needIssues(m *Model) string {
	if st := m.reader().selectedStatement(); st == nil || len(st.Issues) == 0 {
		return "no issues here: select a statement with issues"
	}
	return ""
}

// selectedStatement is the statement under the tree cursor, or nil.
func (m reader) selectedStatement() *model.Statement {
	r, ok := m.tree.Selected()
	if !ok || r.Kind != live.RowStatement || m.shown.snap == nil {
		return nil
	}
	return m.shown.snap.Statements.Get(r.ID)
}

// selectedProblem is the problem under the cursor, or the nearest one above it.
func (m reader) selectedProblem() *model.Problem {
	r, ok := m.tree.Selected()
	if !ok || m.shown.snap == nil {
		return nil
	}
	if p := m.shown.snap.Problems[r.ID]; p != nil && r.Kind == live.RowProblem {
		return p
	}
	for _, a := range reverse(m.shown.forest.Ancestors(r.Path)) {
		if p := m.shown.snap.Problems[live.LastID(a)]; p != nil {
			return p
		}
	}
	return nil
}

// target returns the object a skill would change from the current selection, with the
// argument naming it.
func (m changer) target(sk *skill.Skill) (id string, ok bool, why string) {
	p, _ := sk.Param(sk.Target)
	switch p.IDKind {
	case model.KindProblem:
		if pr := m.reader().selectedProblem(); pr != nil {
			return pr.ID, true, ""
		}
		return "", false, "select a problem (or something under one)"
	default:
		if st := m.reader().selectedStatement(); st != nil {
			return st.ID, true, ""
		}
		return "", false, "select a statement"
	}
}

// skillDisabled is the reason a skill cannot run on the selection now, from the
// skill's own precondition check on the snapshot, or "".
func (m changer) skillDisabled(name, verb string) string {
	sk, ok := skill.Lookup(name)
	if !ok {
		return "unknown skill " + name
	}
	if s := m.env.opts.Seat; s != nil && s.ReadOnly {
		return readOnlyReason(s.Name)
	}
	if why := m.travel.ReadOnly(); why != "" {
		return why
	}
	id, ok, why := m.changer().target(sk)
	if !ok {
		return "cannot " + verb + ": " + why
	}
	args := skill.Args{sk.Target: id}
	if err := sk.Check(skill.SnapshotObjects{Snap: m.shown.snap}, args); err != nil {
		return "cannot " + verb + ": " + reason(err)
	}
	return ""
}
func reason(err error) string { return dialog.Reason(err) }
