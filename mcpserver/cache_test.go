package mcpserver

import (
	"fmt"
	"strings"
	"testing"

	"referee/model"
)

// The answers kept are bounded in number and bytes, oldest out first; a large one is
// not kept, and one asked for another statement or version is not found.
func TestAnswerCacheBounds(t *testing.T) {
	var c answerCache
	st, other := &model.Statement{ID: "s-001"}, &model.Statement{ID: "s-001"}
	c.put("s-001", st, "v1", answerJSON{text: "a"})
	for _, miss := range []struct {
		st      *model.Statement
		version string
	}{{other, "v1"}, {st, "v2"}} {
		if _, ok := c.get("s-001", miss.st, miss.version); ok {
			t.Errorf("found for %p at %s", miss.st, miss.version)
		}
	}
	if a, ok := c.get("s-001", st, "v1"); !ok || a.text != "a" {
		t.Errorf("get = %q, %v", a.text, ok)
	}
	c.put("s-001", st, "v2", answerJSON{text: "bb"})
	if len(c.order) != 1 || c.bytes != 2 {
		t.Errorf("replaced: %d kept, %d bytes", len(c.order), c.bytes)
	}
	c.put("s-002", st, "v1", answerJSON{text: strings.Repeat("x", answerCacheLargest+1)})
	if _, ok := c.get("s-002", st, "v1"); ok {
		t.Error("a large answer was kept")
	}
	for i := range answerCacheEntries + 10 {
		c.put(fmt.Sprintf("s-%04d", i), st, "v", answerJSON{text: "c"})
	}
	if len(c.order) != answerCacheEntries || len(c.byID) != answerCacheEntries {
		t.Errorf("%d, %d kept; want %d", len(c.order), len(c.byID), answerCacheEntries)
	}
	if _, ok := c.get("s-0000", st, "v"); ok {
		t.Error("the oldest is still kept")
	}
	big := strings.Repeat("y", answerCacheLargest)
	for i := range 2 * answerCacheBytes / answerCacheLargest {
		c.put(fmt.Sprintf("b-%d", i), st, "v", answerJSON{text: big})
	}
	if c.bytes > answerCacheBytes {
		t.Errorf("%d bytes kept, over %d", c.bytes, answerCacheBytes)
	}
	if _, ok := c.get(fmt.Sprintf("b-%d", 2*answerCacheBytes/answerCacheLargest-1), st, "v"); !ok {
		t.Error("the newest is not kept")
	}
}
