package views

import (
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"

	"referee/cells"
	"referee/model"
	"referee/themes"
)

// ActivityEntry is one change as the activity pane lists it: the log line's own actor
// and skill, or the guesses (Guessed*) for the agents' lines, which carry neither.
type ActivityEntry struct {
	ID, At, Actor, Skill       string
	ActorGuessed, SkillGuessed bool
	Reverts, Err               string
	Objects                    []model.ObjectChange
	// Agent is the session agent whose skill call made the change ("agent-check
	// a3f1a17"), from the transcripts; empty when unknown.
	Agent string
	// Unread says the change's objects are still being read: its line alone is shown.
	Unread bool
}

// ActivityHeader is a change's first row: ID, time, actor, skill (a guess marked "~"),
// how many objects it touched. shown marks the change time travel shows.
func ActivityHeader(st *themes.Styles, e ActivityEntry, width int, shown bool) string {
	parts := []string{st.ID.Render(model.SanitizeLine(e.ID))}
	parts = append(parts, st.Muted.Render(shortTime(e.At)))
	actor := orDash(model.SanitizeLine(e.Actor))
	if e.ActorGuessed {
		actor = "~" + actor
	}
	parts = append(parts, st.Accent.Render(actor))
	skill := orDash(model.SanitizeLine(e.Skill))
	if e.SkillGuessed {
		skill = "~" + skill
	}
	parts = append(parts, st.Base.Render(skill))
	if e.Agent != "" {
		parts = append(parts, st.Faint.Render("⚙ "+model.SanitizeLine(e.Agent)))
	}
	if e.Reverts != "" {
		parts = append(parts, st.Warn.Render("reverts "+model.SanitizeLine(e.Reverts)))
	}
	if e.Err != "" {
		parts = append(parts, st.Error.Render("⚠ line does not parse"))
	}
	if e.Unread {
		parts = append(parts, st.Faint.Render("reading its objects…"))
	}
	line := strings.Join(parts, " ")
	if shown {
		line = st.Warn.Render("◷ ") + line
	}
	return fitLine(line, width)
}

// ActivityObject is one object a change touched: "+ s-008 ○ pending" (created),
// "✎ s-007 ○ pending → ◌ validating +PROOF" (modified), "− s-017 was ○ pending"
// (deleted). A status the backups could not tell is "?".
func ActivityObject(st *themes.Styles, oc model.ObjectChange, width int) string {
	id := st.ID.Render(model.SanitizeLine(oc.ID))
	var s string
	switch oc.Action {
	case model.Created:
		s = st.Status(model.PhaseProved).Render("+") + " " + id + " " + statusBadge(st, oc.ID, oc.To)
	case model.Deleted:
		s = st.Error.Render("−") + " " + id + " " + st.Muted.Render("was") + " " + statusBadge(st, oc.ID, oc.From)
	default:
		s = st.Accent.Render("✎") + " " + id + " "
		if oc.From != oc.To {
			s += statusBadge(st, oc.ID, oc.From) + st.Muted.Render(" → ") + statusBadge(st, oc.ID, oc.To)
		} else {
			s += statusBadge(st, oc.ID, oc.To)
			if len(oc.Fields) > 0 {
				s += " " + st.Faint.Render("("+model.SanitizeLine(strings.Join(oc.Fields, ", "))+")")
			}
		}
	}
	for _, n := range oc.Notes {
		if tag := model.ParseProgress(n).Tag; tag != "" {
			s += " " + st.Warn.Render("+"+strings.ReplaceAll(tag, " ", "_"))
		} else if rid, ok := model.RefID(n); ok {
			s += " " + st.Faint.Render("+"+rid)
		}
	}
	if oc.Unknown != "" {
		s += " " + st.Warn.Render("(incomplete: a backup is missing or broken)")
	}
	if oc.Outside != "" {
		s += " " + st.Warn.Render("⚠ "+oc.OutsideText())
	}
	return fitLine("  "+s, width)
}

// ActivityMore stands for the objects of a change not listed.
func ActivityMore(st *themes.Styles, n, width int) string {
	return fitLine(st.Faint.Render(fmt.Sprintf("  … and %d more (referee log lists them all)", n)), width)
}

// SelectLine paints a row as selected (reverse video when the pane has the focus).
func SelectLine(st *themes.Styles, line string, width int, selected, focused bool) string {
	if !selected {
		return line
	}
	plain := ansi.Strip(line)
	if pad := width - cells.Width(plain); pad > 0 {
		plain += strings.Repeat(" ", pad)
	}
	if focused {
		return st.Selected.Render(plain)
	}
	return st.SelectedBlur.Render(plain)
}

// statusBadge is a status word as a badge, read as a problem's or a statement's status.
func statusBadge(st *themes.Styles, id, status string) string {
	if status == "" {
		return st.Faint.Render("?")
	}
	ph, _, _ := model.StatusInfo(status)
	if model.KindOf(id) == model.KindProblem {
		ph = model.ProblemPhase(status)
	}
	return st.Badge(ph, status, 0)
}

// shortTime is an RFC 3339 time as "11-20 09:04" in the zone it was written in; the
// agents' own lines carry none ("—").
func shortTime(at string) string {
	if at == "" {
		return "—"
	}
	t, err := time.Parse(time.RFC3339, at)
	if err != nil {
		return model.SanitizeLine(at)
	}
	return t.Format("01-02 15:04")
}

func orDash(s string) string {
	if s == "" {
		return "—"
	}
	return s
}

// fitLine cuts a styled line to width cells.
func fitLine(s string, width int) string {
	if width <= 0 {
		return ""
	}
	if cells.Width(s) > width {
		return cells.Truncate(s, width, "…")
	}
	return s
}
