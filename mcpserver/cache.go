package mcpserver

import (
	"sync"

	"referee/model"
)

// splitCache keeps the sentences tool's latest answers: an answer is worked out from the
// statement alone (its proof text, which a statement settles once read, and its
// version), so while the frame holds the same statement at the same version the answer
// is the one made before. An agent asks for the sentences of the statement it checks
// again and again; splitting a proof and writing its JSON were most of such a call. The
// answers kept are bounded in number and in bytes; a large one is not kept.
type splitCache struct {
	mu    sync.Mutex
	byID  map[string]splitEntry
	order []string // the IDs kept, oldest first
	bytes int
}

type splitEntry struct {
	st      *model.Statement // held, so never another statement at the same address
	version string
	answer  answerJSON
}

const (
	splitCacheEntries = 256
	splitCacheBytes   = 4 << 20
	splitCacheLargest = 256 << 10
)

// get is the answer kept for id, if it was made from st at version.
func (c *splitCache) get(id string, st *model.Statement, version string) (answerJSON, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.byID[id]
	if !ok || e.st != st || e.version != version {
		return answerJSON{}, false
	}
	return e.answer, true
}

// put keeps the answer made for id from st at version, in place of any before it.
func (c *splitCache) put(id string, st *model.Statement, version string, a answerJSON) {
	if len(a.text) > splitCacheLargest {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.byID == nil {
		c.byID = map[string]splitEntry{}
	}
	if old, ok := c.byID[id]; ok {
		c.bytes -= len(old.answer.text)
		delete(c.byID, id)
		for i, k := range c.order {
			if k == id {
				c.order = append(c.order[:i], c.order[i+1:]...)
				break
			}
		}
	}
	for len(c.order) > 0 && (len(c.order) >= splitCacheEntries || c.bytes+len(a.text) > splitCacheBytes) {
		c.bytes -= len(c.byID[c.order[0]].answer.text)
		delete(c.byID, c.order[0])
		c.order = c.order[1:]
	}
	c.byID[id] = splitEntry{st: st, version: version, answer: a}
	c.order = append(c.order, id)
	c.bytes += len(a.text)
}
