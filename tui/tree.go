package tui

import (
	"referee/mathtext"
	"referee/tui/common"
	"referee/tui/dialog"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"referee/live"
	"referee/model/similar"
	"referee/themes"
	"referee/views"
)

// TreeKeyMap is the tree pane's own keys; it moves by the shared common.NavKeyMap.
type TreeKeyMap struct {
	Fold, Unfold, Toggle key.Binding
}

// DefaultTreeKeyMap returns the tree's own keys.
func DefaultTreeKeyMap() TreeKeyMap {
	return TreeKeyMap{
		Fold:   key.NewBinding(key.WithKeys("h", "left"), key.WithHelp("h/←", "fold (or go to parent)")),
		Unfold: key.NewBinding(key.WithKeys("l", "right"), key.WithHelp("l/→", "unfold (or go to first child)")),
		Toggle: key.NewBinding(key.WithKeys("space"), key.WithHelp("space", "fold/unfold")),
	}
}

// Tree is the tree pane. The cursor and the folds are kept by node path (IDs from the
// root), never by row index, so a live reload never moves the reviewer.
type Tree struct {
	f      *live.Forest
	folds  map[string]bool
	rows   []live.TreeRow
	index  map[string]int // row by path, made on first use after a rebuild (rowAt)
	cursor string
	cur    int
	offset int
	width  int
	height int
	keys   TreeKeyMap
	nav    common.NavKeyMap
	// math is how rows show their claims' math (the m toggle).
	math mathtext.Mode
	// retreads marks the statements whose claims repeat an older decided one (≈).
	retreads map[string][]similar.Retread
	// marks are the others' markers by statement (serve: presence.go), and flash the
	// statements just changed; both set before View.
	marks map[string]string
	flash map[string]bool
	// drawn keeps the rows drawn lately by all they show: under a run's writes most
	// frames redraw the same rows, and styling them was a sixth of the workbench's CPU.
	drawn map[drawnRow]string
}

// drawnRow is everything a drawn row depends on.
type drawnRow struct {
	row               live.TreeRow
	info              views.RowInfo
	width             int
	selected, focused bool
	st                *themes.Styles
	mark              string // the others' marker at its end (presence.go), "" for none
}

func newTree() *Tree {
	return &Tree{folds: map[string]bool{}, keys: DefaultTreeKeyMap(), nav: common.DefaultNavKeyMap()}
}

// KeyMap is the tree's keys as help lists them: the navigation keys (but space, which
// folds here) and its own.
func (t *Tree) KeyMap() []key.Binding {
	n, k := t.nav, t.keys
	return []key.Binding{common.NavHelp(n.Down, "j/↓", "move down"), common.NavHelp(n.Up, "k/↑", "move up"), k.Fold, k.Unfold,
		common.NavHelp(n.Top, "g", "top"), common.NavHelp(n.Bottom, "G", "bottom"), common.NavHelp(n.PageUp, "pgup", "page up"),
		common.NavHelp(n.PageDown, "pgdn", "page down", "pgdown", "ctrl+d"), k.Toggle}
}

// SetSize sets the pane's inner size.
func (t *Tree) SetSize(w, h int) {
	t.width, t.height = max(w, 0), max(h, 0)
	t.clampOffset()
}

// SetForest swaps in a new snapshot's tree, keeping the cursor on the same node. A tree
// of the same shape (the links kept) has the same rows: only their badges change, and
// View reads those from the forest.
func (t *Tree) SetForest(f *live.Forest) {
	same := t.f != nil && f != nil && t.f.SameShape(f)
	t.f = f
	if !same {
		t.rebuild()
	}
}

func (t *Tree) rebuild() {
	if t.f == nil {
		return
	}
	t.rows = t.f.Flatten(t.folds)
	t.index = nil
	t.locate()
}

// line draws a row, or takes it from the rows drawn lately (a few screens of them).
func (t *Tree) line(k drawnRow) string {
	if l, ok := t.drawn[k]; ok {
		return l
	}
	if t.drawn == nil || len(t.drawn) > 4*t.height+64 {
		t.drawn = make(map[drawnRow]string, 2*t.height)
	}
	l := views.TreeLine(k.st, k.row, k.info, k.width, k.selected, k.focused)
	if k.mark != "" {
		l = markLine(l, k.mark, k.width, k.st)
	}
	t.drawn[k] = l
	return l
}

