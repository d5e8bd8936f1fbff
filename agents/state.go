package agents

import "time"

// Facts are what an agent's transcript shows about its state, read line by line.
type Facts struct {
	// Event is the state the last lines set: thinking after a prompt, a result or
	// the agent's text; running while a tool call has no result; waiting after an
	// end_turn (versions that write stop_reason) or an interruption; finished for a
	// subagent whose Task got its result; gone for a deleted transcript.
	Event, Tool string
	// TextLast says the agent's last message was text with no tool call after it.
	TextLast bool
	Subagent bool
	// Last is the newest line's time: of the agent, or of any of its subagents.
	Last time.Time
}

// Decide is an agent's state at now. Claude Code 2.1 writes stop_reason null on
// every line, so the end of a turn is read off the silence after it: an answer
// with no tool call is waiting for the human (a subagent's: finished) once
// WaitAfter has passed; any transcript silent for IdleAfter is idle. Only the
// facts and the clock passed in decide.
func Decide(f Facts, now time.Time) (state, tool string) {
	switch f.Event {
	case StateFinished, StateGone:
		return f.Event, ""
	}
	quiet := time.Duration(0)
	if !f.Last.IsZero() {
		quiet = now.Sub(f.Last)
	}
	switch {
	case quiet >= IdleAfter && f.Subagent && f.Event == StateWaiting:
		return StateFinished, ""
	case quiet >= IdleAfter && f.Event == StateTool:
		// Killed mid-call, or a call that hangs: the call stays in sight.
		return StateIdle, "while running " + f.Tool
	case quiet >= IdleAfter:
		return StateIdle, ""
	case f.Event == StateTool:
		return StateTool, f.Tool
	case f.Event == StateWaiting && f.Subagent:
		return StateFinished, ""
	case f.Event == StateWaiting:
		return StateWaiting, ""
	case f.TextLast && quiet >= WaitAfter && f.Subagent:
		return StateFinished, ""
	case f.TextLast && quiet >= WaitAfter:
		return StateWaiting, ""
	case f.Event == StateStarting:
		return StateStarting, ""
	}
	return StateThinking, ""
}
