package dialog

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"referee/cells"
	"referee/themes"
	"referee/tui/common"
)

// Entry is one line of help or of the palette.
type Entry struct {
	Group    string
	Key      string
	Title    string
	Desc     string
	Disabled string // why it cannot run now ("" when it can)
	Mutating bool   // it writes (a change): marked
	Run      func() tea.Cmd
}

// PickerKeyMap is the keys of help and the palette.
type PickerKeyMap struct {
	Up, Down, PageUp, PageDown, Run, Close key.Binding
}

// DefaultPickerKeyMap returns the keys of help and the palette (letters go to the
// filter, so moving is on the arrows, the page keys and ctrl+n/ctrl+p).
func DefaultPickerKeyMap() PickerKeyMap {
	return PickerKeyMap{
		Up:       key.NewBinding(key.WithKeys("up", "ctrl+p"), key.WithHelp("↑", "up (help: scroll)")),
		Down:     key.NewBinding(key.WithKeys("down", "ctrl+n"), key.WithHelp("↓", "down (help: scroll)")),
		PageUp:   key.NewBinding(key.WithKeys("pgup", "ctrl+u"), key.WithHelp("pgup", "page up")),
		PageDown: key.NewBinding(key.WithKeys("pgdown", "ctrl+d"), key.WithHelp("pgdn", "page down")),
		Run:      key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "palette: run the command")),
		Close:    key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "close")),
	}
}

// Picker is a filterable list: the help screen (?) and the command palette (:). The
// palette has a cursor; help scrolls by line. Both say how much is above and below.
type Picker struct {
	title   string
	all     []Entry
	shown   []Entry
	filter  textinput.Model
	cursor  int
	offset  int // first line shown
	width   int
	height  int
	canRun  bool
	keys    PickerKeyMap
	closeOn string // a key that closes when the filter is empty ("?")
}

// NewPicker is a picker of entries: canRun makes it the palette (enter runs the entry
// under the cursor); closeOn is a key that closes it while the filter is empty.
func NewPicker(title string, entries []Entry, canRun bool, closeOn string) *Picker {
	in := NewInput(true)
	in.Prompt = "filter: "
	in.Placeholder = "type to filter"
	p := &Picker{title: title, all: entries, filter: in, canRun: canRun, keys: DefaultPickerKeyMap(), closeOn: closeOn}
	p.apply()
	return p
}

func (p *Picker) apply() {
	words := strings.Fields(strings.ToLower(p.filter.Value()))
	p.shown = p.shown[:0]
	for _, e := range p.all {
		hay := strings.ToLower(e.Key + " " + e.Title + " " + e.Desc + " " + e.Group)
		ok := true
		for _, w := range words {
			if !strings.Contains(hay, w) {
				ok = false
				break
			}
		}
		if ok {
			p.shown = append(p.shown, e)
		}
	}
	p.cursor = min(p.cursor, max(len(p.shown)-1, 0))
	p.offset = 0
}

// SetSize sets the inner size of the overlay.
func (p *Picker) SetSize(w, h int) {
	p.width, p.height = max(w, 10), max(h, 3)
	p.filter.SetWidth(max(p.width-12, 4))
}

// window is how many list lines fit between the filter and the hint line.
func (p *Picker) window() int { return max(p.height-3, 1) }

// PickerDoneMsg says the picker closed (the command of the entry run, if any, comes
// with it).
type PickerDoneMsg struct{}

// Update takes a key, or what the filter wants (the cursor's blink); it answers
// PickerDoneMsg when the picker closes, with the command of the entry run.
func (p *Picker) Update(_ common.Common, msg tea.Msg) (tea.Cmd, tea.Msg) {
	cmd, done := p.handle(msg)
	if done {
		return cmd, PickerDoneMsg{}
	}
	return cmd, nil
}

