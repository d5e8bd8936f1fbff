package tui

import (
	"fmt"
	"referee/mathtext"
	"referee/tui/common"
	"referee/tui/dialog"
	"slices"
	"strings"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textinput"
	tea "charm.land/bubbletea/v2"

	"referee/live"
	"referee/model"
)

// Search finds objects by ID or by the words of a claim: / types a query in the status
// line, enter goes to the first match, and the key table's match-next/match-prev step
// through the matches in tree order (n/N stay the review queue's). It reads the folder
// through a corpus it is given with each snapshot (Refresh), never the Model.
type Search struct {
	keys    SearchKeyMap
	input   textinput.Model
	typing  bool     // the query is being typed in the status line
	query   string   // the search in force, "" for none
	results []string // its matches, in tree order (of the last snapshot searched)
	in      corpus   // what is searched: the folder shown
	gen     int      // counts the searches started, so that only the latest's result is taken
}

// searchFoundMsg carries the matches of a search run again on a new snapshot.
type searchFoundMsg struct {
	gen     int
	results []string
}

// SearchKeyMap is the keys while a search is typed in the status line (the search's
// next/previous match, ctrl+n/ctrl+p, are rows of the key table).
type SearchKeyMap struct {
	Submit, Cancel key.Binding
}

// DefaultSearchKeyMap returns the keys of the search line.
func DefaultSearchKeyMap() SearchKeyMap {
	return SearchKeyMap{
		Submit: key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "go to the first match (an exact ID: to it)")),
		Cancel: key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "stop typing the search")),
	}
}

// KeyMap is the keys while a search is typed.
func (s *Search) KeyMap() []key.Binding { return []key.Binding{s.keys.Submit, s.keys.Cancel} }

// corpus is what a search reads of the folder shown.
type corpus interface {
	// Has says whether id is an object of the folder with a place in the tree.
	Has(id string) bool
	// Order is the tree's objects in tree order.
	Order() []string
	// Text is what the words are looked for in: the ID and the claim or title.
	Text(id string) string
}

// shownFolder is the corpus of a snapshot and its tree.
type shownFolder struct {
	snap *model.Snapshot
	f    *live.Forest
}

// searchIn is the corpus of a snapshot shown as f; nil before there is a tree.
func searchIn(snap *model.Snapshot, f *live.Forest) corpus {
	if snap == nil || f == nil {
		return nil
	}
	return shownFolder{snap, f}
}

func (s shownFolder) Has(id string) bool {
	return s.f.Canon(id) != "" && s.snap.Exists(id)
}

func (s shownFolder) Order() []string { return s.f.Order() }

func (s shownFolder) Text(id string) string {
	if st := s.snap.Statements.Get(id); st != nil {
		return id + " " + st.Claim()
	} else if p := s.snap.Problems[id]; p != nil {
		return id + " " + p.Title()
	}
	return id
}

// searchStepMsg asks the search for the match d steps from the object at the cursor.
type searchStepMsg struct {
	d    int
	from string // the ID under the cursor
}

func newSearch(dark bool) *Search {
	in := dialog.NewInput(dark)
	in.Prompt = "/"
	in.Placeholder = "ID or words of a claim"
	return &Search{keys: DefaultSearchKeyMap(), input: in}
}

// SetDark styles the search line for the terminal's background.
func (s *Search) SetDark(dark bool) { s.input.SetStyles(dialog.InputStyles(dark)) }

// SetSize sets the width of the search line.
func (s *Search) SetSize(width, _ int) { s.input.SetWidth(width) }

// Refresh searches the query in force again, in a new snapshot of the folder.
//
// With a search in force the matches are found again in a command: looking through
// every claim took 100 ms at 100k statements, too long for the UI goroutine on every
// change an agent writes. The matches of the snapshot before stand until they come.
func (s *Search) Refresh(in corpus) tea.Cmd {
	s.in = in
	s.gen++
	if s.query == "" || in == nil {
		s.results = nil
		return nil
	}
	gen, q := s.gen, s.query
	return func() tea.Msg { return searchFoundMsg{gen: gen, results: findIn(in, q)} }
}

// Open starts typing a query.
func (s *Search) Open() tea.Cmd {
	s.typing = true
	s.input.SetValue("")
	return s.input.Focus()
}

// Clear drops the search in force.
func (s *Search) Clear() { s.query, s.results = "", nil; s.gen++ }

// Typing says whether a query is being typed (the search takes every key).
func (s *Search) Typing() bool { return s.typing }

// Query is the search in force, "" for none.
func (s *Search) Query() string { return s.query }

