package skill

import (
	"regexp"
	"strings"

	"referee/model"
	"referee/model/pyjson"
)

// The helpers the skills' effects share: edits of an object's document, numbering, and
// the texts of notes.

func appendStr(doc *pyjson.Value, key, s string) {
	if v, ok := doc.Get(key); ok && v.Kind == pyjson.Array {
		v.Arr = append(v.Arr, pyjson.Str(s))
		return
	}
	doc.Set(key, pyjson.Strs([]string{s}))
}

func setIn(doc *pyjson.Value, outer, key string, v pyjson.Value) {
	o, ok := doc.Get(outer)
	if !ok || o.Kind != pyjson.Object {
		doc.Set(outer, pyjson.Obj())
		o, _ = doc.Get(outer)
	}
	o.Set(key, v)
}

func appendIn(doc *pyjson.Value, outer, key, s string) {
	o, ok := doc.Get(outer)
	if !ok || o.Kind != pyjson.Object {
		doc.Set(outer, pyjson.Obj())
		o, _ = doc.Get(outer)
	}
	appendStr(o, key, s)
}

func statusOf(doc *pyjson.Value) string {
	if v, ok := doc.Get("status"); ok && v.Kind == pyjson.String {
		return v.Str
	}
	return ""
}

func nextNumber(items []string, parse func(string) int) int {
	n := len(items)
	for _, it := range items {
		n = max(n, parse(it))
	}
	return n + 1
}

func nextResponse(st *model.Statement) int {
	return nextNumber(st.Responses, func(s string) int { return model.ParseResponse(s).Number })
}

// stepPattern finds the "Step N:" paragraphs the PROOF note counts, as the conformance
// data's Python does: its \d is any decimal digit (Step ١:, Step ２:), Go's only 0-9.
var stepPattern = regexp.MustCompile(`(?m)^[ \t]*Step[ \t]+\p{Nd}+[ \t]*:`)

var strategyWords = map[string]string{
	"direct": "Direct", "contradiction": "Contradiction", "case_analysis": "Case analysis", "backward": "Backward",
}

func modificationText(a Args) string {
	var parts []string
	if a.Has("suggested_claim") {
		parts = append(parts, "Claim: "+a.Str("suggested_claim"))
	}
	if a.Has("suggested_premises") {
		parts = append(parts, "Premises: "+strings.Join(a.List("suggested_premises"), "; "))
	}
	if len(parts) == 0 {
		return "No new wording given"
	}
	return strings.Join(parts, "; ")
}

// ConfirmDirection is what check-confirm-proof will do with a statement: the direction
// given, else the one its proof's opening states (model.ReadDirection). When the opening
// does not tell, it is "" and why says so: the call needs a direction then.
func ConfirmDirection(st *model.Statement, a Args) (direction, why string) {
	if d := a.Str("direction"); d != "" {
		return d, ""
	}
	if st == nil {
		return "", "the statement does not exist"
	}
	text, err := st.Proof.Text()
	if err != nil {
		return "", "its proof is not text (" + err.Error() + ")"
	}
	return model.ReadDirection(text)
}

// The decisions decide-modification takes.
const (
	DecisionAccept  = "accept"
	DecisionFalse   = "false"
	DecisionAbandon = "abandon"
)

// Decisions are decide-modification's decisions.
var Decisions = []string{DecisionAccept, DecisionFalse, DecisionAbandon}

// decidedBy says how a proposal was settled: the statement's status and its last note.
func decidedBy(st *model.Statement, p model.Proposal) string {
	out := st.ID + " is " + st.Status
	if p.Index < len(st.Progresses)-1 {
		out += " (" + st.Progresses[len(st.Progresses)-1] + ")"
	}
	return out
}

// replacePreliminary puts nid where old stood in a statement's preliminaries (a
// "(old) text" item keeps its text), or appends it when old is not there.
func replacePreliminary(doc *pyjson.Value, old, nid string) {
	if v, ok := doc.Get("preliminaries"); ok && v.Kind == pyjson.Array {
		for i := range v.Arr {
			if it := &v.Arr[i]; it.Kind == pyjson.String {
				if ref, ok := model.RefID(it.Str); ok && ref == old {
					if it.Str == old {
						it.Str = nid
					} else {
						it.Str = "(" + nid + ")" + strings.TrimPrefix(it.Str, "("+old+")")
					}
					return
				}
			}
		}
	}
	appendStr(doc, "preliminaries", nid)
}
