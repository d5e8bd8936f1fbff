package model

import (
	"iter"
	"math"
	"slices"
)

// Actions is Graph.Actionable: the objects with a next agent, in compareActions order
// (deepest first, then by ID). A graph Update makes shares its predecessor's list and
// carries only the actions added and removed over it, as Objects does for the per-object
// maps: at 100k statements the list is tens of thousands of actions, and copying it
// whole for each change that moved a next agent was most of the garbage of an agents'
// run. Once the changes outnumber √n they are folded into a new list, so a Fork copies
// at most √n and the fold's cost, n, comes once per √n changes.
//
// The zero value is an empty list. Like the graph holding it, an Actions is immutable
// once published: only its builder calls Insert and Remove, on a Fork.
type Actions struct {
	base []Action        // sorted; shared with earlier versions, never written
	add  []Action        // sorted; actions over base
	drop map[string]bool // IDs of base's actions no longer in the list
	n    int
	// humans counts the actions for AgentHuman: the stall alarm, asked every few
	// seconds, counts the agents' work without a walk over every action.
	humans int
}

// ActionsOf is the list of the actions, which the caller hands over sorted by
// compareActions (as Derive makes them) and no longer writes.
func ActionsOf(list []Action) Actions {
	if len(list) == 0 {
		return Actions{}
	}
	humans := 0
	for _, a := range list {
		if a.Agent == AgentHuman {
			humans++
		}
	}
	return Actions{base: list, n: len(list), humans: humans}
}

// Len is the number of actions.
func (l Actions) Len() int { return l.n }

// Humans is the number of actions for AgentHuman (the decisions that wait for a person).
func (l Actions) Humans() int { return l.humans }

// human is 1 for an action for AgentHuman, else 0.
func human(a Action) int {
	if a.Agent == AgentHuman {
		return 1
	}
	return 0
}

// All yields the actions in order.
func (l Actions) All() iter.Seq[Action] {
	return func(yield func(Action) bool) {
		i, j := 0, 0
		for i < len(l.base) || j < len(l.add) {
			if i < len(l.base) && l.drop[l.base[i].ID] {
				i++
				continue
			}
			var a Action
			if j == len(l.add) || i < len(l.base) && compareActions(l.base[i], l.add[j]) < 0 {
				a, i = l.base[i], i+1
			} else {
				a, j = l.add[j], j+1
			}
			if !yield(a) {
				return
			}
		}
	}
}

// First is the first action (the orchestrator's next), if there is one.
func (l Actions) First() (Action, bool) {
	for a := range l.All() {
		return a, true
	}
	return Action{}, false
}

// Slice is the actions in order, in a slice the caller owns (nil when there are none).
func (l Actions) Slice() []Action {
	if l.n == 0 {
		return nil
	}
	out := make([]Action, 0, l.n)
	for a := range l.All() {
		out = append(out, a)
	}
	return out
}

// Fork returns a copy to build the next version on: it shares the list and copies the
// changes over it.
func (l Actions) Fork() Actions {
	f := Actions{base: l.base, n: l.n, humans: l.humans, add: slices.Clone(l.add)}
	if len(l.drop) > 0 {
		f.drop = make(map[string]bool, len(l.drop))
		for id := range l.drop {
			f.drop[id] = true
		}
	}
	return f
}

// Insert adds an action whose ID the list does not hold (builder only, on a Fork).
func (l *Actions) Insert(a Action) {
	i, _ := slices.BinarySearchFunc(l.add, a, compareActions)
	l.add = slices.Insert(l.add, i, a)
	l.n++
	l.humans += human(a)
	l.settle()
}

// Remove takes out the action, as it is in the list (builder only, on a Fork); an action
// the list does not hold is left alone.
func (l *Actions) Remove(a Action) {
	if i, ok := slices.BinarySearchFunc(l.add, a, compareActions); ok && l.add[i] == a {
		l.add = slices.Delete(l.add, i, i+1)
		l.n--
		l.humans -= human(a)
		return
	}
	i, ok := slices.BinarySearchFunc(l.base, a, compareActions)
	if !ok || l.base[i] != a || l.drop[a.ID] {
		return
	}
	if l.drop == nil {
		l.drop = map[string]bool{}
	}
	l.drop[a.ID] = true
	l.n--
	l.humans -= human(a)
	l.settle()
}

// settle folds the changes into a new list once they outnumber √n (at least 64).
func (l *Actions) settle() {
	if len(l.add)+len(l.drop) <= max(64, int(math.Sqrt(float64(len(l.base))))) {
		return
	}
	*l = ActionsOf(l.Slice())
}
