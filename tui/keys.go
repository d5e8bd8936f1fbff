package tui

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"referee/cells"
	"referee/model"
	"referee/tui/dialog"
)

// The workbench's one key table (lazygit style). Every key the reviewer can press is a
// row here: a key.Binding (its keys, and the key and description help shows), what it
// runs, the group it is listed under, the footer's short label, and why it is disabled
// now (for a skill: the skill's own precondition on the snapshot). Help (?), the
// palette (:), the footer hints and docs/keys.md's key table (KeyTableMarkdown) are all
// made from it; the panes' own keys (tree, detail, activity, forms, lists) are their
// KeyMaps, listed in help from the same key.Bindings the panes match on.

// binding is one row of the key table.
type binding struct {
	key.Binding
	name     string // stable name: the footer and the tests refer to a row by it
	group    string
	hint     string // the footer's short label; "" when it is never a footer hint
	skill    string // the skill it runs, for changes
	verb     string // "confirm", for "cannot confirm: …"
	disabled func(m *Model) string
	run      func(m *Model) tea.Cmd
}

const (
	groupMove   = "move"
	groupLook   = "look"
	groupSuper  = "supervise"
	groupChange = "change (asks for y)"
	groupApp    = "app"
)

// bind makes a row: the keys, how help shows them, and what the row does.
func bind(name, group, help, desc string, keys ...string) binding {
	return binding{name: name, group: group, Binding: key.NewBinding(key.WithKeys(keys...), key.WithHelp(help, desc))}
}

func (b binding) does(run func(m *Model) tea.Cmd) binding       { b.run = run; return b }
func (b binding) unless(disabled func(m *Model) string) binding { b.disabled = disabled; return b }
func (b binding) hinted(label string) binding                   { b.hint = label; return b }

func do(f func(m *Model)) func(m *Model) tea.Cmd {
	return func(m *Model) tea.Cmd { f(m); return nil }
}

var (
	keyTableOnce sync.Once
	keyTableRows []binding
)

// keyTable is the workbench's keys (the same for every Model: the rows take it as an
// argument), in the order help lists them.
func keyTable() []binding {
	keyTableOnce.Do(func() { keyTableRows = makeKeyTable() })
	return keyTableRows
}

