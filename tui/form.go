package tui

import (
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"referee/themes"
)

type fieldKind uint8

const (
	fieldText   fieldKind = iota
	fieldNumber           // a whole number from 1 up
	fieldChoice           // one of choices, cycled with ←/→
	fieldList             // several texts separated by ";"
)

// field is one input of a form.
type field struct {
	name     string // the skill parameter
	label    string
	kind     fieldKind
	required bool
	choices  []string
	choice   int
	input    textinput.Model
	hint     string
}

// FormKeyMap is a form's keys.
type FormKeyMap struct {
	Next, Prev, Submit, Cancel, Left, Right key.Binding
}

// DefaultFormKeyMap returns the form keys.
func DefaultFormKeyMap() FormKeyMap {
	return FormKeyMap{
		Next:   key.NewBinding(key.WithKeys("tab", "down"), key.WithHelp("tab", "next field")),
		Prev:   key.NewBinding(key.WithKeys("shift+tab", "up"), key.WithHelp("shift+tab", "previous field")),
		Submit: key.NewBinding(key.WithKeys("ctrl+s"), key.WithHelp("ctrl+s", "review the change")),
		Cancel: key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel")),
		Left:   key.NewBinding(key.WithKeys("left"), key.WithHelp("←/→", "choose")),
		Right:  key.NewBinding(key.WithKeys("right")),
	}
}

// Form collects a skill's parameters. Enter moves to the next field and, on the last,
// submits; the submitted values go to a confirmation, never straight to disk.
type Form struct {
	title  string
	about  string
	fields []field
	focus  int
	err    string
	width  int
	keys   FormKeyMap
	submit func(vals map[string]any) tea.Cmd
	// change is the change the form fills in; note is shown above the fields (why it
	// was reopened: a conflict, and the new version).
	change *change
	note   []string
}

func newForm(title, about string) *Form {
	return &Form{title: title, about: about, keys: DefaultFormKeyMap()}
}

func (f *Form) add(fl field) *Form {
	if fl.kind != fieldChoice {
		in := newInput(true)
		in.Prompt = ""
		in.CharLimit = 0
		fl.input = in
	}
	f.fields = append(f.fields, fl)
	return f
}

func (f *Form) text(name, label, value string, required bool) *Form {
	f.add(field{name: name, label: label, kind: fieldText, required: required})
	f.fields[len(f.fields)-1].input.SetValue(value)
	return f
}

func (f *Form) list(name, label, value string, required bool) *Form {
	f.add(field{name: name, label: label, kind: fieldList, required: required, hint: "separate items with ;"})
	f.fields[len(f.fields)-1].input.SetValue(value)
	return f
}

func (f *Form) number(name, label string, value int, required bool) *Form {
	f.add(field{name: name, label: label, kind: fieldNumber, required: required})
	if value > 0 {
		f.fields[len(f.fields)-1].input.SetValue(strconv.Itoa(value))
	}
	return f
}

func (f *Form) choose(name, label string, choices []string, value string) *Form {
	c := 0
	for i, ch := range choices {
		if ch == value {
			c = i
		}
	}
	return f.add(field{name: name, label: label, kind: fieldChoice, choices: choices, choice: c, required: true})
}

// setDark restyles the inputs for the background.
func (f *Form) setDark(dark bool) {
	for i := range f.fields {
		if f.fields[i].kind != fieldChoice {
			f.fields[i].input.SetStyles(inputStyles(dark))
		}
	}
}

// newInput is a text input with a steady (non-blinking) cursor: no timer runs while
// the reviewer reads, and what is on screen does not depend on when it was drawn.
func newInput(dark bool) textinput.Model {
	in := textinput.New()
	in.SetStyles(inputStyles(dark))
	return in
}

func inputStyles(dark bool) textinput.Styles {
	st := textinput.DefaultStyles(dark)
	st.Cursor.Blink = false
	return st
}

// SetWidth sets the form's inner width.
func (f *Form) SetWidth(w int) {
	f.width = max(w, 10)
	for i := range f.fields {
		if f.fields[i].kind != fieldChoice {
			f.fields[i].input.SetWidth(max(f.width-4, 4))
		}
	}
}

// Focus focuses the first field that is empty (or the first).
func (f *Form) Focus() tea.Cmd {
	f.focus = 0
	for i, fl := range f.fields {
		if fl.kind != fieldChoice && fl.input.Value() == "" && fl.required {
			f.focus = i
			break
		}
	}
	return f.focusCmd()
}

func (f *Form) focusCmd() tea.Cmd {
	var cmd tea.Cmd
	for i := range f.fields {
		if f.fields[i].kind == fieldChoice {
			continue
		}
		if i == f.focus {
			cmd = f.fields[i].input.Focus()
		} else {
			f.fields[i].input.Blur()
		}
	}
	return cmd
}

