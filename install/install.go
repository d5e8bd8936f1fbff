package install

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/aymanbagabas/go-udiff"

	"referee/model/pyjson"
	"referee/skill"
	"referee/store"
)

// Options say where the agents' files are.
type Options struct {
	SkillsDir string // their skills folder, .claude/skills
	MCPConfig string // their MCP configuration, .mcp.json; "" leaves it alone
	Contents  string // the contents folder referee's MCP entry serves
	BackupDir string // where install keeps the originals, .referee/skills-backup
	Command   string // the command the SKILL.md files call, "referee"
	Force     bool   // uninstall: restore a file even if it changed since install
}

// What a change does to a file.
const (
	Merged    = "merged"    // their SKILL.md, its script calls now referee calls
	Added     = "added"     // a skill they did not have, or referee's entry in a new .mcp.json
	Updated   = "updated"   // installed before; the mechanism (or their newer file) changed
	Unchanged = "unchanged" // installed before, nothing to do
	Left      = "left"      // left as it is, Note says why
	Restored  = "restored"  // uninstall: their file back, byte for byte
	Removed   = "removed"   // uninstall: a file install added
	Kept      = "kept"      // uninstall: changed since install, so left; Note says how to force
)

// Change is what install or uninstall does (or, in a dry run, would do) to one file.
type Change struct {
	Path   string `json:"path"`
	Action string `json:"action"`
	Note   string `json:"note,omitempty"`

	old, new         []byte
	oldOK, newOK     bool // the file exists before, after
	mode             fs.FileMode
	entry            *entry // the manifest's entry after the change; nil drops it
	original         []byte // kept in the backup
	writes           bool
	skillName, alias string
}

// Plan is an install or uninstall worked out, nothing written yet.
type Plan struct {
	Changes  []*Change
	Warnings []string // what the user should know: agents' skills that do not resolve, files left
	opts     Options
	man      *manifest
	dirs     []string // folders install creates (uninstall: removes when empty)
	uninst   bool
}

// manifest is the backup's index: what install wrote and what it replaced.
type manifest struct {
	Version int      `json:"version"`
	Files   []*entry `json:"files"`
	Dirs    []string `json:"dirs,omitempty"` // folders install created, removed by uninstall when empty
}

type entry struct {
	Path      string `json:"path"`
	Kind      string `json:"kind"`               // "skill" or "mcp"
	Original  string `json:"original,omitempty"` // sha256 of their file, kept as objects/<sha256>; "" when install created it
	Mode      uint32 `json:"mode,omitempty"`     // their file's permissions
	Installed string `json:"installed"`          // sha256 of what install wrote
}

const manifestName = "manifest.json"

// errNotRegular is a path that is a link, a folder or a device where a file was expected:
// referee does not write through it.
var errNotRegular = errors.New("not a regular file")

func sum(b []byte) string {
	h := sha256.Sum256(b)
	return hex.EncodeToString(h[:])
}

func readMaybe(path string) ([]byte, bool, fs.FileMode, error) {
	fi, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, 0, nil
	}
	if err != nil {
		return nil, false, 0, err
	}
	if !fi.Mode().IsRegular() {
		return nil, false, 0, errNotRegular
	}
	b, err := os.ReadFile(path)
	return b, err == nil, fi.Mode().Perm(), err
}

func loadManifest(dir string) (*manifest, error) {
	data, err := os.ReadFile(filepath.Join(dir, manifestName))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var m manifest
	if err := json.Unmarshal(data, &m); err != nil || m.Version != 1 {
		return nil, &skill.InputError{Msg: fmt.Sprintf("%s: not a manifest referee wrote (%v); move it away to install afresh", filepath.Join(dir, manifestName), err)}
	}
	return &m, nil
}

func (m *manifest) find(path string) *entry {
	if m == nil {
		return nil
	}
	for _, e := range m.Files {
		if e.Path == path {
			return e
		}
	}
	return nil
}

func (p *Plan) object(sha string) ([]byte, error) {
	b, err := os.ReadFile(filepath.Join(p.opts.BackupDir, "objects", sha))
	if err != nil {
		return nil, fmt.Errorf("the backup of an original is missing (%v); referee cannot restore it", err)
	}
	if sum(b) != sha {
		return nil, fmt.Errorf("the backup %s does not hold what it held; referee cannot restore it", filepath.Join(p.opts.BackupDir, "objects", sha))
	}
	return b, nil
}