func makeKeyTable() []binding {
	return []binding{
		bind("focus", groupMove, "tab", "switch pane (tree ↔ detail)", "tab").hinted("pane").does((*Model).toggleFocus),
		bind("zoom", groupMove, "z", "zoom: the focused pane takes the whole width (again: both panes)", "z").hinted("zoom").does((*Model).toggleZoom),
		bind("open", groupMove, "enter", "open (tree: show in detail; detail: follow the link)", "enter").does(func(m *Model) tea.Cmd { return m.reader().enter() }),
		bind("back", groupMove, "esc", "back out (close, clear search, go back)", "esc").does(do(func(m *Model) { m.reader().back() })),
		bind("link-next", groupMove, ">", "next link in the detail", ">").does(func(m *Model) tea.Cmd { m.reader().moveLink(1); return nil }),
		bind("link-prev", groupMove, "<", "previous link in the detail", "<").does(func(m *Model) tea.Cmd { m.reader().moveLink(-1); return nil }),

		bind("queue-next", groupLook, "n", "next statement in the review queue (awaiting check, a gap, or a decision: what a reviewer can take up before its agent; what holds up the most first)", "n").hinted("next to review").does(func(m *Model) tea.Cmd { m.reader().next(1); return nil }),
		bind("queue-prev", groupLook, "N", "previous statement in the review queue", "N").does(func(m *Model) tea.Cmd { m.reader().next(-1); return nil }),
		bind("search", groupLook, "/", "search an ID or words of a claim", "/").hinted("search").does(func(m *Model) tea.Cmd { return m.search.Open() }),
		bind("match-next", groupLook, "ctrl+n", "next search match", "ctrl+n").hinted("matches").unless(needSearch).does(stepMatch(1)),
		bind("match-prev", groupLook, "ctrl+p", "previous search match", "ctrl+p").hinted("previous match").unless(needSearch).does(stepMatch(-1)),
		bind("sentence-next", groupLook, "]", "next sentence of the proof", "]").hinted("sentence").unless(needProof).does(func(m *Model) tea.Cmd { m.reader().moveSentence(1); return nil }),
		bind("sentence-prev", groupLook, "[", "previous sentence of the proof", "[").unless(needProof).does(func(m *Model) tea.Cmd { m.reader().moveSentence(-1); return nil }),
		bind("issue-next", groupLook, "i", "next issue (highlights its sentence)", "i").hinted("issue").unless(needIssues).does(do(func(m *Model) { m.reader().nextIssue() })),
		bind("pause", groupLook, "p", "pause/resume the live view", "p").hinted("pause").does(func(m *Model) tea.Cmd { return m.supervisor().pause() }),
		bind("math", groupLook, "m", "math: readable symbols or the LaTeX as written (quotes always use the source)", "m").hinted("math").does((*Model).toggleMath),
		bind("instruct", groupLook, "I", "compose /instruct about the sentence under the cursor; copy it (OSC 52)", "I").hinted("instruct").unless(needStatement).does(func(m *Model) tea.Cmd { return m.supervisor().instruct() }),
		bind("why", groupLook, "w", "fold/unfold what agents wrote before issues, responses, verdicts", "w").does(func(m *Model) tea.Cmd { m.bg.sess.whyOpen = !m.bg.sess.whyOpen; return m.reader().rebuildDetail() }),

		bind("activity", groupSuper, "a", "activity: every change, newest first (in it: / filter, enter go to, t travel there)", "a").hinted("activity").does(func(m *Model) tea.Cmd { return m.supervisor().toggleSide(sideActivity) }),
		bind("runs", groupSuper, "r", "agent runs: session, messages, tokens, cost, last activity, stall verdict", "r").hinted("runs").does(func(m *Model) tea.Cmd { return m.supervisor().toggleSide(sideRuns) }),
		bind("graveyard", groupSuper, "x", "graveyard: false and abandoned statements, why, what they held up", "x").hinted("graveyard").does(func(m *Model) tea.Cmd { return m.supervisor().toggleSide(sideGraveyard) }),
		bind("travel", groupSuper, "t", "time travel: the folder as it was after a change, read-only; t again returns to now", "t").hinted("travel").does(func(m *Model) tea.Cmd { return m.supervisor().toggleTravel() }),
		bind("travel-earlier", groupSuper, ",", "time travel: earlier change", ",").hinted("earlier/later").unless(needTravel).does(func(m *Model) tea.Cmd { return m.supervisor().scrub(-1) }),
		bind("travel-later", groupSuper, ".", "time travel: later change", ".").hinted("later").unless(needTravel).does(func(m *Model) tea.Cmd { return m.supervisor().scrub(1) }),
		bind("diff", groupSuper, "d", "time travel: diff the selected object with the previous change (again: with now)", "d").hinted("diff").unless(needTravel).does(func(m *Model) tea.Cmd { return m.supervisor().cycleDiff() }),
		bind("rewind", groupSuper, "b", "time travel: rewind the folder to the change shown (asks for y; u takes it back)", "b").hinted("rewind here").unless(needTravel).does(func(m *Model) tea.Cmd { return m.changer().planRewind() }),

		skillBinding("C", "check-confirm-proof", "confirm", "confirm the proof (true) or disproof (false)"),
		skillBinding("R", "check-reject-proof", "reject", "reject the proof at the sentence under the cursor"),
		skillBinding("F", "state-mark-false", "mark false", "mark false with a counterexample").hinted("false"),
		skillBinding("M", "state-propose-modification", "propose a modification", "propose a changed claim or premises").hinted("modify"),
		skillBinding("P", "fix-patch-proof", "patch", "patch the proof in $EDITOR, answering an issue"),
		skillBinding("S", "state-setup-substatement", "decompose", "decompose into a sub-statement"),
		skillBinding("L", "fix-create-substatement", "add a lemma", "answer an issue with a lemma (sub-statement)").hinted("lemma"),
		skillBinding("W", "prob-wrapup-statement", "add a statement", "add the statement that resolves the problem"),
		skillBinding("O", "prob-setup-subgoal", "add a subgoal", "set up a subgoal of the problem"),
		skillBinding("D", "prob-finish-up", "finish", "finish the problem with its key statements"),
		skillBinding("A", "abandon", "abandon", "abandon the statement"),
		bind("decide", groupChange, "H", "decide a proposed modification, shown whole: accept (a new statement takes the old one's place) or reject (false, abandon), as one change", "H").hinted("decide").unless(needDecision).does(func(m *Model) tea.Cmd { return m.changer().openDecision() }),
		bind("undo", groupChange, "u", "undo the last change made in this session", "u").hinted("undo").
			unless(func(m *Model) string { return m.changer().undoDisabled() }).does(func(m *Model) tea.Cmd { return m.changer().openUndo() }),
		bind("redo", groupChange, "ctrl+r", "redo the last undo of this session (takes the undo back, as a change of its own)", "ctrl+r").
			unless(func(m *Model) string { return m.changer().redoDisabled() }).does(func(m *Model) tea.Cmd { return m.changer().openRedo() }),

		bind("palette", groupApp, ":", "command palette: every skill and command", ":").hinted("palette").does((*Model).openPalette),
		bind("help", groupApp, "?", "help: every key", "?").hinted("help").does((*Model).openHelp),
		bind("who", groupApp, "@", "who is here (referee serve): everyone connected, the statement each is on, what each is writing", "@").unless(needRoom).does(func(m *Model) tea.Cmd { return m.room().openWho() }),
		bind("quit", groupApp, "q", "quit (waits for a change being written)", "q", "ctrl+c").hinted("quit").does((*Model).quit),
	}
}

