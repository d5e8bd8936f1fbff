package tui

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	tea "charm.land/bubbletea/v2"

	"referee/cells"
	"referee/model"
	"referee/themes"
	"referee/tui/dialog"
)

// Together (referee serve): the people at the workbenches on one folder are a Room;
// each workbench has a Seat in it. A workbench says where its person is (the statement
// under the tree cursor) and what they are doing (a form open on a statement) after
// each message, and hears of the others' changes in a command (listenRoom), so it
// draws their names in the status bar, a marker on the statement each is on, and the
// full list on @. A viewer's seat is read only: every mutating key is disabled with
// that reason.

// Room is the people connected to one folder.
type Room struct {
	mu    sync.Mutex
	seats []*Seat
	next  int
}

// NewRoom is an empty room.
func NewRoom() *Room { return &Room{} }

// Seat is one person's place in a Room.
type Seat struct {
	room     *Room
	id       int
	Name     string // who changes are recorded as
	ReadOnly bool   // a viewer: nothing is written from this seat
	changed  chan struct{}

	// Guarded by room.mu.
	at, doing string
	left      bool
}

// Presence is what a person shows the others.
type Presence struct {
	Name     string
	ReadOnly bool
	At       string // the statement (or problem) under their tree cursor
	Doing    string // e.g. "writing a reject on s-015"; "" when only looking
}

// Join seats a person (name: sanitized for display by the caller's terminal, kept as
// given for the log).
func (r *Room) Join(name string, readOnly bool) *Seat {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.next++
	s := &Seat{room: r, id: r.next, Name: name, ReadOnly: readOnly, changed: make(chan struct{}, 1)}
	s.changed <- struct{}{} // the first listen hears who is here already
	r.seats = append(r.seats, s)
	r.notifyLocked(s)
	return s
}

// notifyLocked tells every seat but from that something changed; it never blocks.
func (r *Room) notifyLocked(from *Seat) {
	for _, o := range r.seats {
		if o != from {
			select {
			case o.changed <- struct{}{}:
			default:
			}
		}
	}
}

// People is everyone in the room, in the order they came.
func (r *Room) People() []Presence {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]Presence, 0, len(r.seats))
	for _, s := range r.seats {
		out = append(out, Presence{Name: s.Name, ReadOnly: s.ReadOnly, At: s.at, Doing: s.doing})
	}
	return out
}

// Leave takes the seat out of the room; it may be called more than once.
func (s *Seat) Leave() {
	r := s.room
	r.mu.Lock()
	defer r.mu.Unlock()
	if s.left {
		return
	}
	s.left = true
	r.seats = slices.DeleteFunc(r.seats, func(o *Seat) bool { return o == s })
	r.notifyLocked(s)
	close(s.changed)
}

// Set says where the person is and what they do; the others hear of it only when it
// changed.
func (s *Seat) Set(at, doing string) {
	r := s.room
	r.mu.Lock()
	defer r.mu.Unlock()
	if s.left || s.at == at && s.doing == doing {
		return
	}
	s.at, s.doing = at, doing
	r.notifyLocked(s)
}

// Others is everyone else in the room, in the order they came.
func (s *Seat) Others() []Presence {
	r := s.room
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []Presence
	for _, o := range r.seats {
		if o != s {
			out = append(out, Presence{Name: o.Name, ReadOnly: o.ReadOnly, At: o.at, Doing: o.doing})
		}
	}
	return out
}

// roomMsg says someone in the room came, left, moved or opened a form.
type roomMsg struct {
	others []Presence
	left   bool // this seat left: no more news
}

// listenRoom waits for news of the others (none without a seat).
func (m presence) listenRoom() tea.Cmd {
	s := m.env.opts.Seat
	if s == nil {
		return nil
	}
	return func() tea.Msg {
		if _, ok := <-s.changed; !ok {
			return roomMsg{left: true}
		}
		return roomMsg{others: s.Others()}
	}
}

// onRoom takes news of the others and listens again.
func (m presence) onRoom(msg tea.Msg) (tea.Cmd, bool) {
	rm, ok := msg.(roomMsg)
	if !ok {
		return nil, false
	}
	if rm.left {
		return nil, true
	}
	m.others = rm.others
	return m.room().listenRoom(), true
}

// sitAt tells the others where this workbench is and what it is doing (a no-op when
// nothing changed; no seat, no room).
func (m presence) sitAt() {
	s := m.env.opts.Seat
	if s == nil {
		return
	}
	at := ""
	if r, ok := m.tree.Selected(); ok {
		at = r.ID
	}
	doing := ""
	if f := m.dlg.form; f != nil && f.Change != nil && f.Change.Skill != nil {
		doing = "writing a " + verbFor(f.Change.Skill.Name) + " on " + f.Change.Target
	} else if c := m.dlg.confirm; c != nil {
		doing = "confirming a change"
	}
	s.Set(at, doing)
}

