package agents

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Options say where to look.
type Options struct {
	// ClaudeDir is Claude Code's config folder (default $CLAUDE_CONFIG_DIR, else
	// ~/.claude); transcripts are under its projects/ folder.
	ClaudeDir string
	// Project is the folder the sessions ran in: the one holding the contents folder.
	Project string
	Prices  *Prices
	// MaxLine bounds a transcript line (default MaxLine).
	MaxLine int
	// ScanEvery is how often the projects folder is listed for new sessions (default
	// 2s); known transcripts are looked at on every Poll (a stat), those quiet for 10
	// minutes once a second.
	ScanEvery time.Duration
	// Now is the clock (default time.Now).
	Now func() time.Time
}

// DefaultClaudeDir is $CLAUDE_CONFIG_DIR, else ~/.claude.
func DefaultClaudeDir() string {
	if d := os.Getenv("CLAUDE_CONFIG_DIR"); d != "" {
		return d
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return ".claude"
	}
	return filepath.Join(home, ".claude")
}

// Watcher follows the sessions of one project. It is not safe for concurrent use:
// one goroutine polls it and hands out Reports, which are values.
type Watcher struct {
	opts     Options
	project  []string // the project's path, and its real path when that differs
	sessions map[string]*session
	paces    map[*Tail]*pace
	other    map[string]probe // transcripts not (yet) known to be ours
	// dirs are the project folders' modification times at the last scan: a folder
	// where no file was added or removed is not listed again, unless it holds a
	// transcript still undecided.
	dirs      map[string]time.Time
	undecided map[string]bool
	lastScan  time.Time
	notes     []string
	// calls are the answered skill calls, in the order answered, sanitised once;
	// reports share the array (it only grows).
	calls  []CallView
	called map[string]bool // by tool_use ID: a transcript read again adds none twice
	noted  map[string]bool
	// orphans are Claude Code 2.0 subagent files (agent-<id>.jsonl beside the
	// sessions) whose session is not known yet, with the session ID they name.
	orphans map[string]string
}

type session struct {
	main     *Agent
	tail     *Tail
	dir      string // <session id>/subagents
	subs     map[string]*subFile
	subOrder []string
	listed   time.Time // when the subagents folder was last listed
}

type subFile struct {
	agent *Agent
	tail  *Tail
}

// quietAfter is how long a transcript may go without growing before it is looked at
// only every quietEvery: a project keeps its old sessions, and a run its finished
// subagents (a stat each per look). An agent silent that long is rare, and its next
// line shows within quietEvery.
const (
	quietAfter = 10 * time.Minute
	quietEvery = time.Second
)

// pace says whether a transcript is due a look now, and records what the look found.
type pace struct {
	grew time.Time // when it last grew (or was first seen)
	next time.Time // no look before this
}

func (p *pace) due(now time.Time) bool { return !now.Before(p.next) }

func (p *pace) looked(now time.Time, grew bool, every time.Duration) {
	if grew || p.grew.IsZero() {
		p.grew = now
	}
	if now.Sub(p.grew) >= quietAfter {
		p.next = now.Add(every)
	} else {
		p.next = time.Time{}
	}
}

// probe remembers a transcript that is not ours: by size while no line has named its
// working directory yet, for good once one has.
type probe struct {
	size    int64
	decided bool
}