// skillBinding is the row of a key that runs a skill: its disabled reason is the
// skill's own precondition on the selection.
func skillBinding(k, skill, verb, desc string) binding {
	b := bind(strings.ToLower(k)+":"+skill, groupChange, k, desc, k)
	b.skill, b.verb, b.hint = skill, verb, verb
	b.disabled = func(m *Model) string { return m.changer().skillDisabled(skill, verb) }
	b.run = func(m *Model) tea.Cmd { return m.changer().startSkill(skill) }
	return b
}

// bindingNamed is the row of a name; it panics on a name not in the table (a typo in
// the code, found by the key-table test, which renders every footer).
func bindingNamed(name string) binding {
	for _, b := range keyTable() {
		if b.name == name {
			return b
		}
	}
	panic("tui: no key named " + name)
}

// bindingFor is the row a key press runs.
func bindingFor(msg tea.KeyPressMsg) (binding, bool) {
	for _, b := range keyTable() {
		if key.Matches(msg, b.Binding) {
			return b, true
		}
	}
	return binding{}, false
}

// skillKey is the key that runs a skill, "" if none.
func skillKey(name string) string {
	for _, b := range keyTable() {
		if b.skill == name {
			return b.Help().Key
		}
	}
	return ""
}

// verbFor is how a skill reads in "cannot <verb>: …".
func verbFor(name string) string {
	for _, b := range keyTable() {
		if b.skill == name {
			return b.verb
		}
	}
	if name == "state-complete-proof" {
		return "submit a proof"
	}
	return "run " + name
}

// runBinding runs a row unless it is disabled, in which case it says why.
func (m *Model) runBinding(b binding) tea.Cmd {
	if b.run == nil {
		return nil
	}
	if why := m.room().servedReason(b); why != "" {
		m.status.error(why)
		return nil
	}
	if b.disabled != nil {
		if why := b.disabled(m); why != "" {
			m.status.error(why)
			return nil
		}
	}
	return b.run(m)
}