// rowAt is the row of a path. The index is made when first asked for, not by rebuild:
// the first frame of a folder, its cursor on the first row, needs none (10k rows).
func (t *Tree) rowAt(path string) (int, bool) {
	if t.index == nil {
		t.index = make(map[string]int, len(t.rows))
		for i, r := range t.rows {
			t.index[r.Path] = i
		}
	}
	i, ok := t.index[path]
	return i, ok
}

// nearRows is how far from where it was nearRow looks for the cursor's row.
const nearRows = 256

// nearRow finds the row of a path within nearRows of the row it was at. After a
// rebuild (under an agents' run, a statement added or gone anywhere in the tree) the
// cursor's row is most often where it was or a few rows off, and the index of every
// row (rowAt) is a map of the whole tree made on the UI goroutine for one look-up. A
// path names one row, so what this finds is what the index would.
func (t *Tree) nearRow(path string, was int) (int, bool) {
	for d := 0; d <= nearRows; d++ {
		if i := was - d; i >= 0 && i < len(t.rows) && t.rows[i].Path == path {
			return i, true
		}
		if i := was + d; d > 0 && i >= 0 && i < len(t.rows) && t.rows[i].Path == path {
			return i, true
		}
	}
	return 0, false
}

// locate finds the cursor's row after a rebuild: the same path; else the same object
// where it now sits; else the nearest row to where it was.
func (t *Tree) locate() {
	if len(t.rows) == 0 {
		t.cur, t.offset = 0, 0
		return
	}
	t.cur = t.findRow(t.cursor, t.cur)
	t.cursor = t.rows[t.cur].Path
	t.clampOffset()
}

func (t *Tree) findRow(path string, was int) int {
	if path == "" {
		return 0
	}
	if i, ok := t.nearRow(path, was); ok {
		return i
	}
	if i, ok := t.rowAt(path); ok {
		return i
	}
	if cp := t.f.Canon(live.LastID(path)); cp != "" {
		if i, ok := t.rowAt(cp); ok {
			return i
		}
	}
	// The node is gone or folded away: its nearest visible ancestor, else stay put.
	for _, a := range reverse(t.f.Ancestors(path)) {
		if i, ok := t.rowAt(a); ok {
			return i
		}
	}
	return min(max(was, 0), len(t.rows)-1)
}

func reverse(s []string) []string {
	for i, j := 0, len(s)-1; i < j; i, j = i+1, j-1 {
		s[i], s[j] = s[j], s[i]
	}
	return s
}

// Selected returns the row under the cursor (zero row when empty).
func (t *Tree) Selected() (live.TreeRow, bool) {
	if t.cur < 0 || t.cur >= len(t.rows) {
		return live.TreeRow{}, false
	}
	return t.rows[t.cur], true
}

// SetRetreads sets the statements marked as re-treads.
func (t *Tree) SetRetreads(r map[string][]similar.Retread) { t.retreads = r }

// Cursor is the selected node's path.
func (t *Tree) Cursor() string { return t.cursor }

// Rows is the number of visible rows.
func (t *Tree) Rows() []live.TreeRow { return t.rows }

// Open reports whether the node at path is open.
func (t *Tree) IsOpen(path string) bool {
	i, ok := t.rowAt(path)
	return ok && t.rows[i].Open
}

func (t *Tree) moveTo(i int) {
	if len(t.rows) == 0 {
		return
	}
	t.cur = min(max(i, 0), len(t.rows)-1)
	t.cursor = t.rows[t.cur].Path
	t.clampOffset()
}

// clampOffset keeps the cursor inside the window with a little context.
func (t *Tree) clampOffset() {
	h := max(t.height, 1)
	margin := min(2, (h-1)/2)
	if t.cur < t.offset+margin {
		t.offset = t.cur - margin
	}
	if t.cur > t.offset+h-1-margin {
		t.offset = t.cur - h + 1 + margin
	}
	t.offset = min(t.offset, len(t.rows)-h)
	t.offset = max(t.offset, 0)
}

