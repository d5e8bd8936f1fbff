package tui

import (
	"fmt"
	"strconv"
	"strings"

	"referee/model"
	"referee/store"
)

// preview says what a change will write, field by field, in the words the agents' files
// use. It is the store's own dry run (store.Plan: the same preconditions and effects as
// the write, on the files as they are now), so the confirmation cannot drift from what y
// writes; the store checks everything again under its lock when y is pressed.
func (m *Model) preview(ch *change) []string {
	plan, err := store.Plan(m.dir, ch.skill, ch.args, store.Options{Actor: m.actor, ExpectVersion: ch.version})
	if err != nil {
		return []string{"nothing can be written: " + reason(err)}
	}
	q := func(v *model.Value) string {
		if v.Kind == model.String && (len(v.Str) > 72 || strings.Contains(v.Str, "\n")) {
			return fmt.Sprintf("(%d characters)", len(v.Str))
		}
		return model.SanitizeLine(string(model.EncodeLine(*v)))
	}
	var out []string
	for _, o := range plan.Objects {
		if o.New {
			out = append(out, "new "+describeNew(o.ID, o.After))
			continue
		}
		for _, c := range model.DiffFields(o.Before, o.After) {
			switch {
			case c.Appended != nil:
				for i := range c.Appended {
					out = append(out, fmt.Sprintf("%s %s += %s", o.ID, c.Path, q(&c.Appended[i])))
				}
			case c.New == nil:
				out = append(out, fmt.Sprintf("%s %s removed", o.ID, c.Path))
			case c.Old == nil:
				out = append(out, fmt.Sprintf("%s %s: %s", o.ID, c.Path, q(c.New)))
			default:
				out = append(out, fmt.Sprintf("%s %s: %s → %s", o.ID, c.Path, q(c.Old), q(c.New)))
			}
		}
	}
	if len(plan.Modified) > 0 {
		out = append(out, fmt.Sprintf("backup %s in history/%s/", strings.Join(plan.Modified, ", "), plan.Change))
	}
	out = append(out, fmt.Sprintf("log %s %s by %s", plan.Change, plan.Skill, plan.Actor))
	for _, n := range plan.Notes {
		out = append(out, "note: "+n)
	}
	return out
}

// describeNew is one line for an object a change creates.
func describeNew(id string, doc model.Value) string {
	if model.KindOf(id) == model.KindProblem {
		p := model.ProblemFrom(doc)
		return fmt.Sprintf("problem %s (%s): %s", id, p.Status, strconv.Quote(model.SanitizeLine(p.Title())))
	}
	st := model.StatementFrom(doc)
	return fmt.Sprintf("statement %s (%s): %s", id, st.Status, strconv.Quote(model.SanitizeLine(st.Claim())))
}

// argLines lists a change's exact arguments, as the skill receives them.
func argLines(ch *change) []string {
	var out []string
	if ch.skill == nil {
		return nil
	}
	for _, p := range ch.skill.Params {
		v, ok := ch.args[p.Name]
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
		case []store.SubStatement:
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