// paneKeys are the keys the panes and dialogs match on themselves, by group, as help
// lists them: each part's KeyMap, made of the bindings it matches on (the navigation
// keys, common.NavKeyMap, in its words), so help cannot disagree with them.
type paneKeys struct {
	group string
	keys  []key.Binding
}

func allPaneKeys() []paneKeys {
	return []paneKeys{
		{"tree pane", newTree().KeyMap()},
		{"detail pane", newDetail().KeyMap()},
		{"activity pane", newActivity().KeyMap()},
		{"typing a search", newSearch(true).KeyMap()},
		{"forms", dialog.NewForm("", "").KeyMap()},
		{"confirmation", (&dialog.Confirm{}).KeyMap()},
		{"help and palette", (&dialog.Picker{}).KeyMap()},
	}
}

// mouseKeys describe the mouse, for help and docs/keys.md (it has no key.Binding).
var mouseKeys = [][2]string{
	{"mouse click", "tree: select the row; detail: follow the link under the pointer"},
	{"mouse wheel", "scroll the pane under the pointer"},
}

// helpEntries is every row of help: the key table with each row's disabled reason now,
// the panes' keys, the mouse and the marks.
func (m *Model) helpEntries() []dialog.Entry {
	var es []dialog.Entry
	for _, b := range keyTable() {
		h := b.Help()
		e := dialog.Entry{Group: b.group, Key: h.Key, Title: h.Desc, Mutating: b.group == groupChange}
		if b.skill != "" {
			e.Desc = b.skill
		}
		if b.disabled != nil && m != nil {
			e.Disabled = b.disabled(m)
		}
		if m != nil && m.room().servedReason(b) != "" {
			e.Disabled = m.room().servedReason(b)
		}
		es = append(es, e)
	}
	for _, pk := range allPaneKeys() {
		for _, k := range pk.keys {
			h := k.Help()
			es = append(es, dialog.Entry{Group: pk.group, Key: h.Key, Title: h.Desc, Desc: strings.Join(k.Keys(), " ")})
		}
	}
	for _, mk := range mouseKeys {
		es = append(es, dialog.Entry{Group: "mouse", Key: mk[0], Title: mk[1]})
	}
	for _, mk := range marks {
		es = append(es, dialog.Entry{Group: "marks", Key: mk[0], Title: mk[1]})
	}
	return es
}

// marks are the signs the tree, detail and status line use, for help.
var marks = [][2]string{
	{"★", "fully proved (true, and everything under it)"},
	{"⚑o/t", "open issues / all issues"},
	{"→check", "what the orchestrator would run next"},
	{"⇉", "shared: the node appears under several parents"},
	{"↺", "a cycle, cut here"},
	{"stale", "true, but rests on something false, abandoned or missing"},
	{"[n]", "a sentence: under the cursor in reverse video; the selected issue's underlined"},
	{"![n]", "a sentence with an open issue"},
	{"≈", "re-tread: the claim repeats an older true, false or abandoned statement (the detail names it)"},
	{"~", "activity: an actor or skill guessed from what the change did (the agents' lines do not say)"},
	{"◷", "time travel: the change shown"},
	{"⚠stalled", "nothing changed for the stall time while the agents have work"},
}

// KeyTableMarkdown is the key table as docs/keys.md shows it: every key of the workbench,
// made from the same rows as help (a test keeps its copy in step).
func KeyTableMarkdown() string {
	var b strings.Builder
	group := ""
	row := func(g, k, desc string) {
		if g != group {
			group = g
			fmt.Fprintf(&b, "\n**%s**\n\n| key | what it does |\n|---|---|\n", g)
		}
		fmt.Fprintf(&b, "| %s | %s |\n", mdCell("`"+k+"`"), mdCell(desc))
	}
	for _, e := range (*Model)(nil).helpEntries() {
		if e.Group == "marks" {
			continue
		}
		k := e.Key
		if e.Group != groupChange && e.Group != groupMove && e.Group != groupLook && e.Group != groupSuper && e.Group != groupApp && e.Desc != "" && !strings.HasPrefix(e.Group, "mouse") {
			k = strings.Join(strings.Fields(e.Desc), "`, `") // a pane key: every key it answers to
		}
		desc := e.Title
		if e.Mutating && e.Desc != "" {
			desc += " (" + e.Desc + ")"
		}
		row(e.Group, k, desc)
	}
	return strings.TrimPrefix(b.String(), "\n")
}

