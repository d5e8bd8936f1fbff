package model

import (
	"fmt"
	"strings"
	"time"
)

// DefaultStallAfter is how long a live run may show no change while the agents have
// work before it counts as stalled: longer than one agent's slowest step (a long proof
// with retries takes minutes), short enough to catch a dead orchestrator within a break.
const DefaultStallAfter = 15 * time.Minute

// Stall is the verdict of the stall alarm.
type Stall struct {
	Stalled bool          `json:"stalled"`
	Idle    time.Duration `json:"idle_ns"` // since the last change seen
	// Waiting is the actionable work the agents could do (the orchestrator's order),
	// leaving out what waits for a human decision.
	Waiting []Action `json:"waiting"`
	Reason  string   `json:"reason"`
	// TranscriptIdle is how long the agents' session transcripts have been silent,
	// when they were read (WithTranscripts).
	TranscriptIdle time.Duration `json:"transcript_idle_ns,omitempty"`

	waiting int // how many items Waiting lists, or would (StallOf leaves it empty)
}

// waitingCount is how much actionable work the agents could do.
func (st Stall) waitingCount() int { return max(st.waiting, len(st.Waiting)) }

// WithTranscripts adds the agents' session transcripts to the verdict: an agent that
// is thinking writes lines long before it changes anything, so transcripts that are
// active clear a quiet log, and transcripts silent for at least after raise the alarm
// while work is actionable, however recent the last change. lastLine is the newest
// transcript line's time (zero: no transcript seen, the verdict stands); who names its
// agent.
func (st Stall) WithTranscripts(lastLine time.Time, who string, now time.Time, after time.Duration) Stall {
	if lastLine.IsZero() {
		return st
	}
	if after <= 0 {
		after = DefaultStallAfter
	}
	st.TranscriptIdle = max(now.Sub(lastLine), 0)
	quiet := fmt.Sprintf("the last transcript line was %s ago (%s)", st.TranscriptIdle.Round(time.Second), who)
	switch {
	case st.waitingCount() == 0:
		st.Reason += "; " + quiet
	case st.TranscriptIdle < after && st.Stalled:
		st.Stalled = false
		st.Reason = fmt.Sprintf("not stalled: the log is quiet but the agents are working: %s, under %s; %d actionable",
			quiet, after, st.waitingCount())
	case st.TranscriptIdle >= after && !st.Stalled:
		st.Stalled = true
		st.Reason = fmt.Sprintf("stalled: the transcripts fell silent: %s, at least %s, while %d item(s) are actionable (%s)",
			quiet, after, st.waitingCount(), st.Reason)
	default:
		st.Reason += "; " + quiet
	}
	return st
}

// CheckStall decides whether a run is stalled: nothing changed (the log, the state
// files — whatever last is) for at least after, while the agents have actionable work.
// lastWhat names what changed last, for the reason. A zero last means nothing was ever
// seen to change, which counts as idle since forever.
func CheckStall(g *Graph, last time.Time, lastWhat string, now time.Time, after time.Duration) Stall {
	st := StallOf(g, last, lastWhat, now, after)
	st.Waiting = make([]Action, 0, st.waiting)
	for a := range g.Actionable.All() {
		if a.Agent != AgentHuman {
			st.Waiting = append(st.Waiting, a)
		}
	}
	return st
}

// StallOf is CheckStall's verdict without its list of the work waiting (Waiting stays
// empty; the reason counts it and names the first items): the workbench asks it every
// poll, and at 100k statements the list was megabytes each time.
func StallOf(g *Graph, last time.Time, lastWhat string, now time.Time, after time.Duration) Stall {
	if after <= 0 {
		after = DefaultStallAfter
	}
	st := Stall{Waiting: []Action{}}
	st.waiting = g.Actionable.Len() - g.Actionable.Humans()
	// The first waiting items, which a stalled reason names; the decisions that wait for
	// a human only when the agents have nothing (the reason names them then). The walk
	// stops there: asked every few seconds, it must not cost every action.
	var human []string
	var first []Action
	for a := range g.Actionable.All() {
		if a.Agent == AgentHuman {
			if st.waiting == 0 {
				human = append(human, a.ID)
			}
			continue
		}
		if first = append(first, a); len(first) == 3 {
			break
		}
	}
	since := "never changed"
	if !last.IsZero() {
		st.Idle = max(now.Sub(last), 0)
		since = fmt.Sprintf("last change %s ago (%s)", st.Idle.Round(time.Second), lastWhat)
	}
	switch {
	case st.waitingCount() == 0 && len(human) > 0:
		st.Reason = fmt.Sprintf("not stalled: the agents have nothing to do; %s wait for a human decision; %s",
			strings.Join(human, ", "), since)
	case st.waitingCount() == 0:
		st.Reason = "not stalled: nothing is actionable; " + since
	case !last.IsZero() && st.Idle < after:
		st.Reason = fmt.Sprintf("not stalled: %s, under %s; %d actionable", since, after, st.waitingCount())
	default:
		st.Stalled = true
		var items []string
		for _, a := range first {
			items = append(items, a.Agent+" "+a.ID)
		}
		if st.waiting > len(first) {
			items = append(items, fmt.Sprintf("and %d more", st.waiting-len(first)))
		}
		what := fmt.Sprintf("nothing changed for %s (%s)", st.Idle.Round(time.Second), lastWhat)
		if last.IsZero() {
			what = "nothing was ever seen to change"
		}
		st.Reason = fmt.Sprintf("stalled: %s, at least %s, while %d item(s) are actionable: %s",
			what, after, st.waitingCount(), strings.Join(items, ", "))
	}
	return st
}
