package tui

import (
	"errors"
	"fmt"
	"slices"

	tea "charm.land/bubbletea/v2"

	"referee/model"
	"referee/store"
	"referee/views"
)

// action is one key binding, lazygit style: keys, what it does, and (computed from the
// current snapshot) why it is disabled. Help (?) and the palette (:) list these.
type action struct {
	keys     []string
	key      string // as shown
	desc     string
	group    string
	skill    string // the skill it runs, for changes
	verb     string // "confirm", for "cannot confirm: …"
	disabled func(m *Model) string
	run      func(m *Model) tea.Cmd
}

const (
	groupMove   = "move"
	groupLook   = "look"
	groupSuper  = "supervise"
	groupChange = "change (asks for y)"
	groupApp    = "app"
)

// actions is the fixed key table. Tree and detail keys (j/k/h/l/g/G…) are listed too
// so that help is complete, but they are dispatched by the panes' own KeyMaps.
func (m *Model) actions() []action {
	if m.acts != nil {
		return m.acts
	}
	pane := func(string) func(m *Model) tea.Cmd { return nil }
	m.acts = []action{
		{keys: []string{"j", "down"}, key: "j/↓", desc: "move down (detail: scroll)", group: groupMove, run: pane("down")},
		{keys: []string{"k", "up"}, key: "k/↑", desc: "move up (detail: scroll)", group: groupMove, run: pane("up")},
		{keys: []string{"h", "left"}, key: "h/←", desc: "fold, or go to the parent", group: groupMove, run: pane("fold")},
		{keys: []string{"l", "right"}, key: "l/→", desc: "unfold, or go to the first child", group: groupMove, run: pane("unfold")},
		{keys: []string{"g", "home"}, key: "g", desc: "top", group: groupMove, run: pane("top")},
		{keys: []string{"G", "end"}, key: "G", desc: "bottom", group: groupMove, run: pane("bottom")},
		{keys: []string{"tab"}, key: "tab", desc: "switch pane", group: groupMove, run: func(m *Model) tea.Cmd { m.toggleFocus(); return nil }},
		{keys: []string{"enter"}, key: "enter", desc: "open (tree: show in detail; detail: follow the link)", group: groupMove, run: func(m *Model) tea.Cmd { return m.enter() }},
		{keys: []string{"esc"}, key: "esc", desc: "back out (close, clear search, go back)", group: groupMove, run: func(m *Model) tea.Cmd { m.back(); return nil }},
		{keys: []string{">"}, key: ">/<", desc: "next/previous link in the detail", group: groupMove, run: func(m *Model) tea.Cmd { m.moveLink(1); return nil }},
		{keys: []string{"<"}, key: "", desc: "", group: groupMove, run: func(m *Model) tea.Cmd { m.moveLink(-1); return nil }},
		{keys: []string{"/"}, key: "/", desc: "search an ID or words of a claim", group: groupLook, run: func(m *Model) tea.Cmd { return m.openSearch() }},
		{keys: []string{"n"}, key: "n/N", desc: "next/previous match; without a search: next/previous statement waiting for a human", group: groupLook, run: func(m *Model) tea.Cmd { m.next(1); return nil }},
		{keys: []string{"N"}, key: "", desc: "", group: groupLook, run: func(m *Model) tea.Cmd { m.next(-1); return nil }},
		{keys: []string{"]"}, key: "]/[", desc: "next/previous sentence of the proof", group: groupLook, run: func(m *Model) tea.Cmd { m.moveSentence(1); return nil }, disabled: needProof},
		{keys: []string{"["}, key: "", desc: "", group: groupLook, run: func(m *Model) tea.Cmd { m.moveSentence(-1); return nil }, disabled: needProof},
		{keys: []string{"i"}, key: "i", desc: "next issue (highlights its sentence)", group: groupLook, run: func(m *Model) tea.Cmd { m.nextIssue(); return nil }, disabled: needIssues},
		{keys: []string{"p"}, key: "p", desc: "pause/resume the live view", group: groupLook, run: func(m *Model) tea.Cmd { return m.pause() }},

		{keys: []string{"a"}, key: "a", desc: "activity: every change, newest first (in it: / filter, enter go to, t travel there)", group: groupSuper, run: func(m *Model) tea.Cmd { return m.toggleSide(sideActivity) }},
		{keys: []string{"r"}, key: "r", desc: "agent runs: session, messages, tokens, cost, last activity, stall verdict", group: groupSuper, run: func(m *Model) tea.Cmd { return m.toggleSide(sideRuns) }},
		{keys: []string{"x"}, key: "x", desc: "graveyard: false and abandoned statements, why, what they held up", group: groupSuper, run: func(m *Model) tea.Cmd { return m.toggleSide(sideGraveyard) }},
		{keys: []string{"t"}, key: "t", desc: "time travel: the folder as it was after a change, read-only; t again returns to now", group: groupSuper, run: func(m *Model) tea.Cmd { return m.toggleTravel() }},
		{keys: []string{","}, key: ",/.", desc: "time travel: earlier/later change", group: groupSuper, disabled: needTravel, run: func(m *Model) tea.Cmd { return m.scrub(-1) }},
		{keys: []string{"."}, key: "", desc: "", group: groupSuper, disabled: needTravel, run: func(m *Model) tea.Cmd { return m.scrub(1) }},
		{keys: []string{"d"}, key: "d", desc: "time travel: diff the selected object with the previous change (again: with now)", group: groupSuper, disabled: needTravel, run: func(m *Model) tea.Cmd { return m.cycleDiff() }},

		m.skillAction("C", "check-confirm-proof", "confirm", "confirm the proof: the statement becomes true"),
		m.skillAction("R", "check-reject-proof", "reject", "reject the proof at the sentence under the cursor"),
		m.skillAction("F", "state-mark-false", "mark false", "mark false with a counterexample"),
		m.skillAction("M", "state-propose-modification", "propose a modification", "propose a changed claim or premises"),
		m.skillAction("P", "fix-patch-proof", "patch", "patch the proof in $EDITOR, answering an issue"),
		m.skillAction("S", "state-setup-substatement", "decompose", "decompose into a sub-statement"),
		m.skillAction("L", "fix-create-substatement", "add a lemma", "answer an issue with a lemma (sub-statement)"),
		m.skillAction("W", "prob-wrapup-statement", "add a statement", "add the statement that resolves the problem"),
		m.skillAction("O", "prob-setup-subgoal", "add a subgoal", "set up a subgoal of the problem"),
		m.skillAction("D", "prob-finish-up", "finish", "finish the problem with its key statements"),
		m.skillAction("A", "abandon", "abandon", "abandon the statement"),
		{keys: []string{"u"}, key: "u", desc: "undo the last change made in this session", group: groupChange,
			disabled: func(m *Model) string { return m.undoDisabled() },
			run:      func(m *Model) tea.Cmd { m.openUndo(); return nil }},

		{keys: []string{":"}, key: ":", desc: "command palette: every skill", group: groupApp, run: func(m *Model) tea.Cmd { return m.openPalette() }},
		{keys: []string{"?"}, key: "?", desc: "help: every key", group: groupApp, run: func(m *Model) tea.Cmd { return m.openHelp() }},
		{keys: []string{"q", "ctrl+c"}, key: "q", desc: "quit", group: groupApp, run: func(m *Model) tea.Cmd { return tea.Quit }},
	}
	return m.acts
}

