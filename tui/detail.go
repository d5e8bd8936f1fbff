package tui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"referee/cells"
	"referee/mathtext"
	"referee/tui/common"
	"referee/views"
)

// DetailKeyMap is the detail pane's own keys (when it has the focus); it scrolls by the
// shared common.NavKeyMap.
type DetailKeyMap struct {
	NextLink, PrevLink, Follow key.Binding
}

// DefaultDetailKeyMap returns the detail pane's own keys.
func DefaultDetailKeyMap() DetailKeyMap {
	return DetailKeyMap{
		NextLink: key.NewBinding(key.WithKeys(">"), key.WithHelp(">", "next link")),
		PrevLink: key.NewBinding(key.WithKeys("<"), key.WithHelp("<", "previous link")),
		Follow:   key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "follow the link")),
	}
}

// Detail is the detail pane: a scrolling window over a rendered views.Doc. The doc is
// rebuilt in Update when something it shows changes; View only slices it.
type Detail struct {
	doc    views.Doc
	offset int
	width  int
	height int
	link   int
	keys   DetailKeyMap
	nav    common.NavKeyMap

	// sel is what is selected: the tree's object and, in the doc, the sentence, issue
	// and link under their cursors.
	sel selection
	proofRenderings
	// crumb is the title's breadcrumb for crumbKey (path, width, forest).
	crumb, crumbKey string
}

// proofRenderings are the proofs rendered for the detail, by views.ProofKey, and those
// being rendered in a command.
type proofRenderings struct {
	proofs   map[string]*views.RenderedProof
	inflight map[string]bool
	// lastProof remembers the hash of the last long proof keyed (proofKey).
	lastProof struct {
		data *byte
		n    int
		key  string
	}
	// syncRender renders markdown in Update instead of a command (tests: deterministic).
	syncRender bool
	// renderMarkdown is views.RenderProofMarkdown (tests count the calls through it).
	renderMarkdown func(proof string, width int, style string, math mathtext.Mode) (*views.RenderedProof, error)
}

func newDetail() *Detail {
	return &Detail{keys: DefaultDetailKeyMap(), nav: common.DefaultNavKeyMap(), link: -1, sel: selection{issue: -1, link: -1},
		proofRenderings: proofRenderings{proofs: map[string]*views.RenderedProof{}, inflight: map[string]bool{}, renderMarkdown: views.RenderProofMarkdown}}
}

// KeyMap is the detail pane's keys as help lists them: the navigation keys and its own.
func (d *Detail) KeyMap() []key.Binding {
	n, k := d.nav, d.keys
	return []key.Binding{common.NavHelp(n.Down, "j/↓", "scroll down"), common.NavHelp(n.Up, "k/↑", "scroll up"),
		common.NavHelp(n.Top, "g", "top"), common.NavHelp(n.Bottom, "G", "bottom"), common.NavHelp(n.PageUp, "pgup", "page up"),
		common.NavHelp(n.PageDown, "pgdn", "page down"), k.NextLink, k.PrevLink, k.Follow}
}

// SetSize sets the pane's inner size.
func (d *Detail) SetSize(w, h int) {
	d.width, d.height = max(w, 0), max(h, 0)
	d.clamp()
}

// SetDoc replaces the content, keeping the scroll position where possible.
func (d *Detail) SetDoc(doc views.Doc) {
	d.doc = doc
	d.clamp()
}

func (d *Detail) clamp() {
	d.offset = max(0, min(d.offset, len(d.doc.Lines)-d.height))
}

// ScrollTo makes the lines [from, to] visible, preferring to show from near the top.
func (d *Detail) ScrollTo(from, to int) {
	if from < 0 {
		return
	}
	to = max(to, from)
	if from < d.offset || to >= d.offset+d.height {
		d.offset = from - min(2, d.height/4)
		if to-from >= d.height {
			d.offset = from
		}
	}
	d.clamp()
}

// Scroll moves the window by n lines.
func (d *Detail) Scroll(n int) {
	d.offset += n
	d.clamp()
}

// Update scrolls by the navigation keys (links are the key table's: the Model's).
func (d *Detail) Update(_ common.Common, msg tea.Msg) (tea.Cmd, tea.Msg) {
	km, ok := msg.(tea.KeyPressMsg)
	if !ok {
		return nil, common.Unhandled{}
	}
	to, ok := d.nav.Move(km, d.offset, len(d.doc.Lines)+1, max(d.height-1, 1))
	if !ok {
		return nil, common.Unhandled{}
	}
	d.offset = to
	d.clamp()
	return nil, nil
}

// position is where the window is, " · 12–40/88", when the doc does not fit.
func (d *Detail) position() string {
	n := len(d.doc.Lines)
	if n <= d.height || d.height <= 0 {
		return ""
	}
	return fmt.Sprintf(" · %d–%d/%d", d.offset+1, min(d.offset+d.height, n), n)
}

// LinkAt returns the link on a visible line (0 = the first visible line).
func (d *Detail) LinkAt(y int) (views.Link, bool) {
	line := d.offset + y
	for _, l := range d.doc.Links {
		if l.Line == line {
			return l, true
		}
	}
	return views.Link{}, false
}

// View renders the visible window, every line exactly the pane's width. The doc draws
// the proof's sentence marks on the lines asked for, so only visible lines pay for them.
func (d *Detail) View(common.Common) []string {
	if d.height <= 0 || d.width <= 0 {
		return nil
	}
	lines := make([]string, 0, d.height)
	end := min(d.offset+d.height, len(d.doc.Lines))
	for i := d.offset; i < end; i++ {
		lines = append(lines, fitWidth(d.doc.Line(i), d.width))
	}
	for len(lines) < d.height {
		lines = append(lines, strings.Repeat(" ", d.width))
	}
	return lines
}

// fitWidth truncates or pads a (styled) line to exactly w cells.
func fitWidth(s string, w int) string {
	if w <= 0 {
		return ""
	}
	sw := cells.Width(s)
	if sw > w {
		return cells.Truncate(s, w, "…")
	}
	return s + strings.Repeat(" ", w-sw)
}
