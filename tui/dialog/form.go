package dialog

import (
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textarea"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"referee/cells"
	"referee/model"
	"referee/skill"
	"referee/themes"
	"referee/tui/common"
)

type fieldKind uint8

const (
	fieldText   fieldKind = iota
	fieldNumber           // a whole number from 1 up
	fieldChoice           // one of choices, cycled with ←/→
	fieldList             // several texts, one a line
	fieldLong             // a text of several lines
)

// field is one input of a form.
type field struct {
	name     string // the skill parameter
	label    string
	kind     fieldKind
	required bool
	choices  []string
	choice   int
	input    textinput.Model // text and number fields
	area     textarea.Model  // list and long fields
	hint     string
}

func (fl *field) multiline() bool { return fl.kind == fieldList || fl.kind == fieldLong }

func (fl *field) value() string {
	switch fl.kind {
	case fieldChoice:
		return fl.choices[fl.choice]
	case fieldList, fieldLong:
		return fl.area.Value()
	}
	return fl.input.Value()
}

func (fl *field) setValue(v string) {
	switch fl.kind {
	case fieldChoice:
		for i, c := range fl.choices {
			if c == v {
				fl.choice = i
			}
		}
	case fieldList, fieldLong:
		fl.area.SetValue(v)
	default:
		fl.input.SetValue(v)
	}
}

// FormKeyMap is a form's keys.
type FormKeyMap struct {
	Next, Prev, Submit, Cancel, Left, Right, NewLine, Editor key.Binding
}