func (m *Model) skillAction(k, skill, verb, desc string) action {
	return action{keys: []string{k}, key: k, desc: desc, group: groupChange, skill: skill, verb: verb,
		disabled: func(m *Model) string { return m.skillDisabled(skill, verb) },
		run:      func(m *Model) tea.Cmd { return m.startSkill(skill) },
	}
}

func needProof(m *Model) string {
	if st := m.selectedStatement(); st == nil || st.Proof.Blank() {
		return "no proof here: select a statement with a proof"
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
	if !ok || r.Kind != views.RowStatement || m.snap == nil {
		return nil
	}
	return m.snap.Statements[r.ID]
}

// selectedProblem is the problem under the cursor, or the nearest one above it.
func (m *Model) selectedProblem() *model.Problem {
	r, ok := m.tree.Selected()
	if !ok || m.snap == nil {
		return nil
	}
	if p := m.snap.Problems[r.ID]; p != nil && r.Kind == views.RowProblem {
		return p
	}
	for _, a := range reverse(m.forest.ancestors(r.Path)) {
		if p := m.snap.Problems[lastID(a)]; p != nil {
			return p
		}
	}
	return nil
}

// target returns the object a skill would change from the current selection, with the
// argument naming it.
func (m *Model) target(skill *store.Skill) (id string, ok bool, why string) {
	p, _ := skill.Param(skill.Target)
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
	skill, ok := store.Lookup(name)
	if !ok {
		return "unknown skill " + name
	}
	if why := m.readOnly(); why != "" {
		return why
	}
	id, ok, why := m.target(skill)
	if !ok {
		return "cannot " + verb + ": " + why
	}
	args := store.Args{skill.Target: id}
	if err := skill.Check(store.SnapshotObjects{Snap: m.snap}, args); err != nil {
		return "cannot " + verb + ": " + reason(err)
	}
	return ""
}

// reason is a skill error without the skill's name in front.
func reason(err error) string {
	var pe *store.PreconditionError
	if errors.As(err, &pe) {
		if pe.Status == "missing" {
			return pe.Object + " does not exist"
		}
		return fmt.Sprintf("%s is %q; it needs %s", pe.Object, pe.Status, pe.Need)
	}
	return err.Error()
}

// actionFor finds the action bound to a key.
func (m *Model) actionFor(k string) (action, bool) {
	for _, a := range m.actions() {
		if slices.Contains(a.keys, k) {
			return a, true
		}
	}
	return action{}, false
}

// skillKey is the key that runs a skill, "" if none.
func (m *Model) skillKey(name string) string {
	for _, a := range m.actions() {
		if a.skill == name {
			return a.key
		}
	}
	return ""
}

// verbFor is how a skill reads in "cannot <verb>: …".
func (m *Model) verbFor(name string) string {
	for _, a := range m.actions() {
		if a.skill == name {
			return a.verb
		}
	}
	if name == "state-complete-proof" {
		return "submit a proof"
	}
	return "run " + name
}
