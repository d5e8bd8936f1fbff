package mcpserver

import (
	"sync"

	"referee/live"
	"referee/model"
)

// answerCache keeps a read tool's latest answers about statements, with their JSON. The
// sentences of a statement are worked out from the statement alone (its proof text,
// which a statement settles once read) and its version; show's answer from the
// statement (its file at the version the frame read), its version and its phase. So
// while the frame holds the same statement at the same version (and phase) the answer
// is the one made before. An agent asks about the statement it works on again and
// again; splitting a proof, reading the statement's file again and writing the JSON
// twice were most of such a call. The answers kept are bounded in number and in bytes;
// a large one is not kept.
type answerCache struct {
	mu    sync.Mutex
	byID  map[string]cacheEntry
	order []string // the IDs kept, oldest first
	bytes int
}

type cacheEntry struct {
	st      *model.Statement // held, so never another statement at the same address
	version string           // and what else the answer depends on
	answer  answerJSON
}

const (
	answerCacheEntries = 256
	answerCacheBytes   = 8 << 20
	answerCacheLargest = 512 << 10
)

// get is the answer kept for id, if it was made from st at version (and what else
// version carries).
func (c *answerCache) get(id string, st *model.Statement, version string) (answerJSON, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.byID[id]
	if !ok || e.st != st || e.version != version {
		return answerJSON{}, false
	}
	return e.answer, true
}

// put keeps the answer made for id from st at version, in place of any before it.
func (c *answerCache) put(id string, st *model.Statement, version string, a answerJSON) {
	if a.size() > answerCacheLargest {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.byID == nil {
		c.byID = map[string]cacheEntry{}
	}
	if old, ok := c.byID[id]; ok {
		c.bytes -= old.answer.size()
		delete(c.byID, id)
		for i, k := range c.order {
			if k == id {
				c.order = append(c.order[:i], c.order[i+1:]...)
				break
			}
		}
	}
	for len(c.order) > 0 && (len(c.order) >= answerCacheEntries || c.bytes+a.size() > answerCacheBytes) {
		c.bytes -= c.byID[c.order[0]].answer.size()
		delete(c.byID, c.order[0])
		c.order = c.order[1:]
	}
	c.byID[id] = cacheEntry{st: st, version: version, answer: a}
	c.order = append(c.order, id)
	c.bytes += a.size()
}

// size is the bytes an answer keeps.
func (a answerJSON) size() int { return len(a.text) + len(a.result) }

// keep is v as an answer with its JSON (and its result as the SDK writes it), kept for
// id as made from st at version.
func (c *answerCache) keep(id string, st *model.Statement, version string, v any) (any, error) {
	a, err := keptAnswer(v)
	if err != nil {
		return nil, err
	}
	c.put(id, st, version, a)
	return a, nil
}

// keptAnswer is v as an answer to keep: its JSON and its result as the SDK writes it.
func keptAnswer(v any) (answerJSON, error) {
	text, err := encodeJSONText(v)
	if err != nil {
		return answerJSON{}, err
	}
	result, err := resultJSON(text)
	if err != nil {
		return answerJSON{}, err
	}
	return answerJSON{v: v, text: text, result: result}, nil
}

// statusCache keeps the status tool's answers for one frame, by limit: the status of a
// frame is worked out once (engine.statusOf), and its JSON is most of a repeated call.
type statusCache struct {
	mu      sync.Mutex
	frame   *live.Forest
	byLimit map[int]answerJSON
}

// statusLimitsKept bounds the limits kept for a frame (an agent asks with one or two).
const statusLimitsKept = 4

func (c *statusCache) get(f *live.Forest, limit int) (answerJSON, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	a, ok := c.byLimit[limit]
	return a, ok && c.frame == f
}

func (c *statusCache) put(f *live.Forest, limit int, a answerJSON) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.frame != f || len(c.byLimit) >= statusLimitsKept || a.size() > answerCacheLargest {
		c.frame, c.byLimit = f, map[int]answerJSON{}
	}
	if a.size() <= answerCacheLargest {
		c.byLimit[limit] = a
	}
}