func mdCell(s string) string { return strings.ReplaceAll(s, "|", `\|`) }

// footer is the status bar's hint line: the keys that matter for what is shown, from
// the key table, then always "? help  q quit" (the contextual hints are dropped first
// when the line is short).
func (m *Model) footer(width int) string {
	st := m.look.st
	render := func(k, d string) string {
		return st.Kept("hint\x00"+k+"\x00"+d, func() string { return st.StatusKey.Render(k) + " " + st.StatusBar.Render(d) })
	}
	tail := render(bindingNamed("help").Help().Key, "help") + "  " + render(bindingNamed("quit").Help().Key, "quit")
	avail := width - cells.Width(tail) - 2
	var parts []string
	used := 0
	for _, h := range m.hintNames() {
		s := render(h.k, h.d)
		w := cells.Width(s)
		if used+w+2 > avail {
			break
		}
		parts = append(parts, s)
		used += w + 2
	}
	return strings.Join(append(parts, tail), "  ")
}

type hint struct{ k, d string }

// hintNames are the footer's contextual hints, most useful first.
func (m *Model) hintNames() []hint {
	var names []string
	if m.feed.loading != nil {
		return nil
	}
	if m.travel != nil {
		names = append(names, "travel-earlier|travel-later", "travel", "diff")
	}
	var extra []hint
	if m.lay.focus == focusDetail {
		switch m.lay.side {
		case sideActivity:
			extra = append(extra, hint{"/", "filter"}, hint{"enter", "go to"})
		case sideGraveyard:
			extra = append(extra, hint{">/<", "choose"}, hint{"enter", "go to"})
		}
	}
	if m.search.Query() != "" {
		names = append(names, "match-next|match-prev")
	}
	if s := m.reader().selectedStatement(); s != nil && m.travel == nil && m.shown.g != nil {
		if m.shown.g.Phase.Get(s.ID) != model.PhaseNeedsDecision && model.ProposalOpen(s) {
			names = append(names, "decide") // P014 keeps a proposal "validating": offer it first
		}
		switch m.shown.g.Phase.Get(s.ID) {
		case model.PhaseAwaitingCheck:
			names = append(names, "c:check-confirm-proof", "r:check-reject-proof", "sentence-next|sentence-prev")
		case model.PhaseHasGap:
			names = append(names, "issue-next", "p:fix-patch-proof", "l:fix-create-substatement", "f:state-mark-false")
		case model.PhaseNeedsDecision:
			names = append(names, "decide", "f:state-mark-false", "a:abandon")
		}
	}
	names = append(names, "queue-next", "search", "focus", "zoom", "palette", "pause")
	var out []hint
	out = append(out, extra...)
	for _, n := range names {
		// "a|b" is one hint for a pair of keys: ",/. earlier/later".
		first, second, pair := strings.Cut(n, "|")
		b := bindingNamed(first)
		h := hint{b.Help().Key, b.hint}
		if pair {
			h.k += "/" + bindingNamed(second).Help().Key
		}
		switch {
		case n == "travel":
			h.d = "back to now"
		case first == "match-next":
			h.d = fmt.Sprintf("matches (%d)", len(m.search.Results()))
		}
		out = append(out, h)
		if first == "match-next" {
			out = append(out, hint{"esc", "clear search"})
		}
	}
	return slices.Clip(out)
}
