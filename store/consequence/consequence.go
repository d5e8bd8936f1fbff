// Package consequence says what a change does to a run before it is made: each object it
// writes with its status before and after, the changes it discards, and what follows
// from it elsewhere (parents whose phase changes, problems solved or unsolved,
// statements that become actionable or blocked, and who the orchestrator runs next).
// It is pure: two snapshots (or one and the objects a change writes) and the log lines
// a reversal discards in, one Report out. Every confirmation and dry run shows it, in
// the workbench and on the command line alike.
package consequence

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"referee/model"
	"referee/model/pyjson"
)

// State is an object's status as written, the phase it means for review, and the agent
// the orchestrator would run on it ("" when none).
type State struct {
	Status string `json:"status"`
	Phase  string `json:"phase"`
	Next   string `json:"next,omitempty"`
}

// Object is one object the change writes or removes; Before is nil for an object it
// creates, After nil for one it removes.
type Object struct {
	ID     string `json:"id"`
	Before *State `json:"before"`
	After  *State `json:"after"`
}

// Change is one logged change a reversal discards.
type Change struct {
	ID      string   `json:"id"`
	Skill   string   `json:"skill"`
	Actor   string   `json:"actor"`
	At      string   `json:"at"`
	Objects []string `json:"objects"`
}

// Effect kinds.
const (
	Solved     = "solved"     // a problem becomes solved
	Unsolved   = "unsolved"   // a problem is no longer solved
	Phase      = "phase"      // an object the change does not write changes phase
	Actionable = "actionable" // the orchestrator gets an agent to run on it
	Blocked    = "blocked"    // open, but nothing can be run on it any more
	NextAgent  = "next"       // another agent is due on it
)

// Effect is a consequence on an object the change does not write itself (or, for
// Actionable, Blocked and NextAgent, on any object).
type Effect struct {
	ID     string `json:"id"`
	What   string `json:"what"`
	Before State  `json:"before"`
	After  State  `json:"after"`
}

// Action is what the orchestrator would run next: an agent on an object.
type Action struct {
	Agent string `json:"agent"`
	ID    string `json:"id"`
}

// Report is what a change does to the run.
type Report struct {
	Objects    []Object `json:"objects"`
	Discarded  []Change `json:"discarded"`
	Effects    []Effect `json:"effects"`
	NextBefore *Action  `json:"next_before"`
	NextAfter  *Action  `json:"next_after"`
}

// Write is one object a change writes: its new document, or Doc nil for a removal.
type Write struct {
	ID  string
	Doc *pyjson.Value
}

// After is before with the writes applied: the snapshot the change would leave. It
// shares everything it does not write with before (Objects fork).
func After(before *model.Snapshot, writes []Write) *model.Snapshot {
	s := *before
	s.Statements = before.Statements.Fork()
	s.Problems = make(map[string]*model.Problem, len(before.Problems)+1)
	for id, p := range before.Problems {
		s.Problems[id] = p
	}
	for _, w := range writes {
		switch model.KindOf(w.ID) {
		case model.KindStatement:
			if w.Doc == nil {
				s.Statements.Delete(w.ID)
			} else {
				s.Statements.Set(w.ID, model.StatementFrom(*w.Doc))
			}
		case model.KindProblem:
			if w.Doc == nil {
				delete(s.Problems, w.ID)
			} else {
				s.Problems[w.ID] = model.ProblemFrom(*w.Doc)
			}
		}
	}
	return &s
}

// Of is Between for a change given as its writes on before (gBefore: before's graph,
// derived when nil).
func Of(before *model.Snapshot, gBefore *model.Graph, writes []Write, discarded []model.LogEntry) *Report {
	if gBefore == nil {
		gBefore = model.Derive(before)
	}
	after := After(before, writes)
	ids := make([]string, 0, len(writes))
	for _, w := range writes {
		ids = append(ids, w.ID)
	}
	return Between(before, after, gBefore, model.Derive(after), ids, discarded)
}