// New makes a watcher; nothing is read until Poll.
func New(opts Options) *Watcher {
	if opts.ClaudeDir == "" {
		opts.ClaudeDir = DefaultClaudeDir()
	}
	if opts.Prices == nil {
		opts.Prices = DefaultPrices()
	}
	if opts.ScanEvery <= 0 {
		opts.ScanEvery = 2 * time.Second
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	w := &Watcher{opts: opts, sessions: map[string]*session{}, other: map[string]probe{}}
	p := filepath.Clean(opts.Project)
	if abs, err := filepath.Abs(p); err == nil {
		p = abs
	}
	w.project = []string{p}
	if real, err := filepath.EvalSymlinks(p); err == nil && real != p {
		w.project = append(w.project, real)
	}
	return w
}

// Poll reads what was appended to every followed transcript, and looks for new
// sessions when ScanEvery has passed. changed says whether anything was read.
func (w *Watcher) Poll() (changed bool, err error) {
	now := w.opts.Now()
	if w.lastScan.IsZero() || now.Sub(w.lastScan) >= w.opts.ScanEvery {
		w.lastScan = now
		if w.scan() {
			changed = true
		}
	}
	for _, path := range w.sessionPaths() {
		s := w.sessions[path]
		if w.follow(s.main, s.tail, now) {
			changed = true
		}
		if w.followSubs(s, now) {
			changed = true
		}
		s.link()
		walk(s.main, w.collect)
	}
	return changed, nil
}

// collect takes the calls an agent got answers for.
func (w *Watcher) collect(a *Agent) {
	if a.Role == "" && a.State != StateFinished && a.State != "gone" {
		return // a subagent not yet linked to its dispatch: its role comes with it
	}
	for _, c := range a.done {
		if w.called == nil {
			w.called = map[string]bool{}
		}
		if !w.called[c.ToolUseID] {
			w.called[c.ToolUseID] = true
			w.calls = append(w.calls, c.view())
		}
	}
	a.done = a.done[:0]
}

func (w *Watcher) sessionPaths() []string {
	paths := make([]string, 0, len(w.sessions))
	for p := range w.sessions {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	return paths
}

// scan lists projects/*/*.jsonl and adopts the transcripts whose lines name the
// project as their working directory. An agent-<id>.jsonl there is a subagent of
// Claude Code 2.0, linked to the session its lines name.
func (w *Watcher) scan() bool {
	root := filepath.Join(w.opts.ClaudeDir, "projects")
	dirs, err := os.ReadDir(root)
	if err != nil {
		return false
	}
	found := false
	for _, d := range dirs {
		if !d.IsDir() {
			continue
		}
		dirPath := filepath.Join(root, d.Name())
		if info, err := d.Info(); err == nil {
			if w.dirs == nil {
				w.dirs, w.undecided = map[string]time.Time{}, map[string]bool{}
			}
			if last, ok := w.dirs[dirPath]; ok && last.Equal(info.ModTime()) && !w.undecided[dirPath] {
				continue
			}
			w.dirs[dirPath] = info.ModTime()
		}
		undecided := false
		files, err := os.ReadDir(dirPath)
		if err != nil {
			continue
		}
		for _, f := range files {
			name := f.Name()
			if f.IsDir() || !strings.HasSuffix(name, ".jsonl") {
				continue
			}
			path := filepath.Join(dirPath, name)
			if _, ok := w.sessions[path]; ok {
				continue
			}
			pr, seen := w.other[path]
			if seen && pr.decided {
				continue
			}
			info, err := os.Stat(path)
			if err != nil {
				continue
			}
			if !info.Mode().IsRegular() {
				w.other[path] = probe{decided: true}
				w.noteOnce(path, special(path, info))
				continue
			}
			if seen && info.Size() == pr.size {
				undecided = true
				continue
			}
			h := probeHead(path)
			switch {
			case h.cwd == "" && !h.gaveUp:
				w.other[path] = probe{size: info.Size()}
				undecided = true
			case h.cwd == "":
				w.other[path] = probe{decided: true}
				w.noteOnce(path, clean(path)+fmt.Sprintf(": no line among its first %d names a working directory: not followed", probeLines))
			case !w.ours(h.cwd):
				w.other[path] = probe{decided: true}
			case strings.HasPrefix(name, "agent-"):
				w.other[path] = probe{decided: true}
				if w.orphans == nil {
					w.orphans = map[string]string{}
				}
				w.orphans[path] = h.sessionID
			default:
				delete(w.other, path)
				id := strings.TrimSuffix(name, ".jsonl")
				main := newAgent(id, "", path, w.opts.Prices)
				t := NewTail(path)
				t.Max = w.opts.MaxLine
				w.sessions[path] = &session{main: main, tail: t,
					dir: filepath.Join(dirPath, id, "subagents"), subs: map[string]*subFile{}}
				found = true
			}
		}
		if w.undecided != nil {
			w.undecided[dirPath] = undecided
		}
	}
	// Claude Code 2.0's subagent files sit beside the sessions and name theirs.
	for path, sid := range w.orphans {
		if s, ok := w.sessions[filepath.Join(filepath.Dir(path), sid+".jsonl")]; ok {
			w.addSub(s, filepath.Base(path), path)
			delete(w.orphans, path)
			found = true
		}
	}
	return found
}

// special says what a file that is not a regular one is, for a note.
func special(path string, info os.FileInfo) string {
	kind := "a special file"
	switch m := info.Mode(); {
	case m&fs.ModeNamedPipe != 0:
		kind = "a named pipe"
	case m&fs.ModeSocket != 0:
		kind = "a socket"
	case m&fs.ModeDevice != 0:
		kind = "a device"
	case m.IsDir():
		kind = "a folder"
	}
	return clean(path) + ": " + kind + ", not a transcript: skipped without opening it"
}

func (w *Watcher) noteOnce(key, s string) {
	if w.noted == nil {
		w.noted = map[string]bool{}
	}
	if w.noted[key] {
		return
	}
	w.noted[key] = true
	if len(w.notes) == maxNotes {
		w.notes = append(w.notes[:0], w.notes[1:]...)
	}
	w.notes = append(w.notes, s)
}

func (w *Watcher) ours(cwd string) bool {
	cwd = filepath.Clean(cwd)
	return slices.Contains(w.project, cwd)
}

// probeLines bounds how many lines are read looking for a transcript's working
// directory; lines longer than the reader's buffer are looked at in their head only
// and never held.
const probeLines = 200

var bom = []byte("\xef\xbb\xbf")

// head is what the first lines of a transcript say.
type head struct {
	cwd, sessionID string
	// gaveUp is set when probeLines lines named no working directory.
	gaveUp bool
}

// probeHead reads lines from a transcript's start until one names its working
// directory.
func probeHead(path string) head {
	var h head
	f, err := openRegular(path)
	if err != nil {
		return h
	}
	defer f.Close()
	if info, err := f.Stat(); err != nil || !info.Mode().IsRegular() {
		return h
	}
	r := bufio.NewReaderSize(f, 64<<10)
	for n := 1; n <= probeLines; n++ {
		line, err := r.ReadSlice('\n')
		if n == 1 {
			line = bytes.TrimPrefix(line, bom)
		}
		if err == bufio.ErrBufferFull {
			// A long line: a cwd key is near a line's start, so look in the head only.
			h.cwd, h.sessionID = keyIn(line, "cwd"), keyIn(line, "sessionId")
			for err == bufio.ErrBufferFull {
				_, err = r.ReadSlice('\n')
			}
			if h.cwd != "" || err != nil {
				return h
			}
			continue
		}
		if len(line) > 0 && line[len(line)-1] == '\n' {
			var l struct {
				CWD       string `json:"cwd"`
				SessionID string `json:"sessionId"`
			}
			if json.Unmarshal(line, &l) == nil && l.CWD != "" {
				return head{cwd: l.CWD, sessionID: l.SessionID}
			}
		}
		if err != nil {
			return h
		}
	}
	h.gaveUp = true
	return h
}

// keyIn finds "key":"…" in a line's head without parsing the whole line.
func keyIn(b []byte, key string) string {
	k := `"` + key + `":"`
	i := bytes.Index(b, []byte(k))
	if i < 0 {
		return ""
	}
	rest := b[i+len(k):]
	j := bytes.IndexByte(rest, '"')
	if j < 0 || bytes.IndexByte(rest[:j], '\\') >= 0 {
		return ""
	}
	return string(rest[:j])
}

// follow reads a transcript's new lines into its agent.
func (w *Watcher) follow(a *Agent, t *Tail, now time.Time) bool {
	if t.OnReset == nil {
		t.OnReset = a.reset
	}
	if w.paces == nil {
		w.paces = map[*Tail]*pace{}
	}
	p := w.paces[t]
	if p == nil {
		p = &pace{}
		w.paces[t] = p
	}
	if !p.due(now) {
		return false
	}
	read := false
	defer func() { p.looked(now, read, quietEvery) }()
	events, err := t.Read(func(n int, b []byte) {
		read = true
		if n == 1 && bytes.HasPrefix(b, bom) {
			b = b[len(bom):]
			a.noteOnce("bom", "line 1 starts with a UTF-8 byte order mark: read without it")
		}
		l, err := ParseLine(b)
		if err != nil {
			a.note("line " + itoa(n) + ": not a transcript line (" + bound(err.Error(), 200) + "): skipped")
			return
		}
		a.apply(l, n, now)
	})
	if err != nil {
		a.note("cannot read: " + err.Error())
	}
	for _, e := range events {
		a.note(e.Note)
		read = true
	}
	if t.Gone && a.State != StateFinished && a.State != StateGone {
		a.State, a.Tool, a.dirty = StateGone, "", true
	}
	return read
}

func (w *Watcher) followSubs(s *session, now time.Time) bool {
	changed := false
	// A subagent starts with its orchestrator's Task call: while the session's own
	// transcript is quiet, its folder is listed only every quietEvery.
	var entries []os.DirEntry
	var err error
	if p := w.paces[s.tail]; p == nil || p.next.IsZero() || now.Sub(s.listed) >= quietEvery {
		s.listed = now
		entries, err = os.ReadDir(s.dir)
	}
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		s.main.noteOnce("subagents", "cannot list subagents: "+err.Error())
	}
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() || !strings.HasPrefix(name, "agent-") || !strings.HasSuffix(name, ".jsonl") {
			continue
		}
		if _, ok := s.subs[name]; ok {
			continue
		}
		path := filepath.Join(s.dir, name)
		if info, err := os.Stat(path); err != nil || !info.Mode().IsRegular() {
			if err == nil {
				s.main.noteOnce(path, special(path, info))
			}
			continue
		}
		w.addSub(s, name, path)
		changed = true
	}
	for _, name := range s.subOrder {
		sf := s.subs[name]
		if w.follow(sf.agent, sf.tail, now) {
			changed = true
		}
	}
	return changed
}

