package tui

import (
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"referee/themes"
)

// entry is one line of help or of the palette.
type entry struct {
	group    string
	key      string
	title    string
	desc     string
	disabled string
	mutating bool
	run      func() tea.Cmd
}

// PickerKeyMap is the keys of help and the palette.
type PickerKeyMap struct {
	Up, Down, Run, Close key.Binding
}

// DefaultPickerKeyMap returns the keys of help and the palette.
func DefaultPickerKeyMap() PickerKeyMap {
	return PickerKeyMap{
		Up:    key.NewBinding(key.WithKeys("up", "ctrl+p"), key.WithHelp("↑", "up")),
		Down:  key.NewBinding(key.WithKeys("down", "ctrl+n"), key.WithHelp("↓", "down")),
		Run:   key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "run")),
		Close: key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "close")),
	}
}

// Picker is a filterable list: the help screen (?) and the command palette (:).
type Picker struct {
	title   string
	all     []entry
	shown   []entry
	filter  textinput.Model
	cursor  int
	offset  int
	width   int
	height  int
	canRun  bool
	keys    PickerKeyMap
	closeOn string // a key that closes when the filter is empty ("?")
}

func newPicker(title string, entries []entry, canRun bool, closeOn string) *Picker {
	in := newInput(true)
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
		hay := strings.ToLower(e.key + " " + e.title + " " + e.desc + " " + e.group)
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
}

// SetSize sets the inner size of the overlay.
func (p *Picker) SetSize(w, h int) {
	p.width, p.height = max(w, 10), max(h, 3)
	p.filter.SetWidth(max(p.width-12, 4))
}

// Update handles a key; done reports that the picker closed, with the command to run.
func (p *Picker) Update(msg tea.Msg) (tea.Cmd, bool) {
	km, ok := msg.(tea.KeyPressMsg)
	if !ok {
		var cmd tea.Cmd
		p.filter, cmd = p.filter.Update(msg)
		return cmd, false
	}
	switch {
	case key.Matches(km, p.keys.Close), p.closeOn != "" && km.String() == p.closeOn && p.filter.Value() == "":
		return nil, true
	case key.Matches(km, p.keys.Up):
		p.cursor = max(p.cursor-1, 0)
		return nil, false
	case key.Matches(km, p.keys.Down):
		p.cursor = min(p.cursor+1, max(len(p.shown)-1, 0))
		return nil, false
	case key.Matches(km, p.keys.Run):
		if !p.canRun {
			return nil, true
		}
		if p.cursor < len(p.shown) {
			e := p.shown[p.cursor]
			if e.run != nil {
				return e.run(), true
			}
		}
		return nil, true
	}
	var cmd tea.Cmd
	p.filter, cmd = p.filter.Update(msg)
	p.apply()
	return cmd, false
}

// View renders the picker's body lines.
func (p *Picker) View(st *themes.Styles) []string {
	lines := []string{p.filter.View(), ""}
	avail := max(p.height-len(lines)-1, 1)
	rowsPer := 2
	visible := max(avail/rowsPer, 1)
	if p.cursor < p.offset {
		p.offset = p.cursor
	}
	if p.cursor >= p.offset+visible {
		p.offset = p.cursor - visible + 1
	}
	group := ""
	for i := p.offset; i < len(p.shown) && len(lines) < p.height-1; i++ {
		e := p.shown[i]
		if e.group != group && e.group != "" {
			group = e.group
			lines = append(lines, st.Heading.Render(group))
		}
		k := e.key
		if k == "" {
			k = "·"
		}
		kcell := st.StatusKey.Render(padRight(k, 6))
		title := e.title
		if e.mutating {
			title = st.Danger.Render("✎ ") + title
		}
		sel := p.canRun && i == p.cursor
		head := kcell + " " + title
		if e.desc != "" {
			head += st.Muted.Render("  " + e.desc)
		}
		head = ansi.Truncate(head, p.width, "…")
		if sel {
			head = st.Selected.Render(padRight(ansi.Strip(head), p.width))
		}
		lines = append(lines, head)
		if e.disabled != "" {
			lines = append(lines, ansi.Truncate("       "+st.Faint.Render("⊘ "+e.disabled), p.width, "…"))
		}
	}
	if len(p.shown) == 0 {
		lines = append(lines, st.Muted.Render("nothing matches"))
	}
	hint := "type to filter · esc close"
	if p.canRun {
		hint = "type to filter · ↑/↓ choose · enter run · esc close"
	}
	for len(lines) < p.height-1 {
		lines = append(lines, "")
	}
	lines = append(lines, st.Faint.Render(hint))
	return lines
}

func padRight(s string, w int) string {
	if d := w - ansi.StringWidth(s); d > 0 {
		return s + strings.Repeat(" ", d)
	}
	return s
}