// Between compares two snapshots of a run and their graphs: written are the objects the
// change writes (listed whole, status unchanged or not), discarded the log lines of the
// changes it takes back.
func Between(before, after *model.Snapshot, gb, ga *model.Graph, written []string, discarded []model.LogEntry) *Report {
	r := &Report{Objects: []Object{}, Discarded: []Change{}, Effects: []Effect{}}
	isWritten := make(map[string]bool, len(written))
	for _, id := range written {
		if isWritten[id] || (model.KindOf(id) != model.KindStatement && model.KindOf(id) != model.KindProblem) {
			continue
		}
		isWritten[id] = true
		r.Objects = append(r.Objects, Object{ID: id, Before: state(before, gb, id), After: state(after, ga, id)})
	}
	slices.SortFunc(r.Objects, func(a, b Object) int { return model.CompareIDs(a.ID, b.ID) })
	for _, e := range discarded {
		r.Discarded = append(r.Discarded, Change{ID: e.ID, Skill: e.Skill, Actor: e.By, At: e.At,
			Objects: slices.Concat([]string{}, e.Creation, e.Modification)})
	}
	look := func(id string) {
		if isWritten[id] {
			return
		}
		b, a := state(before, gb, id), state(after, ga, id)
		if b == nil || a == nil {
			return // created or removed without being written: not a case a change makes
		}
		what := ""
		switch {
		case b.Phase != a.Phase && a.Phase == model.PhaseProblemSolved.String():
			what = Solved
		case b.Phase != a.Phase && b.Phase == model.PhaseProblemSolved.String():
			what = Unsolved
		case b.Phase != a.Phase:
			what = Phase
		case b.Next == "" && a.Next != "":
			what = Actionable
		case b.Next != "" && a.Next == "":
			what = Blocked
		case b.Next != a.Next:
			what = NextAgent
		}
		if what != "" {
			r.Effects = append(r.Effects, Effect{ID: id, What: what, Before: *b, After: *a})
		}
	}
	for id := range after.Problems {
		look(id)
	}
	for id := range after.Statements.Keys() {
		look(id)
	}
	order := map[string]int{Unsolved: 0, Solved: 1, Phase: 2, Blocked: 3, Actionable: 4, NextAgent: 5}
	slices.SortFunc(r.Effects, func(a, b Effect) int {
		if c := cmp.Compare(order[a.What], order[b.What]); c != 0 {
			return c
		}
		return model.CompareIDs(a.ID, b.ID)
	})
	r.NextBefore, r.NextAfter = first(gb), first(ga)
	return r
}

func first(g *model.Graph) *Action {
	if g == nil {
		return nil
	}
	a, ok := g.Actionable.First()
	if !ok {
		return nil
	}
	return &Action{Agent: a.Agent, ID: a.ID}
}

// state is an object's State in a snapshot, nil when it does not exist there.
func state(s *model.Snapshot, g *model.Graph, id string) *State {
	var status string
	switch model.KindOf(id) {
	case model.KindStatement:
		st := s.Statements.Get(id)
		if st == nil {
			return nil
		}
		status = st.Status
	case model.KindProblem:
		p := s.Problems[id]
		if p == nil {
			return nil
		}
		status = p.Status
	default:
		return nil
	}
	return &State{Status: status, Phase: g.Phase.Get(id).String(), Next: g.Next.Get(id)}
}

// Word is a state as the workbench shows it: the phase, the status written when it
// says something else, and who is next.
func (s *State) Word() string {
	if s == nil {
		return "absent"
	}
	out := s.Phase
	if s.Status != "" && strings.ReplaceAll(s.Status, "_", " ") != s.Phase {
		out += " (" + s.Status + ")"
	}
	if s.Next != "" {
		out += ", next " + s.Next
	}
	return out
}