// Results are the matches of the search in force, in tree order.
func (s *Search) Results() []string { return s.results }

// Update takes a key while typing (enter goes to the first match, an exact ID straight
// to that object; esc stops typing), a step between matches, or whatever else the
// input wants (the cursor's blink).
func (s *Search) Update(_ common.Common, msg tea.Msg) (tea.Cmd, tea.Msg) {
	switch msg := msg.(type) {
	case searchStepMsg:
		return nil, s.step(msg.d, msg.from)
	case searchFoundMsg:
		if msg.gen == s.gen { // else a newer snapshot or search has come since
			s.results = msg.results
		}
		return nil, nil
	case tea.KeyPressMsg:
		switch {
		case key.Matches(msg, s.keys.Cancel):
			s.typing = false
			s.input.Blur()
			return nil, nil
		case key.Matches(msg, s.keys.Submit):
			s.typing = false
			s.input.Blur()
			return nil, s.submit(strings.TrimSpace(s.input.Value()))
		}
	}
	if !s.typing {
		return nil, nil
	}
	var cmd tea.Cmd
	s.input, cmd = s.input.Update(msg)
	return cmd, nil
}

// View is the search line while a query is typed, else nothing.
func (s *Search) View(common.Common) []string {
	if !s.typing {
		return nil
	}
	return []string{s.input.View()}
}

func (s *Search) submit(q string) tea.Msg {
	if q == "" {
		s.Clear()
		return nil
	}
	s.query, s.gen = q, s.gen+1
	s.results = findIn(s.in, q)
	if len(s.results) == 0 {
		return common.StatusMsg{Text: "no match for " + q}
	}
	return revealMsg{id: s.results[0], say: fmt.Sprintf("match 1 of %d for %q · %s/%s next/previous · esc clears", len(s.results), q,
		bindingNamed("match-next").Help().Key, bindingNamed("match-prev").Help().Key)}
}

// findIn returns the objects of in matching a query, in tree order: an exact ID alone,
// else every object whose ID, claim or objectives hold all the words.
func findIn(in corpus, q string) []string {
	if in == nil {
		return nil
	}
	ql := strings.ToLower(strings.TrimSpace(q))
	if in.Has(ql) {
		return []string{ql}
	}
	// A word matches the source or what it reads as: "≡" finds \equiv too.
	var words [][]string
	for _, w := range strings.Fields(ql) {
		forms := []string{w}
		for _, f := range mathtext.SourceForms(w) {
			forms = append(forms, strings.ToLower(f))
		}
		words = append(words, forms)
	}
	var out []string
	for _, id := range in.Order() {
		text := strings.ToLower(in.Text(id))
		ok := true
		for _, forms := range words {
			if !slices.ContainsFunc(forms, func(f string) bool { return strings.Contains(text, f) }) {
				ok = false
				break
			}
		}
		if ok {
			out = append(out, id)
		}
	}
	return out
}

// step goes to the match d steps from the object at the cursor, in tree order, saying
// when it wraps.
func (s *Search) step(d int, from string) tea.Msg {
	if s.in == nil || s.query == "" {
		return nil
	}
	list := s.results
	if len(list) == 0 {
		return common.StatusMsg{Text: "no match for " + s.query}
	}
	var target string
	wrapped := false
	if i := slices.Index(list, from); i >= 0 {
		target, wrapped = stepWrap(list, i, d)
	} else {
		target, wrapped = nearestInTreeOrder(s.in.Order(), list, from, d)
	}
	at := slices.Index(list, target) + 1
	say := fmt.Sprintf("match %d of %d for %q", at, len(list), s.query)
	if wrapped {
		say = fmt.Sprintf("wrapped to %d of %d · ", at, len(list)) + say
	}
	return revealMsg{id: target, say: say}
}

// nearestInTreeOrder is the first item of list (in tree order) after (d > 0) or before
// cur in order, and whether it wrapped around to find it.
func nearestInTreeOrder(order, list []string, cur string, d int) (string, bool) {
	pos := slices.Index(order, cur)
	idx := make(map[string]int, len(list))
	for _, id := range list {
		idx[id] = -1
	}
	for i, id := range order {
		if _, ok := idx[id]; ok {
			idx[id] = i
		}
	}
	if d > 0 {
		for _, id := range list {
			if idx[id] > pos {
				return id, false
			}
		}
		return list[0], true
	}
	for i := len(list) - 1; i >= 0; i-- {
		if idx[list[i]] < pos {
			return list[i], false
		}
	}
	return list[len(list)-1], true
}