// helperRe matches the ID of an agent Claude Code runs for itself, named by its kind
// (acompact-e1f845, aprompt_suggestion-a12dbf); a Task's subagent has a bare hex ID.
var helperRe = regexp.MustCompile(`^a([a-z][a-z_]*)-[0-9a-f]+$`)

// addSub follows a subagent transcript of the session: a compaction agent's
// (agent-acompact-*) is the session's compaction, not a subagent.
func (w *Watcher) addSub(s *session, name, path string) {
	if _, ok := s.subs[name]; ok {
		return
	}
	id := strings.TrimSuffix(strings.TrimPrefix(name, "agent-"), ".jsonl")
	a := newAgent(s.main.SessionID, id, path, w.opts.Prices)
	switch m := helperRe.FindStringSubmatch(id); {
	case m != nil && m[1] == "compact":
		a.Role, a.RoleFrom = RoleCompaction, "its file name (agent-acompact-…)"
		s.main.Compacting = append(s.main.Compacting, a)
	case m != nil:
		a.Role, a.RoleFrom = strings.ReplaceAll(m[1], "_", " "), "its file name (agent-a"+m[1]+"-…)"
		s.main.Background = append(s.main.Background, a)
	default:
		if kind := metaType(strings.TrimSuffix(path, ".jsonl") + ".meta.json"); kind != "" {
			a.Role, a.RoleFrom = kind, "its meta file"
		}
		s.main.Sub = append(s.main.Sub, a)
	}
	t := NewTail(path)
	t.Max = w.opts.MaxLine
	s.subs[name] = &subFile{agent: a, tail: t}
	s.subOrder = append(s.subOrder, name)
	s.main.dirty = true
}

