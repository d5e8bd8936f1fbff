package store

import "referee/model"

// Status is what `referee status --output json` prints and the MCP status tool returns:
// what the orchestrator would run next, the status counts and the trouble spots.
type Status struct {
	Vocabulary    string            `json:"vocabulary"`
	Next          []StatusNext      `json:"next"`
	Counts        map[string]int    `json:"counts"`
	ProblemCounts map[string]int    `json:"problem_counts"`
	Stale         map[string]string `json:"stale"`
	Orphans       []string          `json:"orphans"`
	Unreachable   []string          `json:"unreachable"`
	Dangling      []StatusDangling  `json:"dangling"`
	Cycles        [][]string        `json:"cycles"`
	Unknown       map[string]string `json:"unknown"`
	Broken        int               `json:"broken"`
}

// StatusNext is one piece of work the orchestrator would hand out.
type StatusNext struct {
	ID     string `json:"id"`
	Agent  string `json:"agent"`
	Depth  int    `json:"depth"`
	Blocks int    `json:"blocks"` // model.BlockingOf(...).Score: how much of the root it holds up
}

// StatusDangling is a reference to an object that does not exist.
type StatusDangling struct {
	From string `json:"from"`
	To   string `json:"to"`
	Kind string `json:"kind"`
}

// StatusOf works the status out from a snapshot and its derived graph.
func StatusOf(snap *model.Snapshot, g *model.Graph) *Status {
	st := &Status{
		Vocabulary: snap.Vocab.String(), Next: []StatusNext{}, Counts: g.Counts, ProblemCounts: g.ProblemCounts,
		Stale: g.Stale.Map(), Orphans: nonNil(g.Orphans), Unreachable: nonNil(g.Unreachable), Dangling: []StatusDangling{},
		Cycles: g.Cycles, Unknown: map[string]string{}, Broken: len(snap.Broken),
	}
	if st.Cycles == nil {
		st.Cycles = [][]string{}
	}
	next, blocks := model.NextWithScores(snap, g) // the scores once, for the order and the figures
	st.Next = make([]StatusNext, 0, len(next))
	for i, act := range next {
		st.Next = append(st.Next, StatusNext{ID: act.ID, Agent: act.Agent, Depth: act.Depth, Blocks: blocks[i]})
	}
	for _, e := range g.Dangling {
		st.Dangling = append(st.Dangling, StatusDangling{From: e.From, To: e.To, Kind: e.Kind.String()})
	}
	for _, id := range g.Unknown {
		st.Unknown[id] = ObjectStatus(snap, id)
	}
	return st
}

// ObjectStatus is the status word of a problem or statement, "" if there is none.
func ObjectStatus(snap *model.Snapshot, id string) string {
	if p := snap.Problems[id]; p != nil {
		return p.Status
	}
	if s := snap.Statements.Get(id); s != nil {
		return s.Status
	}
	return ""
}