// generated is the SKILL.md of a skill the agents do not have: referee's own, with the marker.
func generated(s *skill.Skill, command string) []byte {
	doc := skill.SkillDoc(s)
	if command != "referee" {
		doc = strings.ReplaceAll(doc, "referee skill "+s.Name, command+" skill "+s.Name)
	}
	front, rest, _ := strings.Cut(strings.TrimPrefix(doc, "---\n"), "\n---\n")
	return []byte("---\n" + front + "\n---\n" + GeneratedMarker + "\n" + rest)
}

// PlanInstall works out what `referee skills install` writes: for every skill of the
// registry, their SKILL.md merged (under the name they gave it) or referee's own when
// they have none; referee's entry in the MCP configuration. It reads only.
func PlanInstall(o Options) (*Plan, error) {
	man, err := loadManifest(o.BackupDir)
	if err != nil {
		return nil, err
	}
	p := &Plan{opts: o, man: man}
	known := map[string]bool{}
	for _, s := range skill.Skills {
		var present []string
		for _, n := range append([]string{s.Name}, s.Aliases...) {
			known[n] = true
			_, ok, _, err := readMaybe(filepath.Join(o.SkillsDir, n, "SKILL.md"))
			if ok || errors.Is(err, errNotRegular) {
				present = append(present, n)
			} else if err != nil {
				return nil, err
			}
		}
		if len(present) == 0 {
			present = []string{s.Name}
		}
		for _, n := range present {
			c, err := p.planSkill(s, n)
			if err != nil {
				return nil, err
			}
			p.Changes = append(p.Changes, c)
		}
	}
	if err := p.warnUnknown(known); err != nil {
		return nil, err
	}
	if o.MCPConfig != "" {
		c, err := p.planMCP()
		if err != nil {
			return nil, err
		}
		p.Changes = append(p.Changes, c)
	}
	p.checkAgents()
	return p, nil
}

func (p *Plan) planSkill(s *skill.Skill, name string) (*Change, error) {
	path := filepath.Join(p.opts.SkillsDir, name, "SKILL.md")
	cur, ok, mode, err := readMaybe(path)
	c := &Change{Path: path, old: cur, oldOK: ok, mode: mode, skillName: s.Name, alias: name}
	e := p.man.find(path)
	if errors.Is(err, errNotRegular) {
		c.Action, c.Note, c.entry = Left, "not a regular file (a link?); left as it is", e
		p.Warnings = append(p.Warnings, path+": "+c.Note)
		return c, nil
	}
	if err != nil {
		return nil, err
	}
	if !ok { // a skill they lack: referee's own
		c.new, c.newOK, c.mode = generated(s, p.opts.Command), true, 0o644
		c.Action, c.writes = Added, true
		c.entry = &entry{Path: path, Kind: "skill", Installed: sum(c.new)}
		if e != nil { // their file was merged once, then deleted: uninstall still restores it
			c.entry.Original, c.entry.Mode = e.Original, e.Mode
		}
		for d := filepath.Dir(path); ; d = filepath.Dir(d) {
			if _, err := os.Lstat(d); err == nil || d == "." || d == filepath.Dir(d) {
				break
			}
			p.dirs = append(p.dirs, d)
		}
		return c, nil
	}
	installedAsIs := e != nil && sum(cur) == e.Installed
	base := cur
	switch {
	case installedAsIs && e.Original == "": // referee's own, again
		c.new = generated(s, p.opts.Command)
		c.entry = &entry{Path: path, Kind: "skill", Installed: sum(c.new)}
		return c.settle(Updated), nil
	case installedAsIs: // merge their original again: the same result, or referee's newer mechanism
		if base, err = p.object(e.Original); err != nil {
			return nil, err
		}
	case e != nil && e.Original == "":
		c.Action, c.Note, c.entry = Left, "changed since referee added it; left as it is", e
		return c, nil
	}
	out, n, err := Merge(s, name, string(base), p.opts.Command)
	var um *unmapped
	if errors.As(err, &um) {
		c.Action, c.Note, c.entry = Left, um.reason+"; left as it is", e
		if e != nil && !installedAsIs && bytes.Contains(cur, []byte(Marker)) {
			c.Note = "changed since referee installed it; left as it is"
		}
		p.Warnings = append(p.Warnings, fmt.Sprintf("%s: %s", path, c.Note))
		return c, nil
	}
	if err != nil {
		return nil, err
	}
	c.new, c.original = []byte(out), base
	c.entry = &entry{Path: path, Kind: "skill", Original: sum(base), Mode: uint32(mode), Installed: sum(c.new)}
	c.Note = fmt.Sprintf("%d script call(s) now call referee", n)
	if e == nil {
		return c.settle(Merged), nil
	}
	if !installedAsIs {
		c.Note += "; their newer file is the original now"
	}
	return c.settle(Updated), nil
}

