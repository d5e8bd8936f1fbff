package agents

import (
	"slices"
	"time"

	"referee/model"
)

// DefaultSlack is how far outside a skill call's tool_use → tool_result bracket a
// change's time may fall and still be the call's: the log's times have whole seconds.
const DefaultSlack = 2 * time.Second

// maxCall bounds how long ago a call may have started and still be running at a
// change's time, for the time-only match.
const maxCall = time.Hour

// How a change was tied to a call, strongest first.
const (
	ByName     = "the call's output names the change"
	ByCreated  = "the call's output names the object it created"
	ByTime     = "same objects, the change's time inside the call"
	ByOrder    = "same objects, the next such call after the previous change's" // lines without a time
	ByTimeOnly = "no common object; the only call running at the change's time"
)

// Attribution is a change of the log with the skill call that made it (nil Call when
// none was found).
type Attribution struct {
	Change  string    `json:"change"`
	At      string    `json:"at,omitempty"`
	By      string    `json:"by,omitempty"` // as the log says
	Skill   string    `json:"skill,omitempty"`
	Objects []string  `json:"objects"`
	Call    *CallView `json:"call"`
	How     string    `json:"how,omitempty"`
}

// Attribute ties each change of the log to the skill call that made it. A change
// goes to at most one call and a call makes at most one change. Calls are taken in
// time order; the entries in log order.
func Attribute(entries []model.LogEntry, calls []CallView, slack time.Duration) []Attribution {
	if slack <= 0 {
		slack = DefaultSlack
	}
	calls = slices.Clone(calls)
	slices.SortStableFunc(calls, func(a, b CallView) int { return a.Start.Compare(b.Start) })
	used := make([]bool, len(calls))
	named := map[string]int{}
	// The calls of each object, in time order: an entry looks only at its objects'.
	byObject := map[string][]int{}
	for i, c := range calls {
		if c.Change != "" {
			if _, dup := named[c.Change]; !dup {
				named[c.Change] = i
			}
		}
		for _, o := range appendNew(slices.Clone(c.Objects), c.Created...) {
			byObject[o] = append(byObject[o], i)
		}
	}
	// candidates lists the calls that name one of objs, in time order.
	candidates := func(objs []string) []int {
		var out []int
		for _, o := range objs {
			out = append(out, byObject[o]...)
		}
		slices.Sort(out)
		return slices.Compact(out)
	}
	out := make([]Attribution, 0, len(entries))
	prev := -1 // the call of the previous attributed change, for lines without time
	for _, e := range entries {
		objs := appendNew(slices.Clone(e.Creation), e.Modification...)
		a := Attribution{Change: e.ID, At: e.At, By: e.By, Skill: e.Skill, Objects: objs}
		at, _ := time.Parse(time.RFC3339Nano, e.At)
		pick, how := -1, ""
		if i, ok := named[e.ID]; ok && !used[i] {
			pick, how = i, ByName
		}
		if pick < 0 && len(e.Creation) > 0 {
			for _, i := range candidates(e.Creation) {
				if c := calls[i]; !used[i] && free(c, e.ID) && overlap(c.Created, e.Creation) {
					pick, how = i, ByCreated
					break
				}
			}
		}
		if pick < 0 {
			best := time.Duration(-1)
			for _, i := range candidates(objs) {
				c := calls[i]
				if used[i] || !free(c, e.ID) {
					continue
				}
				if at.IsZero() {
					if i > prev {
						pick, how = i, ByOrder
						break
					}
					continue
				}
				if d, in := distance(c, at, slack); in && (best < 0 || d < best) {
					pick, how, best = i, ByTime, d
				}
			}
		}
		if pick < 0 && !at.IsZero() {
			// The calls started before the change's time, nearest first, as far back
			// as one call may plausibly run.
			n := 0
			hi, _ := slices.BinarySearchFunc(calls, at.Add(slack), func(c CallView, t time.Time) int {
				if c.Start.After(t) {
					return 1
				}
				return -1
			})
			for i := hi - 1; i >= 0 && at.Sub(calls[i].Start) <= maxCall; i-- {
				c := calls[i]
				if !used[i] && free(c, e.ID) {
					if _, in := distance(c, at, slack); in {
						pick, n = i, n+1
					}
				}
			}
			if n == 1 {
				how = ByTimeOnly
			} else {
				pick = -1
			}
		}
		if pick >= 0 {
			used[pick] = true
			prev = pick
			c := calls[pick]
			a.Call, a.How = &c, how
		}
		out = append(out, a)
	}
	return out
}

// free says whether a call may have made change id: it succeeded and names no other.
func free(c CallView, id string) bool { return !c.IsError && (c.Change == "" || c.Change == id) }

func overlap(a, b []string) bool {
	for _, x := range a {
		if slices.Contains(b, x) {
			return true
		}
	}
	return false
}

// distance is how far t lies outside the call's bracket (0 inside), and whether it
// is within slack. A call still running has an open end.
func distance(c CallView, t time.Time, slack time.Duration) (time.Duration, bool) {
	if c.Start.IsZero() {
		return 0, false
	}
	var d time.Duration
	switch {
	case t.Before(c.Start):
		d = c.Start.Sub(t)
	case !c.End.IsZero() && t.After(c.End):
		d = t.Sub(c.End)
	}
	return d, d <= slack
}
