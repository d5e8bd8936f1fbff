package tui

import (
	"fmt"
	"strings"
	"unsafe"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"referee/cells"
	"referee/mathtext"
	"referee/model"
	"referee/themes"
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
	// fitted is the window's lines as last drawn (a line the same is not measured again).
	fitted fitMemo
	// laid is the problem docs last laid out, by object: a snapshot that changed none
	// of what one shows, or the cursor coming back to it, takes it as it is (a problem
	// lists up to a few hundred references, laid out again on every snapshot before).
	laid []laidDoc
}

// laidDoc is a doc and what it was laid out for.
type laidDoc struct {
	key laidKey
	doc views.Doc
}

type laidKey struct {
	path                  string
	width                 int
	sentence, issue, link int
	math                  mathtext.Mode
	st                    *themes.Styles
}

// laidKeep is how many laid-out docs are kept: the rows the cursor moves between.
const laidKeep = 4

// laidOut is the doc kept for k when it is still current in snap and g.
func (d *Detail) laidOut(k laidKey, snap *model.Snapshot, g *model.Graph) (views.Doc, bool) {
	for _, l := range d.laid {
		if l.key == k && l.doc.Current(snap, g, snap.Broken) {
			return l.doc, true
		}
	}
	return views.Doc{}, false
}

// keepLaid remembers doc as laid out for k, dropping the oldest kept.
func (d *Detail) keepLaid(k laidKey, doc views.Doc) {
	for i, l := range d.laid {
		if l.key == k {
			d.laid = append(d.laid[:i], d.laid[i+1:]...)
			break
		}
	}
	if len(d.laid) >= laidKeep {
		d.laid = append(d.laid[:0], d.laid[1:]...)
	}
	d.laid = append(d.laid, laidDoc{key: k, doc: doc})
}

// proofRenderings are the proofs rendered for the detail, by views.ProofKey, and those
// being rendered in a command.
type proofRenderings struct {
	proofs   map[string]*views.RenderedProof
	inflight map[string]bool
	// keep is how many renderings are kept before they are dropped together: a local
	// workbench keeps many (going back to a proof is instant); a shared one's sessions
	// keep few, as each holds its own (openShared).
	keep int
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
		proofRenderings: proofRenderings{proofs: map[string]*views.RenderedProof{}, inflight: map[string]bool{}, keep: 256, renderMarkdown: views.RenderProofMarkdown}}
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
		lines = append(lines, d.fitted.fit(i-d.offset, d.doc.Line(i), d.width))
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

// get returns the best rendering at hand of a proof (markdown in style if kept, else
// the plain fallback) and the command that renders the markdown when it is not kept.
func (p *proofRenderings) get(proof string, width int, style string, math mathtext.Mode) (*views.RenderedProof, tea.Cmd) {
	key := p.key(proof, width, style, math)
	if rp, ok := p.proofs[key]; ok {
		return rp, nil
	}
	plainKey := p.key(proof, width, "plain", math)
	rp, ok := p.proofs[plainKey]
	if !ok && len(proof) > largeProof && !p.syncRender {
		// Laid out off the UI goroutine too: a 100,000-sentence proof took 0.5 s.
		rp = views.RenderProofPlain(fmt.Sprintf("(laying out a proof of %d KB …)", len(proof)>>10), width, math)
		if p.inflight[plainKey] {
			return rp, nil
		}
		p.inflight[plainKey] = true
		plain := func(text string, w int, _ string, math mathtext.Mode) (*views.RenderedProof, error) {
			return views.RenderProofPlain(text, w, math), nil
		}
		return rp, renderProof(plain, plainKey, proof, width, "plain", math)
	}
	if !ok {
		rp = views.RenderProofPlain(proof, width, math)
		p.proofs[plainKey] = rp
	}
	if p.syncRender {
		if md, err := p.renderMarkdown(proof, width, style, math); err == nil {
			p.proofs[key] = md
			return md, nil
		}
	}
	if p.inflight[key] {
		return rp, nil
	}
	p.inflight[key] = true
	return rp, renderProof(p.renderMarkdown, key, proof, width, style, math)
}

// largeProof is the size past which a proof's plain layout is made in a command.
const largeProof = 128 << 10

// key is views.ProofKey, remembering the last proof's hash: hashing a proof of
// megabytes on every rebuild of the detail (each ] in it) cost more than the rest.
func (p *proofRenderings) key(proof string, width int, style string, math mathtext.Mode) string {
	if len(proof) < largeProof {
		return views.ProofKey(proof, width, style, math)
	}
	if p.lastProof.data != unsafe.StringData(proof) || p.lastProof.n != len(proof) {
		p.lastProof.data, p.lastProof.n = unsafe.StringData(proof), len(proof)
		p.lastProof.key = views.ProofKey(proof, 0, "", math)
	}
	return fmt.Sprintf("%s/%d/%s/%d", p.lastProof.key, width, style, math)
}

// rendered keeps a rendering made in a command; false when there was none (it failed).
func (p *proofRenderings) rendered(msg proofRenderedMsg) bool {
	delete(p.inflight, msg.key)
	if msg.rp == nil {
		return false
	}
	if len(p.proofs) >= p.keep {
		clear(p.proofs)
	}
	p.proofs[msg.key] = msg.rp
	return true
}