// settle sets the action: Unchanged when the file already is what it would become.
func (c *Change) settle(action string) *Change {
	c.newOK = true
	if c.oldOK && bytes.Equal(c.old, c.new) {
		c.Action = Unchanged
		c.Note = ""
		return c
	}
	c.Action, c.writes = action, true
	return c
}

// warnUnknown names the SKILL.md files of theirs that call their scripts and are no
// skill of referee's: they stay as they are, and keep calling the scripts.
func (p *Plan) warnUnknown(known map[string]bool) error {
	ents, err := os.ReadDir(p.opts.SkillsDir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	for _, d := range ents {
		if !d.IsDir() || known[d.Name()] {
			continue
		}
		path := filepath.Join(p.opts.SkillsDir, d.Name(), "SKILL.md")
		data, ok, _, err := readMaybe(path)
		if err != nil || !ok {
			continue
		}
		if patterns().scriptRef.Match(data) {
			p.Warnings = append(p.Warnings, fmt.Sprintf("%s: no skill of referee's, and it calls their scripts; left as it is", path))
		}
	}
	return nil
}

func (p *Plan) planMCP() (*Change, error) {
	path := p.opts.MCPConfig
	cur, ok, mode, err := readMaybe(path)
	if errors.Is(err, errNotRegular) {
		return nil, &skill.InputError{Msg: path + ": not a regular file (a link?); referee does not write through it (--mcp-config \"\" skips it)"}
	}
	if err != nil {
		return nil, err
	}
	c := &Change{Path: path, old: cur, oldOK: ok, mode: mode}
	if !ok {
		c.mode = 0o644
	}
	e := p.man.find(path)
	base, baseOK := cur, ok
	switch {
	case e != nil && sum(cur) == e.Installed && ok:
		if e.Original != "" {
			if base, err = p.object(e.Original); err != nil {
				return nil, err
			}
		} else {
			base, baseOK = nil, false
		}
		c.entry = &entry{Path: path, Kind: "mcp", Original: e.Original, Mode: e.Mode}
	case e != nil: // changed since install: keep what was there before install as the original
		c.entry = &entry{Path: path, Kind: "mcp", Original: e.Original, Mode: e.Mode}
	default:
		c.entry = &entry{Path: path, Kind: "mcp", Mode: uint32(mode)}
		if ok {
			c.entry.Original, c.original = sum(cur), cur
		}
	}
	if c.new, err = withReferee(path, base, baseOK, "referee", p.opts.Contents); err != nil {
		return nil, err
	}
	c.entry.Installed = sum(c.new)
	c.Note = "referee's MCP server entry; the other servers kept"
	if !ok {
		return c.settle(Added), nil
	}
	if e == nil {
		return c.settle(Merged), nil
	}
	return c.settle(Updated), nil
}

// checkAgents warns about every skill an agent of theirs lists (the `skills:` line of
// .claude/agents/*.md) that will not be a SKILL.md calling referee.
func (p *Plan) checkAgents() {
	agents := filepath.Join(filepath.Dir(filepath.Clean(p.opts.SkillsDir)), "agents")
	files, _ := filepath.Glob(filepath.Join(agents, "*.md"))
	after := map[string][]byte{}
	for _, c := range p.Changes {
		if c.newOK {
			after[c.Path] = c.new
		} else if c.oldOK {
			after[c.Path] = c.old
		}
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			continue
		}
		for _, name := range ListedSkills(data) {
			path := filepath.Join(p.opts.SkillsDir, name, "SKILL.md")
			doc, ok := after[path]
			if !ok {
				doc, err = os.ReadFile(path)
				ok = err == nil
			}
			switch {
			case !ok:
				p.Warnings = append(p.Warnings, fmt.Sprintf("%s lists the skill %s, which has no SKILL.md", f, name))
			case !bytes.Contains(doc, []byte(p.opts.Command+" skill ")):
				p.Warnings = append(p.Warnings, fmt.Sprintf("%s lists the skill %s, whose SKILL.md does not call referee", f, name))
			}
		}
	}
}