// metaType reads agentType from a subagent's meta file, when there is one.
func metaType(path string) string {
	if info, err := os.Stat(path); err != nil || !info.Mode().IsRegular() {
		return ""
	}
	data, err := os.ReadFile(path)
	if err != nil || len(data) > 64<<10 {
		return ""
	}
	l, err := parseMeta(data)
	if err != nil {
		return ""
	}
	return l
}

// link gives subagents their role and report from the parent's Task calls: matched by
// the agent ID the Task result names, else by the dispatch prompt.
func (s *session) link() {
	for _, sub := range s.main.Sub {
		t := s.main.taskOf(sub)
		if t == nil {
			continue
		}
		if t.kind != "" && (sub.Role == "" || sub.RoleFrom == "its first prompt") && sub.Role != t.kind {
			sub.Role, sub.RoleFrom, sub.dirty = t.kind, "the orchestrator's Task call", true
		} else if t.kind != "" && sub.RoleFrom == "its first prompt" {
			sub.RoleFrom = "the orchestrator's Task call"
		}
		if t.done && sub.State != StateFinished && sub.State != "gone" {
			sub.State, sub.Tool, sub.dirty = StateFinished, "", true
		}
		if sub.Verdict == "" && t.report != "" {
			if v := ParseVerdict(t.report); v != "" {
				sub.Verdict, sub.dirty = v, true
			}
		}
	}
}

func (a *Agent) taskOf(sub *Agent) *task {
	for i := len(a.tasks) - 1; i >= 0; i-- {
		if t := a.tasks[i]; t.agentID != "" && t.agentID == sub.AgentID {
			return t
		}
	}
	if sub.Prompt == "" {
		return nil
	}
	p := strings.TrimSpace(sub.Prompt)
	for i := len(a.tasks) - 1; i >= 0; i-- {
		t := a.tasks[i]
		if t.prompt != "" && strings.TrimSpace(t.prompt) == p {
			return t
		}
	}
	return nil
}

func itoa(n int) string { return strconv.Itoa(n) }

func parseMeta(data []byte) (string, error) {
	var m struct {
		AgentType string `json:"agentType"`
	}
	err := json.Unmarshal(data, &m)
	return m.AgentType, err
}

// Read is one look: every session of the project as it stands.
func Read(opts Options) (*Watcher, Report) {
	w := New(opts)
	w.Poll()
	return w, w.Report()
}