// handle is Update; done reports that the picker closed, with the command to run.
func (p *Picker) handle(msg tea.Msg) (tea.Cmd, bool) {
	km, ok := msg.(tea.KeyPressMsg)
	if !ok {
		var cmd tea.Cmd
		p.filter, cmd = p.filter.Update(msg)
		return cmd, false
	}
	step := 0
	switch {
	case key.Matches(km, p.keys.Close), p.closeOn != "" && km.String() == p.closeOn && p.filter.Value() == "":
		return nil, true
	case key.Matches(km, p.keys.Up):
		step = -1
	case key.Matches(km, p.keys.Down):
		step = 1
	case key.Matches(km, p.keys.PageUp):
		step = -max(p.window()-1, 1)
	case key.Matches(km, p.keys.PageDown):
		step = max(p.window()-1, 1)
	case key.Matches(km, p.keys.Run):
		if !p.canRun {
			return nil, true
		}
		if p.cursor < len(p.shown) {
			e := p.shown[p.cursor]
			if e.Run != nil {
				return e.Run(), true
			}
		}
		return nil, true
	default:
		var cmd tea.Cmd
		p.filter, cmd = p.filter.Update(msg)
		p.apply()
		return cmd, false
	}
	if p.canRun {
		p.cursor = min(max(p.cursor+step, 0), max(len(p.shown)-1, 0))
	} else {
		p.offset += step // clamped by View, which knows the lines
	}
	return nil, false
}

// lines renders every shown entry (group headings, then one line per entry and one
// for its disabled reason) and the line of each entry.
func (p *Picker) lines(st *themes.Styles) (out []string, at []int) {
	group := ""
	for i, e := range p.shown {
		if e.Group != group && e.Group != "" {
			group = e.Group
			out = append(out, st.Heading.Render(group))
		}
		at = append(at, len(out))
		k := e.Key
		if k == "" {
			k = "·"
		}
		kcell := st.StatusKey.Render(padRight(k, 6))
		title := e.Title
		if e.Mutating {
			title = st.Danger.Render("✎ ") + title
		}
		head := kcell + " " + title
		if e.Desc != "" {
			head += st.Muted.Render("  " + e.Desc)
		}
		head = cells.Truncate(head, p.width, "…")
		if p.canRun && i == p.cursor {
			head = st.Selected.Render(padRight(ansi.Strip(head), p.width))
		}
		out = append(out, head)
		if e.Disabled != "" {
			out = append(out, cells.Truncate("       "+st.Faint.Render("⊘ "+e.Disabled), p.width, "…"))
		}
	}
	return out, at
}

// View renders the picker's body lines: the filter, a window of the list, and a hint
// line that says how many lines are above and below the window.
func (p *Picker) View(com common.Common) []string {
	st := com.Styles
	all, at := p.lines(st)
	win := p.window()
	if p.canRun && p.cursor < len(at) {
		if at[p.cursor] < p.offset {
			p.offset = at[p.cursor]
		}
		if last := at[p.cursor] + 1; last >= p.offset+win {
			p.offset = last - win + 1
		}
	}
	p.offset = min(max(p.offset, 0), max(len(all)-win, 0))
	lines := []string{p.filter.View(), ""}
	end := min(p.offset+win, len(all))
	lines = append(lines, all[p.offset:end]...)
	if len(p.shown) == 0 {
		lines = append(lines, st.Muted.Render("nothing matches"))
	}
	for len(lines) < p.height-1 {
		lines = append(lines, "")
	}
	hint := "type to filter · ↑/↓ pgup/pgdn scroll · esc close"
	if p.canRun {
		hint = "type to filter · ↑/↓ choose · enter run · esc close"
	}
	var more []string
	if p.offset > 0 {
		more = append(more, fmt.Sprintf("↑ %d more", p.offset))
	}
	if below := len(all) - end; below > 0 {
		more = append(more, fmt.Sprintf("↓ %d more", below))
	}
	if len(more) > 0 {
		hint = st.Accent.Render(strings.Join(more, " · ")) + st.Faint.Render(" · "+hint)
	} else {
		hint = st.Faint.Render(hint)
	}
	lines = append(lines, cells.Truncate(hint, p.width, "…"))
	return lines
}

func padRight(s string, w int) string {
	if d := w - cells.Width(s); d > 0 {
		return s + strings.Repeat(" ", d)
	}
	return s
}

// Title is the picker's title.
func (p *Picker) Title() string { return p.title }

// All is every entry.
func (p *Picker) All() []Entry { return p.all }

// Shown is the entries the filter lets through.
func (p *Picker) Shown() []Entry { return p.shown }

// Focus styles the filter for the background and focuses it.
func (p *Picker) Focus(dark bool) tea.Cmd {
	p.filter.SetStyles(InputStyles(dark))
	return p.filter.Focus()
}

// KeyMap is the picker's keys, as help lists them (letters go to the filter, so it moves
// by the arrows and the page keys, not by the navigation keys).
func (p *Picker) KeyMap() []key.Binding {
	k := DefaultPickerKeyMap()
	return []key.Binding{k.Down, k.Up, k.PageDown, k.PageUp, k.Run, k.Close}
}