// ListedSkills is the `skills:` list of an agent's front matter: "skills: a, b" or a
// YAML list below the key.
func ListedSkills(agent []byte) []string {
	text := strings.ReplaceAll(string(agent), "\r\n", "\n")
	if !strings.HasPrefix(text, "---\n") {
		return nil
	}
	front, _, ok := strings.Cut(text[4:], "\n---")
	if !ok {
		return nil
	}
	var out []string
	lines := strings.Split(front, "\n")
	for i, l := range lines {
		v, ok := strings.CutPrefix(l, "skills:")
		if !ok {
			continue
		}
		v = strings.Trim(strings.TrimSpace(v), "[]")
		for _, n := range strings.Split(v, ",") {
			if n = strings.Trim(strings.TrimSpace(n), `"'`); n != "" {
				out = append(out, n)
			}
		}
		for _, l := range lines[i+1:] {
			item, ok := strings.CutPrefix(strings.TrimSpace(l), "- ")
			if !ok {
				break
			}
			out = append(out, strings.Trim(strings.TrimSpace(item), `"'`))
		}
	}
	return out
}

// PlanUninstall works out what `referee skills uninstall` does: every file install
// changed back to their original, byte for byte, every file it added removed, referee's
// entry out of the MCP configuration. A file changed since install is kept unless Force.
func PlanUninstall(o Options) (*Plan, error) {
	man, err := loadManifest(o.BackupDir)
	if err != nil {
		return nil, err
	}
	if man == nil {
		return nil, &skill.InputError{Msg: fmt.Sprintf("nothing to uninstall: %s has no manifest (referee skills install writes it)", o.BackupDir)}
	}
	p := &Plan{opts: o, man: man, uninst: true, dirs: man.Dirs}
	for _, e := range man.Files {
		cur, ok, mode, err := readMaybe(e.Path)
		c := &Change{Path: e.Path, old: cur, oldOK: ok, mode: mode}
		if errors.Is(err, errNotRegular) {
			c.Action, c.Note, c.entry = Kept, "not a regular file now (a link?); left as it is", e
			p.Changes = append(p.Changes, c)
			continue
		}
		if err != nil {
			return nil, err
		}
		var orig []byte
		if e.Original != "" {
			if orig, err = p.object(e.Original); err != nil {
				return nil, err
			}
		}
		switch {
		case ok && sum(cur) == e.Installed, !ok && e.Original != "", o.Force:
			if e.Original == "" {
				c.Action, c.newOK = Removed, false
			} else {
				c.Action, c.new, c.newOK, c.mode = Restored, orig, true, fs.FileMode(e.Mode)
			}
		case !ok || (e.Original != "" && sum(cur) == e.Original):
			c.Action = Unchanged
			c.new, c.newOK = cur, ok
		case e.Kind == "mcp":
			// Changed since install (another server added): take referee's entry out only.
			var before *pyjson.Value
			if orig != nil {
				before = refereeEntry(orig)
			}
			out, err := withoutReferee(e.Path, cur, before)
			if err != nil {
				c.Action, c.Note, c.entry = Kept, err.Error(), e
				break
			}
			c.Action, c.new, c.newOK, c.Note = Restored, out, true, "changed since install: referee's entry taken out, the rest kept"
		default:
			c.Action, c.Note, c.entry = Kept, "changed since install; left as it is (--force restores the original)", e
			c.new, c.newOK = cur, ok
		}
		if c.Action == Restored || c.Action == Removed {
			c.writes = !(c.oldOK == c.newOK && bytes.Equal(c.old, c.new))
		}
		p.Changes = append(p.Changes, c)
	}
	return p, nil
}