// Lines is the report as text, one line per item, lists cut to limit items each (0: no
// cut) with a line saying how many more. The CLI prints it whole; the workbench cuts it.
func (r *Report) Lines(limit int) []string {
	var out []string
	cut := func(n int) int {
		if limit > 0 && n > limit {
			return limit
		}
		return n
	}
	more := func(shown, n int) {
		if n > shown {
			out = append(out, fmt.Sprintf("  … %d more", n-shown))
		}
	}
	if len(r.Objects) > 0 {
		out = append(out, fmt.Sprintf("status of the %d %s it writes:", len(r.Objects), plural(len(r.Objects), "object", "objects")))
		n := cut(len(r.Objects))
		for _, o := range r.Objects[:n] {
			switch {
			case o.Before == nil:
				out = append(out, fmt.Sprintf("  %s new: %s", o.ID, o.After.Word()))
			case o.After == nil:
				out = append(out, fmt.Sprintf("  %s removed (was %s)", o.ID, o.Before.Word()))
			case *o.Before == *o.After:
				out = append(out, fmt.Sprintf("  %s %s (unchanged)", o.ID, o.Before.Word()))
			default:
				line := fmt.Sprintf("  %s %s → %s", o.ID, o.Before.Word(), o.After.Word())
				solved := model.PhaseProblemSolved.String()
				switch {
				case o.Before.Phase == solved && o.After.Phase != solved:
					line += ": becomes unsolved"
				case o.Before.Phase != solved && o.After.Phase == solved:
					line += ": becomes solved"
				}
				out = append(out, line)
			}
		}
		more(n, len(r.Objects))
	}
	if len(r.Discarded) > 0 {
		out = append(out, fmt.Sprintf("discards %d %s (taken back with %s work):", len(r.Discarded), plural(len(r.Discarded), "change", "changes"), plural(len(r.Discarded), "its", "their")))
		n := cut(len(r.Discarded))
		for _, c := range r.Discarded[:n] {
			line := "  " + c.ID
			if c.Skill != "" {
				line += " " + c.Skill
			}
			if c.Actor != "" {
				line += " by " + c.Actor
			}
			if c.At != "" {
				line += " at " + c.At
			}
			if len(c.Objects) > 0 {
				line += ": " + strings.Join(c.Objects, ", ")
			}
			out = append(out, line)
		}
		more(n, len(r.Discarded))
	}
	if len(r.Effects) > 0 {
		out = append(out, "and so:")
		n := cut(len(r.Effects))
		for _, e := range r.Effects[:n] {
			out = append(out, "  "+e.Sentence())
		}
		more(n, len(r.Effects))
	} else if len(r.Objects) > 0 {
		out = append(out, "and so: no other object changes phase or next agent")
	}
	out = append(out, "next: "+r.nextLine())
	return out
}

func (r *Report) nextLine() string {
	say := func(a *Action) string { return a.Agent + " on " + a.ID }
	b, a := r.NextBefore, r.NextAfter
	switch {
	case a == nil && b == nil:
		return "still nothing for the orchestrator to run"
	case a == nil:
		return "nothing for the orchestrator to run (now " + say(b) + ")"
	case b == nil:
		return "the orchestrator would run " + say(a) + " (now nothing to run)"
	case *a == *b:
		return "the orchestrator would still run " + say(a)
	}
	return "the orchestrator would run " + say(a) + " (now " + say(b) + ")"
}

// Sentence says an effect in words.
func (e Effect) Sentence() string {
	switch e.What {
	case Solved:
		return fmt.Sprintf("%s becomes solved (%s → %s)", e.ID, e.Before.Word(), e.After.Word())
	case Unsolved:
		return fmt.Sprintf("%s becomes unsolved (%s → %s)", e.ID, e.Before.Word(), e.After.Word())
	case Actionable:
		return fmt.Sprintf("%s becomes actionable: next %s (%s)", e.ID, e.After.Next, e.After.Phase)
	case Blocked:
		return fmt.Sprintf("%s becomes blocked: %s, no agent can run on it (was next %s)", e.ID, e.After.Phase, e.Before.Next)
	case NextAgent:
		return fmt.Sprintf("%s: next %s instead of %s (%s)", e.ID, e.After.Next, e.Before.Next, e.After.Phase)
	}
	return fmt.Sprintf("%s changes phase: %s → %s", e.ID, e.Before.Word(), e.After.Word())
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