// Value reads a field's value.
func (f *Form) Value(name string) string {
	for _, fl := range f.fields {
		if fl.name == name {
			if fl.kind == fieldChoice {
				return fl.choices[fl.choice]
			}
			return strings.TrimSpace(fl.input.Value())
		}
	}
	return ""
}

// values checks and collects the form: strings, []string for lists, int for numbers.
func (f *Form) values() (map[string]any, string) {
	out := map[string]any{}
	for _, fl := range f.fields {
		switch fl.kind {
		case fieldChoice:
			out[fl.name] = fl.choices[fl.choice]
		case fieldNumber:
			v := strings.TrimSpace(fl.input.Value())
			if v == "" {
				if fl.required {
					return nil, fl.label + " is required"
				}
				continue
			}
			n, err := strconv.Atoi(v)
			if err != nil || n < 1 {
				return nil, fl.label + ": a whole number from 1 up"
			}
			out[fl.name] = n
		case fieldList:
			var items []string
			for it := range strings.SplitSeq(fl.input.Value(), ";") {
				if it = strings.TrimSpace(it); it != "" {
					items = append(items, it)
				}
			}
			if len(items) == 0 {
				if fl.required {
					return nil, fl.label + " is required"
				}
				continue
			}
			out[fl.name] = items
		default:
			v := strings.TrimSpace(fl.input.Value())
			if v == "" {
				if fl.required {
					return nil, fl.label + " is required"
				}
				continue
			}
			out[fl.name] = v
		}
	}
	return out, ""
}

// Update handles a key; done reports that the form closed (cancelled or submitted).
func (f *Form) Update(msg tea.Msg) (cmd tea.Cmd, done bool) {
	km, isKey := msg.(tea.KeyPressMsg)
	if !isKey {
		if f.focus < len(f.fields) && f.fields[f.focus].kind != fieldChoice {
			f.fields[f.focus].input, cmd = f.fields[f.focus].input.Update(msg)
		}
		return cmd, false
	}
	cur := &f.fields[f.focus]
	switch {
	case key.Matches(km, f.keys.Cancel):
		return nil, true
	case key.Matches(km, f.keys.Submit):
		return f.trySubmit()
	case km.String() == "enter":
		if f.focus == len(f.fields)-1 {
			return f.trySubmit()
		}
		f.focus++
		return f.focusCmd(), false
	case key.Matches(km, f.keys.Next):
		f.focus = (f.focus + 1) % len(f.fields)
		return f.focusCmd(), false
	case key.Matches(km, f.keys.Prev):
		f.focus = (f.focus + len(f.fields) - 1) % len(f.fields)
		return f.focusCmd(), false
	case cur.kind == fieldChoice && (key.Matches(km, f.keys.Left) || km.String() == "h" || km.String() == "k"):
		cur.choice = (cur.choice + len(cur.choices) - 1) % len(cur.choices)
		return nil, false
	case cur.kind == fieldChoice && (key.Matches(km, f.keys.Right) || km.String() == "l" || km.String() == "j" || km.String() == "space"):
		cur.choice = (cur.choice + 1) % len(cur.choices)
		return nil, false
	}
	if cur.kind != fieldChoice {
		cur.input, cmd = cur.input.Update(msg)
	}
	return cmd, false
}

func (f *Form) trySubmit() (tea.Cmd, bool) {
	vals, problem := f.values()
	if problem != "" {
		f.err = problem
		return nil, false
	}
	return f.submit(vals), true
}

// View renders the form's body (the dialog frame is drawn by the caller).
func (f *Form) View(st *themes.Styles) []string {
	var lines []string
	for _, n := range f.note {
		lines = append(lines, wrapLines(st.Warn, n, f.width)...)
	}
	if len(f.note) > 0 {
		lines = append(lines, "")
	}
	if f.about != "" {
		lines = append(lines, wrapLines(st.Muted, f.about, f.width)...)
		lines = append(lines, "")
	}
	for i, fl := range f.fields {
		label := fl.label
		if fl.required {
			label += " *"
		}
		if fl.hint != "" {
			label += st.Faint.Render("  (" + fl.hint + ")")
		}
		marker := "  "
		if i == f.focus {
			marker = st.Accent.Render("▸ ")
			label = st.Bold.Render(label)
		} else {
			label = st.Muted.Render(label)
		}
		lines = append(lines, marker+label)
		if fl.kind == fieldChoice {
			var opts []string
			for j, c := range fl.choices {
				if j == fl.choice {
					opts = append(opts, st.Cursor.Render(" "+c+" "))
				} else {
					opts = append(opts, st.Muted.Render(" "+c+" "))
				}
			}
			lines = append(lines, wrapJoin(opts, f.width-4, "    ")...)
		} else {
			lines = append(lines, "    "+fl.input.View())
		}
	}
	lines = append(lines, "")
	if f.err != "" {
		lines = append(lines, st.Error.Render("⚠ "+f.err))
	}
	lines = append(lines, st.Faint.Render("enter next field · ctrl+s review · esc cancel · ←/→ choose"))
	return lines
}