// Diff is the unified diff of every file the plan changes.
func (p *Plan) Diff() string {
	var b strings.Builder
	for _, c := range p.Changes {
		if !c.writes {
			continue
		}
		from, to := "a/"+filepath.ToSlash(c.Path), "b/"+filepath.ToSlash(c.Path)
		if !c.oldOK {
			from = "/dev/null"
		}
		if !c.newOK {
			to = "/dev/null"
		}
		b.WriteString(udiff.Unified(from, to, string(c.old), string(c.new)))
	}
	return b.String()
}

// Apply writes the plan: on install, the originals into the backup and the manifest
// first, then the files; on uninstall, the files, then the backup goes (what it still
// must keep stays).
func (p *Plan) Apply() error {
	if p.uninst {
		return p.applyUninstall()
	}
	objects := filepath.Join(p.opts.BackupDir, "objects")
	next := &manifest{Version: 1}
	if p.man != nil {
		next.Dirs = p.man.Dirs
	}
	for _, d := range p.dirs {
		if !slices.Contains(next.Dirs, d) {
			next.Dirs = append(next.Dirs, d)
		}
	}
	for _, c := range p.Changes {
		if c.entry != nil {
			next.Files = append(next.Files, c.entry)
		}
		if c.original == nil {
			continue
		}
		if err := os.MkdirAll(objects, 0o755); err != nil {
			return err
		}
		path := filepath.Join(objects, sum(c.original))
		if _, err := os.Stat(path); err == nil {
			continue
		}
		if err := store.WriteFileAtomic(path, c.original, 0o644); err != nil {
			return err
		}
	}
	// Entries of the last install that this one no longer lists (a file it left) stay.
	if p.man != nil {
		for _, e := range p.man.Files {
			if next.find(e.Path) == nil {
				next.Files = append(next.Files, e)
			}
		}
	}
	if err := p.writeManifest(next); err != nil {
		return err
	}
	for _, c := range p.Changes {
		if !c.writes {
			continue
		}
		if err := os.MkdirAll(filepath.Dir(c.Path), 0o755); err != nil {
			return err
		}
		if err := store.WriteFileAtomic(c.Path, c.new, c.mode); err != nil {
			return err
		}
	}
	return nil
}

func (p *Plan) writeManifest(m *manifest) error {
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	data = append(data, '\n')
	path := filepath.Join(p.opts.BackupDir, manifestName)
	if old, err := os.ReadFile(path); err == nil && bytes.Equal(old, data) {
		return nil
	}
	if err := os.MkdirAll(p.opts.BackupDir, 0o755); err != nil {
		return err
	}
	return store.WriteFileAtomic(path, data, 0o644)
}

func (p *Plan) applyUninstall() error {
	var keep []*entry
	for _, c := range p.Changes {
		if c.entry != nil {
			keep = append(keep, c.entry)
		}
		if !c.writes {
			continue
		}
		var err error
		if c.newOK {
			err = store.WriteFileAtomic(c.Path, c.new, c.mode)
		} else {
			err = os.Remove(c.Path)
		}
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
	}
	// Folders install made, deepest first, when nothing else is in them now.
	dirs := slices.Clone(p.dirs)
	sort.Slice(dirs, func(i, j int) bool { return len(dirs[i]) > len(dirs[j]) })
	for _, d := range dirs {
		os.Remove(d)
	}
	if len(keep) > 0 {
		used := map[string]bool{}
		for _, e := range keep {
			used[e.Original] = true
		}
		objs, _ := os.ReadDir(filepath.Join(p.opts.BackupDir, "objects"))
		for _, o := range objs {
			if !used[o.Name()] {
				os.Remove(filepath.Join(p.opts.BackupDir, "objects", o.Name()))
			}
		}
		return p.writeManifest(&manifest{Version: 1, Files: keep})
	}
	if err := os.RemoveAll(p.opts.BackupDir); err != nil {
		return err
	}
	os.Remove(filepath.Dir(filepath.Clean(p.opts.BackupDir))) // .referee, when nothing else is in it
	return nil
}
