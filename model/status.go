package model

// Two status vocabularies are in use (FORMAT.md "Statuses"): the seed-era one (P013)
// and the later one (P014). Both map onto one set of meanings, the Phase.

// Vocab is a status vocabulary.
type Vocab uint8

const (
	VocabUnknown Vocab = iota
	P013
	P014
)

func (v Vocab) String() string {
	switch v {
	case P013:
		return "P013"
	case P014:
		return "P014"
	}
	return "unknown"
}

// Phase is what a status means for review, independent of vocabulary.
type Phase uint8

const (
	PhaseUnknown       Phase = iota // a status neither vocabulary knows
	PhaseNeedsProof                 // pending
	PhaseAwaitingCheck              // proof submitted, waiting for the checker
	PhaseHasGap                     // checker found a gap, waiting for the fixer
	PhaseAwaitingSubs               // waiting for its sub-statements
	PhaseNeedsDecision              // a change to the claim was proposed
	PhaseValidating                 // P014 "validating" before the counts decide
	PhaseProved                     // true
	PhaseRefuted                    // false
	PhaseAbandoned                  // out of scope
	PhaseProblemOpen                // unresolved
	PhaseProblemSolved              // solved / resolved
)

var phaseWords = [...]string{
	PhaseUnknown:       "unknown",
	PhaseNeedsProof:    "needs proof",
	PhaseAwaitingCheck: "awaiting check",
	PhaseHasGap:        "has gap",
	PhaseAwaitingSubs:  "awaiting subs",
	PhaseNeedsDecision: "needs decision",
	PhaseValidating:    "validating",
	PhaseProved:        "proved",
	PhaseRefuted:       "refuted",
	PhaseAbandoned:     "abandoned",
	PhaseProblemOpen:   "open",
	PhaseProblemSolved: "solved",
}

func (p Phase) String() string {
	if int(p) < len(phaseWords) {
		return phaseWords[p]
	}
	return "unknown"
}

// Open reports whether work remains on an object in this phase.
func (p Phase) Open() bool {
	switch p {
	case PhaseNeedsProof, PhaseAwaitingCheck, PhaseHasGap, PhaseAwaitingSubs, PhaseNeedsDecision, PhaseValidating, PhaseProblemOpen:
		return true
	}
	return false
}

// Decided reports whether a statement's fate is settled (true, false or abandoned).
func (p Phase) Decided() bool {
	return p == PhaseProved || p == PhaseRefuted || p == PhaseAbandoned
}

// StatusInfo maps a raw status to its phase and the vocabulary it proves (VocabUnknown
// when both use the word). known is false for a status neither vocabulary has.
func StatusInfo(status string) (phase Phase, vocab Vocab, known bool) {
	switch status {
	case "pending":
		return PhaseNeedsProof, VocabUnknown, true
	case "awaiting_verification":
		return PhaseAwaitingCheck, P013, true
	case "has_gap":
		return PhaseHasGap, P013, true
	case "awaiting_substatements", "awaiting_substatement":
		return PhaseAwaitingSubs, P013, true
	case "needs_modification":
		return PhaseNeedsDecision, P013, true
	case "validating":
		return PhaseValidating, P014, true
	case "true":
		return PhaseProved, VocabUnknown, true
	case "false":
		return PhaseRefuted, VocabUnknown, true
	case "abandoned":
		return PhaseAbandoned, P014, true
	case "unresolved":
		return PhaseProblemOpen, VocabUnknown, true
	case "solved":
		return PhaseProblemSolved, P013, true
	case "resolved":
		return PhaseProblemSolved, P014, true
	}
	return PhaseUnknown, VocabUnknown, false
}

// ProblemPhase maps a problem status; the plan's "pending" also means open.
func ProblemPhase(status string) Phase {
	if status == "pending" {
		return PhaseProblemOpen
	}
	p, _, _ := StatusInfo(status)
	return p
}

// StatusWord is the status a skill writes for a meaning, in a vocabulary.
func StatusWord(p Phase, v Vocab) string {
	switch p {
	case PhaseNeedsProof:
		return "pending"
	case PhaseAwaitingCheck:
		if v == P014 {
			return "validating"
		}
		return "awaiting_verification"
	case PhaseHasGap:
		if v == P014 {
			return "validating"
		}
		return "has_gap"
	case PhaseAwaitingSubs:
		if v == P014 {
			return "validating"
		}
		return "awaiting_substatements"
	case PhaseNeedsDecision:
		if v == P014 {
			return "validating"
		}
		return "needs_modification"
	case PhaseProved:
		return "true"
	case PhaseRefuted:
		return "false"
	case PhaseAbandoned:
		return "abandoned"
	case PhaseProblemOpen:
		return "unresolved"
	case PhaseProblemSolved:
		if v == P014 {
			return "resolved"
		}
		return "solved"
	}
	return ""
}

// Agents the orchestrator dispatches.
const (
	AgentSolve = "agent-solve"
	AgentProve = "agent-prove"
	AgentCheck = "agent-check"
	AgentFix   = "agent-fix"
	AgentHuman = "human" // a proposed modification waits for a decision
)
