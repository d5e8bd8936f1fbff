package store

import (
	"fmt"

	"referee/model"
	"referee/model/pyjson"
)

// ObjectDoc is a problem's, statement's or experience's document as its file holds it
// (`referee show`, the MCP show tool). A missing object is (zero, false, nil); one whose
// file is broken is an error naming the file and what is wrong with it.
func ObjectDoc(snap *model.Snapshot, id string) (pyjson.Value, bool, error) {
	switch {
	case snap.Problems[id] != nil:
		return snap.Problems[id].Doc, true, nil
	case snap.Statements.Get(id) != nil:
		doc, err := snap.Statements.Get(id).Document() // a lean load kept no document
		return doc, err == nil, err
	case snap.Experiences[id] != nil:
		return snap.Experiences[id].Doc, true, nil
	}
	for _, b := range snap.Broken {
		if b.ID == id {
			return pyjson.Value{}, false, fmt.Errorf("%s: %s", b.Path, b.Reason)
		}
	}
	return pyjson.Value{}, false, nil
}
