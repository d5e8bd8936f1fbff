package tui

import (
	"errors"
	"fmt"

	"referee/live"
	"referee/model"
	"referee/skill"
)

func needProof(m *Model) string {
	if st := m.selectedStatement(); st == nil || st.Proof.Blank() {
		return "no proof here: select a statement with a proof"
	}
	return ""
}

func needStatement(m *Model) string {
	if m.selectedStatement() == nil {
		return "select a statement first"
	}
	return ""
}

func needIssues(m *Model) string {
	if st := m.selectedStatement(); st == nil || len(st.Issues) == 0 {
		return "no issues here: select a statement with issues"
	}
	return ""
}

// selectedStatement is the statement under the tree cursor, or nil.
func (m *Model) selectedStatement() *model.Statement {
	r, ok := m.tree.Selected()
	if !ok || r.Kind != live.RowStatement || m.snap == nil {
		return nil
	}
	return m.snap.Statements.Get(r.ID)
}

// selectedProblem is the problem under the cursor, or the nearest one above it.
func (m *Model) selectedProblem() *model.Problem {
	r, ok := m.tree.Selected()
	if !ok || m.snap == nil {
		return nil
	}
	if p := m.snap.Problems[r.ID]; p != nil && r.Kind == live.RowProblem {
		return p
	}
	for _, a := range reverse(m.forest.Ancestors(r.Path)) {
		if p := m.snap.Problems[live.LastID(a)]; p != nil {
			return p
		}
	}
	return nil
}

// target returns the object a skill would change from the current selection, with the
// argument naming it.
func (m *Model) target(sk *skill.Skill) (id string, ok bool, why string) {
	p, _ := sk.Param(sk.Target)
	switch p.IDKind {
	case model.KindProblem:
		if pr := m.selectedProblem(); pr != nil {
			return pr.ID, true, ""
		}
		return "", false, "select a problem (or something under one)"
	default:
		if st := m.selectedStatement(); st != nil {
			return st.ID, true, ""
		}
		return "", false, "select a statement"
	}
}

// skillDisabled is the reason a skill cannot run on the selection now, from the
// skill's own precondition check on the snapshot, or "".
func (m *Model) skillDisabled(name, verb string) string {
	sk, ok := skill.Lookup(name)
	if !ok {
		return "unknown skill " + name
	}
	if s := m.opts.Seat; s != nil && s.ReadOnly {
		return readOnlyReason(s.Name)
	}
	if why := m.travel.ReadOnly(); why != "" {
		return why
	}
	id, ok, why := m.target(sk)
	if !ok {
		return "cannot " + verb + ": " + why
	}
	args := skill.Args{sk.Target: id}
	if err := sk.Check(skill.SnapshotObjects{Snap: m.snap}, args); err != nil {
		return "cannot " + verb + ": " + reason(err)
	}
	return ""
}

// reason is a skill error without the skill's name in front.
func reason(err error) string {
	var pe *skill.PreconditionError
	if errors.As(err, &pe) {
		if pe.Status == "missing" {
			return pe.Object + " does not exist"
		}
		return fmt.Sprintf("%s is %q; it needs %s", pe.Object, pe.Status, pe.Need)
	}
	return err.Error()
}