// servedReason is why a row is disabled over SSH: every change for a viewer, and the
// proof editor for everyone; "" otherwise.
func (m presence) servedReason(b binding) string {
	s := m.env.opts.Seat
	switch {
	case s == nil:
		return ""
	case s.ReadOnly && mutatingRow(b):
		return readOnlyReason(s.Name)
	case b.skill == "fix-patch-proof":
		return m.room().editorReason()
	}
	return ""
}

// mutatingRow: the rows that change the folder.
func mutatingRow(b binding) bool { return b.group == groupChange || b.name == "rewind" }

func readOnlyReason(name string) string {
	return "read only: " + model.SanitizeLine(name) + " joined as a viewer (--viewers); ask the host to add your key to --keys"
}

// editorReason is why no editor runs: over SSH it would run on the server, as the
// server's user, and an editor can start a shell.
func (m presence) editorReason() string {
	if m.env.opts.Seat == nil {
		return ""
	}
	return "no $EDITOR over SSH (it would run on the server): type in the form, or use `ssh … skill` with --params -"
}

// needRoom disables @ outside referee serve.
func needRoom(m *Model) string {
	if m.env.opts.Seat == nil {
		return "nobody else is here: the list of people is for workbenches opened with referee serve"
	}
	return ""
}

// openWho lists everyone connected: who, as what, on which statement, doing what.
func (m presence) openWho() tea.Cmd {
	s := m.env.opts.Seat
	if s == nil {
		return nil
	}
	var b strings.Builder
	s.room.mu.Lock()
	me := Presence{Name: s.Name, ReadOnly: s.ReadOnly, At: s.at, Doing: s.doing}
	s.room.mu.Unlock()
	people := append([]Presence{me}, s.Others()...)
	for i, p := range people {
		role := "reviewer"
		if p.ReadOnly {
			role = "viewer"
		}
		line := fmt.Sprintf("%s (%s)", model.SanitizeLine(p.Name), role)
		if i == 0 {
			line += " · you"
		}
		if p.At != "" {
			line += " on " + p.At
		}
		if p.Doing != "" {
			line += " · " + p.Doing
		}
		b.WriteString(line + "\n")
	}
	m.dlg.notice = dialog.NewNotice(fmt.Sprintf("Who is here (%d)", len(people)), strings.TrimRight(b.String(), "\n"))
	m.sizeDialog()
	return nil
}

// roomStatus is the status bar's part about the room: who this is (and read only), and
// the others' names.
func (m presence) roomStatus() []string {
	s := m.env.opts.Seat
	if s == nil {
		return nil
	}
	st := m.look.st
	me := "you: " + model.SanitizeLine(s.Name)
	// serve (issue 30): kept with the styles, as the status bar's other pieces.
	out := []string{styled(st, "value", st.StatusVal, me)}
	if s.ReadOnly {
		out[0] += " " + styled(st, "warn", st.Warn, "(read only)")
	}
	if len(m.others) > 0 {
		out = append(out, styled(st, "accent", st.Accent, withOthers(m.others)))
	}
	return out
}

// roomNamesShown is how many of the others the status bar names: a longer list would
// push the run's own state off the bar; @ lists everyone.
const roomNamesShown = 3

// withOthers is the status bar's list of the others: the first names, then how many more.
func withOthers(others []Presence) string {
	names := make([]string, 0, roomNamesShown)
	for _, p := range others[:min(len(others), roomNamesShown)] {
		names = append(names, model.SanitizeLine(p.Name))
	}
	s := "with " + strings.Join(names, ", ")
	if more := len(others) - len(names); more > 0 {
		s += fmt.Sprintf(" +%d (@)", more)
	}
	return s
}

// roomNote is what the others are writing, for the second status line ("" if nothing).
func (m presence) roomNote() string {
	var notes []string
	for _, p := range m.others {
		if p.Doing != "" {
			notes = append(notes, model.SanitizeLine(p.Name)+" is "+p.Doing)
		}
	}
	return strings.Join(notes, "; ")
}

// roomMarks are the tree's markers: on each statement someone else is on, their
// initials (two letters each; "+" when more do not fit).
func (m presence) roomMarks() map[string]string {
	if len(m.others) == 0 {
		return nil
	}
	marks := map[string]string{}
	for _, p := range m.others {
		if p.At == "" {
			continue
		}
		name := []rune(model.SanitizeLine(p.Name))
		ini := string(name[:min(2, len(name))])
		if cur := marks[p.At]; cur == "" {
			marks[p.At] = ini
		} else if !strings.HasSuffix(cur, "+") {
			marks[p.At] = cur + "+"
		}
	}
	return marks
}

// markLine puts a marker at the end of a drawn tree row of width w.
func markLine(line, mark string, w int, st *themes.Styles) string {
	m := "◆" + mark
	mw := cells.Width(m)
	if mw+1 >= w {
		return line
	}
	// serve (issue 30): the marker styled once per styles, not on every drawing.
	return cells.Truncate(line, w-mw, "") + st.Kept("room-mark\x00"+m, func() string { return st.Accent.Render(m) })
}
