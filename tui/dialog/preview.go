package dialog

import (
	"fmt"
	"referee/mathtext"
	"strconv"
	"strings"

	"referee/model"
	"referee/model/pyjson"
	"referee/skill"
)

// describeNew is one line for an object a change creates.
func describeNew(id string, doc pyjson.Value) string {
	if model.KindOf(id) == model.KindProblem {
		p := model.ProblemFrom(doc)
		return fmt.Sprintf("problem %s (%s): %s", id, p.Status, strconv.Quote(model.SanitizeLine(p.Title())))
	}
	st := model.StatementFrom(doc)
	return fmt.Sprintf("statement %s (%s): %s", id, st.Status, strconv.Quote(model.SanitizeLine(mathtext.Line(st.Claim(), mathtext.Unicode))))
}

// argLines lists a change's exact arguments, as the skill receives them.
func argLines(ch *Change) []string {
	var out []string
	if ch.Skill == nil {
		return nil
	}
	for _, p := range ch.Skill.Params {
		v, ok := ch.Args[p.Name]
		if !ok {
			continue
		}
		var s string
		switch x := v.(type) {
		case string:
			s = strconv.Quote(model.SanitizeLine(x))
		case []string:
			var qs []string
			for _, it := range x {
				qs = append(qs, strconv.Quote(model.SanitizeLine(it)))
			}
			s = "[" + strings.Join(qs, ", ") + "]"
		case int:
			s = strconv.Itoa(x)
		case []skill.SubStatement:
			var qs []string
			for _, sub := range x {
				qs = append(qs, fmt.Sprintf("{claim: %q, premises: %d}", model.SanitizeLine(sub.Claim), len(sub.Premises)))
			}
			s = "[" + strings.Join(qs, ", ") + "]"
		default:
			s = model.SanitizeLine(fmt.Sprint(x))
		}
		out = append(out, "--"+p.Flag()+" "+s)
	}
	return out
}