// DefaultFormKeyMap returns the form keys.
func DefaultFormKeyMap() FormKeyMap {
	return FormKeyMap{
		Next:    key.NewBinding(key.WithKeys("tab", "down", "enter"), key.WithHelp("tab/enter", "next field (the last: review the change)")),
		Prev:    key.NewBinding(key.WithKeys("shift+tab", "up"), key.WithHelp("shift+tab", "previous field")),
		Submit:  key.NewBinding(key.WithKeys("ctrl+s"), key.WithHelp("ctrl+s", "review the change")),
		Cancel:  key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel")),
		Left:    key.NewBinding(key.WithKeys("left"), key.WithHelp("←", "a choice: the previous one (h, k too)")),
		Right:   key.NewBinding(key.WithKeys("right"), key.WithHelp("→", "a choice: the next one (l, j, space too)")),
		NewLine: key.NewBinding(key.WithKeys("ctrl+j", "alt+enter"), key.WithHelp("ctrl+j", "new line (a list: a new item) in a multi-line field")),
		Editor:  key.NewBinding(key.WithKeys("ctrl+e"), key.WithHelp("ctrl+e", "edit the field in $EDITOR")),
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
	// Warn says a field disagrees with another (the R form's number and quote).
	Warn   string
	width  int
	height int // lines the body may take; the form scrolls to keep the focused field in view
	offset int
	keys   FormKeyMap
	dark   bool
	// Submit takes the values of a form that checks out: the change's confirmation.
	Submit func(vals map[string]any) tea.Cmd
	// Changed runs after a field's value changed by a key (keeps fields in step).
	Changed func(f *Form, name string)
	// Change is the change the form fills in; Note is shown above the fields (why it
	// was reopened: a conflict, and the new version).
	Change *Change
	Note   []string
	Editor string // the $EDITOR override (Options.Editor)
	Typed  bool   // a field was changed by a key: worth keeping as a draft

	// NoEditor is why ctrl+e runs no editor (over SSH it would run on the server).
	NoEditor string
}

// NewForm is an empty form; FieldFor adds its fields.
func NewForm(title, about string) *Form {
	return &Form{title: title, about: about, keys: DefaultFormKeyMap(), dark: true}
}

func (f *Form) add(fl field) *Form {
	switch fl.kind {
	case fieldChoice:
	case fieldList, fieldLong:
		ta := textarea.New()
		ta.Prompt = "│ "
		ta.ShowLineNumbers = fl.kind == fieldList
		ta.CharLimit = 0
		ta.MaxHeight = 0
		ta.SetHeight(3)
		ta.KeyMap.InsertNewline = f.keys.NewLine
		ta.SetStyles(areaStyles(f.dark))
		fl.area = ta
	default:
		in := NewInput(f.dark)
		in.Prompt = ""
		in.CharLimit = 0
		fl.input = in
	}
	f.fields = append(f.fields, fl)
	return f
}

// FieldFor adds the field of a skill parameter: its kind from the parameter's (a list
// one item a line; a long text several lines; an enum a choice), its label from the
// parameter's help.
func (f *Form) FieldFor(p skill.Param, value string) *Form {
	fl := field{name: p.Name, label: labelOf(p), required: p.Required}
	switch {
	case len(p.Enum) > 0:
		fl.kind, fl.choices, fl.required = fieldChoice, p.Enum, true
	case p.Kind == skill.ParamInt:
		fl.kind = fieldNumber
	case p.Kind == skill.ParamStrings || p.Kind == skill.ParamIDs:
		fl.kind, fl.hint = fieldList, "one a line; ctrl+j adds a line"
	case p.Long:
		fl.kind, fl.hint = fieldLong, "ctrl+j new line · ctrl+e $EDITOR"
	default:
		fl.kind = fieldText
	}
	f.add(fl)
	f.fields[len(f.fields)-1].setValue(value)
	return f
}

// labelOf is a parameter's label: its help, with a capital.
func labelOf(p skill.Param) string {
	h := p.Help
	if h == "" {
		h = strings.ReplaceAll(p.Name, "_", " ")
	}
	return strings.ToUpper(h[:1]) + h[1:]
}

// SetDark restyles the inputs for the background.
func (f *Form) SetDark(dark bool) {
	f.dark = dark
	for i := range f.fields {
		switch f.fields[i].kind {
		case fieldChoice:
		case fieldList, fieldLong:
			f.fields[i].area.SetStyles(areaStyles(dark))
		default:
			f.fields[i].input.SetStyles(InputStyles(dark))
		}
	}
}

// NewInput is a text input with a steady (non-blinking) cursor: no timer runs while
// the reviewer reads, and what is on screen does not depend on when it was drawn.
func NewInput(dark bool) textinput.Model {
	in := textinput.New()
	in.SetStyles(InputStyles(dark))
	return in
}

// InputStyles are a text input's styles for the background, with a steady cursor.
func InputStyles(dark bool) textinput.Styles {
	st := textinput.DefaultStyles(dark)
	st.Cursor.Blink = false
	return st
}

func areaStyles(dark bool) textarea.Styles {
	st := textarea.DefaultStyles(dark)
	st.Cursor.Blink = false
	return st
}

// SetWidth sets the form's inner width.
func (f *Form) SetWidth(w int) {
	f.width = max(w, 10)
	for i := range f.fields {
		switch f.fields[i].kind {
		case fieldChoice:
		case fieldList, fieldLong:
			f.fields[i].area.SetWidth(max(f.width-4, 4))
		default:
			f.fields[i].input.SetWidth(max(f.width-4, 4))
		}
	}
}

// Focus focuses the first field that is empty (or the first).
func (f *Form) Focus() tea.Cmd {
	f.focus = 0
	for i, fl := range f.fields {
		if fl.kind != fieldChoice && strings.TrimSpace(fl.value()) == "" && fl.required {
			f.focus = i
			break
		}
	}
	return f.focusCmd()
}

func (f *Form) focusCmd() tea.Cmd {
	var cmd tea.Cmd
	for i := range f.fields {
		fl := &f.fields[i]
		if fl.multiline() {
			// The focused text shows more of itself; the others a line or two.
			lines := 0
			for l := range strings.SplitSeq(fl.area.Value(), "\n") {
				lines += strings.Count(cells.Wrap(l, max(fl.area.Width()-1, 4), " "), "\n") + 1
			}
			if i == f.focus {
				fl.area.SetHeight(min(max(lines+1, 3), 8))
			} else {
				fl.area.SetHeight(min(lines, 3))
			}
		}
		switch {
		case fl.kind == fieldChoice:
		case i == f.focus && fl.multiline():
			cmd = fl.area.Focus()
		case i == f.focus:
			cmd = fl.input.Focus()
		case fl.multiline():
			fl.area.Blur()
		default:
			fl.input.Blur()
		}
	}
	return cmd
}

func (f *Form) field(name string) *field {
	for i := range f.fields {
		if f.fields[i].name == name {
			return &f.fields[i]
		}
	}
	return nil
}

// Value reads a field's value.
func (f *Form) Value(name string) string {
	if fl := f.field(name); fl != nil {
		return strings.TrimSpace(fl.value())
	}
	return ""
}

// SetValue sets a field's value (prefills, and fields kept in step).
func (f *Form) SetValue(name, v string) {
	if fl := f.field(name); fl != nil {
		fl.setValue(v)
	}
}

// values checks and collects the form: strings, []string for lists, int for numbers.
func (f *Form) values() (map[string]any, string) {
	out := map[string]any{}
	for _, fl := range f.fields {
		v := strings.TrimSpace(fl.value())
		if fl.kind == fieldList {
			var items []string
			for it := range strings.SplitSeq(fl.value(), "\n") {
				if it = strings.TrimSpace(it); it != "" {
					items = append(items, it)
				}
			}
			if len(items) > 0 {
				out[fl.name] = items
				continue
			}
			v = ""
		}
		if v == "" {
			if fl.required {
				return nil, fl.label + " is required"
			}
			continue
		}
		switch fl.kind {
		case fieldNumber:
			n, err := strconv.Atoi(v)
			if err != nil || n < 1 {
				return nil, fl.label + ": a whole number from 1 up"
			}
			out[fl.name] = n
		case fieldLong:
			out[fl.name] = strings.TrimRight(fl.value(), "\n ")
		default:
			out[fl.name] = v
		}
	}
	return out, ""
}

// FormEditedMsg brings a field's text back from $EDITOR; the workbench puts it in with
// Edited.
type FormEditedMsg struct {
	Form  *Form
	Field string
	Text  string
	Err   error
}

// editField opens $EDITOR on the focused text field: the temporary file is written in
// a command, and read back when the editor exits.
func (f *Form) editField() tea.Cmd {
	fl := &f.fields[f.focus]
	if fl.kind == fieldChoice || fl.kind == fieldNumber {
		return nil
	}
	text, name, argv := fl.value(), fl.name, EditorArgv(f.Editor)
	if f.NoEditor != "" {
		f.err = f.NoEditor
		return nil
	}
	return func() tea.Msg {
		tmp, err := os.CreateTemp("", "referee-field-*.md")
		if err != nil {
			return FormEditedMsg{Form: f, Field: name, Err: err}
		}
		_, werr := tmp.WriteString(text)
		if cerr := tmp.Close(); werr == nil {
			werr = cerr
		}
		if werr != nil {
			_ = os.Remove(tmp.Name())
			return FormEditedMsg{Form: f, Field: name, Err: werr}
		}
		path := tmp.Name()
		return tea.ExecProcess(exec.Command(argv[0], append(argv[1:], path)...), func(err error) tea.Msg {
			data, rerr := os.ReadFile(path)
			_ = os.Remove(path)
			if err == nil {
				err = rerr
			}
			return FormEditedMsg{Form: f, Field: name, Text: strings.TrimRight(string(data), "\n"), Err: err}
		})()
	}
}

// FormDoneMsg says the form closed: submitted, or cancelled (its draft is then kept).
type FormDoneMsg struct{ Cancelled bool }

// Update takes a key, or what the focused field's editor wants (the cursor's blink);
// it answers FormDoneMsg when the form closes.
func (f *Form) Update(_ common.Common, msg tea.Msg) (tea.Cmd, tea.Msg) {
	cmd, done := f.handle(msg)
	if !done {
		return cmd, nil
	}
	km, _ := msg.(tea.KeyPressMsg)
	return cmd, FormDoneMsg{Cancelled: key.Matches(km, f.keys.Cancel)}
}

// handle is Update; done reports that the form closed (cancelled or submitted).
func (f *Form) handle(msg tea.Msg) (cmd tea.Cmd, done bool) {
	km, isKey := msg.(tea.KeyPressMsg)
	cur := &f.fields[f.focus]
	if !isKey {
		switch {
		case cur.kind == fieldChoice:
		case cur.multiline():
			cur.area, cmd = cur.area.Update(msg)
		default:
			cur.input, cmd = cur.input.Update(msg)
		}
		return cmd, false
	}
	// In a multi-line field, up and down move between its lines until its first or last.
	inArea := cur.multiline() && ((km.String() == "up" && cur.area.Line() > 0) || (km.String() == "down" && cur.area.Line() < cur.area.LineCount()-1))
	switch {
	case key.Matches(km, f.keys.Cancel):
		return nil, true
	case key.Matches(km, f.keys.Submit):
		return f.trySubmit()
	case key.Matches(km, f.keys.Editor):
		return f.editField(), false
	case km.String() == "enter" && f.focus == len(f.fields)-1:
		return f.trySubmit()
	case key.Matches(km, f.keys.Next) && !inArea:
		f.focus = (f.focus + 1) % len(f.fields)
		return f.focusCmd(), false
	case key.Matches(km, f.keys.Prev) && !inArea:
		f.focus = (f.focus + len(f.fields) - 1) % len(f.fields)
		return f.focusCmd(), false
	case cur.kind == fieldChoice && (key.Matches(km, f.keys.Left) || km.String() == "h" || km.String() == "k"):
		cur.choice = (cur.choice + len(cur.choices) - 1) % len(cur.choices)
		return nil, false
	case cur.kind == fieldChoice && (key.Matches(km, f.keys.Right) || km.String() == "l" || km.String() == "j" || km.String() == "space"):
		cur.choice = (cur.choice + 1) % len(cur.choices)
		return nil, false
	}
	before := cur.value()
	switch {
	case cur.kind == fieldChoice:
	case cur.multiline():
		cur.area, cmd = cur.area.Update(msg)
	default:
		cur.input, cmd = cur.input.Update(msg)
	}
	if cur.value() != before {
		f.Typed = true
		if f.Changed != nil {
			f.Changed(f, cur.name)
		}
	}
	return cmd, false
}

func (f *Form) trySubmit() (tea.Cmd, bool) {
	vals, problem := f.values()
	if problem != "" {
		f.err = problem
		return nil, false
	}
	f.err = ""
	return f.Submit(vals), true
}

// Title is the form's title.
func (f *Form) Title() string { return f.title }

// Err is what the last submit found wrong ("" when nothing).
func (f *Form) Err() string { return f.err }

// Edited puts a field's text from $EDITOR in, keeping the fields in step.
func (f *Form) Edited(name, text string) {
	f.SetValue(name, text)
	if f.Changed != nil {
		f.Changed(f, name)
	}
}

// SetSize sets the form's inner width and how many lines its body may take.
func (f *Form) SetSize(w, h int) {
	f.SetWidth(w)
	f.SetHeight(h)
}

// SetHeight sets how many lines the body may take.
func (f *Form) SetHeight(h int) { f.height = max(h, 4) }

// View renders the form's body (the dialog frame is drawn by the caller): a window
// that keeps the focused field in view, saying what is above and below.
func (f *Form) View(com common.Common) []string {
	st := com.Styles
	lines, from, to := f.lines(st)
	foot := lines[len(lines)-1]
	lines = lines[:len(lines)-1]
	win := f.height - 2
	if f.height <= 0 || len(lines) <= win+1 {
		return append(lines, foot)
	}
	if from < f.offset {
		f.offset = from
	}
	if to >= f.offset+win {
		f.offset = to - win + 1
	}
	f.offset = min(max(f.offset, 0), max(len(lines)-win, 0))
	end := min(f.offset+win, len(lines))
	out := append([]string{}, lines[f.offset:end]...)
	var more []string
	if f.offset > 0 {
		more = append(more, fmt.Sprintf("↑ %d more", f.offset))
	}
	if end < len(lines) {
		more = append(more, fmt.Sprintf("↓ %d more", len(lines)-end))
	}
	return append(out, st.Accent.Render(strings.Join(more, " · ")), foot)
}

// lines are every line of the form, the first and last line of the focused field, and
// the key hint last.
func (f *Form) lines(st *themes.Styles) (lines []string, from, to int) {
	for _, n := range f.Note {
		lines = append(lines, WrapLines(st.Warn, model.SanitizeLine(n), f.width)...)
	}
	if len(f.Note) > 0 {
		lines = append(lines, "")
	}
	if f.about != "" {
		lines = append(lines, WrapLines(st.Muted, f.about, f.width)...)
		lines = append(lines, "")
	}
	for i, fl := range f.fields {
		label := fl.label
		if fl.required {
			label += " *"
		}
		marker := "  "
		if i == f.focus {
			marker = st.Accent.Render("▸ ")
			label = st.Bold.Render(label)
		} else {
			label = st.Muted.Render(label)
		}
		if fl.hint != "" && i == f.focus {
			label += st.Faint.Render("  (" + fl.hint + ")")
		}
		if i == f.focus {
			from = len(lines)
		}
		lines = append(lines, marker+label)
		switch {
		case fl.kind == fieldChoice:
			var opts []string
			for j, c := range fl.choices {
				if j == fl.choice {
					opts = append(opts, st.Cursor.Render(" "+c+" "))
				} else {
					opts = append(opts, st.Muted.Render(" "+c+" "))
				}
			}
			lines = append(lines, WrapJoin(opts, f.width-4, "    ")...)
		case fl.multiline():
			for l := range strings.SplitSeq(fl.area.View(), "\n") {
				lines = append(lines, "    "+l)
			}
		default:
			lines = append(lines, "    "+fl.input.View())
		}
		if i == f.focus {
			to = len(lines) - 1
		}
	}
	lines = append(lines, "")
	if f.Warn != "" {
		lines = append(lines, WrapLines(st.Warn, "⚠ "+f.Warn, f.width)...)
	}
	if f.err != "" {
		lines = append(lines, st.Error.Render("⚠ "+f.err))
	}
	if f.Warn != "" || f.err != "" {
		to = len(lines) - 1 // a warning is read with the field
	}
	lines = append(lines, st.Faint.Render("enter next · ctrl+s review · esc cancel · ←/→ choose · ctrl+e $EDITOR"))
	return lines, from, to
}

// SetErr sets what the form says is wrong ("" clears it).
func (f *Form) SetErr(s string) { f.err = s }

// FocusField focuses the i-th field.
func (f *Form) FocusField(i int) tea.Cmd {
	f.focus = min(max(i, 0), len(f.fields)-1)
	return f.focusCmd()
}

// FieldKind is the kind of the field of a parameter ("text", "number", "choice",
// "list", "long") and its label; ok is false when the form has no such field.
func (f *Form) FieldKind(name string) (kind, label string, ok bool) {
	fl := f.field(name)
	if fl == nil {
		return "", "", false
	}
	return [...]string{fieldText: "text", fieldNumber: "number", fieldChoice: "choice", fieldList: "list", fieldLong: "long"}[fl.kind], fl.label, true
}

// KeyMap is the form's keys, as help lists them.
func (f *Form) KeyMap() []key.Binding {
	k := f.keys
	return []key.Binding{k.Next, k.Prev, k.Left, k.Right, k.NewLine, k.Editor, k.Submit, k.Cancel}
}