// Scroll moves the window (mouse wheel) and drags the cursor along if it leaves it.
func (t *Tree) Scroll(n int) {
	h := max(t.height, 1)
	t.offset = max(0, min(t.offset+n, len(t.rows)-h))
	if t.cur < t.offset {
		t.moveTo(t.offset)
	} else if t.cur >= t.offset+h {
		t.moveTo(t.offset + h - 1)
	}
}

// Click selects the row at a line of the pane (0 = first visible row).
func (t *Tree) Click(y int) bool {
	i := t.offset + y
	if y < 0 || i >= len(t.rows) {
		return false
	}
	t.cur = i
	t.cursor = t.rows[i].Path
	return true
}

// SetOpen folds or unfolds a node.
func (t *Tree) SetOpen(path string, open bool) {
	t.folds[path] = open
	t.rebuild()
}

// Reveal opens every ancestor of a path and puts the cursor on it.
func (t *Tree) Reveal(path string) bool {
	for _, a := range t.f.Ancestors(path) {
		t.folds[a] = true
	}
	t.cursor = path
	t.rebuild()
	return t.cursor == path
}

// Update handles the tree's own keys; it reports whether the key was one of them.
func (t *Tree) Update(_ common.Common, m tea.Msg) (tea.Cmd, tea.Msg) {
	msg, ok := m.(tea.KeyPressMsg)
	if !ok || !t.key(msg) {
		return nil, common.Unhandled{}
	}
	return nil, nil
}

// key moves or folds for a key of the tree's; false for any other.
func (t *Tree) key(msg tea.KeyPressMsg) bool {
	k := t.keys
	switch {
	case key.Matches(msg, k.Toggle): // before the page keys: space folds here
		if r, ok := t.Selected(); ok && r.HasKids {
			t.SetOpen(r.Path, !r.Open)
		}
	case key.Matches(msg, k.Fold):
		r, ok := t.Selected()
		if !ok {
			break
		}
		if r.Open {
			t.SetOpen(r.Path, false)
		} else if a := t.f.Ancestors(r.Path); len(a) > 0 {
			if i, ok := t.rowAt(a[len(a)-1]); ok {
				t.moveTo(i)
			}
		}
	case key.Matches(msg, k.Unfold):
		r, ok := t.Selected()
		if !ok || !r.HasKids {
			break
		}
		if !r.Open {
			t.SetOpen(r.Path, true)
		} else {
			t.moveTo(t.cur + 1)
		}
	default:
		to, ok := t.nav.Move(msg, t.cur, len(t.rows), max(t.height-1, 1))
		if !ok {
			return false
		}
		t.moveTo(to)
	}
	return true
}

// View renders the visible window only: cost is the pane height, not the tree size.
// rowInfoKey is a row's info kept by its tree (live.Forest.Kept).
type rowInfoKey struct {
	id   string
	math mathtext.Mode
}

func (t *Tree) View(com common.Common) []string {
	st, focused, flash := com.Styles, com.Focused, t.flash
	if t.height <= 0 || t.width <= 0 {
		return nil
	}
	lines := make([]string, 0, t.height)
	if t.f == nil || len(t.rows) == 0 {
		for _, l := range []string{"(no problems or statements yet)", "", "Start a run here with", "  referee init --contents <this folder>", "or open the agents' folder with --contents."} {
			for _, w := range dialog.WrapLines(st.Muted, l, t.width) {
				lines = append(lines, fitWidth(w, t.width))
			}
		}
		lines = lines[:min(len(lines), t.height)]
	} else {
		end := min(t.offset+t.height, len(t.rows))
		for i := t.offset; i < end; i++ {
			r := t.rows[i]
			var info views.RowInfo
			if r.Kind == live.RowStatement || r.Kind == live.RowProblem {
				info = t.f.Kept(rowInfoKey{r.ID, t.math}, func() any {
					return views.InfoFor(t.f.Snapshot(), t.f.Graph(), r.ID, t.f.Broken(), t.math)
				}).(views.RowInfo) // the same for every session showing the frame
				info.Flash = flash[r.ID]
				info.Retread = len(t.retreads[r.ID]) > 0
			}
			var mark string
			if r.ID != "" {
				mark = t.marks[r.ID]
			}
			lines = append(lines, t.line(drawnRow{r, info, t.width, i == t.cur, focused, st, mark}))
		}
	}
	for len(lines) < t.height {
		lines = append(lines, strings.Repeat(" ", t.width))
	}
	return lines
}
